/*
 * test_doc_good.c — documents that parse: children, duplicates, export
 * format, sort values under every order, normalised JSON, payloads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_doc_util.h"

typedef struct good_case {
    const char *json;
    lc_order_kind order;
    const char *path; /* for LC_ORDER_CHILD */
    int patch;
    const char *want; /* td_describe */
} good_case;

#define P LC_ORDER_PRIORITY
#define K LC_ORDER_KEY
#define V LC_ORDER_VALUE
#define C LC_ORDER_CHILD

static const good_case good_cases[] = {
    {"{\"b\":2,\"a\":1}", P, NULL, 0, "K2 Pn | b s=n p=n; a s=n p=n;"},
    {" {\"b\" : 2 , \"a\":1 } ", V, NULL, 0, "K2 Pn | b s=2 p=n; a s=1 p=n;"},
    {"[10,null,30]", V, NULL, 0, "K2 Pn | 0 s=10 p=n; 2 s=30 p=n;"},
    {"[null,null,{\"a\":1},{},[],[null]]", V, NULL, 0, "K2 Pn | 2 s=o p=n;"},
    {"{\"a\":null,\"b\":1,\"c\":{},\"d\":[],\"e\":{\"x\":null},\"f\":{\".priority\":1}}", V, NULL, 0,
     "K2 Pn | b s=1 p=n;"},
    /* duplicates: the last occurrence wins, in the order of last occurrences */
    {"{\"a\":1,\"a\":2}", V, NULL, 0, "K2 Pn | a s=2 p=n;"},
    {"{\"a\":1,\"b\":2,\"a\":null}", V, NULL, 0, "K2 Pn | b s=2 p=n;"},
    {"{\"a\":1,\"b\":2,\"a\":3}", V, NULL, 0, "K2 Pn | b s=2 p=n; a s=3 p=n;"},
    {"{\"a\":1,\"a\":null,\"a\":4}", V, NULL, 0, "K2 Pn | a s=4 p=n;"},
    {"{\"\\u0061\":1,\"a\":5}", V, NULL, 0, "K2 Pn | a s=5 p=n;"},
    /* nested duplicates decide whether a child is empty */
    {"{\"x\":{\"a\":1,\"a\":null},\"y\":1}", V, NULL, 0, "K2 Pn | y s=1 p=n;"},
    {"{\"x\":{\"a\":1,\"b\":null}}", V, NULL, 0, "K2 Pn | x s=o p=n;"},
    {"{\"x\":{\"a\":1,\"\\u0061\":null}}", V, NULL, 0, "K0 Pn |"},
    {"{\"x\":{\"a\":1,\"\\u0062\":null}}", V, NULL, 0, "K2 Pn | x s=o p=n;"},
    {"{\"x\":{\"b\":0,\"a\":1,\"a\":null}}", V, NULL, 0, "K2 Pn | x s=o p=n;"},
    {"{\"x\":{\"a\":{\"b\":1,\"b\":{}}}}", V, NULL, 0, "K0 Pn |"},
    /* escapes in keys and strings */
    {"{\"\\u00e9t\\u00e9\":\"\\u00e9\\n\",\"a\\\"b\":\"\\ud83d\\ude00\",\"\xC3\xA9\":\"x\\/y\"}", V, NULL, 0,
     "K2 Pn | \xC3\xA9t\xC3\xA9 s='\xC3\xA9\n' p=n; a\"b s='\xF0\x9F\x98\x80' p=n; \xC3\xA9 s='x/y' p=n;"},
    /* export format */
    {"{\".priority\":5,\"a\":{\".value\":3,\".priority\":\"x\"},\"b\":{\".priority\":1.5,\"c\":true}}", P,
     NULL, 0, "K2 P5 | a s='x' p='x'; b s=1.5 p=1.5;"},
    {"{\".priority\":5,\"a\":{\".value\":3,\".priority\":\"x\"},\"b\":{\".priority\":1.5,\"c\":true}}", V,
     NULL, 0, "K2 P5 | a s=3 p='x'; b s=o p=1.5;"},
    {"{\"a\":{\".priority\":null,\".value\":false}}", V, NULL, 0, "K2 Pn | a s=f p=n;"},
    {"{\"a\":{\".value\":null,\".priority\":2}}", V, NULL, 0, "K0 Pn |"},
    {"{\"a\":{\".value\":1,\".value\":\"z\"}}", V, NULL, 0, "K2 Pn | a s='z' p=n;"},
    {"{\".value\":\"hi\",\".priority\":2}", V, NULL, 0, "K1 P2 |"},
    {"{\".value\":{\"a\":1},\".value\":{\"b\":2}}", V, NULL, 0, "K2 Pn | b s=2 p=n;"},
    {"{\".value\":{\"a\":1},\".value\":7}", V, NULL, 0, "K1 Pn |"},
    {"{\".value\":7,\".value\":null}", V, NULL, 0, "K0 Pn |"},
    {"\"hi\"", V, NULL, 0, "K1 Pn |"},
    {"0", V, NULL, 0, "K1 Pn |"},
    {"false", V, NULL, 0, "K1 Pn |"},
    {"null", V, NULL, 0, "K0 Pn |"},
    {"{}", V, NULL, 0, "K0 Pn |"},
    {"{\".priority\":\"p\"}", V, NULL, 0, "K0 P'p' |"},
    /* orderByChild */
    {"{\"x\":{\"score\":5},\"y\":{\"score\":\"s\"},\"z\":{\"other\":1},\"w\":7,\"v\":{\"score\":{\"a\":1}},"
     "\"u\":{\"score\":{},\"k\":1},\"t\":{\"score\":{\".value\":9,\".priority\":1}},\"s\":{\"score\":true}}",
     C, "score", 0, "K2 Pn | x s=5 p=n; y s='s' p=n; z s=n p=n; w s=n p=n; v s=o p=n; u s=n p=n; t s=9 p=n; s s=t p=n;"},
    {"{\"x\":{\"a\":{\"b\":1}},\"y\":{\"a\":5},\"z\":{\"a\":[0,{\"b\":2}]},\"w\":{\"a\":{\"b\":[1]}},"
     "\"v\":{\"a\":{\"b\":{\"c\":null}},\"k\":0}}",
     C, "/a/b/", 0, "K2 Pn | x s=1 p=n; y s=n p=n; z s=n p=n; w s=o p=n; v s=n p=n;"},
    {"{\"z\":{\"a\":[0,7]},\"y\":{\"a\":{\"1\":8}},\"x\":{\"a\":{\"01\":9}}}", C, "a/1", 0,
     "K2 Pn | z s=7 p=n; y s=8 p=n; x s=n p=n;"},
    {"{\"z\":{\"a\":[0,7]}}", C, "a/01", 0, "K2 Pn | z s=n p=n;"},
    {"{\"x\":{\"s\":1,\"s\":2},\"y\":{\"s\":1,\"k\":0,\"s\":null},\"z\":{\"s\":{\"a\":1},\"s\":\"q\"}}", C, "s", 0,
     "K2 Pn | x s=2 p=n; y s=n p=n; z s='q' p=n;"},
    {"{\"x\":{\"\\u00e9\":\"\\u0041\"}}", C, "\xC3\xA9", 0, "K2 Pn | x s='A' p=n;"},
    {"{\"x\":{\"a\":[true],\"a\":-0},\"y\":{\".value\":{\"a\":[1]},\".value\":5}}", C, "a/0", 0,
     "K2 Pn | x s=n p=n; y s=n p=n;"},
    {"{\"x\":{\".value\":{\"s\":3}}}", C, "s", 0, "K2 Pn | x s=3 p=n;"},
    {"{\"x\":{\"s\":3}}", C, "", 0, "K2 Pn | x s=o p=n;"},
    {"[{\"s\":2},{\"s\":1}]", C, "s", 0, "K2 Pn | 0 s=2 p=n; 1 s=1 p=n;"},
    /* orderByKey */
    {"{\"x\":{\"s\":3},\"a\":\"b\"}", K, NULL, 0, "K2 Pn | x s=n p=n; a s=n p=n;"},
    /* patches: top-level keys are paths */
    {"{\"a/b\":1,\"/c/\":{\"d\":2},\"e\":null,\"f\":{\"g\":{}}}", V, NULL, 1,
     "K2 Pn | a/b s=1 p=n; /c/ s=o p=n; e s=n p=n; f s=n p=n;"},
    /* numbers */
    {"[-0,1.5e3,-9223372036854775808,1e-400,0.1,1.7976931348623157e308,4.9e-324,12345678901234567890e-10,"
     "-0.0,1E2,2e+2,100000000000000000000000.0,9007199254740993,0.30000000000000004]",
     V, NULL, 0,
     "K2 Pn | 0 s=0 p=n; 1 s=1500 p=n; 2 s=-9.2233720368547758e+18 p=n; 3 s=0 p=n; 4 s=0.10000000000000001 p=n;"
     " 5 s=1.7976931348623157e+308 p=n; 6 s=4.9406564584124654e-324 p=n; 7 s=1234567890.1234567 p=n;"
     " 8 s=-0 p=n; 9 s=100 p=n; 10 s=200 p=n; 11 s=9.9999999999999992e+22 p=n; 12 s=9007199254740992 p=n;"
     " 13 s=0.30000000000000004 p=n;"},
};

static lc_status parse(const char *json, size_t len, lc_order_kind order, const char *path,
                       int patch, lc_doc **d, lc_error *e) {
    lc_parse_options o;
    memset(&o, 0, sizeof o);
    o.order.kind = order;
    o.order.child_path = path;
    o.order.child_path_len = path ? strlen(path) : 0;
    o.keys_are_paths = patch;
    return lc_doc_parse(json, len, &o, d, e);
}

void doc_good_children(lc_test *t) {
    char got[1024];
    for (size_t i = 0; i < sizeof good_cases / sizeof good_cases[0]; i++) {
        const good_case *c = &good_cases[i];
        size_t len = strlen(c->json);
        lc_doc *d = NULL;
        lc_error e;
        lc_status st = parse(c->json, len, c->order, c->path, c->patch, &d, &e);
        CHECK(t, st == LC_OK, "case %zu: %s %s", i, lc_status_name(st), e.text);
        if (st) continue;
        td_describe(d, got, sizeof got);
        CHECK(t, !strcmp(got, c->want), "case %zu:\n   got  %s\n   want %s", i, got, c->want);
        lc_doc_free(d);
    }
    /* jansson drops a NUL byte right after a number or literal */
    static const char nul[] = "{\"a\":1\0,\"b\":true\0}";
    lc_doc *d = NULL;
    const char *text;
    size_t n;
    REQUIRE(t, parse(nul, sizeof nul - 1, V, NULL, 0, &d, NULL) == LC_OK);
    td_describe(d, got, sizeof got);
    CHECK(t, !strcmp(got, "K2 Pn | a s=1 p=n; b s=t p=n;"), "%s", got);
    CHECK(t, lc_doc_child_text(d, 1, &text, &n) == LC_OK && n == 4 && !memcmp(text, "true", 4));
    lc_doc_free(d);
}

static char *dump(json_t *j) {
    return j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;
}

static void check_json(lc_test *t, json_t *j, const char *want, const char *what) {
    char *s = dump(j);
    CHECK(t, s && !strcmp(s, want), "%s: got %s, want %s", what, s ? s : "(null)", want);
    free(s);
    json_decref(j);
}

void doc_child_json(lc_test *t) {
    static const char text[] =
        "{\".priority\":1, \"a\" : {\".priority\":1,\"b\":[null,{\"c\":null},3,{\"d\":[]}],\"d\":{\".value\":4}} ,"
        " \"e\":[1,{\".value\":\"v\",\".priority\":2}], \"f\":\"x\\u00e9\", \"g\":{\"h\":{\"i\":{}},\"j\":0}}";
    lc_doc *d = NULL;
    lc_error e;
    REQUIRE(t, lc_doc_parse(text, sizeof text - 1, NULL, &d, &e) == LC_OK, "%s", e.text);
    REQUIRE(t, lc_doc_count(d) == 4);
    const char *p;
    size_t n;
    CHECK(t, lc_doc_child_text(d, 0, &p, &n) == LC_OK && n == 65 && !memcmp(p, "{\".priority\":1,\"b\"", 18) &&
             p[n - 1] == '}');
    check_json(t, lc_doc_child_json(d, 0, &e), "{\"b\":{\"2\":3},\"d\":4}", "a");
    check_json(t, lc_doc_child_json(d, 1, &e), "{\"0\":1,\"1\":\"v\"}", "e");
    check_json(t, lc_doc_child_json(d, 2, &e), "\"x\xC3\xA9\"", "f");
    check_json(t, lc_doc_child_json(d, 3, &e), "{\"j\":0}", "g");
    check_json(t, lc_doc_root_json(d, &e),
               "{\"a\":{\"b\":{\"2\":3},\"d\":4},\"e\":{\"0\":1,\"1\":\"v\"},\"f\":\"x\xC3\xA9\",\"g\":{\"j\":0}}", "root");
    lc_doc_free(d);
    static const char *const roots[][2] = {
        {"null", "null"}, {"{\"a\":{}}", "null"}, {"[]", "null"}, {"{\".value\":1,\".priority\":2}", "1"},
        {"[null,[null,2]]", "{\"1\":{\"1\":2}}"}, {"{\"a\":1,\"a\":null}", "null"}, {"\"s\"", "\"s\""},
    };
    for (size_t i = 0; i < sizeof roots / sizeof roots[0]; i++) {
        d = NULL;
        REQUIRE(t, lc_doc_parse(roots[i][0], strlen(roots[i][0]), NULL, &d, &e) == LC_OK);
        check_json(t, lc_doc_root_json(d, NULL), roots[i][1], roots[i][0]);
        lc_doc_free(d);
    }
}

void doc_payload_good(lc_test *t) {
    static const struct {
        const char *json;
        int patch;
        const char *path;
        const char *want;
        const char *root;
    } cases[] = {
        {"{\"path\":\"/a/b\",\"data\":{\"x\":1,\"y\":null}}", 0, "/a/b", "K2 Pn | x s=1 p=n;", "{\"x\":1}"},
        {" {\"data\" : [1,2] , \"path\":\"/\"} ", 0, "/", "K2 Pn | 0 s=1 p=n; 1 s=2 p=n;", "{\"0\":1,\"1\":2}"},
        {"{\"path\":\"/x\",\"data\":null}", 0, "/x", "K0 Pn |", "null"},
        {"{\"path\":\"\\/a\\u00e9\",\"data\":1,\"extra\":{\"a.b\":[1,2]}}", 0, "/a\xC3\xA9", "K1 Pn |", "1"},
        {"{\"path\":\"/\",\"data\":{\"a\":1},\"data\":{\"b\":2}}", 0, "/", "K2 Pn | b s=2 p=n;", "{\"b\":2}"},
        {"{\"path\":\"/\",\"data\":{\"a.b\":1},\"data\":2}", 0, "/", "K1 Pn |", "2"},
        {"{\"path\":1,\"path\":\"/p\",\"data\":{\".priority\":3,\"k\":{\".value\":\"v\"}}}", 0, "/p",
         "K2 P3 | k s='v' p=n;", "{\"k\":\"v\"}"},
        {"{\"path\":\"/\",\"data\":{\"a/b\":1,\"c\":null}}", 1, "/", "K2 Pn | a/b s=1 p=n; c s=n p=n;", "{\"a/b\":1}"},
        {"{\"\\u0070ath\":\"\",\"d\\u0061ta\":true\0}", 0, "", "K1 Pn |", "true"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lc_parse_options o;
        memset(&o, 0, sizeof o);
        o.order.kind = LC_ORDER_VALUE;
        o.keys_are_paths = cases[i].patch;
        lc_payload pl;
        lc_error e;
        size_t len = strlen(cases[i].json);
        if (i == 8) len += 2; /* the NUL and the closing brace */
        lc_status st = lc_payload_parse(cases[i].json, len, &o, &pl, &e);
        CHECK(t, st == LC_OK, "case %zu: %s %s", i, lc_status_name(st), e.text);
        if (st) continue;
        char got[512];
        td_describe(pl.data, got, sizeof got);
        CHECK(t, !strcmp(pl.path, cases[i].path) && pl.path_len == strlen(cases[i].path), "case %zu path %s", i,
              pl.path);
        CHECK(t, !strcmp(got, cases[i].want), "case %zu:\n   got  %s\n   want %s", i, got, cases[i].want);
        check_json(t, lc_doc_root_json(pl.data, NULL), cases[i].root, cases[i].json);
        lc_payload_release(&pl);
        CHECK(t, !pl.path && !pl.data && !pl.path_len);
    }
}

/* In a patch, null and empty members are kept as deletions; the last occurrence of a key wins. */
void doc_patch_deletions(lc_test *t) {
    static const char json[] = "{\"a\":null,\"b/c\":{},\"d\":1,\"a\":2,\"e\":3,\"e\":null,\"f\":{\".priority\":1}}";
    lc_parse_options o;
    memset(&o, 0, sizeof o);
    o.keys_are_paths = 1;
    lc_doc *d = NULL;
    lc_error e;
    REQUIRE(t, lc_doc_parse(json, strlen(json), &o, &d, &e) == LC_OK, "%s", e.text);
    static const struct { const char *key; int is_null; } want[] = {
        {"b/c", 1}, {"d", 0}, {"a", 0}, {"e", 1}, {"f", 1},
    };
    REQUIRE(t, lc_doc_count(d) == 5, "count %zu", lc_doc_count(d));
    for (size_t i = 0; i < 5; i++) {
        size_t len;
        const char *k = lc_doc_key(d, i, &len);
        CHECK(t, len == strlen(want[i].key) && !memcmp(k, want[i].key, len), "child %zu is %.*s", i, (int)len, k);
        CHECK(t, lc_doc_child_is_null(d, i) == want[i].is_null, "child %zu", i);
        json_t *j = lc_doc_child_json(d, i, NULL);
        CHECK(t, j && (json_is_null(j) != 0) == want[i].is_null, "child %zu json", i);
        json_decref(j);
    }
    CHECK(t, !lc_doc_child_is_null(d, 99) && !lc_doc_child_is_null(NULL, 0));
    lc_doc_free(d);
    /* Outside a patch the same members are absent. */
    static const char plain[] = "{\"a\":null,\"b\":{},\"c\":1}";
    REQUIRE(t, lc_doc_parse(plain, strlen(plain), NULL, &d, &e) == LC_OK, "%s", e.text);
    CHECK(t, lc_doc_count(d) == 1 && !lc_doc_child_is_null(d, 0));
    lc_doc_free(d);
}
