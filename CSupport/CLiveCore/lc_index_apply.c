/* lc_index_apply.c — applying a stream of events with overlapped memory accesses. */
#include "lc_index_internal.h"
#include "lc_key.h"

/* How far ahead each stage runs: the hash slot of event i + SLOT_AHEAD is
 * fetched, the record of event i + RECORD_AHEAD, the leaves of i + LEAF_AHEAD,
 * keeping the way down to the new one for the event to take. */
#define SLOT_AHEAD 8
#define RECORD_AHEAD 4
#define LEAF_AHEAD 2
#define RING 16

typedef struct ahead {
    uint32_t fp;
    uint32_t id;
    tree_hint where; /* the path to the new place, found by stage_leaf */
} ahead;

/* fp and where come from the stages when known, else NULL. */
static lc_event_result apply_one(lc_index *ix, const lc_event *e, const uint32_t *fp, const tree_hint *where) {
    lc_event_result r = {LC_OK, LC_NO_POSITION, LC_NO_POSITION, LC_ID_NONE};
    switch (e->op) {
    case LC_OP_INSERT:
        r.status = lc_ix_insert(ix, e->key, e->key_len, &e->value, &r.new_position, &r.id, fp, where);
        break;
    case LC_OP_REMOVE:
        r.status = lc_ix_remove(ix, e->key, e->key_len, &r.old_position, &r.id, fp);
        break;
    case LC_OP_UPDATE:
        r.status = lc_ix_update(ix, e->key, e->key_len, &e->value, &r.old_position, &r.new_position, &r.id, fp,
                                where);
        break;
    case LC_OP_UPSERT:
        r.status = lc_index_upsert(ix, e->key, e->key_len, &e->value, &r.old_position, &r.new_position, &r.id);
        break;
    default:
        r.status = LC_ERR_ARGUMENT;
    }
    if (r.status != LC_OK) r.old_position = r.new_position = LC_NO_POSITION;
    return r;
}

/* Only prefetches: every address is re-derived from the current index, so a
 * stale guess (the table grew, the key moved) costs a wasted load, never a
 * wrong result. */
static void stage_slot(const lc_index *ix, const lc_event *e, ahead *a) {
    a->id = LC_ID_NONE;
    a->where.leaf = NULL;
    if (!e->key || e->key_len > LC_MAX_KEY_BYTES) return;
    a->fp = lc_ix_fingerprint(ix, e->key, e->key_len);
    lc_ix_prefetch_slot(ix, a->fp);
}

static void stage_record(const lc_index *ix, ahead *a) {
    if (!ix->slots) return;
    size_t i = ix->slot_shift >= 32 ? 0 : a->fp >> ix->slot_shift;
    for (unsigned probes = 0; probes < 4; probes++, i = (i + 1) & ix->slot_mask) {
        slot s = ix->slots[i];
        if (s.id == LC_ID_NONE) return;
        if (s.fp == a->fp) {
            a->id = s.id;
            __builtin_prefetch(&ix->rec[s.id]);
            return;
        }
    }
}

static void stage_leaf(const lc_index *ix, const lc_event *e, ahead *a) {
    if (e->op != LC_OP_REMOVE && e->key && lc_value_check(&e->value) == LC_OK) {
        entry t; /* where the key will go */
        lc_ix_encode(e->key, e->key_len, &e->value, &t);
        probe_ext ext = {e->key, e->key_len, 0, e->value.str, e->value.len};
        lc_ix_tree_prefetch(ix, &t, &ext, &a->where);
    }
    if (a->id >= ix->rec_len) return;
    const record *r = &ix->rec[a->id];
    if (r->tag == TAG_FREE || !r->where) return;
    __builtin_prefetch(ix->arena + r->off);
    const char *p = (const char *)r->where, *end = p + sizeof(leaf);
    for (; p < end; p += 64) __builtin_prefetch(p);
}

size_t lc_index_apply(lc_index *ix, const lc_event *events, size_t n, lc_event_result *results) {
    if (!ix || (!events && n)) return 0;
    int pipelined = ix->count >= PREFETCH_MIN_COUNT;
    ahead ring[RING];
    size_t ok = 0;
    for (size_t i = 0; i < n; i++) {
        if (pipelined) {
            if (i == 0)
                for (size_t k = 0; k < SLOT_AHEAD && k < n; k++) stage_slot(ix, &events[k], &ring[k % RING]);
            if (i + SLOT_AHEAD < n) stage_slot(ix, &events[i + SLOT_AHEAD], &ring[(i + SLOT_AHEAD) % RING]);
            if (i + RECORD_AHEAD < n) stage_record(ix, &ring[(i + RECORD_AHEAD) % RING]);
            if (i == 0)
                for (size_t k = 1; k < RECORD_AHEAD && k < n; k++) stage_record(ix, &ring[k % RING]);
            if (i + LEAF_AHEAD < n) stage_leaf(ix, &events[i + LEAF_AHEAD], &ring[(i + LEAF_AHEAD) % RING]);
        }
        const ahead *mine = &ring[i % RING];
        int known = pipelined && events[i].key && events[i].key_len <= LC_MAX_KEY_BYTES;
        lc_event_result r = apply_one(ix, &events[i], known ? &mine->fp : NULL, known ? &mine->where : NULL);
        if (r.status == LC_OK) ok++;
        if (results) results[i] = r;
    }
    return ok;
}
