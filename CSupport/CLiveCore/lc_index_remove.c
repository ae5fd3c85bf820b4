/* lc_index_remove.c — removal from the B+ tree, with merging and redistribution. */
#include <stdlib.h>

#include "lc_index_internal.h"

static void remove_child(inner *in, unsigned at) {
    unsigned tail = in->h.n - at - 1;
    memmove(in->child + at, in->child + at + 1, tail * sizeof in->child[0]);
    memmove(in->cnt + at, in->cnt + at + 1, tail * sizeof in->cnt[0]);
    memmove(in->sep + at, in->sep + at + 1, tail * sizeof in->sep[0]);
    in->h.n--;
}

static uint32_t sum_all(const inner *in) {
    uint32_t s = 0;
    for (unsigned j = 0; j < in->h.n; j++) s += in->cnt[j];
    return s;
}

static void adopt(inner *in, unsigned from, unsigned to) {
    for (unsigned i = from; i < to; i++) ((node_hdr *)in->child[i])->parent = in;
}

/* Restores the occupancy of the inner node at level lvl of path p. */
static void rebalance_inner(lc_index *ix, const tree_path *p, unsigned lvl) {
    inner *node = p->node[lvl];
    if (lvl == 0) {
        if (node->h.n == 1) { /* the root has one child left: drop a level */
            ix->root = node->child[0];
            ((node_hdr *)ix->root)->parent = NULL;
            ix->height--;
            lc_ix_node_put(ix, node, 0);
        }
        return;
    }
    if (node->h.n >= INNER_MIN) return;
    inner *parent = p->node[lvl - 1];
    unsigned i = p->idx[lvl - 1], li = i > 0 ? i - 1 : i, ri = li + 1;
    inner *L = parent->child[li], *R = parent->child[ri];
    entry s = parent->sep[ri]; /* smallest entry under R */
    unsigned ln = L->h.n, rn = R->h.n;
    if (ln + rn <= INNER_CAP) {
        L->sep[ln] = s;
        memcpy(L->child + ln, R->child, rn * sizeof R->child[0]);
        memcpy(L->cnt + ln, R->cnt, rn * sizeof R->cnt[0]);
        memcpy(L->sep + ln + 1, R->sep + 1, (rn - 1) * sizeof R->sep[0]);
        L->h.n = ln + rn;
        adopt(L, ln, ln + rn);
        lc_ix_node_put(ix, R, 0);
        parent->cnt[li] += parent->cnt[ri];
        remove_child(parent, ri);
        rebalance_inner(ix, p, lvl - 1);
        return;
    }
    unsigned target = (ln + rn) / 2;
    if (ln > target) { /* move L's last m children to R's front */
        unsigned m = ln - target, from = ln - m;
        memmove(R->child + m, R->child, rn * sizeof R->child[0]);
        memmove(R->cnt + m, R->cnt, rn * sizeof R->cnt[0]);
        memmove(R->sep + m, R->sep, rn * sizeof R->sep[0]);
        R->sep[m] = s;
        memcpy(R->child, L->child + from, m * sizeof L->child[0]);
        memcpy(R->cnt, L->cnt + from, m * sizeof L->cnt[0]);
        memcpy(R->sep + 1, L->sep + from + 1, (m - 1) * sizeof L->sep[0]);
        parent->sep[ri] = L->sep[from];
        L->h.n = ln - m;
        R->h.n = rn + m;
        adopt(R, 0, m);
    } else { /* move R's first m children to L's end */
        unsigned m = target - ln;
        L->sep[ln] = s;
        memcpy(L->child + ln, R->child, m * sizeof R->child[0]);
        memcpy(L->cnt + ln, R->cnt, m * sizeof R->cnt[0]);
        memcpy(L->sep + ln + 1, R->sep + 1, (m - 1) * sizeof R->sep[0]);
        parent->sep[ri] = R->sep[m];
        L->h.n = ln + m;
        R->h.n = rn - m;
        memmove(R->child, R->child + m, R->h.n * sizeof R->child[0]);
        memmove(R->cnt, R->cnt + m, R->h.n * sizeof R->cnt[0]);
        memmove(R->sep, R->sep + m, R->h.n * sizeof R->sep[0]);
        adopt(L, ln, ln + m);
    }
    parent->cnt[li] = sum_all(L);
    parent->cnt[ri] = sum_all(R);
}

static void rebalance_leaf(lc_index *ix, const tree_path *p) {
    unsigned lvl = ix->height - 1;
    inner *parent = p->node[lvl];
    unsigned i = p->idx[lvl], li = i > 0 ? i - 1 : i, ri = li + 1;
    leaf *L = parent->child[li], *R = parent->child[ri];
    unsigned ln = L->h.n, rn = R->h.n;
    if (ln + rn <= LEAF_CAP) {
        lc_ix_leaf_move(ix, L, ln, R, 0, rn);
        L->h.n = ln + rn;
        L->next = R->next;
        if (R->next) R->next->prev = L;
        lc_ix_node_put(ix, R, 1);
        parent->cnt[li] += parent->cnt[ri];
        remove_child(parent, ri);
        rebalance_inner(ix, p, lvl);
        return;
    }
    unsigned target = (ln + rn) / 2;
    if (ln > target) {
        unsigned m = ln - target;
        lc_ix_leaf_move(ix, R, m, R, 0, rn);
        lc_ix_leaf_move(ix, R, 0, L, ln - m, m);
        L->h.n = ln - m;
        R->h.n = rn + m;
    } else {
        unsigned m = target - ln;
        lc_ix_leaf_move(ix, L, ln, R, 0, m);
        lc_ix_leaf_move(ix, R, 0, R, m, rn - m);
        L->h.n = ln + m;
        R->h.n = rn - m;
    }
    parent->sep[ri] = lc_ix_leaf_entry(R, 0);
    parent->cnt[li] = L->h.n;
    parent->cnt[ri] = R->h.n;
}

/* Removes a live id from the tree; returns the position it had. The record
 * itself is left to the caller. */
size_t lc_ix_tree_remove(lc_index *ix, uint32_t id) {
    tree_path p;
    unsigned pos;
    size_t rank = lc_ix_tree_rank_of(ix, id, &p, &pos);
    leaf *l = ix->rec[id].where;
    lc_ix_leaf_move(ix, l, pos, l, pos + 1, l->h.n - pos - 1);
    l->h.n--;
    ix->count--;
    for (unsigned lvl = 0; lvl < ix->height; lvl++) p.node[lvl]->cnt[p.idx[lvl]]--;
    if (pos == 0 && l->h.n > 0) {
        /* The leaf's smallest entry changed: so did the separator naming it. */
        ix->epoch++;
        for (unsigned lvl = ix->height; lvl-- > 0;) {
            if (p.idx[lvl] > 0) {
                p.node[lvl]->sep[p.idx[lvl]] = lc_ix_leaf_entry(l, 0);
                break;
            }
        }
    }
    if (ix->height > 0 && l->h.n < LEAF_MIN) {
        ix->epoch++;
        rebalance_leaf(ix, &p);
    }
    return rank;
}

void lc_ix_tree_free(lc_index *ix) {
    lc_slab_destroy(&ix->leaves);
    lc_slab_destroy(&ix->inners);
    ix->root = NULL;
    ix->first = NULL;
    ix->height = 0;
    ix->count = 0;
}
