/*
 * index_checks.h — fuzz_index's checks of the index against its model
 * (index_checks.c).
 */
#ifndef INDEX_CHECKS_H
#define INDEX_CHECKS_H

#include <stddef.h>
#include <stdint.h>

#include "index_model.h"
#include "index_universe.h"

/* What a failure report shows: the input, where it was read, the operation. */
typedef struct fctx {
    const uint8_t *data;
    size_t size;
    input *in;
    size_t op_no;
    const char *op;
    model *m;
} fctx;

/* What a result carries, for check_event. */
enum {
    HAVE_OLD = 1,   /* got.old_position is meaningful */
    HAVE_NEW = 2,   /* got.new_position is meaningful */
    HAVE_ID = 4,    /* got.id is meaningful */
    FAIL_NOPOS = 8, /* on failure, positions are LC_NO_POSITION; LC_NO_POSITION for the side that has none */
};

/* Reports a divergence with its context and aborts. */
#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 2, 3)))
#endif
void fail(const fctx *c, const char *fmt, ...);

void show_value(const lc_value *v, char *out, size_t cap);
/* The index's entry (key, value, id) must be the model's entry e. */
void same_entry(const fctx *c, size_t pos, const ment *e, const char *key, size_t kl, const lc_value *v,
                uint32_t id, const char *what);
/* lc_index_check, the count, a full iteration and a few positions. */
void full_check(const fctx *c, const lc_index *ix);
/* lc_index_memory walks the whole tree: called now and then only. */
void check_memory(const fctx *c, const lc_index *ix);

/* The model's verdict on op (key, v): *want, and *alt where the header leaves the
 * precedence of two errors open (either is fine); *at is the key's position or SIZE_MAX. */
void expect(const model *m, lc_op op, const mkey *key, const mval *v, lc_status *want, lc_status *alt,
            size_t *at);
/* Applies a successful op to the model (at: from expect); *old / *new_ receive the positions. */
void model_apply(model *m, lc_op op, const mkey *key, const mval *v, size_t at, uint32_t new_id, size_t *old,
                 size_t *new_);
/* Checks what op (key, v) did (have: HAVE_* flags) against the model, then applies it to the model. */
void check_event(const fctx *c, lc_op op, const mkey *key, const mval *v, const lc_event_result *got, int have);
/* A single call (not lc_index_apply); with_outputs 0 passes NULL for every output. call_v is
 * the value passed (it may be borrowed from the index), v the model's copy of it. */
void single(const fctx *c, lc_index *ix, lc_op op, const mkey *key, const lc_value *call_v, const mval *v,
            int with_outputs);

#endif
