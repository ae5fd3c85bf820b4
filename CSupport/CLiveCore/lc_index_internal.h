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
#include "lc_mem.h"

#define LEAF_CAP 64
#define LEAF_MIN (LEAF_CAP / 4)
#define INNER_CAP 64
#define INNER_MIN (INNER_CAP / 4)
#define MAX_HEIGHT 24
#define BULK_LEAF_FILL 60
/* Below this many entries the index lives in cache and prefetching is waste. */
#define PREFETCH_MIN_COUNT 65536

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

struct inner;

/* The first member of every node. */
typedef struct node_hdr {
    uint32_t n;
    struct inner *parent; /* NULL for the root */
} node_hdr;

/* Leaves keep their entries as parallel arrays: a search reads tag and v only. */
typedef struct leaf {
    node_hdr h;
    struct leaf *prev, *next;
    uint64_t v[LEAF_CAP];
    uint64_t k[LEAF_CAP];
    uint32_t id[LEAF_CAP];
    uint8_t tag[LEAF_CAP];
    uint8_t flags[LEAF_CAP];
} leaf;

typedef struct inner {
    node_hdr h;
    uint32_t cnt[INNER_CAP];
    void *child[INNER_CAP];
    entry sep[INNER_CAP];
} inner;

typedef struct record {
    leaf *where;      /* the leaf holding the entry; for free ids, NULL */
    uint32_t off;     /* arena offset of the key; for free ids, the next free id */
    uint16_t key_len;
    uint8_t tag;      /* lc_sort_tag, or TAG_FREE */
    uint8_t unused;
} record;

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
    /* hash table of ids, linear probing; a slot's fingerprint (the hash's
     * high 32 bits) also gives its home, so nothing is rehashed from keys */
    struct slot *slots;
    size_t slot_mask;    /* capacity - 1; capacity is a power of two */
    unsigned slot_shift; /* 32 - log2(capacity) */
    uint64_t seed;
    /* nodes come from per-index slabs: freeing the tree is O(chunks) */
    lc_slab leaves, inners;
    /* Changes whenever a node splits or merges or a separator changes: a
     * path found while it had some value is the path while it keeps it. */
    uint64_t epoch;
};

typedef struct slot {
    uint32_t id; /* LC_ID_NONE: empty */
    uint32_t fp;
} slot;

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

/* A path to the leaf where an entry goes, found ahead of time by
 * lc_index_apply; it holds while ix->epoch is unchanged. */
typedef struct tree_hint {
    leaf *leaf; /* NULL: no hint */
    uint64_t epoch;
    tree_path path;
} tree_hint;

/* lc_index_entry.c */
uint64_t lc_ix_number_bits(double d);
uint64_t lc_ix_string_prefix(const char *s, size_t len);
void lc_ix_key_prefix(const char *key, size_t len, uint64_t *k, uint8_t *flags);
void lc_ix_encode(const char *key, size_t len, const lc_value *v, entry *out);
int lc_ix_compare(const lc_index *ix, const entry *a, const probe_ext *ax, const entry *b);
void lc_ix_string_of(const lc_index *ix, uint32_t id, const char **s, size_t *len);
void lc_ix_value_of(const lc_index *ix, uint32_t id, lc_value *out);

static inline const char *lc_ix_key(const lc_index *ix, uint32_t id, size_t *len) {
    const record *r = &ix->rec[id];
    *len = r->key_len;
    return ix->arena + r->off;
}

static inline entry lc_ix_leaf_entry(const leaf *l, unsigned i) {
    entry e = {l->v[i], l->k[i], l->id[i], l->tag[i], l->flags[i], 0};
    return e;
}

static inline void lc_ix_leaf_set(leaf *l, unsigned i, const entry *e) {
    l->v[i] = e->v;
    l->k[i] = e->k;
    l->id[i] = e->id;
    l->tag[i] = e->tag;
    l->flags[i] = e->flags;
}

/* Slot of id in its leaf (the id must be live). */
static inline unsigned lc_ix_slot_of(const leaf *l, uint32_t id) {
    unsigned i = 0;
    while (l->id[i] != id) i++;
    return i;
}

static inline entry lc_ix_entry_of(const lc_index *ix, uint32_t id) {
    const leaf *l = ix->rec[id].where;
    return lc_ix_leaf_entry(l, lc_ix_slot_of(l, id));
}

/* lc_index.c */
/* The single-event operations. fp: the key's fingerprint when the caller
 * computed it already (it depends on the key and the index's seed only), or
 * NULL; it is then the caller who prefetched, so these do not. */
/* where: the path to the entry's new place when the caller found it, or NULL. */
lc_status lc_ix_insert(lc_index *ix, const char *key, size_t key_len, const lc_value *v,
                       size_t *position, uint32_t *id, const uint32_t *fp, const tree_hint *where);
lc_status lc_ix_update(lc_index *ix, const char *key, size_t key_len, const lc_value *v,
                       size_t *old_position, size_t *new_position, uint32_t *id, const uint32_t *fp,
                       const tree_hint *where);
lc_status lc_ix_remove(lc_index *ix, const char *key, size_t key_len, size_t *position, uint32_t *id,
                       const uint32_t *fp);

/* lc_index_store.c: records, arena, hash table */
uint64_t lc_ix_hash(const lc_index *ix, const char *key, size_t len);
uint32_t lc_ix_lookup(const lc_index *ix, const char *key, size_t len);
uint32_t lc_ix_fingerprint(const lc_index *ix, const char *key, size_t len);
void lc_ix_prefetch_slot(const lc_index *ix, uint32_t fp);
uint32_t lc_ix_lookup_fp(const lc_index *ix, const char *key, size_t len, uint32_t fp);
lc_status lc_ix_reserve(lc_index *ix, size_t entries, size_t arena_bytes);
lc_status lc_ix_new_record(lc_index *ix, const char *key, size_t len, const lc_value *v, uint32_t *id);
lc_status lc_ix_set_value(lc_index *ix, uint32_t id, const lc_value *v);
void lc_ix_free_record(lc_index *ix, uint32_t id);
void lc_ix_hash_insert(lc_index *ix, uint32_t id, uint32_t fp);
/* fp: the key's fingerprint (lc_ix_fingerprint) */
void lc_ix_hash_remove(lc_index *ix, const char *key, size_t len, uint32_t fp);
void lc_ix_store_free(lc_index *ix);

/* lc_index_tree.c */
lc_status lc_ix_tree_reserve(lc_index *ix);
void lc_ix_node_put(lc_index *ix, void *node, int is_leaf);
void lc_ix_init_nodes(lc_index *ix);
size_t lc_ix_tree_insert(lc_index *ix, const entry *e, const tree_hint *where);
/* Prefetches the leaf where e goes; fills *where (when not NULL) with its path. */
void lc_ix_tree_prefetch(const lc_index *ix, const entry *e, const probe_ext *ext, tree_hint *where);
size_t lc_ix_tree_rank(const lc_index *ix, const entry *e, const probe_ext *ext, int upper);
size_t lc_ix_tree_rank_of(const lc_index *ix, uint32_t id, tree_path *path, unsigned *slot);
const leaf *lc_ix_tree_at(const lc_index *ix, size_t position, unsigned *slot);
void lc_ix_leaf_move(lc_index *ix, leaf *dst, unsigned di, leaf *src, unsigned si, unsigned n);

/* lc_index_remove.c */
size_t lc_ix_tree_remove(lc_index *ix, uint32_t id);
void lc_ix_tree_free(lc_index *ix);

/* lc_index_build.c */
void lc_ix_sort(const lc_index *ix, entry *a, size_t n);
lc_status lc_ix_tree_build(lc_index *ix, const entry *sorted, size_t n);

#endif
