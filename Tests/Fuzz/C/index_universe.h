/*
 * index_universe.h — the operands fuzz_index reads from its input
 * (index_universe.c): keys from a small universe, values of every kind.
 */
#ifndef INDEX_UNIVERSE_H
#define INDEX_UNIVERSE_H

#include <stddef.h>
#include <stdint.h>

#include "index_model.h"

/* Generated keys: range_key(0 ..< RANGE_KEYS). */
enum { RANGE_KEYS = 4096 };

/* The input, read front to back; missing bytes read as 0. */
typedef struct input {
    const uint8_t *p;
    size_t n, at;
} input;

static inline unsigned next8(input *in) { return in->at < in->n ? in->p[in->at++] : 0; }
static inline unsigned next16(input *in) {
    unsigned a = next8(in);
    return a | (next8(in) << 8);
}

/* The generated key number id (< RANGE_KEYS). */
void range_key(unsigned id, mkey *k);
/* A fixed key, a short combination of symbols, a generated key, or a key in m. */
void read_key(input *in, const model *m, mkey *k);
/* A value of any kind, now and then an unusable one. */
void read_value(input *in, mval *v);
/* A value of a run over keys: kind from the operand, varied by i. */
void run_value(unsigned kind, unsigned mul, unsigned i, mval *v);
/* The model's key for bytes a document gives back (a key of the universe). */
void key_of_bytes(const char *p, size_t n, mkey *k);

#endif
