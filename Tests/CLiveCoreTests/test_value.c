/* test_value.c — Firebase value order. */
#include "lc_test.h"
#include "lc_value.h"

static void test_value_order_table(lc_test *t) {
    lc_value v[] = {
        lc_value_null(), lc_value_bool(0), lc_value_bool(1), lc_value_number(-1e308),
        lc_value_number(-1), lc_value_number(0), lc_value_number(0.5), lc_value_number(1),
        lc_value_number(1e308), lc_value_string("", 0), lc_value_string("1", 1),
        lc_value_string("A", 1), lc_value_string("a", 1), lc_value_string("ab", 2),
        lc_value_string("\xF0\x9F\x98\x80", 4), lc_value_string("\xEF\xBD\xA1", 3),
        lc_value_object(),
    };
    size_t n = sizeof v / sizeof v[0];
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            int c = lc_value_compare(&v[i], &v[j]);
            int want = i < j ? -1 : (i > j ? 1 : 0);
            CHECK(t, (c > 0) - (c < 0) == want, "%zu vs %zu: %d", i, j, c);
        }
    lc_value z = lc_value_number(0.0), nz = lc_value_number(-0.0);
    CHECK(t, lc_value_compare(&z, &nz) == 0, "-0 equals 0");
    lc_value o1 = lc_value_object(), o2 = lc_value_object();
    CHECK(t, lc_value_compare(&o1, &o2) == 0, "objects are equal");
    CHECK(t, lc_value_compare(NULL, &z) < 0, "NULL is null");
}

static void test_value_check(lc_test *t) {
    lc_value bad = lc_value_number(1.0 / 0.0);
    CHECK(t, lc_value_check(&bad) == LC_ERR_ARGUMENT);
    lc_value s = lc_value_string(NULL, 3);
    CHECK(t, lc_value_check(&s) == LC_ERR_ARGUMENT);
    lc_value tag = {(lc_sort_tag)9, 0, NULL, 0};
    CHECK(t, lc_value_check(&tag) == LC_ERR_ARGUMENT);
    CHECK(t, lc_value_check(NULL) == LC_ERR_ARGUMENT);
    lc_value ok = lc_value_string(NULL, 0);
    CHECK(t, lc_value_check(&ok) == LC_OK);
}

LC_TEST_TABLE(value_tests) = {
    {"value_order_table", test_value_order_table},
    {"value_check", test_value_check},
    LC_TEST_END,
};
