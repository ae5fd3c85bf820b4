/* test_index_apply.c — lc_index_apply against the single-event calls. */
#include <stdio.h>
#include <stdlib.h>

#include "lc_index.h"
#include "lc_test.h"

enum { BASE = 70000, EVENTS = 60000, KEYSPACE = 140000 };

static size_t make_key(char *buf, uint64_t k) { return (size_t)sprintf(buf, "k%06llu", (unsigned long long)k); }

/* Applies the same random events to one index through lc_index_apply and to
 * another one call at a time: every result and the final content agree. */
static void test_apply_matches_single_calls(lc_test *t) {
    uint64_t seed = lc_test_seed(), r = seed;
    lc_index *batched = lc_index_new(), *single = lc_index_new();
    REQUIRE(t, batched && single);
    char key[16];
    for (uint64_t i = 0; i < BASE; i++) {
        size_t len = make_key(key, i * 2);
        lc_value v = lc_value_number((double)(lc_test_rand(&r) % 5000));
        REQUIRE(t, lc_index_insert(batched, key, len, &v, NULL, NULL) == LC_OK);
        REQUIRE(t, lc_index_insert(single, key, len, &v, NULL, NULL) == LC_OK);
    }
    char (*keys)[16] = malloc(sizeof *keys * EVENTS);
    lc_event *events = malloc(sizeof *events * EVENTS);
    lc_event_result *results = malloc(sizeof *results * EVENTS);
    REQUIRE(t, keys && events && results);
    for (size_t e = 0; e < EVENTS; e++) {
        unsigned what = (unsigned)(lc_test_rand(&r) % 100);
        events[e].op = what < 30 ? LC_OP_INSERT : what < 55 ? LC_OP_REMOVE : what < 85 ? LC_OP_UPDATE
                     : what < 99 ? LC_OP_UPSERT : (lc_op)7; /* an unknown op now and then */
        events[e].key_len = make_key(keys[e], lc_test_rand(&r) % KEYSPACE);
        events[e].key = keys[e];
        events[e].value = (lc_test_rand(&r) & 3) ? lc_value_number((double)(lc_test_rand(&r) % 5000))
                                                 : lc_value_string(keys[e], 3);
    }
    size_t ok = lc_index_apply(batched, events, EVENTS, results);
    size_t ok_single = 0;
    for (size_t e = 0; e < EVENTS && !t->failures; e++) {
        const lc_event *ev = &events[e];
        size_t a = LC_NO_POSITION, b = LC_NO_POSITION;
        uint32_t id = LC_ID_NONE;
        lc_status st;
        switch (ev->op) {
        case LC_OP_INSERT: st = lc_index_insert(single, ev->key, ev->key_len, &ev->value, &b, &id); break;
        case LC_OP_REMOVE: st = lc_index_remove(single, ev->key, ev->key_len, &a, &id); break;
        case LC_OP_UPDATE:
            st = lc_index_update(single, ev->key, ev->key_len, &ev->value, &a, &b);
            if (st == LC_OK) lc_index_find(single, ev->key, ev->key_len, NULL, &id);
            break;
        case LC_OP_UPSERT:
            st = lc_index_update(single, ev->key, ev->key_len, &ev->value, &a, &b);
            if (st == LC_OK) lc_index_find(single, ev->key, ev->key_len, NULL, &id);
            else if (st == LC_ERR_NOT_FOUND) {
                a = LC_NO_POSITION;
                st = lc_index_insert(single, ev->key, ev->key_len, &ev->value, &b, &id);
            }
            break;
        default: st = LC_ERR_ARGUMENT;
        }
        if (st != LC_OK) a = b = LC_NO_POSITION;
        if (st == LC_OK) ok_single++;
        const lc_event_result *got = &results[e];
        CHECK(t, got->status == st && got->old_position == a && got->new_position == b &&
                 (st != LC_OK || got->id == id),
              "seed %llu event %zu op %d: got %s %zu->%zu want %s %zu->%zu", (unsigned long long)seed, e,
              (int)ev->op, lc_status_name(got->status), got->old_position, got->new_position,
              lc_status_name(st), a, b);
    }
    CHECK(t, ok == ok_single, "ok %zu vs %zu", ok, ok_single);
    lc_error err;
    CHECK(t, lc_index_check(batched, &err) == LC_OK, "%s", err.text);
    CHECK(t, lc_index_count(batched) == lc_index_count(single));
    lc_index_iter ia, ib;
    lc_index_iter_init(batched, 0, &ia);
    lc_index_iter_init(single, 0, &ib);
    const char *ka, *kb;
    size_t la, lb, n = 0;
    while (lc_index_iter_next(&ia, &ka, &la, NULL, NULL)) {
        REQUIRE(t, lc_index_iter_next(&ib, &kb, &lb, NULL, NULL) && la == lb && !memcmp(ka, kb, la), "entry %zu", n);
        n++;
    }
    CHECK(t, n == lc_index_count(single));
    CHECK(t, lc_index_apply(NULL, events, 1, results) == 0 && lc_index_apply(batched, NULL, 0, NULL) == 0);
    free(keys);
    free(events);
    free(results);
    lc_index_free(batched);
    lc_index_free(single);
}

/* Each pair removes a child and then adds one just after it in the order.
 * Where the removed child was its leaf's first, the separator above moves
 * past the new child: the way to the new child's place, found ahead of time,
 * must not be used then. Every result and the tree's invariants hold. */
static void test_apply_after_separator_moves(lc_test *t) {
    enum { N = 70000, PAIRS = (N - 2000) / 3 };
    lc_index *batched = lc_index_new(), *single = lc_index_new();
    char (*keys)[16] = malloc(sizeof *keys * 2 * PAIRS);
    lc_event *events = malloc(sizeof *events * 2 * PAIRS);
    lc_event_result *results = malloc(sizeof *results * 2 * PAIRS);
    REQUIRE(t, batched && single && keys && events && results);
    char key[16];
    for (uint64_t i = 0; i < N; i++) {
        size_t len = make_key(key, i);
        lc_value v = lc_value_number((double)i);
        REQUIRE(t, lc_index_insert(batched, key, len, &v, NULL, NULL) == LC_OK);
        REQUIRE(t, lc_index_insert(single, key, len, &v, NULL, NULL) == LC_OK);
    }
    for (size_t p = 0; p < PAIRS; p++) {
        uint64_t i = 1000 + 3 * p;
        size_t len = make_key(keys[2 * p], i);
        events[2 * p] = (lc_event){LC_OP_REMOVE, keys[2 * p], len, lc_value_null()};
        len = make_key(keys[2 * p + 1], N + i);
        events[2 * p + 1] = (lc_event){LC_OP_INSERT, keys[2 * p + 1], len, lc_value_number((double)i + 0.5)};
    }
    CHECK(t, lc_index_apply(batched, events, 2 * PAIRS, results) == 2 * PAIRS);
    for (size_t e = 0; e < 2 * PAIRS && !t->failures; e++) {
        size_t at = LC_NO_POSITION;
        lc_status st = events[e].op == LC_OP_REMOVE
                           ? lc_index_remove(single, events[e].key, events[e].key_len, &at, NULL)
                           : lc_index_insert(single, events[e].key, events[e].key_len, &events[e].value, &at, NULL);
        size_t got = events[e].op == LC_OP_REMOVE ? results[e].old_position : results[e].new_position;
        CHECK(t, st == LC_OK && results[e].status == LC_OK && got == at, "event %zu: %zu, want %zu", e, got, at);
    }
    lc_error err;
    CHECK(t, lc_index_check(batched, &err) == LC_OK, "%s", err.text);
    free(keys);
    free(events);
    free(results);
    lc_index_free(batched);
    lc_index_free(single);
}

LC_TEST_TABLE(index_apply_tests) = {
    {"index_apply_matches_single_calls", test_apply_matches_single_calls},
    {"index_apply_after_separator_moves", test_apply_after_separator_moves},
    LC_TEST_END,
};
