/* lc_index_build.c — bulk build: sort entries, then pack leaves and inner levels. */
#include <stdlib.h>

#include "lc_index_internal.h"

/* ---- introsort over entries (inlined comparisons; heapsort past a depth limit) ---- */

static inline int less(const lc_index *ix, const entry *a, const entry *b) {
    return lc_ix_compare(ix, a, NULL, b) < 0;
}

static void insertion_sort(const lc_index *ix, entry *a, size_t n) {
    for (size_t i = 1; i < n; i++) {
        entry t = a[i];
        size_t j = i;
        while (j > 0 && less(ix, &t, &a[j - 1])) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = t;
    }
}

static void sift_down(const lc_index *ix, entry *a, size_t root, size_t n) {
    for (;;) {
        size_t c = 2 * root + 1;
        if (c >= n) return;
        if (c + 1 < n && less(ix, &a[c], &a[c + 1])) c++;
        if (!less(ix, &a[root], &a[c])) return;
        entry t = a[root];
        a[root] = a[c];
        a[c] = t;
        root = c;
    }
}

static void heap_sort(const lc_index *ix, entry *a, size_t n) {
    for (size_t i = n / 2; i-- > 0;) sift_down(ix, a, i, n);
    for (size_t i = n; i-- > 1;) {
        entry t = a[0];
        a[0] = a[i];
        a[i] = t;
        sift_down(ix, a, 0, i);
    }
}

static void intro_sort(const lc_index *ix, entry *a, size_t n, unsigned depth) {
    while (n > 24) {
        if (depth-- == 0) {
            heap_sort(ix, a, n);
            return;
        }
        size_t m = n / 2;
        /* median of three to a[0] as the pivot */
        if (less(ix, &a[m], &a[0])) { entry t = a[m]; a[m] = a[0]; a[0] = t; }
        if (less(ix, &a[n - 1], &a[0])) { entry t = a[n - 1]; a[n - 1] = a[0]; a[0] = t; }
        if (less(ix, &a[n - 1], &a[m])) { entry t = a[n - 1]; a[n - 1] = a[m]; a[m] = t; }
        entry pivot = a[m];
        size_t i = 0, j = n - 1;
        for (;;) {
            while (less(ix, &a[i], &pivot)) i++;
            while (less(ix, &pivot, &a[j])) j--;
            if (i >= j) break;
            entry t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
        /* [0, j] <= pivot <= [j + 1, n): recurse into the smaller part */
        size_t left = j + 1;
        if (left < n - left) {
            intro_sort(ix, a, left, depth);
            a += left;
            n -= left;
        } else {
            intro_sort(ix, a + left, n - left, depth);
            n = left;
        }
    }
    insertion_sort(ix, a, n);
}

void lc_ix_sort(const lc_index *ix, entry *a, size_t n) {
    unsigned depth = 0;
    for (size_t m = n; m > 1; m >>= 1) depth += 2;
    intro_sort(ix, a, n, depth);
}

/* ---- packing ---- */

typedef struct level {
    void **node;
    uint32_t *cnt;
    entry *min;
    size_t n;
} level;

static void drop_level(level *lv) {
    free(lv->node);
    free(lv->cnt);
    free(lv->min);
    memset(lv, 0, sizeof *lv);
}

/* Allocates n nodes of a level from slab. Nodes stay owned by the slab. */
static lc_status new_level(level *lv, lc_slab *slab, size_t n) {
    lv->node = malloc(n * sizeof *lv->node);
    lv->cnt = malloc(n * sizeof *lv->cnt);
    lv->min = malloc(n * sizeof *lv->min);
    lv->n = n;
    if (!lv->node || !lv->cnt || !lv->min || lc_slab_reserve(slab, n)) return LC_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) lv->node[i] = lc_slab_alloc(slab);
    return LC_OK;
}

/* Builds the tree of ix (whose slabs hold no tree) from sorted entries whose
 * records exist. On failure the caller frees the slabs. */
lc_status lc_ix_tree_build(lc_index *ix, const entry *sorted, size_t n) {
    size_t nleaves = n ? (n + BULK_LEAF_FILL - 1) / BULK_LEAF_FILL : 1;
    level cur;
    if (new_level(&cur, &ix->leaves, nleaves) != LC_OK) {
        drop_level(&cur);
        return LC_ERR_NOMEM;
    }
    size_t at = 0;
    for (size_t j = 0; j < nleaves; j++) {
        leaf *l = cur.node[j];
        size_t k = n / nleaves + (j < n % nleaves);
        for (size_t q = 0; q < k; q++) {
            lc_ix_leaf_set(l, (unsigned)q, &sorted[at + q]);
            ix->rec[sorted[at + q].id].where = l;
        }
        l->h.n = (uint32_t)k;
        l->h.parent = NULL;
        l->prev = j ? cur.node[j - 1] : NULL;
        l->next = j + 1 < nleaves ? cur.node[j + 1] : NULL;
        cur.cnt[j] = (uint32_t)k;
        if (k) cur.min[j] = sorted[at];
        at += k;
    }
    ix->first = cur.node[0];
    unsigned height = 0;
    while (cur.n > 1) {
        size_t c = cur.n, nn = (c + BULK_LEAF_FILL - 1) / BULK_LEAF_FILL;
        level up;
        if (height + 1 >= MAX_HEIGHT || new_level(&up, &ix->inners, nn) != LC_OK) {
            drop_level(&up);
            drop_level(&cur);
            return LC_ERR_NOMEM;
        }
        size_t from = 0;
        for (size_t j = 0; j < nn; j++) {
            inner *in = up.node[j];
            size_t k = c / nn + (j < c % nn);
            uint32_t total = 0;
            for (size_t q = 0; q < k; q++) {
                in->child[q] = cur.node[from + q];
                ((node_hdr *)in->child[q])->parent = in;
                in->cnt[q] = cur.cnt[from + q];
                in->sep[q] = cur.min[from + q];
                total += cur.cnt[from + q];
            }
            in->h.n = (uint32_t)k;
            in->h.parent = NULL;
            up.cnt[j] = total;
            up.min[j] = cur.min[from];
            from += k;
        }
        drop_level(&cur);
        cur = up;
        height++;
    }
    ix->root = cur.node[0];
    ix->height = height;
    ix->count = n;
    drop_level(&cur);
    return LC_OK;
}
