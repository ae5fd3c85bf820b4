/*
 * lc_value.h — sort values and Firebase value order.
 */
#ifndef LC_VALUE_H
#define LC_VALUE_H

#include <stddef.h>

#include "lc_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/**
 * The kinds of sort value, in Firebase value order: null (or missing) <
 * false < true < numbers < strings < objects. Priorities use the same
 * type: no priority is LC_SORT_NULL, then numbers, then strings.
 */
typedef enum lc_sort_tag {
    LC_SORT_NULL = 0,
    LC_SORT_FALSE = 1,
    LC_SORT_TRUE = 2,
    LC_SORT_NUMBER = 3,
    LC_SORT_STRING = 4,
    LC_SORT_OBJECT = 5,
} lc_sort_tag;

/**
 * A value a child is ordered by. For LC_SORT_STRING, str points to len
 * bytes of UTF-8 (not necessarily NUL-terminated), borrowed from whoever
 * filled the struct; number is used only for LC_SORT_NUMBER.
 */
typedef struct lc_value {
    lc_sort_tag tag;
    double number;
    const char *str;
    size_t len;
} lc_value;

/** Convenience initialisers. */
lc_value lc_value_null(void);
lc_value lc_value_bool(int b);
lc_value lc_value_number(double d);
lc_value lc_value_string(const char *s, size_t len);
lc_value lc_value_object(void);

/**
 * Firebase value order (no key tie-break): <0, 0 or >0. Numbers compare as
 * doubles (-0 equals 0), strings by UTF-16 code units, all objects are
 * equal. NULL pointers compare as null values.
 */
int lc_value_compare(const lc_value *a, const lc_value *b);

/**
 * Checks a value for use by the core: a known tag, a finite number, a
 * non-NULL string pointer when len > 0. Returns LC_OK or LC_ERR_ARGUMENT.
 */
lc_status lc_value_check(const lc_value *v);

#ifdef __cplusplus
}
#endif

#endif
