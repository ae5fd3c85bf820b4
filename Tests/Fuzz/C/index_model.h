/*
 * index_model.h — fuzz_index's model of the ordered index (index_model.c):
 * the entries it holds and the operations the checks apply to it.
 */
#ifndef INDEX_MODEL_H
#define INDEX_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "CLiveCore.h"

/* A key: a fixed key of the universe (ext), or up to 29 bytes of its own. */
typedef struct mkey {
    const char *ext; /* a fixed key, or NULL: the bytes are in b */
    uint16_t len;
    char b[30];
} mkey;

/* A value, owning its string bytes. */
typedef struct mval {
    lc_sort_tag tag;
    double num;
    size_t len;
    int null_str; /* an unusable string: NULL with len > 0 */
    char s[64];
} mval;

typedef struct ment {
    mkey key;
    mval val;
    uint32_t id;
} ment;

typedef struct model {
    ment *pool;       /* entries; order holds indices into it */
    uint32_t *order;  /* sorted */
    uint32_t *spare;  /* free pool slots */
    size_t n, nspare, cap;
    /* accelerators only: pool slot by key bytes (linear probing), ids in use */
    uint32_t *hash;
    size_t hcap;
    uint8_t *id_used;
    size_t id_cap;
} model;

/* The key's bytes (k->len of them). */
static inline const char *kp(const mkey *k) { return k->ext ? k->ext : k->b; }

/* The entry at pos (< m->n) in order. */
static inline ment *model_at(const model *m, size_t pos) { return &m->pool[m->order[pos]]; }

/* The core's view of v; its string is borrowed from v. */
lc_value lv(const mval *v);
/* The model's own idea of a usable value (lc_value_check's contract). */
int value_ok(const mval *v);
/* Makes v the string s (at most 63 bytes of it). */
void set_string(mval *v, const char *s, size_t n);
int same_key(const mkey *a, const char *b, size_t bl);

/* Frees what m holds (m itself is the caller's). */
void model_free(model *m);
/* Position of key in the model, or SIZE_MAX. */
size_t model_find(const model *m, const mkey *k);
/* Inserts an absent key; returns its position. Aborts when out of memory. */
size_t model_insert(model *m, const mkey *k, const mval *v, uint32_t id);
void model_remove(model *m, size_t pos);
void model_clear(model *m);
/* Bound of (v, key); key NULL stands before (lower) or after (upper) every key. */
size_t model_bound(const model *m, const lc_value *v, const mkey *key, int upper);
/* Marks id (not LC_ID_NONE) as in use or free. */
void id_mark(model *m, uint32_t id, int used);
int id_in_use(const model *m, uint32_t id);

#endif
