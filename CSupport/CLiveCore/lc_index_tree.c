/* lc_index_tree.c — the order-statistic B+ tree: descent, insert, remove. */
#include <stdlib.h>

#include "lc_index_internal.h"

static unsigned leaf_bound(const lc_index *ix, const leaf *l, const entry *t,
                           const probe_ext *x, int upper) {
    unsigned lo = 0, hi = l->n;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        int c = lc_ix_compare(ix, t, x, &l->e[mid]);
        if (c > 0 || (upper && c == 0)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The last child whose separator is <= t (child 0 when none is). */
static unsigned inner_child(const lc_index *ix, const inner *in, const entry *t,
                            const probe_ext *x) {
    unsigned lo = 1, hi = in->n;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (lc_ix_compare(ix, t, x, &in->sep[mid]) >= 0) lo = mid + 1;
        else hi = mid;
    }
    return lo - 1;
}

static inline size_t sum_before(const inner *in, unsigned i) {
    size_t s = 0;
    for (unsigned j = 0; j < i; j++) s += in->cnt[j];
    return s;
}

/* Descends towards t, recording the path; returns the leaf and the count of
 * entries in subtrees left of the path. */
static leaf *descend(const lc_index *ix, const entry *t, const probe_ext *x, tree_path *p,
                     size_t *rank) {
    void *node = ix->root;
    size_t r = 0;
    for (unsigned lvl = 0; lvl < ix->height; lvl++) {
        inner *in = node;
        unsigned i = inner_child(ix, in, t, x);
        p->node[lvl] = in;
        p->idx[lvl] = i;
        r += sum_before(in, i);
        node = in->child[i];
    }
    *rank = r;
    return node;
}

size_t lc_ix_tree_rank(const lc_index *ix, const entry *e, const probe_ext *ext, int upper) {
    tree_path p;
    size_t rank;
    leaf *l = descend(ix, e, ext, &p, &rank);
    return rank + leaf_bound(ix, l, e, ext, upper);
}

const entry *lc_ix_tree_at(const lc_index *ix, size_t position, const leaf **where,
                           unsigned *slot) {
    void *node = ix->root;
    for (unsigned lvl = 0; lvl < ix->height; lvl++) {
        const inner *in = node;
        unsigned i = 0;
        while (i + 1 < in->n && position >= in->cnt[i]) position -= in->cnt[i++];
        node = in->child[i];
    }
    const leaf *l = node;
    if (where) *where = l;
    if (slot) *slot = (unsigned)position;
    return &l->e[position];
}

/* ---- insertion ---- */

static void insert_child_at(inner *in, unsigned at, void *child, const entry *sep, uint32_t cnt) {
    unsigned tail = in->n - at;
    memmove(in->child + at + 1, in->child + at, tail * sizeof in->child[0]);
    memmove(in->cnt + at + 1, in->cnt + at, tail * sizeof in->cnt[0]);
    memmove(in->sep + at + 1, in->sep + at, tail * sizeof in->sep[0]);
    in->child[at] = child;
    in->cnt[at] = cnt;
    in->sep[at] = *sep;
    in->n++;
}

static size_t sum_range(const inner *in, unsigned from, unsigned to) {
    size_t s = 0;
    for (unsigned j = from; j < to; j++) s += in->cnt[j];
    return s;
}

/* Fills the node pool so that one insertion cannot run out of nodes: one
 * leaf, one inner node per level and a new root. */
lc_status lc_ix_tree_reserve(lc_index *ix) {
    while (ix->n_pool_leaf < 1) {
        void *n = malloc(sizeof(leaf));
        if (!n) return LC_ERR_NOMEM;
        ix->pool_leaf[ix->n_pool_leaf++] = n;
    }
    while (ix->n_pool_inner < ix->height + 1) {
        if (ix->n_pool_inner == MAX_HEIGHT + 2) return LC_ERR_CAPACITY;
        void *n = malloc(sizeof(inner));
        if (!n) return LC_ERR_NOMEM;
        ix->pool_inner[ix->n_pool_inner++] = n;
    }
    return LC_OK;
}

void lc_ix_node_put(lc_index *ix, void *node, int is_leaf) {
    if (is_leaf && ix->n_pool_leaf < sizeof ix->pool_leaf / sizeof ix->pool_leaf[0])
        ix->pool_leaf[ix->n_pool_leaf++] = node;
    else if (!is_leaf && ix->n_pool_inner < sizeof ix->pool_inner / sizeof ix->pool_inner[0])
        ix->pool_inner[ix->n_pool_inner++] = node;
    else
        free(node);
}

static void *take(lc_index *ix, int is_leaf) {
    return is_leaf ? ix->pool_leaf[--ix->n_pool_leaf] : ix->pool_inner[--ix->n_pool_inner];
}

/* Requires lc_ix_tree_reserve to have succeeded; never fails. */
size_t lc_ix_tree_insert(lc_index *ix, const entry *e) {
    tree_path p;
    size_t rank;
    leaf *l = descend(ix, e, NULL, &p, &rank);
    unsigned pos = leaf_bound(ix, l, e, NULL, 0);
    rank += pos;

    ix->count++;
    for (unsigned lvl = 0; lvl < ix->height; lvl++) p.node[lvl]->cnt[p.idx[lvl]]++;
    if (l->n < LEAF_CAP) {
        memmove(l->e + pos + 1, l->e + pos, (l->n - pos) * sizeof l->e[0]);
        l->e[pos] = *e;
        l->n++;
        return rank;
    }

    /* Split the leaf: 65 entries, 32 stay left, 33 go right. */
    entry tmp[LEAF_CAP + 1];
    memcpy(tmp, l->e, pos * sizeof tmp[0]);
    tmp[pos] = *e;
    memcpy(tmp + pos + 1, l->e + pos, (LEAF_CAP - pos) * sizeof tmp[0]);
    leaf *r = take(ix, 1);
    unsigned keep = (LEAF_CAP + 1) / 2;
    l->n = keep;
    r->n = LEAF_CAP + 1 - keep;
    memcpy(l->e, tmp, keep * sizeof tmp[0]);
    memcpy(r->e, tmp + keep, r->n * sizeof tmp[0]);
    r->prev = l;
    r->next = l->next;
    if (l->next) l->next->prev = r;
    l->next = r;

    void *left = l, *right = r;
    size_t left_cnt = l->n, right_cnt = r->n;
    entry sep = r->e[0];
    for (unsigned lvl = ix->height; lvl-- > 0;) {
        inner *in = p.node[lvl];
        unsigned at = p.idx[lvl];
        in->cnt[at] = (uint32_t)left_cnt;
        if (in->n < INNER_CAP) {
            insert_child_at(in, at + 1, right, &sep, (uint32_t)right_cnt);
            return rank;
        }
        /* Split the inner node: 65 children, 32 stay, 33 move. */
        inner *nr = take(ix, 0);
        void *tc[INNER_CAP + 1];
        uint32_t tn[INNER_CAP + 1];
        entry ts[INNER_CAP + 1];
        unsigned m = at + 1;
        memcpy(tc, in->child, m * sizeof tc[0]);
        memcpy(tn, in->cnt, m * sizeof tn[0]);
        memcpy(ts, in->sep, m * sizeof ts[0]);
        tc[m] = right;
        tn[m] = (uint32_t)right_cnt;
        ts[m] = sep;
        memcpy(tc + m + 1, in->child + m, (INNER_CAP - m) * sizeof tc[0]);
        memcpy(tn + m + 1, in->cnt + m, (INNER_CAP - m) * sizeof tn[0]);
        memcpy(ts + m + 1, in->sep + m, (INNER_CAP - m) * sizeof ts[0]);
        unsigned k = (INNER_CAP + 1) / 2;
        in->n = k;
        nr->n = INNER_CAP + 1 - k;
        memcpy(in->child, tc, k * sizeof tc[0]);
        memcpy(in->cnt, tn, k * sizeof tn[0]);
        memcpy(in->sep, ts, k * sizeof ts[0]);
        memcpy(nr->child, tc + k, nr->n * sizeof tc[0]);
        memcpy(nr->cnt, tn + k, nr->n * sizeof tn[0]);
        memcpy(nr->sep, ts + k, nr->n * sizeof ts[0]);
        left = in;
        right = nr;
        left_cnt = sum_range(in, 0, in->n);
        right_cnt = sum_range(nr, 0, nr->n);
        sep = ts[k];
    }
    /* The root split: grow a level. */
    inner *root = take(ix, 0);
    root->n = 2;
    root->child[0] = left;
    root->child[1] = right;
    root->cnt[0] = (uint32_t)left_cnt;
    root->cnt[1] = (uint32_t)right_cnt;
    root->sep[0] = sep; /* never read */
    root->sep[1] = sep;
    ix->root = root;
    ix->height++;
    return rank;
}
