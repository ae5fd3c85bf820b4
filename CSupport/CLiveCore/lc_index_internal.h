/*
 * lc_index_internal.h — data layout of the ordered index (private).
 *
 * Entries are 24 bytes and carry order-preserving prefixes of the sort value
 * and the key, so that almost every comparison is two integer comparisons;
 * the full bytes (in the arena) are read only when prefixes tie.
 *
 * Tree: an order-statistic B+ tree. Inner nodes keep, per child, the number
 * of entries below it and the smallest entry below it (sep[i], exact for
 * i >= 1; sep[0] is never read). Non-root nodes hold at least a quarter of
 * their capacity, so a non-root leaf is never empty.
 */
#ifndef LC_INDEX_INTERNAL_H
#define LC_INDEX_INTERNAL_H

#include <stdint.h>
#include <string.h>

#include "lc_index.h"

#define LEAF_CAP 64
#define LEAF_MIN (LEAF_CAP / 4)
#define INNER_CAP 64
#define INNER_MIN (INNER_CAP / 4)
#define MAX_HEIGHT 24
#define BULK_LEAF_FILL 60

/* entry / record flags */
#define F_KEY_INT 0x01   /* integer key: k = (value + 2^31) << 16 | length */
#define F_KEY_EXACT 0x02 /* equal k (and class) means equal key */
#define F_VAL_EXACT 0x04 /* string value: equal v means equal string */
#define TAG_FREE 0xFF    /* record tag of a free id */

typedef struct entry {
    uint64_t v;     /* number: ordered bits; string: 7 rank bytes + min(len, 8) */
    uint64_t k;     /* key prefix, see F_KEY_INT */
    uint32_t id;
    uint8_t tag;    /* lc_sort_tag */
    uint8_t flags;
    uint16_t unused;
} entry;

typedef struct record {
    uint64_t v;
    uint64_t k;
    uint32_t off;     /* arena offset of the key; for free ids, the next free id */
    uint16_t key_len;
    uint8_t tag;      /* lc_sort_tag, or TAG_FREE */
    uint8_t flags;
} record;

typedef struct leaf {
    uint32_t n;
    struct leaf *prev, *next;
    entry e[LEAF_CAP];
} leaf;

typedef struct inner {
    uint32_t n;
    uint32_t cnt[INNER_CAP];
    void *child[INNER_CAP];
    entry sep[INNER_CAP];
} inner;

struct lc_index {
    /* tree */
    void *root;          /* leaf when height == 0 */
    unsigned height;     /* number of inner levels */
    size_t count;
    leaf *first;         /* leftmost leaf, for iteration */
    /* records by id */
    record *rec;
    uint32_t rec_len, rec_cap, free_head;
    /* arena: key bytes, then for string values a 4-byte length and the bytes */
    char *arena;
    size_t arena_used, arena_cap, arena_garbage;
    /* hash table of ids, linear probing, LC_ID_NONE is empty */
    uint32_t *slots;
    size_t slot_mask;    /* capacity - 1; capacity is a power of two */
    uint64_t seed;
    /* spare nodes, so that an insertion never fails once it has begun */
    void *pool_leaf[4];
    void *pool_inner[MAX_HEIGHT + 2];
    unsigned n_pool_leaf, n_pool_inner;
};

/* What a probe carries that a stored entry finds in the arena. */
typedef struct probe_ext {
    const char *key;
    size_t key_len;
    int key_side;        /* -1: before every key, +1: after every key, 0: key */
    const char *str;
    size_t str_len;
} probe_ext;

/* A path from the root to a leaf. */
typedef struct tree_path {
    inner *node[MAX_HEIGHT];
    unsigned idx[MAX_HEIGHT];
} tree_path;

/* lc_index_entry.c */
uint64_t lc_ix_number_bits(double d);
uint64_t lc_ix_string_prefix(const char *s, size_t len);
void lc_ix_key_prefix(const char *key, size_t len, uint64_t *k, uint8_t *flags);
int lc_ix_compare(const lc_index *ix, const entry *a, const probe_ext *ax, const entry *b);
void lc_ix_record_value(const lc_index *ix, uint32_t id, lc_value *out);

static inline const char *lc_ix_key(const lc_index *ix, uint32_t id, size_t *len) {
    const record *r = &ix->rec[id];
    *len = r->key_len;
    return ix->arena + r->off;
}

static inline entry lc_ix_entry_of(const lc_index *ix, uint32_t id) {
    const record *r = &ix->rec[id];
    entry e = {r->v, r->k, id, r->tag, r->flags, 0};
    return e;
}

/* lc_index_store.c: records, arena, hash table */
uint64_t lc_ix_hash(const lc_index *ix, const char *key, size_t len);
uint32_t lc_ix_lookup(const lc_index *ix, const char *key, size_t len);
lc_status lc_ix_reserve(lc_index *ix, size_t entries, size_t arena_bytes);
lc_status lc_ix_new_record(lc_index *ix, const char *key, size_t len, const lc_value *v, uint32_t *id);
lc_status lc_ix_set_value(lc_index *ix, uint32_t id, const lc_value *v);
void lc_ix_free_record(lc_index *ix, uint32_t id);
void lc_ix_hash_insert(lc_index *ix, uint32_t id, uint64_t h);
void lc_ix_hash_remove(lc_index *ix, const char *key, size_t len);
void lc_ix_store_free(lc_index *ix);

/* lc_index_tree.c */
lc_status lc_ix_tree_reserve(lc_index *ix);
void lc_ix_node_put(lc_index *ix, void *node, int is_leaf);
size_t lc_ix_tree_insert(lc_index *ix, const entry *e);
size_t lc_ix_tree_remove(lc_index *ix, const entry *e);
size_t lc_ix_tree_rank(const lc_index *ix, const entry *e, const probe_ext *ext, int upper);
const entry *lc_ix_tree_at(const lc_index *ix, size_t position, const leaf **where, unsigned *slot);
void lc_ix_tree_free(lc_index *ix);
void lc_ix_pool_free(lc_index *ix);

/* lc_index_build.c */
void lc_ix_sort(const lc_index *ix, entry *a, size_t n);
lc_status lc_ix_tree_build(lc_index *ix, const entry *sorted, size_t n);

#endif
