/*
 * test_digest.c — canonical digests of values: equal for every spelling of
 * a value, different for different values (checked against a canonical
 * printout of each value), the text walk equal to the jansson reference.
 */
#include <stdlib.h>
#include <string.h>

#include "lc_doc.h"
#include "lc_test.h"

uint64_t lc_test_seed(void);
json_t *lc_json_normalize(json_t *v, int *oom);

/* The digest of a value's text, read as child "c" of a document ({0, 0}
 * when the value is empty: the document has no child then). */
static int digest_flags(const char *value, unsigned flags, lc_digest *out) {
    size_t n = strlen(value);
    char *doc_text = malloc(n + 8);
    if (!doc_text) return 0;
    memcpy(doc_text, "{\"c\":", 5);
    memcpy(doc_text + 5, value, n);
    memcpy(doc_text + 5 + n, "}", 2);
    lc_doc *doc = NULL;
    lc_status st = lc_doc_parse(doc_text, n + 6, NULL, &doc, NULL);
    free(doc_text);
    if (st) return 0;
    out->high = out->low = 0;
    if (lc_doc_count(doc) == 1) st = lc_doc_child_digest(doc, 0, flags, out);
    lc_doc_free(doc);
    return st == LC_OK;
}

static int digest_of(const char *value, lc_digest *out) { return digest_flags(value, LC_DIGEST_PRIORITIES, out); }

static int same(lc_digest a, lc_digest b) { return a.high == b.high && a.low == b.low; }

/* Each pair's two digests are equal (expect_same) or differ. */
static void check_pairs(lc_test *t, const char *const pairs[][2], size_t n, int expect_same) {
    for (size_t i = 0; i < n; i++) {
        lc_digest a, b;
        REQUIRE(t, digest_of(pairs[i][0], &a) && digest_of(pairs[i][1], &b), "%s", pairs[i][0]);
        CHECK(t, same(a, b) == expect_same, "%s vs %s", pairs[i][0], pairs[i][1]);
    }
}

static void equal_spellings(lc_test *t) {
    static const char *const pairs[][2] = {
        {"{\"a\":1,\"b\":2}", "{\"b\":2,\"a\":1}"},
        {"1", "1.0"},
        {"1", "1e0"},
        {"1", "10e-1"},
        {"-0", "0"},
        {"0.5", "5e-1"},
        {"\"\\u00e9\"", "\"\xc3\xa9\""},
        {"\"a/b\"", "\"a\\/b\""},
        {"\"\\ud83d\\ude00\"", "\"\xf0\x9f\x98\x80\""},
        {"[1,null,3]", "{\"0\":1,\"2\":3}"},
        {"{\"a\":1,\"x\":null,\"e\":{},\"f\":[],\"g\":{\"h\":null}}", "{\"a\":1}"},
        {"{\".value\":5}", "5"},
        {"{\"a\":1,\"a\":2}", "{\"a\":2}"},
        {"{\"k\":{\"a\":1,\"a\":{\"b\":null}},\"z\":true}", "{\"z\":true}"},
        {"{\"a\":{\".value\":1,\".priority\":2}}", "{\"a\":{\".priority\":2.0,\".value\":1.0}}"},
        {"{\"a\":1,\".priority\":\"p\"}", "{\".priority\":\"p\",\"a\":1}"},
        {"{\"a\":1,\".priority\":null}", "{\"a\":1}"},
        {"[[1],[2]]", "{\"1\":{\"0\":2},\"0\":[1]}"},
    };
    check_pairs(t, pairs, sizeof pairs / sizeof pairs[0], 1);
}

static void different_values(lc_test *t) {
    static const char *const pairs[][2] = {
        {"1", "\"1\""},
        {"true", "1"},
        {"false", "true"},
        {"{\"a\":1}", "{\"a\":2}"},
        {"{\"a\":1}", "{\"b\":1}"},
        {"{\"ab\":1}", "{\"a\":{\"b\":1}}"},
        {"{\"a\":1,\".priority\":1}", "{\"a\":1}"},
        {"{\"a\":1,\".priority\":1}", "{\"a\":1,\".priority\":\"1\"}"},
        {"{\"a\":{\"b\":1,\".priority\":1}}", "{\"a\":{\"b\":1}}"},
        {"{\"0\":1}", "{\"00\":1}"},
        {"[1]", "{\"1\":1}"},
        {"{\"a\":1,\"b\":2}", "{\"a\":2,\"b\":1}"},
        {"{\"a\":{\"b\":1},\"c\":2}", "{\"a\":{\"c\":2},\"b\":1}"},
        {"\"\xc3\xa9\"", "\"e\xcc\x81\""},
        {"0.1", "0.10000000000000002"},
    };
    check_pairs(t, pairs, sizeof pairs / sizeof pairs[0], 0);
    /* Without priorities, only the normalised value counts. */
    lc_digest p1, p2, q;
    REQUIRE(t, digest_flags("{\"a\":{\".value\":1,\".priority\":2},\".priority\":3}", 0, &p1) &&
                   digest_flags("{\"a\":1}", 0, &p2) && digest_flags("{\"a\":2}", 0, &q));
    CHECK(t, same(p1, p2) && !same(p1, q));
    lc_digest absent;
    REQUIRE(t, digest_of("{\"x\":null}", &absent));
    CHECK(t, absent.high == 0 && absent.low == 0, "an empty value's digest is {0, 0}");
}

/* jansson drops one NUL byte right after a literal or a number, so the
 * scanner accepts such text: the text walk reads it as jansson does. */
static void nul_after_literals(lc_test *t) {
    static const char doc_text[] = "{\"c\":{\"a\":[{\"b\":false\0},true\0,null\0,7\0]}}";
    lc_doc *doc = NULL;
    REQUIRE(t, lc_doc_parse(doc_text, sizeof doc_text - 1, NULL, &doc, NULL) == LC_OK);
    const char *text;
    size_t len;
    REQUIRE(t, lc_doc_count(doc) == 1 && lc_doc_child_text(doc, 0, &text, &len) == LC_OK);
    json_t *tree = json_loadb(text, len, JSON_DECODE_ANY, NULL);
    REQUIRE(t, tree != NULL, "jansson reads the child's text");
    lc_digest d, from_tree, plain;
    CHECK(t, lc_doc_child_digest(doc, 0, LC_DIGEST_PRIORITIES, &d) == LC_OK);
    CHECK(t, lc_json_digest(tree, LC_DIGEST_PRIORITIES, &from_tree) == LC_OK && same(d, from_tree));
    REQUIRE(t, digest_of("{\"a\":[{\"b\":false},true,null,7]}", &plain));
    CHECK(t, same(d, plain), "the NULs change nothing");
    json_decref(tree);
    lc_doc_free(doc);
}

static void bad_arguments(lc_test *t) {
    lc_digest d;
    CHECK(t, lc_doc_child_digest(NULL, 0, 0, &d) == LC_ERR_ARGUMENT);
    lc_doc *doc = NULL;
    REQUIRE(t, lc_doc_parse("{\"a\":1}", 7, NULL, &doc, NULL) == LC_OK);
    CHECK(t, lc_doc_child_digest(doc, 1, 0, &d) == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_child_digest(doc, 0, 0, NULL) == LC_ERR_ARGUMENT);
    CHECK(t, lc_json_digest(NULL, 0, NULL) == LC_ERR_ARGUMENT);
    CHECK(t, lc_doc_root_digest(NULL, 0, &d) == LC_ERR_ARGUMENT && lc_doc_root_digest(doc, 0, NULL) == LC_ERR_ARGUMENT);
    CHECK(t, lc_json_digest(NULL, 0, &d) == LC_OK && d.high == 0 && d.low == 0);
    lc_doc_free(doc);
}

/* --- random values, each spelled two ways ------------------------------ */

typedef struct sb {
    char *p;
    size_t n, cap;
} sb;

static void put(sb *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) abort();
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}
static void puts_(sb *b, const char *s) { put(b, s, strlen(s)); }

static uint64_t next(uint64_t *r) {
    *r += UINT64_C(0x9e3779b97f4a7c15);
    uint64_t z = *r;
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}
static int pick(uint64_t *r, int n) { return (int)(next(r) % (uint64_t)n); }

static const char *const KEYS[] = {"a", "b", "0", "1", "00", "10", "\xc3\xa9", "e\xcc\x81", "x y", "-"};
static const char *const CHARS[] = {"a", "\"", "\\", "/", "\t", "\xc3\xa9", "\xf0\x9f\x98\x80", " "};

/* A string, plainly in a and with other escapes in b. */
static void gen_string(uint64_t *r, sb *a, sb *b) {
    puts_(a, "\"");
    puts_(b, "\"");
    for (int i = pick(r, 4); i > 0; i--) {
        const char *c = CHARS[pick(r, 8)];
        if (!strcmp(c, "\"")) { puts_(a, "\\\""); puts_(b, "\\u0022"); }
        else if (!strcmp(c, "\\")) { puts_(a, "\\\\"); puts_(b, "\\u005c"); }
        else if (!strcmp(c, "/")) { puts_(a, "/"); puts_(b, "\\/"); }
        else if (!strcmp(c, "\t")) { puts_(a, "\\t"); puts_(b, "\\u0009"); }
        else if (!strcmp(c, "\xc3\xa9")) { puts_(a, c); puts_(b, "\\u00E9"); }
        else if (!strcmp(c, "\xf0\x9f\x98\x80")) { puts_(a, c); puts_(b, "\\ud83d\\ude00"); }
        else { puts_(a, c); puts_(b, c); }
    }
    puts_(a, "\"");
    puts_(b, "\"");
}

static void gen_number(uint64_t *r, sb *a, sb *b) {
    char x[64], y[64];
    int k = pick(r, 2001) - 1000;
    switch (pick(r, 3)) {
    case 0: snprintf(x, sizeof x, "%d", k); snprintf(y, sizeof y, "%d.0", k); break;
    case 1: snprintf(x, sizeof x, "%d", k); snprintf(y, sizeof y, "%de0", k); break;
    default: snprintf(x, sizeof x, "%.17g", k / 8.0); snprintf(y, sizeof y, "%.17e", k / 8.0); break;
    }
    puts_(a, x);
    puts_(b, y);
}

static void gen(uint64_t *r, int depth, sb *a, sb *b);

/* Members of an object: in a in order, in b shuffled, with null and empty
 * members added that change nothing. */
static void gen_object(uint64_t *r, int depth, sb *a, sb *b) {
    int n = pick(r, 5);
    int used[10] = {0};
    sb parts[8];
    int np = 0;
    puts_(a, "{");
    for (int i = 0; i < n; i++) {
        int k = pick(r, 10);
        if (used[k]) continue;
        used[k] = 1;
        sb va = {0}, vb = {0};
        gen(r, depth + 1, &va, &vb);
        char key[32];
        snprintf(key, sizeof key, "\"%s\":", KEYS[k]);
        if (a->p[a->n - 1] != '{') puts_(a, ",");
        puts_(a, key);
        puts_(a, va.p);
        parts[np] = (sb){0};
        puts_(&parts[np], key);
        puts_(&parts[np], vb.p);
        np++;
        free(va.p);
        free(vb.p);
    }
    if (pick(r, 4) == 0) {
        char prio[48];
        if (pick(r, 2)) snprintf(prio, sizeof prio, "\".priority\":%d", pick(r, 5));
        else snprintf(prio, sizeof prio, "\".priority\":\"p%d\"", pick(r, 5));
        if (a->p[a->n - 1] != '{') puts_(a, ",");
        puts_(a, prio);
        parts[np] = (sb){0};
        puts_(&parts[np++], prio);
    }
    if (pick(r, 3) == 0) {
        parts[np] = (sb){0};
        puts_(&parts[np++], pick(r, 2) ? "\"zz\":null" : "\"zz\":{\"y\":[null,{}]}");
    }
    puts_(a, "}");
    puts_(b, "{");
    for (int i = np; i > 0; i--) {
        int j = pick(r, i);
        sb tmp = parts[j];
        parts[j] = parts[i - 1];
        parts[i - 1] = tmp;
    }
    for (int i = 0; i < np; i++) {
        if (i) puts_(b, ",");
        puts_(b, parts[i].p);
        free(parts[i].p);
    }
    puts_(b, "}");
}

static void gen_array(uint64_t *r, int depth, sb *a, sb *b) {
    int n = 1 + pick(r, 4), as_object = pick(r, 2);
    puts_(a, "[");
    puts_(b, as_object ? "{" : "[");
    int first_b = 1;
    for (int i = 0; i < n; i++) {
        sb va = {0}, vb = {0};
        if (pick(r, 4) == 0) { puts_(&va, "null"); puts_(&vb, "null"); }
        else gen(r, depth + 1, &va, &vb);
        if (i) puts_(a, ",");
        puts_(a, va.p);
        if (!as_object) {
            if (i) puts_(b, ",");
            puts_(b, vb.p);
        } else if (strcmp(vb.p, "null")) {
            char key[32];
            snprintf(key, sizeof key, "%s\"%d\":", first_b ? "" : ",", i);
            puts_(b, key);
            puts_(b, vb.p);
            first_b = 0;
        }
        free(va.p);
        free(vb.p);
    }
    puts_(a, "]");
    puts_(b, as_object ? "}" : "]");
}

static void gen(uint64_t *r, int depth, sb *a, sb *b) {
    int kind = pick(r, depth >= 3 ? 4 : 7);
    switch (kind) {
    case 0: puts_(a, "true"); puts_(b, "true"); break;
    case 1: gen_number(r, a, b); break;
    case 2: gen_string(r, a, b); break;
    case 3:
        if (pick(r, 2)) { puts_(a, "false"); puts_(b, "false"); break; }
        /* a leaf with a priority, wrapped in b only */
        {
            sb la = {0}, lb = {0};
            gen_number(r, &la, &lb);
            int p = pick(r, 3);
            char w[96];
            snprintf(w, sizeof w, "{\".value\":%s,\".priority\":%d}", la.p, p);
            puts_(a, w);
            snprintf(w, sizeof w, "{\".priority\":%d.0,\".value\":%s}", p, lb.p);
            puts_(b, w);
            free(la.p);
            free(lb.p);
        }
        break;
    case 4:
    case 5: gen_object(r, depth, a, b); break;
    default: gen_array(r, depth, a, b); break;
    }
}

/* A canonical printout of a jansson value read as Firebase data: what two
 * values must share to be equal. */
static void canonical(const json_t *v, sb *out);

static int compare_strings(const void *x, const void *y) { return strcmp(*(char *const *)x, *(char *const *)y); }

static void canonical_members(const char **keys, const json_t **vals, size_t n, const json_t *prio, sb *out) {
    char **lines = calloc(n + 1, sizeof *lines);
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        sb one = {0};
        canonical(vals[i], &one);
        if (!one.p) continue;
        sb line = {0};
        puts_(&line, keys[i]);
        puts_(&line, "=");
        puts_(&line, one.p);
        free(one.p);
        lines[m++] = line.p;
    }
    if (m) {
        qsort(lines, m, sizeof *lines, compare_strings);
        puts_(out, "{");
        for (size_t i = 0; i < m; i++) {
            puts_(out, lines[i]);
            puts_(out, ";");
            free(lines[i]);
        }
        puts_(out, "}");
        if (prio && (json_is_number(prio) || json_is_string(prio))) {
            sb p = {0};
            canonical(prio, &p);
            puts_(out, "^");
            puts_(out, p.p);
            free(p.p);
        }
    }
    free(lines);
}

static void canonical(const json_t *v, sb *out) {
    char x[64];
    switch (json_typeof(v)) {
    case JSON_NULL: return;
    case JSON_TRUE: puts_(out, "T"); return;
    case JSON_FALSE: puts_(out, "F"); return;
    case JSON_INTEGER:
    case JSON_REAL: {
        double d = json_number_value(v);
        snprintf(x, sizeof x, "n%.17g", d == 0 ? 0.0 : d);
        puts_(out, x);
        return;
    }
    case JSON_STRING: puts_(out, "s"); put(out, json_string_value(v), json_string_length(v)); return;
    case JSON_ARRAY: {
        size_t n = json_array_size(v);
        const char **keys = calloc(n + 1, sizeof *keys);
        const json_t **vals = calloc(n + 1, sizeof *vals);
        char (*names)[24] = calloc(n + 1, sizeof *names);
        for (size_t i = 0; i < n; i++) {
            snprintf(names[i], sizeof names[i], "%zu", i);
            keys[i] = names[i];
            vals[i] = json_array_get(v, i);
        }
        canonical_members(keys, vals, n, NULL, out);
        free(keys);
        free(vals);
        free(names);
        return;
    }
    case JSON_OBJECT: {
        const json_t *prio = json_object_get(v, ".priority"), *inner = json_object_get(v, ".value");
        if (inner) {
            sb in = {0};
            canonical(inner, &in);
            if (in.p) {
                puts_(out, in.p);
                if (prio && (json_is_number(prio) || json_is_string(prio))) {
                    sb p = {0};
                    canonical(prio, &p);
                    puts_(out, "^");
                    puts_(out, p.p);
                    free(p.p);
                }
            }
            free(in.p);
            return;
        }
        size_t n = json_object_size(v), i = 0;
        const char **keys = calloc(n + 1, sizeof *keys);
        const json_t **vals = calloc(n + 1, sizeof *vals);
        const char *k;
        json_t *m;
        json_object_foreach((json_t *)v, k, m) {
            if (!strcmp(k, ".priority")) continue;
            keys[i] = k;
            vals[i++] = m;
        }
        canonical_members(keys, vals, i, prio, out);
        free(keys);
        free(vals);
        return;
    }
    }
}

typedef struct seen {
    lc_digest d;
    char *canon;
} seen;

static int compare_seen(const void *x, const void *y) {
    const seen *a = x, *b = y;
    if (a->d.high != b->d.high) return a->d.high < b->d.high ? -1 : 1;
    if (a->d.low != b->d.low) return a->d.low < b->d.low ? -1 : 1;
    return 0;
}

static int compare_canon(const void *x, const void *y) {
    return strcmp(((const seen *)x)->canon, ((const seen *)y)->canon);
}

static void random_values(lc_test *t) {
    uint64_t seed = lc_test_seed() + 31, r = seed;
    enum { N = 3000 };
    seen *all = calloc(N, sizeof *all);
    REQUIRE(t, all != NULL);
    for (int i = 0; i < N; i++) {
        sb a = {0}, b = {0};
        gen(&r, 0, &a, &b);
        lc_digest da, db, dj;
        int ok = digest_of(a.p, &da) && digest_of(b.p, &db);
        lc_doc *whole = NULL;
        lc_digest dr;
        ok = ok && lc_doc_parse(b.p, b.n, NULL, &whole, NULL) == LC_OK &&
             lc_doc_root_digest(whole, LC_DIGEST_PRIORITIES, &dr) == LC_OK;
        lc_doc_free(whole);
        ok = ok && same(dr, da);
        json_t *j = json_loads(a.p, JSON_DECODE_ANY, NULL);
        ok = ok && j && lc_json_digest(j, LC_DIGEST_PRIORITIES, &dj) == LC_OK;
        /* Value only: the text's, the tree's and the normalised value's agree. */
        lc_digest va, vb, vj, vn;
        ok = ok && digest_flags(a.p, 0, &va) && digest_flags(b.p, 0, &vb) && lc_json_digest(j, 0, &vj) == LC_OK;
        int oom = 0;
        json_t *copy = j ? json_deep_copy(j) : NULL; /* normalised in place */
        json_t *normal = copy ? lc_json_normalize(copy, &oom) : NULL;
        ok = ok && !oom && lc_json_digest(normal, LC_DIGEST_PRIORITIES, &vn) == LC_OK;
        json_decref(normal);
        json_decref(copy);
        CHECK(t, !ok || (same(va, vb) && same(va, vj) && same(va, vn)), "value %d (seed %llu): %s: value digests differ",
              i, (unsigned long long)seed, a.p);
        sb canon = {0};
        if (j) canonical(j, &canon);
        json_decref(j);
        CHECK(t, ok, "value %d (seed %llu): %s / %s", i, (unsigned long long)seed, a.p, b.p);
        CHECK(t, !ok || (same(da, db) && same(da, dj)), "value %d (seed %llu): %s and %s differ", i,
              (unsigned long long)seed, a.p, b.p);
        all[i].d = da;
        if (!canon.p) puts_(&canon, "");
        all[i].canon = canon.p;
        free(a.p);
        free(b.p);
        if (t->failures) break;
    }
    if (t->failures) {
        for (int i = 0; i < N; i++) free(all[i].canon);
        free(all);
        return;
    }
    /* Equal digests exactly when the canonical printouts are equal. */
    qsort(all, N, sizeof *all, compare_seen);
    int distinct = 0;
    for (int i = 0; i < N; i++) {
        if (i && same(all[i].d, all[i - 1].d)) {
            CHECK(t, !strcmp(all[i].canon, all[i - 1].canon),
                  "seed %llu: one digest for %s and %s", (unsigned long long)seed, all[i].canon, all[i - 1].canon);
        } else {
            distinct++;
        }
    }
    qsort(all, N, sizeof *all, compare_canon);
    for (int i = 1; i < N; i++) {
        if (!strcmp(all[i].canon, all[i - 1].canon))
            CHECK(t, same(all[i].d, all[i - 1].d), "seed %llu: %s has two digests", (unsigned long long)seed,
                  all[i].canon);
    }
    CHECK(t, distinct > N / 3, "seed %llu: only %d distinct values", (unsigned long long)seed, distinct);
    for (int i = 0; i < N; i++) free(all[i].canon);
    free(all);
}

/* --- digests built from parts ------------------------------------------ */

/* The digest of a jansson value built from its parts, as a tree of nodes
 * would build it: leaves, members in jansson's order, priorities. */
static lc_digest parts_digest(const json_t *v) {
    lc_digest none = {0, 0};
    switch (json_typeof(v)) {
    case JSON_NULL: return none;
    case JSON_TRUE: return lc_digest_bool(1);
    case JSON_FALSE: return lc_digest_bool(0);
    case JSON_INTEGER:
    case JSON_REAL: return lc_digest_number(json_number_value(v));
    case JSON_STRING: return lc_digest_string(json_string_value(v), json_string_length(v));
    case JSON_ARRAY: {
        lc_digest_members m = {0, 0, 0};
        for (size_t i = 0; i < json_array_size(v); i++) {
            char key[24];
            int n = snprintf(key, sizeof key, "%zu", i);
            lc_digest_members_add(&m, key, (size_t)n, parts_digest(json_array_get(v, i)));
        }
        return lc_digest_object(&m);
    }
    case JSON_OBJECT: {
        const json_t *p = json_object_get(v, ".priority"), *inner = json_object_get(v, ".value");
        lc_digest priority = p ? parts_digest(p) : none;
        if (inner) return lc_digest_with_priority(parts_digest(inner), priority);
        lc_digest_members m = {0, 0, 0};
        const char *k;
        size_t klen;
        json_t *member;
        json_object_keylen_foreach((json_t *)v, k, klen, member) {
            if (klen == 9 && !memcmp(k, ".priority", 9)) continue;
            lc_digest_members_add(&m, k, klen, parts_digest(member));
        }
        return lc_digest_with_priority(lc_digest_object(&m), priority);
    }
    }
    return none;
}

static void built_from_parts(lc_test *t) {
    uint64_t seed = lc_test_seed() + 47, r = seed;
    lc_digester *digester = lc_digester_new();
    REQUIRE(t, digester != NULL);
    for (int i = 0; i < 2000 && !t->failures; i++) {
        sb a = {0}, b = {0};
        gen(&r, 0, &a, &b);
        lc_digest text, parts;
        json_t *j = json_loads(a.p, JSON_DECODE_ANY, NULL);
        REQUIRE(t, j != NULL, "seed %llu: %s", (unsigned long long)seed, a.p);
        /* The text unpadded, as it lies in a larger buffer. */
        CHECK(t, lc_digest_of_text(b.p, b.n, LC_DIGEST_PRIORITIES, &text) == LC_OK, "seed %llu: %s",
              (unsigned long long)seed, b.p);
        parts = parts_digest(j);
        CHECK(t, same(text, parts), "value %d (seed %llu): %s: built from parts differs", i, (unsigned long long)seed,
              a.p);
        /* One digester for every text, the failing ones in between. */
        lc_digest kept, bad;
        CHECK(t, lc_digester_digest(digester, "[1,", 3, 0, &bad) != LC_OK);
        CHECK(t, lc_digester_digest(digester, b.p, b.n, LC_DIGEST_PRIORITIES, &kept) == LC_OK && same(kept, text),
              "value %d (seed %llu): %s: the digester differs", i, (unsigned long long)seed, b.p);
        json_decref(j);
        free(a.p);
        free(b.p);
    }
    lc_digester_free(digester);
}

static void parts_bad_arguments(lc_test *t) {
    lc_digest d = {1, 1};
    CHECK(t, lc_digest_of_text(NULL, 3, 0, &d) == LC_ERR_ARGUMENT);
    CHECK(t, lc_digest_of_text("1", 1, 0, NULL) == LC_ERR_ARGUMENT);
    CHECK(t, lc_digest_of_text("{\"a\":", 5, 0, &d) != LC_OK);
    CHECK(t, lc_digest_of_text("1 2", 3, 0, &d) != LC_OK);
    CHECK(t, lc_digest_of_text("[1,", 3, 0, &d) != LC_OK);
    CHECK(t, lc_digest_of_text("\"\\ud800\"", 8, 0, &d) != LC_OK); /* a lone surrogate, as jansson refuses it */
    CHECK(t, lc_digest_of_text(" {\"b\":1, \"a\":2} ", 16, 0, &d) == LC_OK);
    CHECK(t, lc_digest_of_text(NULL, 0, 0, &d) != LC_OK); /* no value at all */
    CHECK(t, lc_digester_digest(NULL, "1", 1, 0, &d) == LC_ERR_ARGUMENT);
    lc_digester_free(NULL);
    lc_digest none = {0, 0};
    lc_digest_members_add(NULL, "a", 1, lc_digest_bool(1));
    lc_digest_members m = {0, 0, 0};
    lc_digest_members_add(&m, NULL, 2, lc_digest_bool(1)); /* ignored */
    lc_digest_members_add(&m, "a", 1, none);                /* absent: no member */
    CHECK(t, same(lc_digest_object(&m), none));
    CHECK(t, same(lc_digest_object(NULL), none));
    lc_digest_members_remove(&m, "a", 1, lc_digest_bool(1)); /* no member: ignored */
    lc_digest_members_remove(NULL, "a", 1, lc_digest_bool(1));
    CHECK(t, m.count == 0 && m.sum_high == 0 && m.sum_low == 0);
    /* A member changed by a removal and an addition: the digest of the
     * object written with the new member. */
    lc_digest_members ab = {0, 0, 0}, changed = {0, 0, 0};
    lc_digest_members_add(&ab, "a", 1, lc_digest_number(1));
    lc_digest_members_add(&ab, "b", 1, lc_digest_string("x", 1));
    lc_digest_members_remove(&ab, "b", 1, lc_digest_string("x", 1));
    lc_digest_members_add(&ab, "b", 1, lc_digest_number(2));
    lc_digest_members_remove(&ab, "zz", 2, none); /* absent: ignored */
    lc_digest_members_add(&changed, "b", 1, lc_digest_number(2));
    lc_digest_members_add(&changed, "a", 1, lc_digest_number(1));
    CHECK(t, same(lc_digest_object(&ab), lc_digest_object(&changed)));
    CHECK(t, lc_digest_of_text("{\"a\":1,\"b\":2}", 13, 0, &d) == LC_OK && same(d, lc_digest_object(&ab)));
    lc_digest_members_remove(&ab, "a", 1, lc_digest_number(1));
    lc_digest_members_remove(&ab, "b", 1, lc_digest_number(2));
    CHECK(t, same(lc_digest_object(&ab), none));
    CHECK(t, same(lc_digest_with_priority(none, lc_digest_number(1)), none));
    CHECK(t, same(lc_digest_string(NULL, 5), lc_digest_string("", 0)));
    CHECK(t, same(lc_digest_number(-0.0), lc_digest_number(0.0)));
    CHECK(t, lc_digest_of_text("-0", 2, 0, &d) == LC_OK && same(d, lc_digest_number(0)));
    /* A priority that is neither a number nor a string counts for nothing,
     * whether the text is walked or (a key twice) read by jansson. */
    lc_digest walked, reread, plain;
    const char *a = "{\".priority\":true,\"a\":1}", *b = "{\".priority\":true,\"a\":0,\"a\":1}", *c = "{\"a\":1}";
    CHECK(t, lc_digest_of_text(a, strlen(a), LC_DIGEST_PRIORITIES, &walked) == LC_OK);
    CHECK(t, lc_digest_of_text(b, strlen(b), LC_DIGEST_PRIORITIES, &reread) == LC_OK);
    CHECK(t, lc_digest_of_text(c, strlen(c), LC_DIGEST_PRIORITIES, &plain) == LC_OK);
    CHECK(t, same(walked, reread) && same(walked, plain));
}

const lc_test_case digest_tests[] = {
    {"digest_equal_spellings", equal_spellings},
    {"digest_different_values", different_values},
    {"digest_bad_arguments", bad_arguments},
    {"digest_nul_after_literals", nul_after_literals},
    {"digest_random_values", random_values},
    {"digest_built_from_parts", built_from_parts},
    {"digest_parts_bad_arguments", parts_bad_arguments},
    {NULL, NULL},
};
