/* lc_index_remove.c — removal from the B+ tree, with merging and redistribution. */
#include <stdlib.h>

#include "lc_index_internal.h"

static unsigned leaf_find(const lc_index *ix, const leaf *l, const entry *t) {
    unsigned lo = 0, hi = l->n;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (lc_ix_compare(ix, t, NULL, &l->e[mid]) > 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

static unsigned inner_find(const lc_index *ix, const inner *in, const entry *t) {
    unsigned lo = 1, hi = in->n;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (lc_ix_compare(ix, t, NULL, &in->sep[mid]) >= 0) lo = mid + 1;
        else hi = mid;
    }
    return lo - 1;
}

static void remove_child(inner *in, unsigned at) {
    unsigned tail = in->n - at - 1;
    memmove(in->child + at, in->child + at + 1, tail * sizeof in->child[0]);
    memmove(in->cnt + at, in->cnt + at + 1, tail * sizeof in->cnt[0]);
    memmove(in->sep + at, in->sep + at + 1, tail * sizeof in->sep[0]);
    in->n--;
}

static uint32_t sum_all(const inner *in) {
    uint32_t s = 0;
    for (unsigned j = 0; j < in->n; j++) s += in->cnt[j];
    return s;
}

/* Restores the occupancy of the inner node at level lvl of path p. */
static void rebalance_inner(lc_index *ix, const tree_path *p, unsigned lvl) {
    inner *node = p->node[lvl];
    if (lvl == 0) {
        if (node->n == 1) { /* the root has one child left: drop a level */
            ix->root = node->child[0];
            ix->height--;
            lc_ix_node_put(ix, node, 0);
        }
        return;
    }
    if (node->n >= INNER_MIN) return;
    inner *parent = p->node[lvl - 1];
    unsigned i = p->idx[lvl - 1], li = i > 0 ? i - 1 : i, ri = li + 1;
    inner *L = parent->child[li], *R = parent->child[ri];
    entry s = parent->sep[ri]; /* smallest entry under R */
    if (L->n + R->n <= INNER_CAP) {
        L->sep[L->n] = s;
        memcpy(L->child + L->n, R->child, R->n * sizeof R->child[0]);
        memcpy(L->cnt + L->n, R->cnt, R->n * sizeof R->cnt[0]);
        memcpy(L->sep + L->n + 1, R->sep + 1, (R->n - 1) * sizeof R->sep[0]);
        L->n += R->n;
        lc_ix_node_put(ix, R, 0);
        parent->cnt[li] += parent->cnt[ri];
        remove_child(parent, ri);
        rebalance_inner(ix, p, lvl - 1);
        return;
    }
    unsigned target = (L->n + R->n) / 2;
    if (L->n > target) { /* move L's last m children to R's front */
        unsigned m = L->n - target, from = L->n - m;
        memmove(R->child + m, R->child, R->n * sizeof R->child[0]);
        memmove(R->cnt + m, R->cnt, R->n * sizeof R->cnt[0]);
        memmove(R->sep + m, R->sep, R->n * sizeof R->sep[0]);
        R->sep[m] = s;
        memcpy(R->child, L->child + from, m * sizeof L->child[0]);
        memcpy(R->cnt, L->cnt + from, m * sizeof L->cnt[0]);
        memcpy(R->sep + 1, L->sep + from + 1, (m - 1) * sizeof L->sep[0]);
        parent->sep[ri] = L->sep[from];
        L->n -= m;
        R->n += m;
    } else { /* move R's first m children to L's end */
        unsigned m = target - L->n;
        L->sep[L->n] = s;
        memcpy(L->child + L->n, R->child, m * sizeof R->child[0]);
        memcpy(L->cnt + L->n, R->cnt, m * sizeof R->cnt[0]);
        memcpy(L->sep + L->n + 1, R->sep + 1, (m - 1) * sizeof R->sep[0]);
        parent->sep[ri] = R->sep[m];
        L->n += m;
        R->n -= m;
        memmove(R->child, R->child + m, R->n * sizeof R->child[0]);
        memmove(R->cnt, R->cnt + m, R->n * sizeof R->cnt[0]);
        memmove(R->sep, R->sep + m, R->n * sizeof R->sep[0]);
    }
    parent->cnt[li] = sum_all(L);
    parent->cnt[ri] = sum_all(R);
}

static void rebalance_leaf(lc_index *ix, const tree_path *p) {
    unsigned lvl = ix->height - 1;
    inner *parent = p->node[lvl];
    unsigned i = p->idx[lvl], li = i > 0 ? i - 1 : i, ri = li + 1;
    leaf *L = parent->child[li], *R = parent->child[ri];
    if (L->n + R->n <= LEAF_CAP) {
        memcpy(L->e + L->n, R->e, R->n * sizeof R->e[0]);
        L->n += R->n;
        L->next = R->next;
        if (R->next) R->next->prev = L;
        lc_ix_node_put(ix, R, 1);
        parent->cnt[li] += parent->cnt[ri];
        remove_child(parent, ri);
        rebalance_inner(ix, p, lvl);
        return;
    }
    unsigned target = (L->n + R->n) / 2;
    if (L->n > target) {
        unsigned m = L->n - target;
        memmove(R->e + m, R->e, R->n * sizeof R->e[0]);
        memcpy(R->e, L->e + L->n - m, m * sizeof L->e[0]);
        L->n -= m;
        R->n += m;
    } else {
        unsigned m = target - L->n;
        memcpy(L->e + L->n, R->e, m * sizeof R->e[0]);
        L->n += m;
        R->n -= m;
        memmove(R->e, R->e + m, R->n * sizeof R->e[0]);
    }
    parent->sep[ri] = R->e[0];
    parent->cnt[li] = L->n;
    parent->cnt[ri] = R->n;
}

size_t lc_ix_tree_remove(lc_index *ix, const entry *e) {
    tree_path p;
    size_t rank = 0;
    void *node = ix->root;
    for (unsigned lvl = 0; lvl < ix->height; lvl++) {
        inner *in = node;
        unsigned i = inner_find(ix, in, e);
        p.node[lvl] = in;
        p.idx[lvl] = i;
        for (unsigned j = 0; j < i; j++) rank += in->cnt[j];
        node = in->child[i];
    }
    leaf *l = node;
    unsigned pos = leaf_find(ix, l, e);
    rank += pos;
    memmove(l->e + pos, l->e + pos + 1, (l->n - pos - 1) * sizeof l->e[0]);
    l->n--;
    ix->count--;
    for (unsigned lvl = 0; lvl < ix->height; lvl++) p.node[lvl]->cnt[p.idx[lvl]]--;
    if (pos == 0 && l->n > 0) {
        /* The leaf's smallest entry changed: so did the separator naming it. */
        for (unsigned lvl = ix->height; lvl-- > 0;) {
            if (p.idx[lvl] > 0) {
                p.node[lvl]->sep[p.idx[lvl]] = l->e[0];
                break;
            }
        }
    }
    if (ix->height > 0 && l->n < LEAF_MIN) rebalance_leaf(ix, &p);
    return rank;
}

void lc_ix_tree_free(lc_index *ix) {
    /* An iterative post-order walk (depth <= MAX_HEIGHT), then the pool. */
    struct frame { inner *in; unsigned next; } stack[MAX_HEIGHT];
    if (!ix->root) return;
    if (ix->height == 0) {
        free(ix->root);
        ix->root = NULL;
        return;
    }
    int top = 0;
    stack[0].in = ix->root;
    stack[0].next = 0;
    while (top >= 0) {
        struct frame *f = &stack[top];
        if (f->next == f->in->n) {
            free(f->in);
            top--;
            continue;
        }
        void *c = f->in->child[f->next++];
        if ((unsigned)top + 1 == ix->height) free(c); /* a leaf */
        else {
            top++;
            stack[top].in = c;
            stack[top].next = 0;
        }
    }
    ix->root = NULL;
}

void lc_ix_pool_free(lc_index *ix) {
    while (ix->n_pool_leaf) free(ix->pool_leaf[--ix->n_pool_leaf]);
    while (ix->n_pool_inner) free(ix->pool_inner[--ix->n_pool_inner]);
}
