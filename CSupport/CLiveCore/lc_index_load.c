/* lc_index_load.c — replacing the whole content: bulk build from a document or from entries, clear. */
#include <stdlib.h>

#include "lc_index_internal.h"
#include "lc_key.h"

/* Moves everything src owns into dst, freeing what dst held. */
static void take_over(lc_index *dst, lc_index *src) {
    lc_ix_tree_free(dst);
    lc_ix_store_free(dst);
    *dst = *src;
    free(src);
}

/* Where the entries of a bulk build come from: entry i is (key, value). */
typedef struct build_source {
    const lc_doc *doc;        /* the children of a document, or */
    const lc_entry *entries;  /* an array of entries */
} build_source;

static void source_entry(const build_source *src, size_t i, const char **key, size_t *len, lc_value *v) {
    if (src->doc) {
        *key = lc_doc_key(src->doc, i, len);
        lc_doc_sort_value(src->doc, i, v);
    } else {
        *key = src->entries[i].key;
        *len = src->entries[i].key_len;
        *v = src->entries[i].value;
    }
}

/* Replaces the content of ix by the n entries of src, entry i at id i; on
 * error ix is unchanged. */
static lc_status build(lc_index *ix, const build_source *src, size_t n) {
    if (n >= LC_ID_NONE) return LC_ERR_CAPACITY;
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++) {
        const char *key;
        size_t kl;
        lc_value v;
        source_entry(src, i, &key, &kl, &v);
        bytes += kl + (v.tag == LC_SORT_STRING ? sizeof(uint32_t) + v.len : 0);
    }
    lc_index *fresh = calloc(1, sizeof *fresh);
    entry *all = malloc((n ? n : 1) * sizeof *all);
    lc_status st = (fresh && all) ? LC_OK : LC_ERR_NOMEM;
    if (st == LC_OK) {
        fresh->free_head = LC_ID_NONE;
        lc_ix_init_nodes(fresh);
        fresh->seed = ix->seed;
        st = lc_ix_reserve(fresh, n, bytes);
    }
    for (size_t i = 0; st == LC_OK && i < n; i++) {
        const char *key;
        size_t kl;
        lc_value v;
        source_entry(src, i, &key, &kl, &v);
        if (lc_ix_lookup(fresh, key, kl) != LC_ID_NONE) {
            st = LC_ERR_DUPLICATE_KEY;
            break;
        }
        uint32_t id;
        st = lc_ix_new_record(fresh, key, kl, &v, &id);
        if (st == LC_OK) {
            lc_ix_encode(key, kl, &v, &all[i]);
            all[i].id = id;
        }
    }
    if (st == LC_OK) {
        lc_ix_sort(fresh, all, n);
        st = lc_ix_tree_build(fresh, all, n);
    }
    free(all);
    if (st != LC_OK) {
        if (fresh) {
            lc_ix_tree_free(fresh);
            lc_ix_store_free(fresh);
            free(fresh);
        }
        return st;
    }
    take_over(ix, fresh);
    return LC_OK;
}

lc_status lc_index_build_from_doc(lc_index *ix, const lc_doc *doc) {
    if (!ix || !doc) return LC_ERR_ARGUMENT;
    build_source src = {.doc = doc, .entries = NULL};
    return build(ix, &src, lc_doc_count(doc));
}

lc_status lc_index_build(lc_index *ix, const lc_entry *entries, size_t n) {
    if (!ix || (!entries && n)) return LC_ERR_ARGUMENT;
    for (size_t i = 0; i < n; i++) {
        if (lc_value_check(&entries[i].value) != LC_OK) return LC_ERR_ARGUMENT;
        if (!entries[i].key && entries[i].key_len) return LC_ERR_ARGUMENT;
        lc_status st = lc_key_validate(entries[i].key, entries[i].key_len, NULL);
        if (st != LC_OK) return st;
    }
    build_source src = {.doc = NULL, .entries = entries};
    return build(ix, &src, n);
}

lc_status lc_index_clear(lc_index *ix) {
    if (!ix) return LC_ERR_ARGUMENT;
    lc_slab fresh;
    lc_slab_init(&fresh, sizeof(leaf));
    leaf *empty = lc_slab_alloc(&fresh);
    if (!empty) return LC_ERR_NOMEM;
    memset(empty, 0, sizeof *empty);
    lc_ix_tree_free(ix);
    lc_ix_store_free(ix);
    ix->leaves = fresh;
    ix->root = ix->first = empty;
    ix->rec_len = ix->rec_cap = 0;
    ix->free_head = LC_ID_NONE;
    ix->arena_used = ix->arena_cap = ix->arena_garbage = 0;
    ix->slot_mask = 0;
    ix->slot_shift = 0;
    return LC_OK;
}
