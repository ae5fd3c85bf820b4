/*
 * test_doc.c — lc_doc_parse and lc_payload_parse: bad inputs (with
 * positions), good inputs (children, sort values, priorities, normalised
 * JSON), arguments. The randomised differential tests are in
 * test_doc_random.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_doc_util.h"

#define S(lit) lit, sizeof(lit) - 1
#define JANSSON ((size_t)-1) /* position: whatever json_loadb reports */

void td_show(const char *label, const char *s, size_t n) {
    fprintf(stderr, "  %s (%zu bytes): \"", label, n);
    for (size_t i = 0; i < n && i < 2000; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == '"' || c == '\\') fprintf(stderr, "\\%c", c);
        else if (c >= 0x20 && c < 0x7F) fputc(c, stderr);
        else fprintf(stderr, "\\x%02X\"\"", c);
    }
    fprintf(stderr, "%s\"\n", n > 2000 ? "..." : "");
}

int td_is_json_status(lc_status st) {
    return st == LC_ERR_JSON_SYNTAX || st == LC_ERR_JSON_TRUNCATED || st == LC_ERR_JSON_TRAILING ||
           st == LC_ERR_JSON_UTF8 || st == LC_ERR_JSON_NUL || st == LC_ERR_NUMBER_RANGE;
}

lc_status td_status_of_jansson(const json_error_t *je) {
    switch (json_error_code(je)) {
    case json_error_stack_overflow: return LC_ERR_TOO_DEEP;
    case json_error_invalid_utf8: return LC_ERR_JSON_UTF8;
    case json_error_premature_end_of_input: return LC_ERR_JSON_TRUNCATED;
    case json_error_end_of_input_expected: return LC_ERR_JSON_TRAILING;
    case json_error_null_character:
    case json_error_null_byte_in_key: return LC_ERR_JSON_NUL;
    case json_error_numeric_overflow: return LC_ERR_NUMBER_RANGE;
    default: return LC_ERR_JSON_SYNTAX;
    }
}

void td_value(const lc_value *v, char *out, size_t cap) {
    switch (v->tag) {
    case LC_SORT_NULL: snprintf(out, cap, "n"); break;
    case LC_SORT_FALSE: snprintf(out, cap, "f"); break;
    case LC_SORT_TRUE: snprintf(out, cap, "t"); break;
    case LC_SORT_NUMBER: snprintf(out, cap, "%.17g", v->number); break;
    case LC_SORT_STRING: snprintf(out, cap, "'%.*s'", (int)v->len, v->str); break;
    case LC_SORT_OBJECT: snprintf(out, cap, "o"); break;
    }
}

void td_describe(const lc_doc *doc, char *out, size_t cap) {
    char a[128], b[128];
    lc_value v;
    lc_doc_root_priority(doc, &v);
    td_value(&v, a, sizeof a);
    size_t n = (size_t)snprintf(out, cap, "K%d P%s |", (int)lc_doc_kind_of(doc), a);
    for (size_t i = 0; i < lc_doc_count(doc) && n < cap; i++) {
        size_t kl;
        const char *k = lc_doc_key(doc, i, &kl);
        lc_doc_sort_value(doc, i, &v);
        td_value(&v, a, sizeof a);
        lc_doc_priority(doc, i, &v);
        td_value(&v, b, sizeof b);
        n += (size_t)snprintf(out + n, cap - n, " %.*s s=%s p=%s;", (int)kl, k, a, b);
    }
}

/* ---- bad inputs ---- */

enum { O_PATCH = 1, O_DEPTH5 = 2, O_PAYLOAD = 4 };

typedef struct bad_case {
    const char *json;
    size_t len;
    int opts;
    lc_status code;
    size_t position; /* JANSSON: compare with json_loadb */
} bad_case;

static const bad_case bad_cases[] = {
    /* malformed, truncated, trailing */
    {S("{\"a\":1"), 0, LC_ERR_JSON_TRUNCATED, JANSSON},
    {S("{\"a\":1}}"), 0, LC_ERR_JSON_TRAILING, JANSSON},
    {S("{\"a\" 1}"), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("[1,]"), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("{\"a\":1,}"), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("{\"a\":01}"), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("{\"a\":1.}"), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("{\"a\":1e}"), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("{\"a\":-}"), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("{\"a\":.5}"), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("{\"a\":tru}"), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("{\"a\":truex}"), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("{\"a\":\"x\\q\"}"), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("{\"a\":\"x\\u12G4\"}"), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("\"ab"), 0, LC_ERR_JSON_TRUNCATED, JANSSON},
    {S(""), 0, LC_ERR_JSON_TRUNCATED, JANSSON},
    {S("   "), 0, LC_ERR_JSON_TRUNCATED, JANSSON},
    {S("1 2"), 0, LC_ERR_JSON_TRAILING, JANSSON},
    {S("{\"a\":1} x"), 0, LC_ERR_JSON_TRAILING, JANSSON},
    {S("\"a\"\0"), 0, LC_ERR_JSON_TRAILING, JANSSON},
    {S("1\0\0"), 0, LC_ERR_JSON_TRAILING, JANSSON},
    {S("[1 \0]"), 0, LC_ERR_JSON_TRUNCATED, JANSSON},
    {S("\"a\x01\""), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("\"a\nb\""), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("{\"a\":\n  [1,\n   2 3]}"), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    /* invalid UTF-8 in strings, keys and elsewhere */
    {S("\"\xC3\x28\""), 0, LC_ERR_JSON_UTF8, JANSSON},
    {S("{\"\xFF\":1}"), 0, LC_ERR_JSON_UTF8, JANSSON},
    {S("{\"k\xC3\":1}"), 0, LC_ERR_JSON_UTF8, JANSSON},
    {S("\"\xC0\xAF\""), 0, LC_ERR_JSON_UTF8, JANSSON},
    {S("\"\xE0\x80\xAF\""), 0, LC_ERR_JSON_UTF8, JANSSON},
    {S("\"\xF0\x80\x80\xAF\""), 0, LC_ERR_JSON_UTF8, JANSSON},
    {S("\"\xED\xA0\x80\""), 0, LC_ERR_JSON_UTF8, JANSSON},
    {S("\"\xED\xBF\xBF\""), 0, LC_ERR_JSON_UTF8, JANSSON},
    {S("\"\xF4\x90\x80\x80\""), 0, LC_ERR_JSON_UTF8, JANSSON},
    {S("\"\xF5\x80\x80\x80\""), 0, LC_ERR_JSON_UTF8, JANSSON},
    {S("\"\xE2\x82\""), 0, LC_ERR_JSON_UTF8, JANSSON},
    {S("\"\xE2\x82"), 0, LC_ERR_JSON_UTF8, JANSSON},
    {S("[1,\xC3\xA9]"), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("[1,\x80]"), 0, LC_ERR_JSON_UTF8, JANSSON},
    /* U+0000 and surrogate escapes */
    {S("\"\\u0000\""), 0, LC_ERR_JSON_NUL, JANSSON},
    {S("{\"a\\u0000\":1}"), 0, LC_ERR_JSON_NUL, JANSSON},
    {S("\"\\uD800\""), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("\"\\uDC00\""), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("\"\\uD800\\u0041\""), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("\"\\uD800\\uD800\""), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("\"\\uD800x\""), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("\"\\uDBFF\\n\""), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    {S("{\"\\uDFFF\":1}"), 0, LC_ERR_JSON_SYNTAX, JANSSON},
    /* numbers out of range */
    {S("99999999999999999999"), 0, LC_ERR_NUMBER_RANGE, JANSSON},
    {S("9223372036854775808"), 0, LC_ERR_NUMBER_RANGE, JANSSON},
    {S("-9223372036854775809"), 0, LC_ERR_NUMBER_RANGE, JANSSON},
    {S("{\"a\":1e400}"), 0, LC_ERR_NUMBER_RANGE, JANSSON},
    {S("[-1e400]"), 0, LC_ERR_NUMBER_RANGE, JANSSON},
    {S("1.8e308"), 0, LC_ERR_NUMBER_RANGE, JANSSON},
    {S("0.00000000000000000000000000000000000000000000000000000000000000000000000001e385"), 0,
     LC_ERR_NUMBER_RANGE, JANSSON},
    {S("1000000000000000000000000000000000000000000000000e300"), 0, LC_ERR_NUMBER_RANGE, JANSSON},
    /* JSON errors win over earlier Firebase errors */
    {S("{\"a.b\":1,"), 0, LC_ERR_JSON_TRUNCATED, JANSSON},
    {S("{\"a.b\":1} x"), 0, LC_ERR_JSON_TRAILING, JANSSON},
    /* bad keys: position is the key's opening quote */
    {S("{\"a.b\":1}"), 0, LC_ERR_KEY_INVALID, 1},
    {S("{\"ok\":1,\"a#\":1}"), 0, LC_ERR_KEY_INVALID, 8},
    {S("{\"$a\":1}"), 0, LC_ERR_KEY_INVALID, 1},
    {S("{\"a/b\":1}"), 0, LC_ERR_KEY_INVALID, 1},
    {S("{\"[\":1}"), 0, LC_ERR_KEY_INVALID, 1},
    {S("{\"]\":1}"), 0, LC_ERR_KEY_INVALID, 1},
    {S("{\"a\\u0001\":1}"), 0, LC_ERR_KEY_INVALID, 1},
    {S("{\"a\\u007f\":1}"), 0, LC_ERR_KEY_INVALID, 1},
    {S("{\"\\u002e\":1}"), 0, LC_ERR_KEY_INVALID, 1},
    {S("{\"\":1}"), 0, LC_ERR_KEY_INVALID, 1},
    {S("{\"x\":{\"y\":{\"a.b\":null}}}"), 0, LC_ERR_KEY_INVALID, 11},
    {S("[{\"a\":[{\"b\":{\"\":1}}]}]"), 0, LC_ERR_KEY_INVALID, 13},
    {S("{\n  \"ok\": 1,\n  \"\xC3\xA9.x\": 2}"), 0, LC_ERR_KEY_INVALID, 15},
    /* export format */
    {S("{\".priority\":true}"), 0, LC_ERR_VALUE_INVALID, 13},
    {S("{\"a\":{\".priority\":{}}}"), 0, LC_ERR_VALUE_INVALID, 18},
    {S("{\"a\":{\".priority\":[1]}}"), 0, LC_ERR_VALUE_INVALID, 18},
    {S("{\"a\":{\".value\":1,\"b\":2}}"), 0, LC_ERR_VALUE_INVALID, 17},
    {S("{\"a\":{\"b\":2,\".value\":1}}"), 0, LC_ERR_VALUE_INVALID, 12},
    {S("{\"a\":1,\".value\":1}"), 0, LC_ERR_VALUE_INVALID, 7},
    /* depth (max_depth 5 here; 32 is tested in doc_depth) */
    {S("{\"a\":{\"b\":{\"c\":{\"d\":{\"e\":{\"f\":1}}}}}}"), O_DEPTH5, LC_ERR_TOO_DEEP, 26},
    {S("[[[[[[1]]]]]]"), O_DEPTH5, LC_ERR_TOO_DEEP, 6},
    {S("{\"a/b/c/d/e/f\":1}"), O_DEPTH5 | O_PATCH, LC_ERR_TOO_DEEP, 1},
    {S("{\"a/b/c\":{\"d\":{\"e\":{\"f\":1}}}}"), O_DEPTH5 | O_PATCH, LC_ERR_TOO_DEEP, 20},
    /* patch keys are paths */
    {S("{\"a/b.c\":1}"), O_PATCH, LC_ERR_PATH_INVALID, 1},
    {S("{\"/\":1}"), O_PATCH, LC_ERR_PATH_INVALID, 1},
    {S("{\"a\":{\"b/c\":1}}"), O_PATCH, LC_ERR_KEY_INVALID, 6},
    /* payload shapes */
    {S("[1]"), O_PAYLOAD, LC_ERR_PAYLOAD_SHAPE, 0},
    {S(" \"x\" "), O_PAYLOAD, LC_ERR_PAYLOAD_SHAPE, 1},
    {S("{\"data\":1}"), O_PAYLOAD, LC_ERR_PAYLOAD_SHAPE, 0},
    {S("{\"path\":1,\"data\":1}"), O_PAYLOAD, LC_ERR_PAYLOAD_SHAPE, 8},
    {S("{\"path\":null,\"data\":1}"), O_PAYLOAD, LC_ERR_PAYLOAD_SHAPE, 8},
    {S("{\"path\":\"/\"}"), O_PAYLOAD, LC_ERR_PAYLOAD_SHAPE, 0},
    {S("{\"path\":\"/\",\"data\":1,\"path\":[\"/\"]}"), O_PAYLOAD, LC_ERR_PAYLOAD_SHAPE, 28},
    {S("{\"path\":\"/a.b\",\"data\":1}"), O_PAYLOAD, LC_ERR_PATH_INVALID, 8},
    {S("{\"path\":\"/a/\\u0001\",\"data\":1}"), O_PAYLOAD, LC_ERR_PATH_INVALID, 8},
    {S("{\"data\":{\"k\":1},\"path\":\"/a/$b\"}"), O_PAYLOAD, LC_ERR_PATH_INVALID, 23},
    {S("{\"path\":\"/\",\"data\":{\"a.b\":1}}"), O_PAYLOAD, LC_ERR_KEY_INVALID, 20},
    {S("{\"path\":\"/\",\"data\":{\"a\":1}"), O_PAYLOAD, LC_ERR_JSON_TRUNCATED, JANSSON},
    {S("{\"path\":\"/\",\"data\":1} 1"), O_PAYLOAD, LC_ERR_JSON_TRAILING, JANSSON},
    {S("{\"path\":\"\\u0000\",\"data\":1}"), O_PAYLOAD, LC_ERR_JSON_NUL, JANSSON},
    {S("{\"path\":\"/\",\"data\":1,\"x\":[1e999]}"), O_PAYLOAD, LC_ERR_NUMBER_RANGE, JANSSON},
    {S("{\"path\":\"/\",\"data\":1,\"x\":{\"a.b\":[}}"), O_PAYLOAD, LC_ERR_JSON_SYNTAX, JANSSON},
};

static lc_status run_bad(const bad_case *c, lc_error *e, int *out_clean) {
    lc_parse_options o;
    memset(&o, 0, sizeof o);
    o.keys_are_paths = (c->opts & O_PATCH) != 0;
    o.max_depth = (c->opts & O_DEPTH5) ? 5 : 0;
    if (c->opts & O_PAYLOAD) {
        lc_payload p;
        memset(&p, 0xAB, sizeof p);
        lc_status st = lc_payload_parse(c->json, c->len, &o, &p, e);
        *out_clean = !p.path && !p.data && !p.path_len;
        return st;
    }
    lc_doc *d = (lc_doc *)&o;
    lc_status st = lc_doc_parse(c->json, c->len, &o, &d, e);
    *out_clean = d == NULL;
    return st;
}

static void doc_bad_inputs(lc_test *t) {
    for (size_t i = 0; i < sizeof bad_cases / sizeof bad_cases[0]; i++) {
        const bad_case *c = &bad_cases[i];
        lc_error e;
        int clean = 0;
        lc_status st = run_bad(c, &e, &clean);
        int ok = st == c->code && e.code == st && clean && strlen(e.text) > 0;
        if (c->position == JANSSON) {
            json_error_t je;
            json_t *j = json_loadb(c->json, c->len, JSON_DECODE_ANY, &je);
            ok = ok && !j && td_status_of_jansson(&je) == st && je.line == e.line &&
                 je.column == e.column && (size_t)je.position == e.position && !strcmp(je.text, e.text);
            json_decref(j);
        } else {
            int line = 1, col = 0;
            for (size_t k = 0; k <= c->position && k < c->len; k++) {
                unsigned char b = (unsigned char)c->json[k];
                if (b == '\n') line++, col = 0;
                else if ((b & 0xC0) != 0x80) col++;
            }
            ok = ok && e.position == c->position && e.line == line && e.column == col;
        }
        CHECK(t, ok, "case %zu: got %s at %d:%d pos %zu \"%s\", want %s pos %lld", i,
              lc_status_name(st), e.line, e.column, e.position, e.text, lc_status_name(c->code),
              c->position == JANSSON ? -1LL : (long long)c->position);
        if (!ok) td_show("input", c->json, c->len);
    }
}

/* Keys and nesting around the limits: 768 / 769 bytes, 32 / 33 levels. */
static void doc_limits(lc_test *t) {
    char buf[1024 + 400];
    lc_doc *d = NULL;
    lc_error e;
    for (int len = 768; len <= 769; len++) {
        int n = snprintf(buf, sizeof buf, "{\"");
        memset(buf + n, 'k', (size_t)len);
        n += len;
        n += snprintf(buf + n, sizeof buf - (size_t)n, "\":1}");
        lc_status st = lc_doc_parse(buf, (size_t)n, NULL, &d, &e);
        CHECK(t, st == (len == 768 ? LC_OK : LC_ERR_KEY_TOO_LONG), "key of %d bytes: %s", len,
              lc_status_name(st));
        CHECK(t, len == 768 || (e.position == 1 && e.column == 2 && d == NULL));
        lc_doc_free(d);
        d = NULL;
    }
    for (int levels = 31; levels <= 34; levels++) {
        for (int arrays = 0; arrays <= 1; arrays++) {
            size_t n = 0;
            for (int i = 0; i < levels; i++) n += (size_t)snprintf(buf + n, 16, arrays ? "[" : "{\"k\":");
            buf[n++] = '1';
            for (int i = 0; i < levels; i++) buf[n++] = arrays ? ']' : '}';
            lc_status st = lc_doc_parse(buf, n, NULL, &d, &e);
            CHECK(t, st == (levels <= 32 ? LC_OK : LC_ERR_TOO_DEEP), "%d levels: %s", levels,
                  lc_status_name(st));
            if (levels > 32) CHECK(t, e.position == (arrays ? 33u : 32u * 5 + 1), "pos %zu", e.position);
            lc_doc_free(d);
            d = NULL;
        }
    }
}

/* Paths around the limits: 32 / 33 segments, 768 / 769 bytes, in payloads and patch keys. */
static void doc_path_limits(lc_test *t) {
    char path[1024], buf[1200];
    for (int k = 0; k < 4; k++) {
        size_t n = 0;
        if (k < 2) { /* 32 + k segments */
            for (int i = 0; i < 32 + k; i++) n += (size_t)snprintf(path + n, sizeof path - n, "/s%d", i);
        } else { /* 768 / 769 bytes */
            path[n++] = '/';
            while (n < (size_t)(766 + k)) path[n++] = 'p';
        }
        path[n] = 0;
        lc_status want = (k == 0 || k == 2) ? LC_OK : LC_ERR_PATH_TOO_LONG;
        lc_payload pl;
        lc_error e;
        int len = snprintf(buf, sizeof buf, "{\"path\":\"%s\",\"data\":1}", path);
        lc_status st = lc_payload_parse(buf, (size_t)len, NULL, &pl, &e);
        CHECK(t, st == want, "payload path %d (%zu bytes): %s", k, n, lc_status_name(st));
        CHECK(t, st ? e.position == 8 && !pl.path && !pl.data : pl.path_len == n && !strcmp(pl.path, path));
        lc_payload_release(&pl);
        lc_parse_options o;
        memset(&o, 0, sizeof o);
        o.keys_are_paths = 1;
        o.max_depth = 40;
        lc_doc *d = NULL;
        len = snprintf(buf, sizeof buf, "{\"%s\":1}", path);
        st = lc_doc_parse(buf, (size_t)len, &o, &d, &e);
        CHECK(t, st == want, "patch key %d: %s", k, lc_status_name(st));
        CHECK(t, st ? e.position == 1 && !d : lc_doc_count(d) == 1);
        lc_doc_free(d);
    }
}

static void doc_arguments(lc_test *t) {
    lc_doc *d = NULL;
    lc_error e;
    lc_value v;
    const char *p;
    size_t n;
    CHECK(t, lc_doc_parse("1", 1, NULL, NULL, &e) == LC_ERR_ARGUMENT && e.code == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_parse(NULL, 0, NULL, &d, NULL) == LC_ERR_ARGUMENT && d == NULL);
    lc_parse_options o;
    memset(&o, 0, sizeof o);
    o.order.kind = LC_ORDER_CHILD;
    o.order.child_path = "a.b";
    o.order.child_path_len = 3;
    CHECK(t, lc_doc_parse("1", 1, &o, &d, &e) == LC_ERR_ARGUMENT && d == NULL);
    o.order.child_path = NULL;
    CHECK(t, lc_doc_parse("1", 1, &o, &d, &e) == LC_ERR_ARGUMENT && d == NULL);
    o.order.kind = (lc_order_kind)42;
    CHECK(t, lc_doc_parse("1", 1, &o, &d, &e) == LC_ERR_ARGUMENT && d == NULL);
    CHECK(t, lc_payload_parse("{}", 2, NULL, NULL, &e) == LC_ERR_ARGUMENT);
    lc_payload pl;
    CHECK(t, lc_payload_parse(NULL, 2, NULL, &pl, &e) == LC_ERR_ARGUMENT && !pl.data && !pl.path);
    lc_payload_release(NULL);
    lc_doc_free(NULL);
    CHECK(t, lc_doc_kind_of(NULL) == LC_DOC_NULL && lc_doc_count(NULL) == 0);
    CHECK(t, lc_doc_key(NULL, 0, &n) == NULL && n == 0);
    CHECK(t, lc_doc_sort_value(NULL, 0, &v) == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_priority(NULL, 0, &v) == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_root_priority(NULL, &v) == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_child_text(NULL, 0, &p, &n) == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_child_json(NULL, 0, &e) == NULL && e.code == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_root_json(NULL, NULL) == NULL);
    REQUIRE(t, lc_doc_parse("{\"a\":1}", 7, NULL, &d, NULL) == LC_OK);
    CHECK(t, lc_doc_key(d, 1, NULL) == NULL);
    CHECK(t, lc_doc_sort_value(d, 1, &v) == LC_ERR_ARGUMENT && lc_doc_sort_value(d, 0, NULL) == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_priority(d, 1, &v) == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_root_priority(d, NULL) == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_child_text(d, 1, &p, &n) == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_child_text(d, 0, NULL, &n) == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_root_text(NULL, &p, &n) == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_root_text(d, NULL, &n) == LC_ERR_ARGUMENT && lc_doc_root_text(d, &p, NULL) == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_root_text(d, &p, &n) == LC_OK && n == 7 && memcmp(p, "{\"a\":1}", 7) == 0);
    CHECK(t, lc_doc_child_json(d, 1, NULL) == NULL);
    lc_doc_free(d);
    /* The root's text has no surrounding whitespace. */
    REQUIRE(t, lc_doc_parse(" \n{\"b\": 2} \t", 12, NULL, &d, NULL) == LC_OK);
    CHECK(t, lc_doc_root_text(d, &p, &n) == LC_OK && n == 8 && memcmp(p, "{\"b\": 2}", 8) == 0);
    lc_doc_free(d);
}

/* lc_doc_check: arguments, a padding that is not zero, and a whole check. */
static void doc_check_arguments(lc_test *t) {
    lc_error e;
    CHECK(t, lc_doc_check(NULL, 0, 0, NULL, &e) == LC_ERR_ARGUMENT && e.code == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_check(NULL, 0, 0, NULL, NULL) == LC_ERR_ARGUMENT);
    /* Padded in place, padded with something else (copied), too short (copied). */
    char text[] = "{\"a\":{\"b\":1},\"c\":2}\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
    size_t len = strlen(text);
    CHECK(t, lc_doc_check(text, len, sizeof text, NULL, &e) == LC_OK);
    CHECK(t, lc_doc_check(text, len, len + 3, NULL, &e) == LC_OK);
    char dirty[] = "{\"a\":1}xxxxxxxxxxxxxxxx";
    CHECK(t, lc_doc_check(dirty, 7, sizeof dirty, NULL, &e) == LC_OK);
    CHECK(t, lc_doc_check(dirty, 8, sizeof dirty, NULL, &e) == LC_ERR_JSON_TRAILING);
    char bad[] = "{\"a.b\":1}\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0";
    CHECK(t, lc_doc_check(bad, strlen(bad), sizeof bad, NULL, &e) == LC_ERR_KEY_INVALID && e.position > 0);
    /* A size less than len is refused: nothing past size is read. */
    CHECK(t, lc_doc_check(text, len, len - 1, NULL, &e) == LC_ERR_ARGUMENT && e.code == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_check(text, len, len, NULL, &e) == LC_OK);
}

const lc_test_case doc_tests[] = {
    {"doc_bad_inputs", doc_bad_inputs},
    {"doc_limits", doc_limits},
    {"doc_path_limits", doc_path_limits},
    {"doc_good_children", doc_good_children},
    {"doc_child_json", doc_child_json},
    {"doc_payload_good", doc_payload_good},
    {"doc_patch_deletions", doc_patch_deletions},
    {"doc_arguments", doc_arguments},
    {"doc_check_arguments", doc_check_arguments},
    {"doc_nesting_limits", doc_nesting_limits},
    {"doc_many_children", doc_many_children},
    {"doc_differential_random", doc_differential_random},
    {"doc_payload_differential_random", doc_payload_differential_random},
    {"doc_path_value_random", doc_path_value_random},
    {"doc_path_value_arguments", doc_path_value_arguments},
    LC_TEST_END,
};
