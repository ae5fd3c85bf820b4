/* test_index.c — the ordered index against a brute-force sorted array. */
#include <stdio.h>
#include <stdlib.h>

#include "lc_index.h"
#include "lc_key.h"
#include "lc_test.h"

/* ---- the model: candidate keys and values, a sorted array of key numbers ---- */

#define NKEYS 5000
#define NVALS 40

typedef struct model {
    char keys[NKEYS][48];
    size_t klen[NKEYS];
    char vstr[NVALS][48];
    lc_value vals[NVALS];
    int value_of[NKEYS]; /* -1: absent */
    int order[NKEYS];
    size_t n;
} model;

static void make_key(uint64_t *r, char *out, size_t *len, int i) {
    switch (lc_test_rand(r) % 6) {
    case 0: *len = (size_t)sprintf(out, "%d", (int)(lc_test_rand(r) % 2001) - 1000); break;
    case 1: *len = (size_t)sprintf(out, "%s%d", (lc_test_rand(r) & 1) ? "-0" : "00", (int)(lc_test_rand(r) % 50)); break;
    case 2: *len = (size_t)sprintf(out, "-Nlongcommonprefix%04d", i); break;
    case 3: *len = (size_t)sprintf(out, "k%d\xC3\xA9", i); break;
    case 4: *len = (size_t)sprintf(out, "\xF0\x9F\x98\x80%d\xEF\xBD\xA1", i); break;
    default: *len = (size_t)sprintf(out, "%u", (unsigned)(lc_test_rand(r) % 4294967296ull)); break;
    }
}

static void model_init(model *m, uint64_t *r) {
    memset(m, 0, sizeof *m);
    for (int i = 0; i < NKEYS; i++) {
        for (;;) { /* distinct keys only */
            make_key(r, m->keys[i], &m->klen[i], i);
            int dup = 0;
            for (int j = 0; j < i && !dup; j++)
                dup = m->klen[j] == m->klen[i] && !memcmp(m->keys[j], m->keys[i], m->klen[i]);
            if (!dup) break;
        }
        m->value_of[i] = -1;
    }
    for (int v = 0; v < NVALS; v++) {
        switch (v % 6) {
        case 0: m->vals[v] = v < 6 ? lc_value_null() : lc_value_bool(v % 12 == 6); break;
        case 1: m->vals[v] = lc_value_number(v == 1 ? -0.0 : (double)(v / 4) - 3.5); break;
        case 2: m->vals[v] = lc_value_number((double)(v % 5)); break;
        case 3:
            sprintf(m->vstr[v], "a shared long prefix %d", v % 4);
            m->vals[v] = lc_value_string(m->vstr[v], strlen(m->vstr[v]));
            break;
        case 4:
            sprintf(m->vstr[v], "%s", (const char *[]){"", "b", "\xEF\xBD\xA1", "\xF0\x9F\x98\x80"}[v % 4]);
            m->vals[v] = lc_value_string(m->vstr[v], strlen(m->vstr[v]));
            break;
        default: m->vals[v] = lc_value_object(); break;
        }
    }
}

static int model_cmp(const model *m, int a, int b) {
    int c = lc_value_compare(&m->vals[m->value_of[a]], &m->vals[m->value_of[b]]);
    return c ? c : lc_key_compare(m->keys[a], m->klen[a], m->keys[b], m->klen[b]);
}

static size_t model_insert(model *m, int k, int v) {
    m->value_of[k] = v;
    size_t pos = 0;
    while (pos < m->n && model_cmp(m, m->order[pos], k) < 0) pos++;
    memmove(m->order + pos + 1, m->order + pos, (m->n - pos) * sizeof m->order[0]);
    m->order[pos] = k;
    m->n++;
    return pos;
}

static size_t model_remove(model *m, int k) {
    size_t pos = 0;
    while (m->order[pos] != k) pos++;
    memmove(m->order + pos, m->order + pos + 1, (m->n - pos - 1) * sizeof m->order[0]);
    m->n--;
    m->value_of[k] = -1;
    return pos;
}

static int same_entry(const model *m, int k, const char *key, size_t len, const lc_value *v) {
    return len == m->klen[k] && !memcmp(key, m->keys[k], len) &&
           lc_value_compare(v, &m->vals[m->value_of[k]]) == 0 && v->tag == m->vals[m->value_of[k]].tag;
}

static int compare_all(lc_test *t, const model *m, const lc_index *ix, uint64_t seed, long op) {
    lc_error err;
    if (lc_index_check(ix, &err) != LC_OK) {
        LC_FAIL(t, "seed %llu op %ld: %s", (unsigned long long)seed, op, err.text);
        return 0;
    }
    if (lc_index_count(ix) != m->n) {
        LC_FAIL(t, "seed %llu op %ld: count %zu want %zu", (unsigned long long)seed, op, lc_index_count(ix), m->n);
        return 0;
    }
    lc_index_iter it;
    lc_index_iter_init(ix, 0, &it);
    const char *key;
    size_t len, i = 0;
    lc_value v;
    while (lc_index_iter_next(&it, &key, &len, &v, NULL)) {
        if (i >= m->n || !same_entry(m, m->order[i], key, len, &v)) {
            LC_FAIL(t, "seed %llu op %ld: entry %zu differs (\"%.*s\")", (unsigned long long)seed, op, i, (int)len, key);
            return 0;
        }
        i++;
    }
    return i == m->n;
}

/* Position of the first model entry not below (v, key); key NULL: before/after all keys. */
static size_t model_bound(const model *m, const lc_value *v, int key, int upper) {
    size_t pos = 0;
    for (; pos < m->n; pos++) {
        int e = m->order[pos];
        int c = lc_value_compare(v, &m->vals[m->value_of[e]]);
        if (!c) c = key < 0 ? (upper ? 1 : -1) : lc_key_compare(m->keys[key], m->klen[key], m->keys[e], m->klen[e]);
        if (upper ? c < 0 : c <= 0) break;
    }
    return pos;
}

static void test_index_differential(lc_test *t) {
    uint64_t seed = lc_test_seed(), r = seed;
    model *m = malloc(sizeof *m);
    REQUIRE(t, m != NULL);
    model_init(m, &r);
    lc_index *ix = lc_index_new();
    REQUIRE(t, ix != NULL);
    const long ops = 200000;
    for (long op = 0; op < ops && !t->failures; op++) {
        int k = (int)(lc_test_rand(&r) % NKEYS), v = (int)(lc_test_rand(&r) % NVALS);
        /* Drift the target size between phases so the tree grows and shrinks. */
        int grow = (op / 20000) % 2 == 0;
        unsigned what = (unsigned)(lc_test_rand(&r) % 100);
        size_t pos = 99999, old = 99999;
        uint32_t id;
        lc_status st;
        if (what < (grow ? 45u : 25u)) {
            st = lc_index_insert(ix, m->keys[k], m->klen[k], &m->vals[v], &pos, &id);
            if (m->value_of[k] >= 0) CHECK(t, st == LC_ERR_DUPLICATE_KEY, "seed %llu op %ld", (unsigned long long)seed, op);
            else CHECK(t, st == LC_OK && pos == model_insert(m, k, v), "seed %llu op %ld insert", (unsigned long long)seed, op);
        } else if (what < 70) {
            st = lc_index_remove(ix, m->keys[k], m->klen[k], &pos, &id);
            if (m->value_of[k] < 0) CHECK(t, st == LC_ERR_NOT_FOUND, "seed %llu op %ld", (unsigned long long)seed, op);
            else CHECK(t, st == LC_OK && pos == model_remove(m, k), "seed %llu op %ld remove", (unsigned long long)seed, op);
        } else if (what < 92) {
            st = lc_index_update(ix, m->keys[k], m->klen[k], &m->vals[v], &old, &pos);
            if (m->value_of[k] < 0) CHECK(t, st == LC_ERR_NOT_FOUND, "seed %llu op %ld", (unsigned long long)seed, op);
            else {
                size_t want_old = model_remove(m, k), want_new = model_insert(m, k, v);
                CHECK(t, st == LC_OK && old == want_old && pos == want_new,
                      "seed %llu op %ld update %zu->%zu want %zu->%zu", (unsigned long long)seed, op, old, pos, want_old, want_new);
            }
        } else if (what < 96) {
            int bk = (lc_test_rand(&r) & 1) ? k : -1, upper = (int)(lc_test_rand(&r) & 1);
            size_t got = upper ? lc_index_upper_bound(ix, &m->vals[v], bk < 0 ? NULL : m->keys[k], bk < 0 ? 0 : m->klen[k])
                               : lc_index_lower_bound(ix, &m->vals[v], bk < 0 ? NULL : m->keys[k], bk < 0 ? 0 : m->klen[k]);
            CHECK(t, got == model_bound(m, &m->vals[v], bk, upper), "seed %llu op %ld bound", (unsigned long long)seed, op);
        } else {
            st = lc_index_find(ix, m->keys[k], m->klen[k], &pos, &id);
            if (m->value_of[k] < 0) CHECK(t, st == LC_ERR_NOT_FOUND);
            else {
                CHECK(t, st == LC_OK && m->order[pos] == k, "seed %llu op %ld find", (unsigned long long)seed, op);
                if (m->n) {
                    size_t at = lc_test_rand(&r) % m->n, len;
                    const char *key;
                    lc_value val;
                    CHECK(t, lc_index_at(ix, at, &key, &len, &val, NULL) == LC_OK && same_entry(m, m->order[at], key, len, &val),
                          "seed %llu op %ld at", (unsigned long long)seed, op);
                }
            }
        }
        if (op % 5000 == 0 || op == ops - 1) compare_all(t, m, ix, seed, op);
    }
    lc_index_free(ix);
    free(m);
}

static void test_index_large_tree(lc_test *t) {
    uint64_t seed = lc_test_seed() ^ 0xABCDEF, r = seed;
    lc_index *ix = lc_index_new();
    REQUIRE(t, ix != NULL);
    enum { N = 150000 };
    char key[32];
    for (int i = 0; i < N; i++) {
        lc_value v = lc_value_number((double)(lc_test_rand(&r) % 1000));
        size_t len = (size_t)sprintf(key, "-K%08x", (unsigned)i * 2654435761u);
        REQUIRE(t, lc_index_insert(ix, key, len, &v, NULL, NULL) == LC_OK, "insert %d", i);
    }
    lc_error err;
    CHECK(t, lc_index_check(ix, &err) == LC_OK, "%s", err.text);
    for (int i = 0; i < N; i++) {
        lc_value v = lc_value_number((double)(lc_test_rand(&r) % 1000));
        size_t len = (size_t)sprintf(key, "-K%08x", (unsigned)((unsigned long long)i * 7919u % N) * 2654435761u);
        REQUIRE(t, lc_index_update(ix, key, len, &v, NULL, NULL) == LC_OK);
    }
    CHECK(t, lc_index_check(ix, &err) == LC_OK, "%s", err.text);
    for (int i = 0; i < N; i++) {
        size_t len = (size_t)sprintf(key, "-K%08x", (unsigned)((unsigned long long)i * 104729u % N) * 2654435761u);
        REQUIRE(t, lc_index_remove(ix, key, len, NULL, NULL) == LC_OK, "remove %d", i);
        if (i % 30011 == 0) CHECK(t, lc_index_check(ix, &err) == LC_OK, "%s", err.text);
    }
    CHECK(t, lc_index_count(ix) == 0 && lc_index_check(ix, &err) == LC_OK);
    lc_index_free(ix);
}

static void test_index_arguments(lc_test *t) {
    lc_index *ix = lc_index_new();
    REQUIRE(t, ix != NULL);
    lc_value v = lc_value_number(1), inf = lc_value_number(1.0 / 0.0);
    CHECK(t, lc_index_insert(NULL, "a", 1, &v, NULL, NULL) == LC_ERR_ARGUMENT);
    CHECK(t, lc_index_insert(ix, NULL, 1, &v, NULL, NULL) == LC_ERR_ARGUMENT);
    CHECK(t, lc_index_insert(ix, "a", 1, NULL, NULL, NULL) == LC_ERR_ARGUMENT);
    CHECK(t, lc_index_insert(ix, "a", 1, &inf, NULL, NULL) == LC_ERR_ARGUMENT);
    CHECK(t, lc_index_insert(ix, "a.b", 3, &v, NULL, NULL) == LC_ERR_KEY_INVALID);
    CHECK(t, lc_index_insert(ix, "", 0, &v, NULL, NULL) == LC_ERR_KEY_INVALID);
    CHECK(t, lc_index_remove(ix, "zz", 2, NULL, NULL) == LC_ERR_NOT_FOUND);
    CHECK(t, lc_index_update(ix, "zz", 2, &v, NULL, NULL) == LC_ERR_NOT_FOUND);
    CHECK(t, lc_index_at(ix, 0, NULL, NULL, NULL, NULL) == LC_ERR_ARGUMENT);
    CHECK(t, lc_index_entry(ix, 12345, NULL, NULL, NULL) == LC_ERR_NOT_FOUND);
    CHECK(t, lc_index_lower_bound(NULL, &v, NULL, 0) == 0);
    CHECK(t, lc_index_count(NULL) == 0);
    lc_index_iter it;
    CHECK(t, lc_index_iter_init(ix, 1, &it) == LC_ERR_ARGUMENT);
    CHECK(t, lc_index_iter_init(ix, 0, &it) == LC_OK && !lc_index_iter_next(&it, NULL, NULL, NULL, NULL));
    CHECK(t, lc_index_count(ix) == 0);
    lc_index_free(ix);
    lc_index_free(NULL);
}

static void test_index_strings_alias_and_reuse(lc_test *t) {
    lc_index *ix = lc_index_new();
    REQUIRE(t, ix != NULL);
    char key[16], val[64];
    for (int i = 0; i < 2000; i++) {
        size_t kl = (size_t)sprintf(key, "s%d", i), vl = (size_t)sprintf(val, "value with a long common prefix %05d", i % 97);
        lc_value v = lc_value_string(val, vl);
        REQUIRE(t, lc_index_insert(ix, key, kl, &v, NULL, NULL) == LC_OK);
    }
    /* Values borrowed from the index itself, while the arena grows and compacts. */
    for (int round = 0; round < 20; round++)
        for (int i = 0; i < 2000; i += 3) {
            size_t kl = (size_t)sprintf(key, "s%d", i);
            lc_value other;
            REQUIRE(t, lc_index_entry(ix, (uint32_t)((i * 7 + round) % 2000), NULL, NULL, &other) == LC_OK);
            REQUIRE(t, lc_index_update(ix, key, kl, &other, NULL, NULL) == LC_OK);
        }
    lc_error err;
    CHECK(t, lc_index_check(ix, &err) == LC_OK, "%s", err.text);
    /* Ids of removed keys are reused. */
    uint32_t id1, id2;
    CHECK(t, lc_index_remove(ix, "s5", 2, NULL, &id1) == LC_OK);
    lc_value n = lc_value_null();
    CHECK(t, lc_index_insert(ix, "fresh", 5, &n, NULL, &id2) == LC_OK && id1 == id2);
    size_t total, payload;
    lc_index_memory(ix, &total, &payload);
    CHECK(t, total > payload && payload > 0);
    lc_index_clear(ix);
    CHECK(t, lc_index_count(ix) == 0 && lc_index_check(ix, &err) == LC_OK);
    CHECK(t, lc_index_insert(ix, "again", 5, &n, NULL, NULL) == LC_OK && lc_index_count(ix) == 1);
    lc_index_free(ix);
}

static void test_index_upsert(lc_test *t) {
    lc_index *ix = lc_index_new();
    REQUIRE(t, ix != NULL);
    lc_value one = lc_value_number(1), three = lc_value_number(3), two = lc_value_number(2);
    size_t a, b;
    uint32_t id, id2;
    CHECK(t, lc_index_upsert(ix, "x", 1, &one, &a, &b, &id) == LC_OK && a == LC_NO_POSITION && b == 0);
    CHECK(t, lc_index_upsert(ix, "y", 1, &two, &a, &b, NULL) == LC_OK && a == LC_NO_POSITION && b == 1);
    CHECK(t, lc_index_upsert(ix, "x", 1, &three, &a, &b, &id2) == LC_OK && a == 0 && b == 1 && id2 == id);
    CHECK(t, lc_index_upsert(ix, "bad.key", 7, &one, &a, &b, NULL) == LC_ERR_KEY_INVALID && a == LC_NO_POSITION);
    CHECK(t, lc_index_count(ix) == 2);
    lc_index_free(ix);
}

LC_TEST_TABLE(index_tests) = {
    {"index_upsert", test_index_upsert},
    {"index_differential_random", test_index_differential},
    {"index_large_tree", test_index_large_tree},
    {"index_arguments", test_index_arguments},
    {"index_strings_alias_and_reuse", test_index_strings_alias_and_reuse},
    LC_TEST_END,
};
