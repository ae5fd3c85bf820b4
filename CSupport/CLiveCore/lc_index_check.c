/* lc_index_check.c — the invariant checker and memory accounting. */
#include <stdio.h>

#include "lc_index_internal.h"

typedef struct walk {
    const lc_index *ix;
    lc_error *error;
    entry prev;
    int has_prev;
    const leaf *prev_leaf;
    size_t seen, leaves, inners;
    int failed;
} walk;

static void fail(walk *w, const char *what, size_t at) {
    if (w->failed++) return;
    if (w->error) {
        lc_error_clear(w->error);
        w->error->code = LC_ERR_ARGUMENT;
        w->error->position = at;
        snprintf(w->error->text, sizeof w->error->text, "index invariant broken: %s (near entry %zu)",
                 what, at);
    }
}

/* Returns the number of entries under node; *min receives the smallest. */
static size_t visit(walk *w, const void *node, const inner *parent, unsigned depth, entry *min) {
    const lc_index *ix = w->ix;
    int is_root = parent == NULL;
    if (((const node_hdr *)node)->parent != parent) fail(w, "parent pointer", w->seen);
    if (depth == ix->height) {
        const leaf *l = node;
        w->leaves++;
        if (l->h.n > LEAF_CAP || (!is_root && l->h.n < LEAF_MIN)) fail(w, "leaf occupancy", w->seen);
        if (l->prev != w->prev_leaf) fail(w, "leaf links", w->seen);
        w->prev_leaf = l;
        for (unsigned i = 0; i < l->h.n; i++) {
            entry e = lc_ix_leaf_entry(l, i);
            if (e.id >= ix->rec_len || ix->rec[e.id].tag == TAG_FREE) {
                fail(w, "entry names a free id", w->seen);
                continue;
            }
            const record *r = &ix->rec[e.id];
            if (r->where != l) fail(w, "record points at another leaf", w->seen);
            size_t kl;
            const char *k = lc_ix_key(ix, e.id, &kl);
            lc_value v;
            lc_ix_value_of(ix, e.id, &v);
            entry want;
            lc_ix_encode(k, kl, &v, &want);
            if (want.v != e.v || want.k != e.k || want.tag != e.tag || want.flags != e.flags)
                fail(w, "entry differs from its key and value", w->seen);
            if (w->has_prev && lc_ix_compare(ix, &w->prev, NULL, &e) >= 0) fail(w, "order", w->seen);
            w->prev = e;
            w->has_prev = 1;
            w->seen++;
        }
        if (l->h.n) *min = lc_ix_leaf_entry(l, 0);
        return l->h.n;
    }
    const inner *in = node;
    w->inners++;
    if (in->h.n > INNER_CAP || in->h.n < (is_root ? 2u : INNER_MIN)) fail(w, "inner occupancy", w->seen);
    size_t total = 0;
    for (unsigned i = 0; i < in->h.n; i++) {
        entry m = {0, 0, LC_ID_NONE, 0, 0, 0};
        size_t c = visit(w, in->child[i], in, depth + 1, &m);
        if (c != in->cnt[i]) fail(w, "subtree count", w->seen);
        if (i > 0 && (m.id != in->sep[i].id || lc_ix_compare(ix, &m, NULL, &in->sep[i]) != 0))
            fail(w, "separator is not the subtree minimum", w->seen);
        if (i == 0) *min = m;
        total += c;
    }
    return total;
}

lc_status lc_index_check(const lc_index *ix, lc_error *error) {
    if (!ix) return LC_ERR_ARGUMENT;
    walk w = {ix, error, {0, 0, 0, 0, 0, 0}, 0, NULL, 0, 0, 0, 0};
    entry min;
    size_t total = visit(&w, ix->root, NULL, 0, &min);
    if (total != ix->count || w.seen != ix->count) fail(&w, "count", total);
    if (w.prev_leaf && w.prev_leaf->next) fail(&w, "last leaf has a successor", total);
    if (ix->first && ix->first->prev) fail(&w, "first leaf has a predecessor", 0);
    size_t live = 0;
    for (uint32_t id = 0; id < ix->rec_len; id++) {
        if (ix->rec[id].tag == TAG_FREE) continue;
        live++;
        size_t kl;
        const char *k = lc_ix_key(ix, id, &kl);
        if (lc_ix_lookup(ix, k, kl) != id) fail(&w, "hash table misses a key", id);
    }
    if (live != ix->count) fail(&w, "live records", live);
    if (!w.failed) lc_error_clear(error);
    return w.failed ? LC_ERR_ARGUMENT : LC_OK;
}

void lc_index_memory(const lc_index *ix, size_t *total_bytes, size_t *payload_bytes) {
    size_t total = 0, payload = 0;
    if (ix) {
        walk w = {ix, NULL, {0, 0, 0, 0, 0, 0}, 0, NULL, 0, 0, 0, 0};
        entry min;
        visit(&w, ix->root, NULL, 0, &min);
        total = sizeof *ix + lc_slab_bytes(&ix->leaves) + lc_slab_bytes(&ix->inners) +
                (size_t)ix->rec_cap * sizeof(record) + ix->arena_cap +
                (ix->slots ? (ix->slot_mask + 1) * sizeof(slot) : 0);
        for (uint32_t id = 0; id < ix->rec_len; id++) {
            const record *r = &ix->rec[id];
            if (r->tag == TAG_FREE) continue;
            payload += r->key_len;
            if (r->tag == LC_SORT_STRING) {
                const char *str;
                size_t len;
                lc_ix_string_of(ix, id, &str, &len);
                payload += len;
            }
        }
    }
    if (total_bytes) *total_bytes = total;
    if (payload_bytes) *payload_bytes = payload;
}
