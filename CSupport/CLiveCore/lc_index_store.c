/* lc_index_store.c — records by id, the key arena and the key → id hash table. */
#include <stdlib.h>

#include "lc_index_internal.h"
#include "lc_key.h"

static inline uint64_t mix64(uint64_t x) {
    x ^= x >> 32;
    x *= 0xD6E8FEB86659FD93ull;
    x ^= x >> 32;
    x *= 0xD6E8FEB86659FD93ull;
    return x ^ (x >> 32);
}

uint64_t lc_ix_hash(const lc_index *ix, const char *key, size_t len) {
    uint64_t h = ix->seed ^ ((uint64_t)len * 0x9E3779B97F4A7C15ull);
    while (len >= 8) {
        uint64_t w;
        memcpy(&w, key, 8);
        h = mix64(h ^ w) + 0x9E3779B97F4A7C15ull;
        key += 8;
        len -= 8;
    }
    uint64_t w = 0;
    memcpy(&w, key, len);
    return mix64(h ^ w ^ ((uint64_t)len << 59));
}

static inline int key_is(const lc_index *ix, uint32_t id, const char *key, size_t len) {
    const record *r = &ix->rec[id];
    return r->key_len == len && memcmp(ix->arena + r->off, key, len) == 0;
}

uint32_t lc_ix_fingerprint(const lc_index *ix, const char *key, size_t len) {
    return (uint32_t)(lc_ix_hash(ix, key, len) >> 32);
}

static inline uint32_t fingerprint(const lc_index *ix, const char *key, size_t len) {
    return lc_ix_fingerprint(ix, key, len);
}

static inline size_t home(const lc_index *ix, uint32_t fp) {
    return ix->slot_shift >= 32 ? 0 : fp >> ix->slot_shift;
}

void lc_ix_prefetch_slot(const lc_index *ix, uint32_t fp) {
    if (ix->slots && ix->count >= PREFETCH_MIN_COUNT) __builtin_prefetch(&ix->slots[home(ix, fp)]);
}

/* Looks a key up by its fingerprint. On a fingerprint match the entry's leaf
 * is prefetched before the key bytes are compared, so both loads overlap. */
uint32_t lc_ix_lookup_fp(const lc_index *ix, const char *key, size_t len, uint32_t fp) {
    if (!ix->slots) return LC_ID_NONE;
    for (size_t i = home(ix, fp);; i = (i + 1) & ix->slot_mask) {
        slot s = ix->slots[i];
        if (s.id == LC_ID_NONE) return LC_ID_NONE;
        if (s.fp != fp) continue;
        const record *r = &ix->rec[s.id];
        if (r->where && ix->count >= PREFETCH_MIN_COUNT) { /* the whole leaf: it will be read and shifted */
            const char *p = (const char *)r->where, *end = p + sizeof(leaf);
            for (; p < end; p += 64) __builtin_prefetch(p);
        }
        if (r->key_len == len && memcmp(ix->arena + r->off, key, len) == 0) return s.id;
    }
}

uint32_t lc_ix_lookup(const lc_index *ix, const char *key, size_t len) {
    return lc_ix_lookup_fp(ix, key, len, fingerprint(ix, key, len));
}

void lc_ix_hash_insert(lc_index *ix, uint32_t id, uint32_t fp) {
    size_t i = home(ix, fp);
    while (ix->slots[i].id != LC_ID_NONE) i = (i + 1) & ix->slot_mask;
    ix->slots[i] = (slot){id, fp};
}

/* Backward-shift deletion keeps probe sequences intact without tombstones. */
void lc_ix_hash_remove(lc_index *ix, const char *key, size_t len, uint32_t fp) {
    size_t mask = ix->slot_mask;
    size_t i = home(ix, fp);
    while (ix->slots[i].fp != fp || !key_is(ix, ix->slots[i].id, key, len)) i = (i + 1) & mask;
    for (size_t j = (i + 1) & mask;; j = (j + 1) & mask) {
        slot s = ix->slots[j];
        if (s.id == LC_ID_NONE) break;
        size_t h = home(ix, s.fp);
        /* Move slot j into the hole at i unless its home lies cyclically in (i, j]. */
        int between = i <= j ? (h > i && h <= j) : (h > i || h <= j);
        if (!between) {
            ix->slots[i] = s;
            i = j;
        }
    }
    ix->slots[i].id = LC_ID_NONE;
}

static lc_status grow_slots(lc_index *ix, size_t entries) {
    size_t cap = ix->slots ? ix->slot_mask + 1 : 0;
    if (entries * 4 <= cap * 3) return LC_OK;
    size_t want = 16;
    unsigned bits = 4;
    while (want * 3 < entries * 4) {
        want *= 2;
        bits++;
    }
    if (bits > 32) return LC_ERR_CAPACITY;
    slot *s = lc_big_alloc(want * sizeof *s);
    if (!s) return LC_ERR_NOMEM;
    for (size_t i = 0; i < want; i++) s[i].id = LC_ID_NONE;
    slot *old = ix->slots;
    size_t old_cap = cap;
    ix->slots = s;
    ix->slot_mask = want - 1;
    ix->slot_shift = 32 - bits;
    if (old) {
        for (size_t i = 0; i < cap; i++)
            if (old[i].id != LC_ID_NONE) lc_ix_hash_insert(ix, old[i].id, old[i].fp);
        lc_big_free(old, old_cap * sizeof *old);
    }
    return LC_OK;
}

static size_t blob_size(const record *r) {
    size_t n = r->key_len;
    if (r->tag == LC_SORT_STRING) n += sizeof(uint32_t); /* + string bytes, read below */
    return n;
}

static size_t record_blob(const lc_index *ix, const record *r) {
    size_t n = blob_size(r);
    if (r->tag == LC_SORT_STRING) {
        uint32_t sl;
        memcpy(&sl, ix->arena + r->off + r->key_len, sizeof sl);
        n += sl;
    }
    return n;
}

/* Rewrites the arena without garbage. Invalidates borrowed pointers. */
static lc_status compact_arena(lc_index *ix, size_t extra) {
    size_t live = ix->arena_used - ix->arena_garbage;
    size_t cap = live + extra + live / 2 + 256;
    char *a = lc_big_alloc(cap);
    if (!a) return LC_ERR_NOMEM;
    size_t used = 0;
    for (uint32_t id = 0; id < ix->rec_len; id++) {
        record *r = &ix->rec[id];
        if (r->tag == TAG_FREE) continue;
        size_t n = record_blob(ix, r);
        memcpy(a + used, ix->arena + r->off, n);
        r->off = (uint32_t)used;
        used += n;
    }
    lc_big_free(ix->arena, ix->arena_cap);
    ix->arena = a;
    ix->arena_cap = cap;
    ix->arena_used = used;
    ix->arena_garbage = 0;
    return LC_OK;
}

static lc_status reserve_arena(lc_index *ix, size_t bytes) {
    if (ix->arena_garbage > 4096 && ix->arena_garbage * 2 > ix->arena_used)
        if (compact_arena(ix, bytes) != LC_OK) return LC_ERR_NOMEM;
    size_t need = ix->arena_used + bytes;
    if (need > UINT32_MAX) return LC_ERR_CAPACITY;
    if (need <= ix->arena_cap) return LC_OK;
    size_t cap = ix->arena_cap ? ix->arena_cap : 4096;
    while (cap < need) cap += cap / 2;
    char *a = lc_big_realloc(ix->arena, ix->arena_cap, cap);
    if (!a) return LC_ERR_NOMEM;
    ix->arena = a;
    ix->arena_cap = cap;
    return LC_OK;
}

lc_status lc_ix_reserve(lc_index *ix, size_t entries, size_t arena_bytes) {
    if (entries >= LC_ID_NONE) return LC_ERR_CAPACITY;
    if (entries > ix->rec_cap) {
        size_t cap = ix->rec_cap ? ix->rec_cap : 64;
        while (cap < entries) cap += cap / 2;
        if (cap >= LC_ID_NONE) cap = LC_ID_NONE - 1;
        record *r = lc_big_realloc(ix->rec, (size_t)ix->rec_cap * sizeof *r, cap * sizeof *r);
        if (!r) return LC_ERR_NOMEM;
        ix->rec = r;
        ix->rec_cap = (uint32_t)cap;
    }
    lc_status st = grow_slots(ix, entries);
    if (st != LC_OK) return st;
    return reserve_arena(ix, arena_bytes);
}

/* Writes key and value bytes at the arena's end into r. Space must be reserved. */
static void write_blob(lc_index *ix, record *r, const char *key, size_t len, const lc_value *v) {
    r->off = (uint32_t)ix->arena_used;
    memcpy(ix->arena + ix->arena_used, key, len);
    ix->arena_used += len;
    if (v->tag == LC_SORT_STRING) {
        uint32_t sl = (uint32_t)v->len;
        memcpy(ix->arena + ix->arena_used, &sl, sizeof sl);
        if (sl) memcpy(ix->arena + ix->arena_used + sizeof sl, v->str, sl);
        ix->arena_used += sizeof sl + sl;
    }
}

static size_t value_bytes(const lc_value *v) {
    return v->tag == LC_SORT_STRING ? sizeof(uint32_t) + v->len : 0;
}

lc_status lc_ix_new_record(lc_index *ix, const char *key, size_t len, const lc_value *v,
                           uint32_t *id) {
    if (v->tag == LC_SORT_STRING && v->len > UINT32_MAX) return LC_ERR_CAPACITY;
    size_t need = ix->count + 1;
    uint32_t fresh = ix->free_head != LC_ID_NONE ? ix->free_head : ix->rec_len;
    if (fresh == LC_ID_NONE) return LC_ERR_CAPACITY;
    lc_status st = lc_ix_reserve(ix, fresh == ix->rec_len ? (size_t)ix->rec_len + 1 : need,
                                 len + value_bytes(v));
    if (st != LC_OK) return st;
    if (grow_slots(ix, need) != LC_OK) return LC_ERR_NOMEM;
    if (fresh == ix->free_head) ix->free_head = ix->rec[fresh].off;
    else ix->rec_len++;
    record *r = &ix->rec[fresh];
    r->key_len = (uint16_t)len;
    r->tag = (uint8_t)v->tag;
    r->where = NULL;
    write_blob(ix, r, key, len, v);
    lc_ix_hash_insert(ix, fresh, fingerprint(ix, key, len));
    *id = fresh;
    return LC_OK;
}

lc_status lc_ix_set_value(lc_index *ix, uint32_t id, const lc_value *v) {
    record *r = &ix->rec[id];
    size_t old_len = record_blob(ix, r);
    if (v->tag == LC_SORT_STRING || r->tag == LC_SORT_STRING) {
        if (v->tag == LC_SORT_STRING && v->len > UINT32_MAX) return LC_ERR_CAPACITY;
        size_t len = r->key_len, need = len + value_bytes(v);
        if (need > old_len) {
            /* Append a new blob (the key is copied from the old one). */
            lc_status st = reserve_arena(ix, need);
            if (st != LC_OK) return st;
            r = &ix->rec[id];
            char *key = ix->arena + r->off;
            memmove(ix->arena + ix->arena_used, key, len);
            size_t keep_off = ix->arena_used;
            ix->arena_used += len;
            ix->arena_garbage += old_len;
            r->off = (uint32_t)keep_off;
        } else {
            ix->arena_garbage += old_len - need;
        }
        if (v->tag == LC_SORT_STRING) {
            uint32_t sl = (uint32_t)v->len;
            char *p = ix->arena + r->off + len;
            memcpy(p, &sl, sizeof sl);
            if (sl) memmove(p + sizeof sl, v->str, sl);
            if (need > old_len) ix->arena_used += sizeof sl + sl;
        }
    }
    r->tag = (uint8_t)v->tag;
    return LC_OK;
}

void lc_ix_free_record(lc_index *ix, uint32_t id) {
    record *r = &ix->rec[id];
    ix->arena_garbage += record_blob(ix, r);
    r->tag = TAG_FREE;
    r->where = NULL;
    r->off = ix->free_head;
    ix->free_head = id;
}

void lc_ix_store_free(lc_index *ix) {
    lc_big_free(ix->rec, (size_t)ix->rec_cap * sizeof *ix->rec);
    lc_big_free(ix->arena, ix->arena_cap);
    lc_big_free(ix->slots, ix->slots ? (ix->slot_mask + 1) * sizeof *ix->slots : 0);
    ix->rec = NULL;
    ix->arena = NULL;
    ix->slots = NULL;
}
