/*
 * test_doc_path.c — lc_doc_child_path_value against the scanner: wherever
 * the quick read decides, it gives the sort value lc_doc_parse computes for
 * a document ordered by the same child path. Random children (members
 * given twice, names with escapes, ".priority" and ".value" members,
 * arrays, numbers and strings spelled many ways, whitespace) and paths.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_doc_util.h"

typedef struct text {
    char b[4096];
    size_t n;
    uint64_t *rng;
} text;

static unsigned pick(text *t, unsigned n) { return (unsigned)(lc_test_rand(t->rng) % n); }

static void add(text *t, const char *s) {
    size_t k = strlen(s);
    if (t->n + k < sizeof t->b) {
        memcpy(t->b + t->n, s, k);
        t->n += k;
    }
}

static const char *const names[] = {"a", "b", "g", "0", "1", "\xC3\xA9", "k\\u00e9", "\\u0061", "10"};
static const char *const leaves[] = {
    "0",      "-0",  "7",       "-42",    "123456789012345", "1234567890123456", "1.5", "1e3",      "-2.5E-1",
    "1.0",    "\"x\"", "\"\"",  "\"g1\"", "\"\\u0067\"",     "\"a\\\"b\"",       "\"\xC3\xA9\"", "true", "false",
    "null",   "{}",  "[]",      "[1]",    "{\"a\":null}",    "{\".value\":3}",   "{\".value\":\"v\",\".priority\":1}"};

static void value(text *t, int depth);

static void object(text *t, int depth) {
    add(t, pick(t, 4) ? "{" : "{ ");
    unsigned n = pick(t, 5);
    for (unsigned i = 0; i < n; i++) {
        if (i) add(t, pick(t, 6) ? "," : " ,\n");
        if (pick(t, 10) == 0) {
            add(t, "\".priority\":2");
            continue;
        }
        add(t, "\"");
        add(t, names[pick(t, sizeof names / sizeof *names)]);
        add(t, pick(t, 5) ? "\":" : "\" : ");
        value(t, depth + 1);
    }
    add(t, pick(t, 4) ? "}" : " }");
}

static void value(text *t, int depth) {
    unsigned k = pick(t, depth > 3 ? 4 : 7);
    if (k < 4) {
        add(t, leaves[pick(t, sizeof leaves / sizeof *leaves)]);
    } else if (k == 4) {
        add(t, "[");
        for (unsigned i = pick(t, 3); i; i--) {
            value(t, depth + 1);
            if (i > 1) add(t, ",");
        }
        add(t, "]");
    } else {
        object(t, depth);
    }
}

static const char *const paths[] = {"", "a", "b", "g", "0", "a/b", "b/a", "g/a", "a/0", "\xC3\xA9", "k\xC3\xA9", "10",
                                    "a/b/g"};

static int same(const lc_value *a, const lc_value *b) {
    if (a->tag != b->tag) return 0;
    if (a->tag == LC_SORT_NUMBER) return a->number == b->number;
    if (a->tag == LC_SORT_STRING) return a->len == b->len && !memcmp(a->str, b->str, a->len);
    return 1;
}

void doc_path_value_random(lc_test *t) {
    uint64_t rng = lc_test_seed() + 31;
    size_t decided = 0, undecided = 0;
    for (int round = 0; round < 4000; round++) {
        text doc = {.n = 0, .rng = &rng};
        add(&doc, "{");
        unsigned children = 1 + pick(&doc, 4);
        for (unsigned c = 0; c < children; c++) {
            char key[16];
            snprintf(key, sizeof key, "%s\"c%u\":", c ? "," : "", c);
            add(&doc, key);
            value(&doc, 0);
        }
        add(&doc, "}");
        lc_doc *plain = NULL;
        if (lc_doc_parse(doc.b, doc.n, NULL, &plain, NULL) != LC_OK) continue; /* broke a Firebase rule */
        for (size_t p = 0; p < sizeof paths / sizeof *paths; p++) {
            lc_parse_options o = {0};
            o.order.kind = LC_ORDER_CHILD;
            o.order.child_path = paths[p];
            o.order.child_path_len = strlen(paths[p]);
            lc_doc *ordered = NULL;
            REQUIRE(t, lc_doc_parse(doc.b, doc.n, &o, &ordered, NULL) == LC_OK, "round %d", round);
            for (size_t i = 0; i < lc_doc_count(plain); i++) {
                lc_value got, want;
                int ok = -1;
                CHECK(t, lc_doc_child_path_value(plain, i, paths[p], strlen(paths[p]), &got, &ok) == LC_OK,
                      "round %d", round);
                if (!ok) {
                    undecided++;
                    continue;
                }
                decided++;
                CHECK(t, lc_doc_sort_value(ordered, i, &want) == LC_OK, "round %d", round);
                if (!same(&got, &want)) {
                    char g[128], w[128];
                    td_value(&got, g, sizeof g);
                    td_value(&want, w, sizeof w);
                    CHECK(t, 0, "seed %llu round %d child %zu path %s: got %s, the scan gives %s",
                          (unsigned long long)lc_test_seed(), round, i, paths[p], g, w);
                    td_show("document", doc.b, doc.n);
                }
            }
            lc_doc_free(ordered);
        }
        lc_doc_free(plain);
    }
    /* both ways are exercised */
    CHECK(t, decided > 1000 && undecided > 1000, "decided %zu, undecided %zu", decided, undecided);
}

void doc_path_value_arguments(lc_test *t) {
    lc_doc *d = NULL;
    const char *json = "{\"k\": {\"g\": \"x\", \"n\": 12}}";
    REQUIRE(t, lc_doc_parse(json, strlen(json), NULL, &d, NULL) == LC_OK, "parse");
    lc_value v;
    int ok = 0;
    CHECK(t, lc_doc_child_path_value(NULL, 0, "g", 1, &v, &ok) == LC_ERR_ARGUMENT, "NULL doc");
    CHECK(t, lc_doc_child_path_value(d, 1, "g", 1, &v, &ok) == LC_ERR_ARGUMENT, "index out of range");
    CHECK(t, lc_doc_child_path_value(d, 0, "g", 1, NULL, &ok) == LC_ERR_ARGUMENT, "NULL out");
    CHECK(t, lc_doc_child_path_value(d, 0, "g", 1, &v, NULL) == LC_ERR_ARGUMENT, "NULL decided");
    CHECK(t, lc_doc_child_path_value(d, 0, NULL, 1, &v, &ok) == LC_ERR_ARGUMENT, "NULL path with a length");
    CHECK(t, lc_doc_child_path_value(d, 0, "g", 1, &v, &ok) == LC_OK && ok && v.tag == LC_SORT_STRING &&
                 v.len == 1 && v.str[0] == 'x',
          "a string");
    CHECK(t, lc_doc_child_path_value(d, 0, "n", 1, &v, &ok) == LC_OK && ok && v.tag == LC_SORT_NUMBER && v.number == 12,
          "a number");
    CHECK(t, lc_doc_child_path_value(d, 0, "z/y", 3, &v, &ok) == LC_OK && ok && v.tag == LC_SORT_NULL, "missing");
    CHECK(t, lc_doc_child_path_value(d, 0, "", 0, &v, &ok) == LC_OK && !ok, "the child itself, an object");
    lc_doc_free(d);
}
