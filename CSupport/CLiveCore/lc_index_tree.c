/* lc_index_tree.c — the order-statistic B+ tree: search, positions, insertion. */
#include <stdlib.h>

#include "lc_index_internal.h"

/* First slot of l whose entry is > t (upper) or >= t (lower). */
static unsigned leaf_bound(const lc_index *ix, const leaf *l, const entry *t,
                           const probe_ext *x, int upper) {
    unsigned lo = 0, hi = l->h.n;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        int c;
        if (t->tag != l->tag[mid]) c = t->tag < l->tag[mid] ? -1 : 1;
        else if (t->v != l->v[mid]) c = t->v < l->v[mid] ? -1 : 1;
        else {
            entry e = lc_ix_leaf_entry(l, mid);
            c = lc_ix_compare(ix, t, x, &e);
        }
        if (c > 0 || (upper && c == 0)) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* The last child whose separator is <= t (child 0 when none is). */
static unsigned inner_child(const lc_index *ix, const inner *in, const entry *t,
                            const probe_ext *x) {
    unsigned lo = 1, hi = in->h.n;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        const entry *s = &in->sep[mid];
        int c;
        if (t->tag != s->tag) c = t->tag < s->tag ? -1 : 1;
        else if (t->v != s->v) c = t->v < s->v ? -1 : 1;
        else c = lc_ix_compare(ix, t, x, s);
        if (c >= 0) lo = mid + 1;
        else hi = mid;
    }
    return lo - 1;
}

static inline size_t sum_before(const inner *in, unsigned i) {
    size_t s = 0;
    for (unsigned j = 0; j < i; j++) s += in->cnt[j];
    return s;
}

static inline void prefetch_leaf(const leaf *l) {
    const char *p = (const char *)l, *end = p + sizeof *l;
    for (; p < end; p += 64) __builtin_prefetch(p);
}

/* Descends towards t recording the path; returns the leaf and, in *rank, the
 * number of entries in subtrees left of the path. */
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
        if (lvl + 1 == ix->height && ix->count >= PREFETCH_MIN_COUNT) prefetch_leaf(node);
    }
    *rank = r;
    return node;
}

/* Prefetches the leaf where e would go, so that its lines load while other
 * work (a hash lookup) goes on, and keeps the way there in *where. */
void lc_ix_tree_prefetch(const lc_index *ix, const entry *e, const probe_ext *ext, tree_hint *where) {
    if (where) where->leaf = NULL;
    if (ix->count < PREFETCH_MIN_COUNT) return;
    void *node = ix->root;
    for (unsigned lvl = 0; lvl < ix->height; lvl++) {
        inner *in = node;
        unsigned i = inner_child(ix, in, e, ext);
        if (where) {
            where->path.node[lvl] = in;
            where->path.idx[lvl] = i;
        }
        node = in->child[i];
    }
    prefetch_leaf(node);
    if (where) {
        where->leaf = node;
        where->epoch = ix->epoch;
    }
}

size_t lc_ix_tree_rank(const lc_index *ix, const entry *e, const probe_ext *ext, int upper) {
    tree_path p;
    size_t rank;
    leaf *l = descend(ix, e, ext, &p, &rank);
    return rank + leaf_bound(ix, l, e, ext, upper);
}

/* Position of a live id, found bottom-up from its leaf; fills the path. */
size_t lc_ix_tree_rank_of(const lc_index *ix, uint32_t id, tree_path *p, unsigned *slot) {
    const leaf *l = ix->rec[id].where;
    unsigned pos = lc_ix_slot_of(l, id);
    size_t rank = pos;
    const void *node = l;
    for (unsigned lvl = ix->height; lvl-- > 0;) {
        inner *parent = ((const node_hdr *)node)->parent;
        unsigned i = 0;
        while (parent->child[i] != node) i++;
        rank += sum_before(parent, i);
        p->node[lvl] = parent;
        p->idx[lvl] = i;
        node = parent;
    }
    if (slot) *slot = pos;
    return rank;
}

const leaf *lc_ix_tree_at(const lc_index *ix, size_t position, unsigned *slot) {
    void *node = ix->root;
    for (unsigned lvl = 0; lvl < ix->height; lvl++) {
        const inner *in = node;
        unsigned i = 0;
        while (i + 1 < in->h.n && position >= in->cnt[i]) position -= in->cnt[i++];
        node = in->child[i];
    }
    *slot = (unsigned)position;
    return node;
}

/* Moves n entries from src[si..] to dst[di..] (ranges may overlap within one
 * leaf) and, across leaves, points their records at dst. */
void lc_ix_leaf_move(lc_index *ix, leaf *dst, unsigned di, leaf *src, unsigned si, unsigned n) {
    if (!n) return;
    memmove(dst->v + di, src->v + si, n * sizeof dst->v[0]);
    memmove(dst->k + di, src->k + si, n * sizeof dst->k[0]);
    memmove(dst->id + di, src->id + si, n * sizeof dst->id[0]);
    memmove(dst->tag + di, src->tag + si, n * sizeof dst->tag[0]);
    memmove(dst->flags + di, src->flags + si, n * sizeof dst->flags[0]);
    if (dst != src)
        for (unsigned i = 0; i < n; i++) ix->rec[dst->id[di + i]].where = dst;
}

/* ---- nodes ---- */

void lc_ix_init_nodes(lc_index *ix) {
    lc_slab_init(&ix->leaves, sizeof(leaf));
    lc_slab_init(&ix->inners, sizeof(inner));
}

/* Makes sure one insertion cannot run out of nodes: one leaf, one inner node
 * per level and a new root. */
lc_status lc_ix_tree_reserve(lc_index *ix) {
    if (lc_slab_reserve(&ix->leaves, 1) || lc_slab_reserve(&ix->inners, ix->height + 1))
        return LC_ERR_NOMEM;
    return LC_OK;
}

void lc_ix_node_put(lc_index *ix, void *node, int is_leaf) {
    lc_slab_free(is_leaf ? &ix->leaves : &ix->inners, node);
}

static void *take(lc_index *ix, int is_leaf) {
    return lc_slab_alloc(is_leaf ? &ix->leaves : &ix->inners);
}

/* ---- insertion ---- */

static void insert_child_at(inner *in, unsigned at, void *child, const entry *sep, uint32_t cnt) {
    unsigned tail = in->h.n - at;
    memmove(in->child + at + 1, in->child + at, tail * sizeof in->child[0]);
    memmove(in->cnt + at + 1, in->cnt + at, tail * sizeof in->cnt[0]);
    memmove(in->sep + at + 1, in->sep + at, tail * sizeof in->sep[0]);
    in->child[at] = child;
    in->cnt[at] = cnt;
    in->sep[at] = *sep;
    in->h.n++;
    ((node_hdr *)child)->parent = in;
}

static uint32_t sum_all(const inner *in) {
    uint32_t s = 0;
    for (unsigned j = 0; j < in->h.n; j++) s += in->cnt[j];
    return s;
}

/* Splits a full inner node to make room for (child, sep, cnt) at slot m:
 * 65 children, 32 stay, 33 move to nr. Returns the separator of nr. */
static entry split_inner(inner *in, inner *nr, unsigned m, void *child, const entry *sep,
                         uint32_t cnt) {
    void *tc[INNER_CAP + 1];
    uint32_t tn[INNER_CAP + 1];
    entry ts[INNER_CAP + 1];
    memcpy(tc, in->child, m * sizeof tc[0]);
    memcpy(tn, in->cnt, m * sizeof tn[0]);
    memcpy(ts, in->sep, m * sizeof ts[0]);
    tc[m] = child;
    tn[m] = cnt;
    ts[m] = *sep;
    memcpy(tc + m + 1, in->child + m, (INNER_CAP - m) * sizeof tc[0]);
    memcpy(tn + m + 1, in->cnt + m, (INNER_CAP - m) * sizeof tn[0]);
    memcpy(ts + m + 1, in->sep + m, (INNER_CAP - m) * sizeof ts[0]);
    unsigned k = (INNER_CAP + 1) / 2;
    in->h.n = k;
    nr->h.n = INNER_CAP + 1 - k;
    nr->h.parent = in->h.parent;
    memcpy(in->child, tc, k * sizeof tc[0]);
    memcpy(in->cnt, tn, k * sizeof tn[0]);
    memcpy(in->sep, ts, k * sizeof ts[0]);
    memcpy(nr->child, tc + k, nr->h.n * sizeof tc[0]);
    memcpy(nr->cnt, tn + k, nr->h.n * sizeof tn[0]);
    memcpy(nr->sep, ts + k, nr->h.n * sizeof ts[0]);
    for (unsigned i = 0; i < k; i++) ((node_hdr *)in->child[i])->parent = in;
    for (unsigned i = 0; i < nr->h.n; i++) ((node_hdr *)nr->child[i])->parent = nr;
    return ts[k];
}

/* Requires lc_ix_tree_reserve to have succeeded; never fails. The record of
 * e->id must exist; its leaf pointer is set here. where: the path to e's
 * leaf found earlier (used while the tree's epoch is unchanged), or NULL. */
size_t lc_ix_tree_insert(lc_index *ix, const entry *e, const tree_hint *where) {
    tree_path found;
    const tree_path *path = &found;
    size_t rank = 0;
    leaf *l;
    if (where && where->leaf && where->epoch == ix->epoch) {
        path = &where->path;
        l = where->leaf;
        for (unsigned lvl = 0; lvl < ix->height; lvl++) rank += sum_before(path->node[lvl], path->idx[lvl]);
    } else {
        l = descend(ix, e, NULL, &found, &rank);
    }
    unsigned pos = leaf_bound(ix, l, e, NULL, 0);
    rank += pos;
    ix->count++;
    for (unsigned lvl = 0; lvl < ix->height; lvl++) path->node[lvl]->cnt[path->idx[lvl]]++;
    if (l->h.n < LEAF_CAP) {
        lc_ix_leaf_move(ix, l, pos + 1, l, pos, l->h.n - pos);
        lc_ix_leaf_set(l, pos, e);
        l->h.n++;
        ix->rec[e->id].where = l;
        return rank;
    }

    /* Split the leaf: 65 entries, 32 stay left, 33 go right. */
    ix->epoch++;
    leaf *r = take(ix, 1);
    unsigned keep = (LEAF_CAP + 1) / 2;
    r->h.parent = l->h.parent;
    if (pos < keep) {
        lc_ix_leaf_move(ix, r, 0, l, keep - 1, LEAF_CAP - (keep - 1));
        lc_ix_leaf_move(ix, l, pos + 1, l, pos, keep - 1 - pos);
        lc_ix_leaf_set(l, pos, e);
        ix->rec[e->id].where = l;
    } else {
        unsigned before = pos - keep; /* entries of l moving ahead of e in r */
        lc_ix_leaf_move(ix, r, 0, l, keep, before);
        lc_ix_leaf_set(r, before, e);
        ix->rec[e->id].where = r;
        lc_ix_leaf_move(ix, r, before + 1, l, pos, LEAF_CAP - pos);
    }
    l->h.n = keep;
    r->h.n = LEAF_CAP + 1 - keep;
    r->prev = l;
    r->next = l->next;
    if (l->next) l->next->prev = r;
    l->next = r;

    void *left = l, *right = r;
    uint32_t left_cnt = l->h.n, right_cnt = r->h.n;
    entry sep = lc_ix_leaf_entry(r, 0);
    for (unsigned lvl = ix->height; lvl-- > 0;) {
        inner *in = path->node[lvl];
        unsigned at = path->idx[lvl];
        in->cnt[at] = left_cnt;
        if (in->h.n < INNER_CAP) {
            insert_child_at(in, at + 1, right, &sep, right_cnt);
            return rank;
        }
        inner *nr = take(ix, 0);
        sep = split_inner(in, nr, at + 1, right, &sep, right_cnt);
        left = in;
        right = nr;
        left_cnt = sum_all(in);
        right_cnt = sum_all(nr);
    }
    /* The root split: grow a level. */
    inner *root = take(ix, 0);
    root->h.n = 2;
    root->h.parent = NULL;
    root->child[0] = left;
    root->child[1] = right;
    root->cnt[0] = left_cnt;
    root->cnt[1] = right_cnt;
    root->sep[0] = sep; /* never read */
    root->sep[1] = sep;
    ((node_hdr *)left)->parent = root;
    ((node_hdr *)right)->parent = root;
    ix->root = root;
    ix->height++;
    return rank;
}
