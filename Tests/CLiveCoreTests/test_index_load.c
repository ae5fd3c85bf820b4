/* test_index_load.c — building the index in bulk from a document's children or from entries. */
#include <string.h>

#include "lc_doc.h"
#include "lc_index.h"
#include "lc_test.h"

static lc_doc *parse_by_s(const char *json) {
    lc_parse_options o = {0};
    o.order = (lc_order){.kind = LC_ORDER_CHILD, .child_path = "s", .child_path_len = 1};
    lc_doc *d = NULL;
    lc_error e;
    return lc_doc_parse(json, strlen(json), &o, &d, &e) == LC_OK ? d : NULL;
}

/* An index holding one entry, "old" (valued 1), which a build replaces; NULL
 * if it cannot be made. */
static lc_index *index_with_old(lc_test *t) {
    lc_index *ix = lc_index_new();
    if (!ix) return NULL;
    lc_value one = lc_value_number(1);
    CHECK(t, lc_index_insert(ix, "old", 3, &one, NULL, NULL) == LC_OK);
    return ix;
}

/* The index holds exactly the keys `expected`, in that order, with entry ids `ids`. */
static void check_order(lc_test *t, const lc_index *ix, const char *const *expected, const uint32_t *ids,
                        size_t n) {
    CHECK(t, lc_index_count(ix) == n);
    lc_index_iter it;
    REQUIRE(t, lc_index_iter_init(ix, 0, &it) == LC_OK);
    const char *key;
    size_t len;
    uint32_t id;
    for (size_t i = 0; lc_index_iter_next(&it, &key, &len, NULL, &id); i++) {
        REQUIRE(t, i < n);
        CHECK(t, len == strlen(expected[i]) && !memcmp(key, expected[i], len), "position %zu", i);
        CHECK(t, id == ids[i], "position %zu: id %u", i, (unsigned)id);
    }
}

/* The order, and entry ids equal to the children's indices in the document. */
static void test_index_build_from_doc(lc_test *t) {
    lc_doc *d = parse_by_s("{\"b\":{\"s\":2},\"10\":{\"s\":2},\"a\":{\"s\":1},\"9\":{\"s\":2},\"c\":\"x\"}");
    REQUIRE(t, d != NULL);
    lc_index *ix = index_with_old(t);
    REQUIRE(t, ix != NULL);
    CHECK(t, lc_index_build_from_doc(ix, d) == LC_OK);
    const char *expected[] = {"c", "a", "9", "10", "b"};
    const uint32_t ids[] = {4, 2, 3, 1, 0};
    check_order(t, ix, expected, ids, 5);
    size_t position;
    CHECK(t, lc_index_find(ix, "old", 3, &position, NULL) == LC_ERR_NOT_FOUND);
    lc_error err;
    CHECK(t, lc_index_check(ix, &err) == LC_OK, "%s", err.text);
    lc_index_free(ix);
    lc_doc_free(d);
}

/* A key given twice in the document: its last occurrence, once. */
static void test_index_build_key_twice(lc_test *t) {
    lc_doc *d = parse_by_s("{\"a\":{\"s\":1},\"b\":{\"s\":2},\"a\":{\"s\":3}}");
    REQUIRE(t, d != NULL);
    lc_index *ix = lc_index_new();
    REQUIRE(t, ix != NULL);
    CHECK(t, lc_index_build_from_doc(ix, d) == LC_OK);
    size_t position = 0;
    CHECK(t, lc_index_count(ix) == 2);
    CHECK(t, lc_index_find(ix, "a", 1, &position, NULL) == LC_OK && position == 1, "a at %zu", position);
    lc_index_free(ix);
    lc_doc_free(d);
}

/* Bad arguments: an error and nothing changed. */
static void test_index_build_arguments(lc_test *t) {
    lc_index *ix = index_with_old(t);
    REQUIRE(t, ix != NULL);
    CHECK(t, lc_index_build_from_doc(NULL, NULL) == LC_ERR_ARGUMENT);
    CHECK(t, lc_index_build_from_doc(ix, NULL) == LC_ERR_ARGUMENT);
    CHECK(t, lc_index_count(ix) == 1 && lc_index_find(ix, "old", 3, NULL, NULL) == LC_OK);
    lc_index_free(ix);
}

/* Entries in any order: Firebase order, entry i at id i, strings copied. */
static void test_index_build_entries(lc_test *t) {
    char text[] = "x";
    const lc_entry entries[] = {
        {"b", 1, lc_value_number(2)},     {"10", 2, lc_value_number(2)}, {"a", 1, lc_value_number(1)},
        {"9", 1, lc_value_number(2)},     {"c", 1, lc_value_null()},     {"s", 1, lc_value_string(text, 1)},
        {"-1", 2, lc_value_bool(1)},
    };
    lc_index *ix = index_with_old(t);
    REQUIRE(t, ix != NULL);
    CHECK(t, lc_index_build(ix, entries, 7) == LC_OK);
    text[0] = 'y'; /* the index holds its own copy */
    const char *expected[] = {"c", "-1", "a", "9", "10", "b", "s"};
    const uint32_t ids[] = {4, 6, 2, 3, 1, 0, 5};
    check_order(t, ix, expected, ids, 7);
    lc_value v;
    CHECK(t, lc_index_at(ix, 6, NULL, NULL, &v, NULL) == LC_OK);
    CHECK(t, v.tag == LC_SORT_STRING && v.len == 1 && v.str[0] == 'x');
    CHECK(t, lc_index_find(ix, "old", 3, NULL, NULL) == LC_ERR_NOT_FOUND);
    lc_error err;
    CHECK(t, lc_index_check(ix, &err) == LC_OK, "%s", err.text);
    CHECK(t, lc_index_build(ix, NULL, 0) == LC_OK && lc_index_count(ix) == 0);
    CHECK(t, lc_index_check(ix, &err) == LC_OK, "%s", err.text);
    lc_index_free(ix);
}

/* A key twice, an invalid key or value, bad arguments: an error, nothing changed. */
static void test_index_build_entries_refused(lc_test *t) {
    lc_index *ix = index_with_old(t);
    REQUIRE(t, ix != NULL);
    lc_value one = lc_value_number(1);
    const lc_entry twice[] = {{"a", 1, one}, {"b", 1, one}, {"a", 1, one}};
    CHECK(t, lc_index_build(ix, twice, 3) == LC_ERR_DUPLICATE_KEY);
    const lc_entry bad_key[] = {{"a", 1, one}, {"a/b", 3, one}};
    CHECK(t, lc_index_build(ix, bad_key, 2) != LC_OK);
    lc_value nan = lc_value_number(0.0 / 0.0);
    const lc_entry bad_value[] = {{"a", 1, nan}};
    CHECK(t, lc_index_build(ix, bad_value, 1) == LC_ERR_ARGUMENT);
    const lc_entry null_key[] = {{NULL, 2, one}};
    CHECK(t, lc_index_build(ix, null_key, 1) == LC_ERR_ARGUMENT);
    CHECK(t, lc_index_build(ix, NULL, 1) == LC_ERR_ARGUMENT);
    CHECK(t, lc_index_build(NULL, twice, 0) == LC_ERR_ARGUMENT);
    CHECK(t, lc_index_count(ix) == 1 && lc_index_find(ix, "old", 3, NULL, NULL) == LC_OK);
    lc_error err;
    CHECK(t, lc_index_check(ix, &err) == LC_OK, "%s", err.text);
    lc_index_free(ix);
}

LC_TEST_TABLE(index_load_tests) = {
    {"index_build_from_doc", test_index_build_from_doc},
    {"index_build_key_twice", test_index_build_key_twice},
    {"index_build_arguments", test_index_build_arguments},
    {"index_build_entries", test_index_build_entries},
    {"index_build_entries_refused", test_index_build_entries_refused},
    LC_TEST_END,
};
