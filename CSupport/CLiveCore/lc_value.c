/* lc_value.c — Firebase value order. */
#include "lc_value.h"

#include <math.h>

#include "lc_key.h"

lc_value lc_value_null(void) { return (lc_value){LC_SORT_NULL, 0, NULL, 0}; }
lc_value lc_value_bool(int b) { return (lc_value){b ? LC_SORT_TRUE : LC_SORT_FALSE, 0, NULL, 0}; }
lc_value lc_value_number(double d) { return (lc_value){LC_SORT_NUMBER, d, NULL, 0}; }
lc_value lc_value_string(const char *s, size_t len) { return (lc_value){LC_SORT_STRING, 0, s, len}; }
lc_value lc_value_object(void) { return (lc_value){LC_SORT_OBJECT, 0, NULL, 0}; }

int lc_value_compare(const lc_value *a, const lc_value *b) {
    lc_sort_tag ta = a ? a->tag : LC_SORT_NULL, tb = b ? b->tag : LC_SORT_NULL;
    if (ta != tb) return ta < tb ? -1 : 1;
    switch (ta) {
    case LC_SORT_NUMBER:
        return a->number < b->number ? -1 : (a->number > b->number ? 1 : 0);
    case LC_SORT_STRING:
        return lc_utf16_compare(a->str, a->len, b->str, b->len);
    default:
        return 0;
    }
}

lc_status lc_value_check(const lc_value *v) {
    if (!v) return LC_ERR_ARGUMENT;
    switch (v->tag) {
    case LC_SORT_NULL: case LC_SORT_FALSE: case LC_SORT_TRUE: case LC_SORT_OBJECT:
        return LC_OK;
    case LC_SORT_NUMBER:
        return isfinite(v->number) ? LC_OK : LC_ERR_ARGUMENT;
    case LC_SORT_STRING:
        return (v->str || v->len == 0) ? LC_OK : LC_ERR_ARGUMENT;
    }
    return LC_ERR_ARGUMENT;
}
