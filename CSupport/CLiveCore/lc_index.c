/* lc_index.c — the public API of the ordered index. */
#include <stdlib.h>
#include <time.h>

#include "lc_index_internal.h"
#include "lc_key.h"

lc_index *lc_index_new(void) {
    lc_index *ix = calloc(1, sizeof *ix);
    if (!ix) return NULL;
    lc_ix_init_nodes(ix);
    ix->root = lc_slab_alloc(&ix->leaves);
    if (!ix->root) {
        free(ix);
        return NULL;
    }
    memset(ix->root, 0, sizeof(leaf));
    ix->first = ix->root;
    ix->free_head = LC_ID_NONE;
    /* Per-index hash seed: unpredictable enough to blunt crafted collisions. */
    struct timespec ts;
    timespec_get(&ts, TIME_UTC);
    ix->seed = ((uint64_t)(uintptr_t)ix * 0x9E3779B97F4A7C15ull) ^ (uint64_t)ts.tv_nsec ^
               ((uint64_t)ts.tv_sec << 32);
    return ix;
}

void lc_index_free(lc_index *ix) {
    if (!ix) return;
    lc_ix_tree_free(ix);
    lc_ix_store_free(ix);
    free(ix);
}

size_t lc_index_count(const lc_index *ix) { return ix ? ix->count : 0; }

static lc_status check_key(const char *key, size_t len) {
    if (!key && len) return LC_ERR_ARGUMENT;
    return lc_key_validate(key, len, NULL);
}

/* A value whose string lives in the index's own arena is copied first: the
 * arena may move while the value is stored. *copy must be freed. */
static lc_status detach_value(const lc_index *ix, const lc_value *v, lc_value *out, char **copy) {
    *out = *v;
    *copy = NULL;
    if (v->tag == LC_SORT_STRING && v->len && ix->arena && v->str >= ix->arena &&
        v->str < ix->arena + ix->arena_cap) {
        *copy = malloc(v->len);
        if (!*copy) return LC_ERR_NOMEM;
        memcpy(*copy, v->str, v->len);
        out->str = *copy;
    }
    return LC_OK;
}

lc_status lc_index_insert(lc_index *ix, const char *key, size_t key_len, const lc_value *v,
                          size_t *position, uint32_t *id) {
    return lc_ix_insert(ix, key, key_len, v, position, id, NULL, NULL);
}

lc_status lc_ix_insert(lc_index *ix, const char *key, size_t key_len, const lc_value *v,
                       size_t *position, uint32_t *id, const uint32_t *fp_hint, const tree_hint *where) {
    if (!ix || lc_value_check(v) != LC_OK) return LC_ERR_ARGUMENT;
    lc_status st = check_key(key, key_len);
    if (st != LC_OK) return st;
    uint32_t fp = fp_hint ? *fp_hint : lc_ix_fingerprint(ix, key, key_len);
    entry e;
    lc_ix_encode(key, key_len, v, &e);
    if (!fp_hint) { /* the new place loads while the key is looked up */
        lc_ix_prefetch_slot(ix, fp);
        probe_ext ext = {key, key_len, 0, v->str, v->len};
        lc_ix_tree_prefetch(ix, &e, &ext, NULL);
    }
    if (lc_ix_lookup_fp(ix, key, key_len, fp) != LC_ID_NONE) return LC_ERR_DUPLICATE_KEY;
    if ((st = lc_ix_tree_reserve(ix)) != LC_OK) return st;
    lc_value val;
    char *copy;
    if ((st = detach_value(ix, v, &val, &copy)) != LC_OK) return st;
    uint32_t fresh;
    st = lc_ix_new_record(ix, key, key_len, &val, &fresh);
    e.id = fresh;
    free(copy);
    if (st != LC_OK) return st;
    size_t rank = lc_ix_tree_insert(ix, &e, where);
    if (position) *position = rank;
    if (id) *id = fresh;
    return LC_OK;
}

lc_status lc_index_remove(lc_index *ix, const char *key, size_t key_len, size_t *position,
                          uint32_t *id) {
    return lc_ix_remove(ix, key, key_len, position, id, NULL);
}

lc_status lc_ix_remove(lc_index *ix, const char *key, size_t key_len, size_t *position, uint32_t *id,
                       const uint32_t *fp_hint) {
    if (!ix || (!key && key_len)) return LC_ERR_ARGUMENT;
    uint32_t fp = fp_hint ? *fp_hint : lc_ix_fingerprint(ix, key, key_len);
    uint32_t found = lc_ix_lookup_fp(ix, key, key_len, fp);
    if (found == LC_ID_NONE) return LC_ERR_NOT_FOUND;
    size_t rank = lc_ix_tree_remove(ix, found);
    lc_ix_hash_remove(ix, key, key_len, fp);
    lc_ix_free_record(ix, found);
    if (position) *position = rank;
    if (id) *id = found;
    return LC_OK;
}

static int same_value(const lc_index *ix, uint32_t id, const lc_value *v) {
    lc_value old;
    lc_ix_value_of(ix, id, &old);
    if (old.tag != v->tag) return 0;
    if (v->tag == LC_SORT_NUMBER) return lc_ix_number_bits(old.number) == lc_ix_number_bits(v->number);
    if (v->tag == LC_SORT_STRING) return old.len == v->len && memcmp(old.str, v->str, v->len) == 0;
    return 1;
}

lc_status lc_index_update(lc_index *ix, const char *key, size_t key_len, const lc_value *v,
                          size_t *old_position, size_t *new_position) {
    return lc_ix_update(ix, key, key_len, v, old_position, new_position, NULL, NULL, NULL);
}

lc_status lc_ix_update(lc_index *ix, const char *key, size_t key_len, const lc_value *v,
                       size_t *old_position, size_t *new_position, uint32_t *id_out, const uint32_t *fp_hint,
                       const tree_hint *where) {
    if (!ix || (!key && key_len) || lc_value_check(v) != LC_OK) return LC_ERR_ARGUMENT;
    uint32_t fp = fp_hint ? *fp_hint : lc_ix_fingerprint(ix, key, key_len);
    entry moved;
    lc_ix_encode(key, key_len, v, &moved);
    if (!fp_hint) { /* the new place loads while the old is found */
        lc_ix_prefetch_slot(ix, fp);
        probe_ext ext = {key, key_len, 0, v->str, v->len};
        lc_ix_tree_prefetch(ix, &moved, &ext, NULL);
    }
    uint32_t id = lc_ix_lookup_fp(ix, key, key_len, fp);
    if (id == LC_ID_NONE) return LC_ERR_NOT_FOUND;
    if (id_out) *id_out = id;
    if (same_value(ix, id, v)) {
        tree_path p;
        size_t rank = lc_ix_tree_rank_of(ix, id, &p, NULL);
        if (old_position) *old_position = rank;
        if (new_position) *new_position = rank;
        return LC_OK;
    }
    lc_status st = lc_ix_tree_reserve(ix);
    if (st != LC_OK) return st;
    lc_value val;
    char *copy;
    if ((st = detach_value(ix, v, &val, &copy)) != LC_OK) return st;
    entry old = lc_ix_entry_of(ix, id);
    moved.id = id;
    size_t before = lc_ix_tree_remove(ix, id);
    st = lc_ix_set_value(ix, id, &val);
    free(copy);
    if (st != LC_OK) {
        lc_ix_tree_insert(ix, &old, NULL); /* the record is unchanged: put the entry back */
        return st;
    }
    size_t after = lc_ix_tree_insert(ix, &moved, where);
    if (old_position) *old_position = before;
    if (new_position) *new_position = after;
    return LC_OK;
}

lc_status lc_index_upsert(lc_index *ix, const char *key, size_t key_len, const lc_value *v,
                          size_t *old_position, size_t *new_position, uint32_t *id) {
    size_t before = LC_NO_POSITION, after = LC_NO_POSITION;
    uint32_t found = LC_ID_NONE;
    lc_status st = lc_ix_update(ix, key, key_len, v, &before, &after, &found, NULL, NULL);
    if (st == LC_ERR_NOT_FOUND) {
        before = LC_NO_POSITION;
        st = lc_ix_insert(ix, key, key_len, v, &after, &found, NULL, NULL);
    }
    if (st != LC_OK) before = after = LC_NO_POSITION;
    if (old_position) *old_position = before;
    if (new_position) *new_position = after;
    if (id) *id = found;
    return st;
}

lc_status lc_index_find(const lc_index *ix, const char *key, size_t key_len, size_t *position,
                        uint32_t *id) {
    if (!ix || (!key && key_len)) return LC_ERR_ARGUMENT;
    uint32_t found = lc_ix_lookup(ix, key, key_len);
    if (found == LC_ID_NONE) return LC_ERR_NOT_FOUND;
    if (position) {
        tree_path p;
        *position = lc_ix_tree_rank_of(ix, found, &p, NULL);
    }
    if (id) *id = found;
    return LC_OK;
}

lc_status lc_index_entry(const lc_index *ix, uint32_t id, const char **key, size_t *key_len,
                         lc_value *v) {
    if (!ix) return LC_ERR_ARGUMENT;
    if (id >= ix->rec_len || ix->rec[id].tag == TAG_FREE) return LC_ERR_NOT_FOUND;
    size_t kl;
    const char *k = lc_ix_key(ix, id, &kl);
    if (key) *key = k;
    if (key_len) *key_len = kl;
    if (v) lc_ix_value_of(ix, id, v);
    return LC_OK;
}

lc_status lc_index_at(const lc_index *ix, size_t position, const char **key, size_t *key_len,
                      lc_value *v, uint32_t *id) {
    if (!ix || position >= ix->count) return LC_ERR_ARGUMENT;
    unsigned slot;
    const leaf *l = lc_ix_tree_at(ix, position, &slot);
    if (id) *id = l->id[slot];
    return lc_index_entry(ix, l->id[slot], key, key_len, v);
}

static size_t bound(const lc_index *ix, const lc_value *v, const char *key, size_t key_len,
                    int upper) {
    if (!ix || lc_value_check(v) != LC_OK || (!key && key_len)) return 0;
    entry probe;
    probe_ext ext = {key, key_len, 0, v->str, v->len};
    lc_ix_encode(key ? key : "", key ? key_len : 0, v, &probe);
    if (!key) ext.key_side = upper ? 1 : -1;
    return lc_ix_tree_rank(ix, &probe, &ext, upper);
}

size_t lc_index_lower_bound(const lc_index *ix, const lc_value *v, const char *key, size_t key_len) {
    return bound(ix, v, key, key_len, 0);
}

size_t lc_index_upper_bound(const lc_index *ix, const lc_value *v, const char *key, size_t key_len) {
    return bound(ix, v, key, key_len, 1);
}

lc_status lc_index_iter_init(const lc_index *ix, size_t position, lc_index_iter *it) {
    if (!ix || !it || position > ix->count) return LC_ERR_ARGUMENT;
    it->index = ix;
    if (position == ix->count) {
        it->leaf = NULL;
        it->slot = 0;
        return LC_OK;
    }
    unsigned slot;
    it->leaf = lc_ix_tree_at(ix, position, &slot);
    it->slot = slot;
    return LC_OK;
}

bool lc_index_iter_next(lc_index_iter *it, const char **key, size_t *key_len, lc_value *v,
                        uint32_t *id) {
    if (!it || !it->leaf) return false;
    const leaf *l = it->leaf;
    uint32_t e = l->id[it->slot];
    if (id) *id = e;
    lc_index_entry(it->index, e, key, key_len, v);
    if (++it->slot >= l->h.n) {
        it->leaf = l->next;
        it->slot = 0;
    }
    return true;
}
