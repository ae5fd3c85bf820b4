/* test_key.c — Firebase key order, integer keys, key and path validation. */
#include <stdlib.h>

#include "lc_key.h"
#include "lc_test.h"

/* The order stated for orderByKey, smallest first. */
static const char *const ordered_keys[] = {
    "-2147483648", "-1", "0", "-0", "00", "00000000000000000001", "7", "007", "9", "10",
    "2147483647", " 1", "+1", "-", "-2147483649", "-Nabc", "1e3", "2147483648", "A", "Z", "_",
    "a", "b", "\xF0\x9F\x98\x80" /* U+1F600 */, "\xEF\xBD\xA1" /* U+FF61 */,
};

static void test_key_order_table(lc_test *t) {
    size_t n = sizeof ordered_keys / sizeof ordered_keys[0];
    for (size_t i = 0; i < n; i++)
        for (size_t j = 0; j < n; j++) {
            int c = lc_key_compare(ordered_keys[i], strlen(ordered_keys[i]), ordered_keys[j],
                                   strlen(ordered_keys[j]));
            int want = i < j ? -1 : (i > j ? 1 : 0);
            CHECK(t, (c > 0) - (c < 0) == want, "\"%s\" vs \"%s\": got %d", ordered_keys[i],
                  ordered_keys[j], c);
        }
}

static void test_integer_keys(lc_test *t) {
    struct { const char *k; int is_int; int32_t v; } cases[] = {
        {"0", 1, 0}, {"-0", 1, 0}, {"00", 1, 0}, {"007", 1, 7}, {"-2147483648", 1, INT32_MIN},
        {"2147483647", 1, INT32_MAX}, {"2147483648", 0, 0}, {"-2147483649", 0, 0},
        {"00000000000000000001", 1, 1}, {"-", 0, 0}, {"", 0, 0}, {"+1", 0, 0}, {" 1", 0, 0},
        {"1 ", 0, 0}, {"1e3", 0, 0}, {"12345678901", 0, 0}, {"--1", 0, 0}, {"0x1", 0, 0},
        {"-000000000000002147483648", 1, INT32_MIN},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int32_t v = -99;
        bool got = lc_key_integer(cases[i].k, strlen(cases[i].k), &v);
        CHECK(t, got == (bool)cases[i].is_int, "key \"%s\"", cases[i].k);
        if (got && cases[i].is_int) CHECK(t, v == cases[i].v, "key \"%s\" value %d", cases[i].k, v);
    }
    CHECK(t, !lc_key_integer(NULL, 3, NULL));
}

/* Independent oracle: decode to UTF-16 code units and compare those. */
static size_t to_utf16(const unsigned char *s, size_t n, uint16_t *out) {
    size_t k = 0;
    for (size_t i = 0; i < n;) {
        uint32_t c;
        if (s[i] < 0x80) { c = s[i]; i += 1; }
        else if (s[i] < 0xE0) { c = ((s[i] & 0x1Fu) << 6) | (s[i + 1] & 0x3Fu); i += 2; }
        else if (s[i] < 0xF0) { c = ((s[i] & 0x0Fu) << 12) | ((s[i + 1] & 0x3Fu) << 6) | (s[i + 2] & 0x3Fu); i += 3; }
        else { c = ((s[i] & 0x07u) << 18) | ((s[i + 1] & 0x3Fu) << 12) | ((s[i + 2] & 0x3Fu) << 6) | (s[i + 3] & 0x3Fu); i += 4; }
        if (c >= 0x10000) {
            c -= 0x10000;
            out[k++] = (uint16_t)(0xD800 + (c >> 10));
            out[k++] = (uint16_t)(0xDC00 + (c & 0x3FF));
        } else {
            out[k++] = (uint16_t)c;
        }
    }
    return k;
}

static size_t put_utf8(uint32_t c, unsigned char *o) {
    if (c < 0x80) { o[0] = (unsigned char)c; return 1; }
    if (c < 0x800) { o[0] = (unsigned char)(0xC0 | (c >> 6)); o[1] = (unsigned char)(0x80 | (c & 0x3F)); return 2; }
    if (c < 0x10000) { o[0] = (unsigned char)(0xE0 | (c >> 12)); o[1] = (unsigned char)(0x80 | ((c >> 6) & 0x3F)); o[2] = (unsigned char)(0x80 | (c & 0x3F)); return 3; }
    o[0] = (unsigned char)(0xF0 | (c >> 18)); o[1] = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
    o[2] = (unsigned char)(0x80 | ((c >> 6) & 0x3F)); o[3] = (unsigned char)(0x80 | (c & 0x3F));
    return 4;
}

static size_t random_string(uint64_t *r, unsigned char *buf) {
    static const uint32_t pool[] = {'a', 'b', '0', '1', '-', 0xE9, 0x301, 0x7FF, 0xD7FF, 0xE000,
                                    0xFF61, 0xFFFD, 0x10000, 0x1F600, 0x10FFFF};
    size_t n = lc_test_rand(r) % 6, len = 0;
    for (size_t i = 0; i < n; i++) len += put_utf8(pool[lc_test_rand(r) % 15], buf + len);
    return len;
}

static void test_utf16_order_random(lc_test *t) {
    uint64_t seed = lc_test_seed(), r = seed;
    for (int i = 0; i < 100000; i++) {
        unsigned char a[32], b[32];
        uint16_t ua[32], ub[32];
        size_t la = random_string(&r, a), lb = random_string(&r, b);
        size_t na = to_utf16(a, la, ua), nb = to_utf16(b, lb, ub);
        int want = 0;
        for (size_t k = 0; k < na && k < nb && !want; k++)
            if (ua[k] != ub[k]) want = ua[k] < ub[k] ? -1 : 1;
        if (!want) want = na < nb ? -1 : (na > nb ? 1 : 0);
        int got = lc_utf16_compare((const char *)a, la, (const char *)b, lb);
        got = (got > 0) - (got < 0);
        if (got != want) {
            LC_FAIL(t, "seed %llu case %d: got %d want %d", (unsigned long long)seed, i, got, want);
            return;
        }
    }
}

static void test_key_validation(lc_test *t) {
    struct { const char *k; size_t len; lc_status want; size_t pos; } cases[] = {
        {"abc", 3, LC_OK, 0}, {"", 0, LC_ERR_KEY_INVALID, 0}, {"a.b", 3, LC_ERR_KEY_INVALID, 1},
        {"#", 1, LC_ERR_KEY_INVALID, 0}, {"a$", 2, LC_ERR_KEY_INVALID, 1},
        {"a/b", 3, LC_ERR_KEY_INVALID, 1}, {"[", 1, LC_ERR_KEY_INVALID, 0},
        {"]", 1, LC_ERR_KEY_INVALID, 0}, {"a\x01", 2, LC_ERR_KEY_INVALID, 1},
        {"\x7F", 1, LC_ERR_KEY_INVALID, 0}, {"a\0b", 3, LC_ERR_KEY_INVALID, 1},
        {"\xC3\xA9", 2, LC_OK, 0}, {"\xC3", 1, LC_ERR_KEY_INVALID, 0},
        {"x\xC0\xAF", 3, LC_ERR_KEY_INVALID, 1}, {"\xED\xA0\x80", 3, LC_ERR_KEY_INVALID, 0},
        {"\xF4\x90\x80\x80", 4, LC_ERR_KEY_INVALID, 0}, {"-Nabc_-", 7, LC_OK, 0},
        {" ", 1, LC_OK, 0}, {"\xF0\x9F\x98\x80", 4, LC_OK, 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lc_error e;
        lc_status st = lc_key_validate(cases[i].k, cases[i].len, &e);
        CHECK(t, st == cases[i].want, "case %zu: %s", i, lc_status_name(st));
        if (st != LC_OK && st == cases[i].want)
            CHECK(t, e.position == cases[i].pos && e.code == st && e.text[0], "case %zu position %zu", i, e.position);
    }
    char big[800];
    memset(big, 'k', sizeof big);
    CHECK(t, lc_key_validate(big, 768, NULL) == LC_OK);
    CHECK(t, lc_key_validate(big, 769, NULL) == LC_ERR_KEY_TOO_LONG);
    CHECK(t, lc_key_validate(NULL, 1, NULL) == LC_ERR_ARGUMENT);
}

static void test_path_validation(lc_test *t) {
    CHECK(t, lc_path_validate("/", 1, NULL) == LC_OK);
    CHECK(t, lc_path_validate("", 0, NULL) == LC_OK);
    CHECK(t, lc_path_validate("/a/b/", 5, NULL) == LC_OK);
    CHECK(t, lc_path_validate("a//b", 4, NULL) == LC_OK);
    CHECK(t, lc_path_validate("/a.b", 4, NULL) == LC_ERR_PATH_INVALID);
    CHECK(t, lc_path_validate("/a[0]", 5, NULL) == LC_ERR_PATH_INVALID);
    CHECK(t, lc_path_depth("/a//b/", 6) == 2);
    char deep[200] = "";
    for (int i = 0; i < 33; i++) strcat(deep, "/a");
    CHECK(t, lc_path_validate(deep, 64, NULL) == LC_OK);
    CHECK(t, lc_path_validate(deep, 66, NULL) == LC_ERR_PATH_TOO_LONG);
    char longp[800];
    memset(longp, 'p', sizeof longp);
    CHECK(t, lc_path_validate(longp, 768, NULL) == LC_OK);
    CHECK(t, lc_path_validate(longp, 769, NULL) == LC_ERR_PATH_TOO_LONG);
}

LC_TEST_TABLE(key_tests) = {
    {"key_order_table", test_key_order_table},
    {"key_integer", test_integer_keys},
    {"key_utf16_order_random", test_utf16_order_random},
    {"key_validation", test_key_validation},
    {"key_path_validation", test_path_validation},
    LC_TEST_END,
};
