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

static void free_level(level *lv, int leaves) {
    (void)leaves;
    if (lv->node)
        for (size_t i = 0; i < lv->n; i++) free(lv->node[i]);
    free(lv->node);
    free(lv->cnt);
    free(lv->min);
    memset(lv, 0, sizeof *lv);
}

static lc_status alloc_level(level *lv, size_t n, size_t node_size) {
    lv->node = calloc(n ? n : 1, sizeof *lv->node);
    lv->cnt = malloc((n ? n : 1) * sizeof *lv->cnt);
    lv->min = malloc((n ? n : 1) * sizeof *lv->min);
    lv->n = 0;
    if (!lv->node || !lv->cnt || !lv->min) return LC_ERR_NOMEM;
    for (size_t i = 0; i < n; i++) {
        lv->node[i] = malloc(node_size);
        if (!lv->node[i]) return LC_ERR_NOMEM;
        lv->n++;
    }
    return LC_OK;
}

/* Builds the tree of ix (which must be empty and rootless) from sorted entries. */
lc_status lc_ix_tree_build(lc_index *ix, const entry *sorted, size_t n) {
    size_t nleaves = n ? (n + BULK_LEAF_FILL - 1) / BULK_LEAF_FILL : 1;
    level cur;
    if (alloc_level(&cur, nleaves, sizeof(leaf)) != LC_OK) {
        free_level(&cur, 1);
        return LC_ERR_NOMEM;
    }
    size_t at = 0;
    for (size_t j = 0; j < nleaves; j++) {
        leaf *l = cur.node[j];
        size_t k = n / nleaves + (j < n % nleaves);
        memcpy(l->e, sorted + at, k * sizeof *sorted);
        l->n = (uint32_t)k;
        l->prev = j ? cur.node[j - 1] : NULL;
        l->next = j + 1 < nleaves ? cur.node[j + 1] : NULL;
        cur.cnt[j] = (uint32_t)k;
        if (k) cur.min[j] = sorted[at];
        at += k;
    }
    ix->first = cur.node[0];
    unsigned height = 0;
    /* Levels built so far are owned by the nodes above them once linked. */
    while (cur.n > 1) {
        size_t c = cur.n, nn = (c + BULK_LEAF_FILL - 1) / BULK_LEAF_FILL;
        level up;
        if (alloc_level(&up, nn, sizeof(inner)) != LC_OK || height + 1 >= MAX_HEIGHT) {
            free_level(&up, 0);
            /* Free the whole partial tree: the current level and everything under it. */
            ix->root = NULL;
            for (size_t i = 0; i < cur.n; i++) {
                ix->root = cur.node[i];
                ix->height = height;
                lc_ix_tree_free(ix);
            }
            free(cur.node);
            free(cur.cnt);
            free(cur.min);
            ix->first = NULL;
            ix->height = 0;
            return LC_ERR_NOMEM;
        }
        size_t from = 0;
        for (size_t j = 0; j < nn; j++) {
            inner *in = up.node[j];
            size_t k = c / nn + (j < c % nn);
            uint32_t total = 0;
            for (size_t q = 0; q < k; q++) {
                in->child[q] = cur.node[from + q];
                in->cnt[q] = cur.cnt[from + q];
                in->sep[q] = cur.min[from + q];
                total += cur.cnt[from + q];
            }
            in->n = (uint32_t)k;
            up.cnt[j] = total;
            up.min[j] = cur.min[from];
            from += k;
        }
        free(cur.node);
        free(cur.cnt);
        free(cur.min);
        cur = up;
        height++;
    }
    ix->root = cur.node[0];
    ix->height = height;
    ix->count = n;
    free(cur.node);
    free(cur.cnt);
    free(cur.min);
    return LC_OK;
}
