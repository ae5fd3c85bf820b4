/* lc_index_load.c — replacing the whole content: bulk build from a document, clear. */
#include <stdlib.h>

#include "lc_index_internal.h"

/* Moves everything src owns into dst, freeing what dst held. */
static void take_over(lc_index *dst, lc_index *src) {
    lc_ix_tree_free(dst);
    lc_ix_store_free(dst);
    *dst = *src;
    free(src);
}

lc_status lc_index_build_from_doc(lc_index *ix, const lc_doc *doc) {
    if (!ix || !doc) return LC_ERR_ARGUMENT;
    size_t n = lc_doc_count(doc);
    if (n >= LC_ID_NONE) return LC_ERR_CAPACITY;
    size_t bytes = 0;
    for (size_t i = 0; i < n; i++) {
        size_t kl;
        lc_value v;
        lc_doc_key(doc, i, &kl);
        lc_doc_sort_value(doc, i, &v);
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
        size_t kl;
        const char *key = lc_doc_key(doc, i, &kl);
        lc_value v;
        lc_doc_sort_value(doc, i, &v);
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
