/*
 * index_checks.c — fuzz_index's checks: every status, position, id, entry
 * and the whole content of the index against the model. Any divergence
 * prints the operation and the input, then aborts (libFuzzer keeps the
 * input as a crash).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_common.h"
#include "index_checks.h"

void fail(const fctx *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fz_vreport(fmt, ap);
    va_end(ap);
    fprintf(stderr, "  operation #%zu (%s), input byte %zu, model has %zu entries\n", c->op_no, c->op, c->in->at,
            c->m->n);
    fz_show("input", c->data, c->size);
    fflush(stderr);
    abort();
}

/* ---- comparing ---- */

void show_value(const lc_value *v, char *out, size_t cap) {
    switch ((int)v->tag) {
    case LC_SORT_NULL: snprintf(out, cap, "null"); break;
    case LC_SORT_FALSE: snprintf(out, cap, "false"); break;
    case LC_SORT_TRUE: snprintf(out, cap, "true"); break;
    case LC_SORT_NUMBER: snprintf(out, cap, "%.17g", v->number); break;
    case LC_SORT_STRING:
        if (v->str) snprintf(out, cap, "'%.*s'", (int)(v->len < 60 ? v->len : 60), v->str);
        else snprintf(out, cap, "NULL string of %zu bytes", v->len);
        break;
    case LC_SORT_OBJECT: snprintf(out, cap, "object"); break;
    default: snprintf(out, cap, "tag %d", (int)v->tag);
    }
}

/* The index's entry (key, value, id) must be the model's entry e. */
void same_entry(const fctx *c, size_t pos, const ment *e, const char *key, size_t kl, const lc_value *v,
                       uint32_t id, const char *what) {
    lc_value mv = lv(&e->val);
    int ok = key && same_key(&e->key, key, kl) && v->tag == mv.tag && lc_value_compare(v, &mv) == 0 &&
             (v->tag != LC_SORT_NUMBER || v->number == mv.number) &&
             (v->tag != LC_SORT_STRING || (v->len == mv.len && (!v->len || !memcmp(v->str, mv.str, v->len))));
    if (!ok || id != e->id) {
        char a[128], b[128];
        show_value(v, a, sizeof a);
        show_value(&mv, b, sizeof b);
        fail(c, "%s at %zu: index has \"%.*s\" = %s (id %u), model \"%.*s\" = %s (id %u)", what, pos,
             key ? (int)(kl < 80 ? kl : 80) : 6, key ? key : "(null)", a, (unsigned)id,
             (int)(e->key.len < 80 ? e->key.len : 80), kp(&e->key), b, (unsigned)e->id);
    }
}

void full_check(const fctx *c, const lc_index *ix) {
    const model *m = c->m;
    lc_error err;
    if (lc_index_check(ix, &err) != LC_OK) fail(c, "lc_index_check: %s", err.text);
    if (lc_index_count(ix) != m->n) fail(c, "count %zu, model %zu", lc_index_count(ix), m->n);
    lc_index_iter it;
    if (lc_index_iter_init(ix, 0, &it) != LC_OK) fail(c, "iter_init(0) failed");
    const char *key;
    size_t kl, i = 0;
    lc_value v;
    uint32_t id;
    while (lc_index_iter_next(&it, &key, &kl, &v, &id)) {
        if (i >= m->n) fail(c, "iteration goes past %zu entries", m->n);
        same_entry(c, i, model_at(m, i), key, kl, &v, id, "iteration");
        i++;
    }
    if (i != m->n) fail(c, "iteration stops after %zu of %zu entries", i, m->n);
    size_t probe[3] = {0, m->n / 2, m->n ? m->n - 1 : 0};
    for (int k = 0; k < 3 && m->n; k++) {
        if (lc_index_at(ix, probe[k], &key, &kl, &v, &id) != LC_OK) fail(c, "at(%zu) failed", probe[k]);
        same_entry(c, probe[k], model_at(m, probe[k]), key, kl, &v, id, "at");
    }
    if (lc_index_at(ix, m->n, NULL, NULL, NULL, NULL) != LC_ERR_ARGUMENT) fail(c, "at(count) answered");
}

/* lc_index_memory walks the whole tree: called now and then only. */
void check_memory(const fctx *c, const lc_index *ix) {
    size_t total = 0, payload = 0;
    lc_index_memory(ix, &total, &payload);
    if (payload > total) fail(c, "memory: payload %zu > total %zu", payload, total);
}

/* ---- one event, checked against the model ---- */

static const char *op_name(lc_op op) {
    switch (op) {
    case LC_OP_INSERT: return "insert";
    case LC_OP_REMOVE: return "remove";
    case LC_OP_UPDATE: return "update";
    case LC_OP_UPSERT: return "upsert";
    }
    return "invalid op";
}

/* The model's verdict on op (key, v): *want, and *alt where the header leaves the
 * precedence of two errors open (either is fine); *at is the key's position or SIZE_MAX. */
void expect(const model *m, lc_op op, const mkey *key, const mval *v, lc_status *want, lc_status *alt,
                   size_t *at) {
    *at = model_find(m, key);
    int present = *at != SIZE_MAX, vok = value_ok(v);
    lc_status kst = lc_key_validate(kp(key), key->len, NULL);
    if (op == LC_OP_INSERT || (op == LC_OP_UPSERT && !present)) {
        *want = *alt = kst ? kst : present ? LC_ERR_DUPLICATE_KEY : LC_OK;
        if (!vok) {
            if (*alt == LC_OK) *alt = LC_ERR_ARGUMENT;
            *want = LC_ERR_ARGUMENT;
        }
    } else if (op == LC_OP_REMOVE) {
        *want = *alt = present ? LC_OK : LC_ERR_NOT_FOUND;
    } else if (op == LC_OP_UPDATE || op == LC_OP_UPSERT) {
        *want = *alt = present ? LC_OK : LC_ERR_NOT_FOUND;
        if (!vok) *want = LC_ERR_ARGUMENT;
        if (!vok && present) *alt = LC_ERR_ARGUMENT;
    } else {
        *want = *alt = LC_ERR_ARGUMENT;
    }
}

/* Applies a successful op to the model (at: from expect); *old / *new_ receive the positions. */
void model_apply(model *m, lc_op op, const mkey *key, const mval *v, size_t at, uint32_t new_id,
                        size_t *old, size_t *new_) {
    *old = *new_ = LC_NO_POSITION;
    if (at != SIZE_MAX) {
        uint32_t id = model_at(m, at)->id;
        *old = at;
        model_remove(m, at);
        if (op != LC_OP_REMOVE) *new_ = model_insert(m, key, v, id);
    } else {
        *new_ = model_insert(m, key, v, new_id);
    }
}

/* Checks what op (key, v) did against the model, then applies it to the model. */
void check_event(const fctx *c, lc_op op, const mkey *key, const mval *v, const lc_event_result *got,
                        int have) {
    model *m = c->m;
    lc_status want, alt;
    size_t at;
    expect(m, op, key, v, &want, &alt, &at);
    char vs[128];
    lc_value mv = lv(v);
    show_value(&mv, vs, sizeof vs);
    if (got->status != want && got->status != alt)
        fail(c, "%s \"%.*s\" = %s: %s, want %s%s%s (key %s)", op_name(op), (int)(key->len < 80 ? key->len : 80),
             kp(key), vs, lc_status_name(got->status), lc_status_name(want), alt != want ? " or " : "",
             alt != want ? lc_status_name(alt) : "", at != SIZE_MAX ? "present" : "absent");
    if (got->status != LC_OK) {
        if ((have & FAIL_NOPOS) && (got->old_position != LC_NO_POSITION || got->new_position != LC_NO_POSITION))
            fail(c, "%s failed (%s) with positions %zu -> %zu", op_name(op), lc_status_name(got->status),
                 got->old_position, got->new_position);
        return;
    }
    if (at != SIZE_MAX) {
        if ((have & HAVE_ID) && got->id != model_at(m, at)->id)
            fail(c, "%s: id %u, model %u", op_name(op), (unsigned)got->id, (unsigned)model_at(m, at)->id);
    } else {
        if (!(have & HAVE_ID)) fail(c, "internal: an insertion without its id");
        if (got->id == LC_ID_NONE || id_in_use(m, got->id))
            fail(c, "%s: new id %u is in use", op_name(op), (unsigned)got->id);
    }
    size_t want_old, want_new;
    model_apply(m, op, key, v, at, got->id, &want_old, &want_new);
    int old_ok = !(have & HAVE_OLD) || got->old_position == want_old;
    int new_ok = !(have & HAVE_NEW) || got->new_position == want_new;
    if (!(have & FAIL_NOPOS)) { /* single calls: no output for the side that has no position */
        if (op == LC_OP_INSERT) old_ok = 1;
        if (op == LC_OP_REMOVE) new_ok = 1;
    }
    if (!old_ok || !new_ok)
        fail(c, "%s \"%.*s\" = %s: positions %zu -> %zu, model %zu -> %zu", op_name(op),
             (int)(key->len < 80 ? key->len : 80), kp(key), vs, got->old_position, got->new_position,
             want_old, want_new);
}

/* A single call (not lc_index_apply); with_outputs 0 passes NULL for every output. call_v is
 * the value passed (it may be borrowed from the index), v the model's copy of it. */
void single(const fctx *c, lc_index *ix, lc_op op, const mkey *key, const lc_value *call_v, const mval *v,
                   int with_outputs) {
    lc_event_result r = {LC_OK, LC_NO_POSITION, LC_NO_POSITION, LC_ID_NONE};
    int have = 0;
    size_t *po = with_outputs ? &r.old_position : NULL, *pn = with_outputs ? &r.new_position : NULL;
    uint32_t *pid = with_outputs ? &r.id : NULL;
    switch (op) {
    case LC_OP_INSERT:
        r.status = lc_index_insert(ix, kp(key), key->len, call_v, pn, pid);
        have = HAVE_NEW | HAVE_ID;
        break;
    case LC_OP_REMOVE:
        r.status = lc_index_remove(ix, kp(key), key->len, po, pid);
        have = HAVE_OLD | HAVE_ID;
        break;
    case LC_OP_UPDATE:
        r.status = lc_index_update(ix, kp(key), key->len, call_v, po, pn);
        have = HAVE_OLD | HAVE_NEW;
        break;
    default:
        r.status = lc_index_upsert(ix, kp(key), key->len, call_v, po, pn, pid);
        have = HAVE_OLD | HAVE_NEW | HAVE_ID | FAIL_NOPOS;
        op = LC_OP_UPSERT;
    }
    int inserted = r.status == LC_OK && model_find(c->m, key) == SIZE_MAX;
    if (!with_outputs) {
        have = 0;
        if (inserted) { /* the model needs the new id */
            if (lc_index_find(ix, kp(key), key->len, NULL, &r.id) != LC_OK) fail(c, "inserted key not found");
            have = HAVE_ID;
        }
    }
    check_event(c, op, key, v, &r, have);
    if (op == LC_OP_REMOVE && r.status == LC_OK && with_outputs &&
        lc_index_entry(ix, r.id, NULL, NULL, NULL) != LC_ERR_NOT_FOUND)
        fail(c, "the id %u of a removed key still answers", (unsigned)r.id);
}
