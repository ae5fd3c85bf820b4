/*
 * index_model.c — fuzz_index's brute-force model of the ordered index: a
 * plain array of entries kept sorted by Firebase value order then key order,
 * using the core's own lc_value_compare and lc_key_compare (tested on their
 * own in Tests/CLiveCoreTests). A hash of the keys and a map of the ids in
 * use only speed up lookups; the order itself is found by binary search.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index_model.h"

lc_value lv(const mval *v) {
    lc_value r;
    memset(&r, 0, sizeof r);
    r.tag = v->tag;
    r.number = v->num;
    r.str = v->null_str ? NULL : v->s;
    r.len = v->len;
    return r;
}

/* The model's own idea of a usable value (lc_value_check's contract). */
int value_ok(const mval *v) {
    if ((unsigned)v->tag > LC_SORT_OBJECT) return 0;
    if (v->tag == LC_SORT_NUMBER) return isfinite(v->num);
    if (v->tag == LC_SORT_STRING) return !v->null_str || v->len == 0;
    return 1;
}

void set_string(mval *v, const char *s, size_t n) {
    memset(v, 0, sizeof *v);
    v->tag = LC_SORT_STRING;
    if (n >= sizeof v->s) n = sizeof v->s - 1;
    memcpy(v->s, s, n);
    v->len = n;
}

void model_free(model *m) {
    free(m->pool);
    free(m->order);
    free(m->spare);
    free(m->hash);
    free(m->id_used);
}

/* Firebase order of (value a, key a) against (value b, key b). */
static int order_cmp(const mval *va, const mkey *ka, const mval *vb, const mkey *kb) {
    lc_value x = lv(va), y = lv(vb);
    int c = lc_value_compare(&x, &y);
    return c ? c : lc_key_compare(kp(ka), ka->len, kp(kb), kb->len);
}

int same_key(const mkey *a, const char *b, size_t bl) { return a->len == bl && !memcmp(kp(a), b, bl); }

/* Number of entries ordered before (v, k). */
static size_t model_rank(const model *m, const mval *v, const mkey *k) {
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const ment *e = model_at(m, mid);
        if (order_cmp(&e->val, &e->key, v, k) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* ---- key -> pool slot, linear probing (FNV-1a) ---- */

#define H_EMPTY UINT32_MAX

static size_t h_home(const model *m, const char *k, size_t n) {
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)k[i]) * 0x100000001B3ull;
    return (size_t)(h ^ (h >> 29)) & (m->hcap - 1);
}

/* The hash index holding key, or the empty one where it would go. */
static size_t h_probe(const model *m, const char *k, size_t n) {
    size_t i = h_home(m, k, n);
    while (m->hash[i] != H_EMPTY && !same_key(&m->pool[m->hash[i]].key, k, n)) i = (i + 1) & (m->hcap - 1);
    return i;
}

static void h_put(model *m, uint32_t slot) {
    const mkey *k = &m->pool[slot].key;
    m->hash[h_probe(m, kp(k), k->len)] = slot;
}

static void h_grow(model *m) {
    uint32_t *old = m->hash;
    size_t oldcap = m->hcap;
    m->hcap = oldcap ? oldcap * 2 : 1024;
    m->hash = malloc(m->hcap * sizeof *m->hash);
    if (!m->hash) abort();
    for (size_t i = 0; i < m->hcap; i++) m->hash[i] = H_EMPTY;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i] != H_EMPTY) h_put(m, old[i]);
    free(old);
}

/* Removes the key of slot (present), shifting later members of its run back. */
static void h_del(model *m, uint32_t slot) {
    const mkey *k = &m->pool[slot].key;
    size_t i = h_probe(m, kp(k), k->len), mask = m->hcap - 1;
    m->hash[i] = H_EMPTY;
    for (size_t j = (i + 1) & mask; m->hash[j] != H_EMPTY; j = (j + 1) & mask) {
        const mkey *o = &m->pool[m->hash[j]].key;
        size_t home = h_home(m, kp(o), o->len);
        /* j's entry may move to i unless its home lies in (i, j] */
        if (((j - home) & mask) >= ((j - i) & mask)) {
            m->hash[i] = m->hash[j];
            m->hash[j] = H_EMPTY;
            i = j;
        }
    }
}

void id_mark(model *m, uint32_t id, int used) {
    if (id == LC_ID_NONE) return;
    if (id >= m->id_cap) {
        size_t cap = m->id_cap ? m->id_cap : 1024;
        while (cap <= id) cap *= 2;
        uint8_t *u = realloc(m->id_used, cap);
        if (!u) abort();
        memset(u + m->id_cap, 0, cap - m->id_cap);
        m->id_used = u;
        m->id_cap = cap;
    }
    m->id_used[id] = (uint8_t)used;
}

int id_in_use(const model *m, uint32_t id) { return id < m->id_cap && m->id_used[id]; }

/* Position of key in the model, or SIZE_MAX. */
size_t model_find(const model *m, const mkey *k) {
    if (!m->hcap) return SIZE_MAX;
    uint32_t slot = m->hash[h_probe(m, kp(k), k->len)];
    if (slot == H_EMPTY) return SIZE_MAX;
    const ment *e = &m->pool[slot];
    size_t pos = model_rank(m, &e->val, &e->key);
    if (pos >= m->n || m->order[pos] != slot) { /* the model itself is broken */
        fputs("fuzz_index: internal error: the model's order and hash disagree\n", stderr);
        abort();
    }
    return pos;
}

size_t model_insert(model *m, const mkey *k, const mval *v, uint32_t id) {
    if (!m->nspare) {
        size_t cap = m->cap ? m->cap * 2 : 256;
        ment *pool = realloc(m->pool, cap * sizeof *pool);
        uint32_t *order = realloc(m->order, cap * sizeof *order), *spare = NULL;
        if (pool) m->pool = pool;
        if (order) m->order = order;
        if (pool && order) spare = realloc(m->spare, cap * sizeof *spare);
        if (!spare) abort();
        m->spare = spare;
        for (size_t i = cap; i-- > m->cap;) m->spare[m->nspare++] = (uint32_t)i;
        m->cap = cap;
    }
    if (2 * (m->n + 1) > m->hcap) h_grow(m);
    size_t pos = model_rank(m, v, k);
    uint32_t slot = m->spare[--m->nspare];
    m->pool[slot].key = *k;
    m->pool[slot].val = *v;
    m->pool[slot].id = id;
    memmove(m->order + pos + 1, m->order + pos, (m->n - pos) * sizeof *m->order);
    m->order[pos] = slot;
    m->n++;
    h_put(m, slot);
    id_mark(m, id, 1);
    return pos;
}

void model_remove(model *m, size_t pos) {
    uint32_t slot = m->order[pos];
    h_del(m, slot);
    id_mark(m, m->pool[slot].id, 0);
    m->spare[m->nspare++] = slot;
    memmove(m->order + pos, m->order + pos + 1, (m->n - pos - 1) * sizeof *m->order);
    m->n--;
}

void model_clear(model *m) {
    while (m->n) model_remove(m, m->n - 1);
}

/* Bound of (v, key); key NULL stands before (lower) or after (upper) every key. */
size_t model_bound(const model *m, const lc_value *v, const mkey *key, int upper) {
    size_t pos = 0;
    for (; pos < m->n; pos++) { /* brute force: the first entry past the post */
        const ment *e = model_at(m, pos);
        lc_value ev = lv(&e->val);
        int c = lc_value_compare(v, &ev);
        if (!c) c = !key ? (upper ? 1 : -1) : lc_key_compare(kp(key), key->len, kp(&e->key), e->key.len);
        if (upper ? c < 0 : c <= 0) break;
    }
    return pos;
}
