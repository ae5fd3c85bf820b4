/*
 * index_universe.c — the keys and values fuzz_index draws its operands from,
 * and how it reads them from the input.
 *
 * Keys come from a small universe so that they collide often: fixed keys
 * (integer keys and their non-canonical spellings, the int32 edges, shared
 * prefixes, UTF-16 order traps, 768 and 769 bytes, invalid keys), short
 * combinations of a few symbols, RANGE_KEYS generated keys, or a key already
 * in the index. Values are of every kind: null, booleans, numbers (-0,
 * subnormals, extremes, raw bits: NaN and infinities are invalid), strings
 * (shared prefixes of 7 and 8 bytes, characters above and below the
 * surrogates), objects, and unusable ones (unknown tag, NULL string).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index_universe.h"

#define K16 "kkkkkkkkkkkkkkkk"
#define K64 K16 K16 K16 K16
#define K256 K64 K64 K64 K64
#define K768 K256 K256 K256

static const char *const fixed_keys[] = {
    /* integer keys, non-canonical spellings, int32 edges */
    "0", "1", "-1", "2", "9", "10", "01", "00", "-0", "-00", "007", "-01", "2147483647", "2147483648",
    "-2147483648", "-2147483649", "4294967296", "00000000002", "-",
    /* plain keys: shared prefixes, 7 / 8 byte edges, UTF-16 order traps */
    "a", "b", "A", "aa", "ab", "a b", "--", "abcdefg", "abcdefgh", "abcdefgi", "abcdefgh0", "-Nabcdef0",
    "-Nabcdef1", "\xC3\xA9", "e\xCC\x81", "\xED\x9F\xBF", "\xEE\x80\x80", "\xEF\xBD\xA1", "\xF0\x9F\x98\x80",
    "\xF4\x8F\xBF\xBF", "\xF0\x9F\x98\x80" "1", "1\xF0\x9F\x98\x80",
    /* the longest key, and one byte more */
    K768, K768 "k",
    /* invalid keys */
    "", "a.b", "x/y", "$", "#a", "[", "]", "\x7F", "a\x01" "b",
};
enum { NFIXED = sizeof fixed_keys / sizeof *fixed_keys };

/* Symbols of the short generated keys. */
static const char *const key_symbols[] = {"0", "1", "-", "9", "a", "z", "\xC3\xA9", "\xF0\x9F\x98\x80"};

void range_key(unsigned id, mkey *k) {
    static const char *const fmt[] = {"%u", "-N%07u", "r%u", "\xF0\x9F\x98\x80%u"};
    unsigned v = (id & 3) ? id : 100000 + id;
    k->ext = NULL;
    k->len = (uint16_t)snprintf(k->b, sizeof k->b, fmt[id & 3], v);
}

/* ---- values ---- */

static const double numbers[] = {
    0.0, -0.0, 1, -1, 0.5, -0.5, 2, 3, 10, 100, 0.1, 1.0000000000000002, 9007199254740992.0,
    9007199254740994.0, 1e300, -1e300, DBL_MAX, -DBL_MAX, DBL_MIN, 4.9e-324, -4.9e-324, 2147483647.0,
    -2147483648.0, 1e-7,
};
enum { NNUMBERS = sizeof numbers / sizeof *numbers };

static const char *const strings[] = {
    "", "a", "b", "A", "aa", "ab", "0", "-1", "abcdefg", "abcdefh", "abcdefgh", "abcdefgi", "abcdefgh0",
    "a shared long prefix of many bytes 1", "a shared long prefix of many bytes 2", "a shared long prefix",
    "\xC3\xA9", "\xED\x9F\xBF", "\xEE\x80\x80", "\xEF\xBD\xA1", "\xEF\xBF\xBF", "\xF0\x9F\x98\x80",
    "\xF4\x8F\xBF\xBF", "abcdef\xF0\x9F\x98\x80", "abcdef\xEF\xBD\xA1", "\x7F", "a\x01",
};
enum { NSTRINGS = sizeof strings / sizeof *strings };

/* Symbols of generated strings: ASCII, 2-, 3- and 4-byte UTF-8 around the surrogates. */
static const char *const value_symbols[] = {
    "a", "b", "A", "0", " ", "~", "\x7F", "\xC2\x80", "\xC3\xA9", "\xED\x9F\xBF", "\xEE\x80\x80",
    "\xEF\xBD\xA1", "\xEF\xBF\xBF", "\xF0\x90\x80\x80", "\xF0\x9F\x98\x80", "\xF4\x8F\xBF\xBF",
};

/* ---- operands ---- */

void read_key(input *in, const model *m, mkey *k) {
    unsigned b = next8(in);
    memset(k, 0, sizeof *k);
    if (b < 0x60) {
        k->ext = fixed_keys[b % NFIXED];
        k->len = (uint16_t)strlen(k->ext);
    } else if (b < 0xA0) {
        unsigned n = 1 + (b & 3) % 3;
        for (unsigned i = 0; i < n; i++) {
            const char *s = key_symbols[next8(in) % 8];
            size_t l = strlen(s);
            memcpy(k->b + k->len, s, l);
            k->len = (uint16_t)(k->len + l);
        }
    } else if (b < 0xE0 || !m->n) {
        range_key(next16(in) % RANGE_KEYS, k);
    } else {
        *k = model_at(m, next16(in) % m->n)->key;
    }
}

void read_value(input *in, mval *v) {
    unsigned b = next8(in);
    memset(v, 0, sizeof *v);
    switch (b % 12) {
    case 0: v->tag = LC_SORT_NULL; break;
    case 1: v->tag = LC_SORT_FALSE; break;
    case 2: v->tag = LC_SORT_TRUE; break;
    case 3: v->tag = LC_SORT_OBJECT; break;
    case 4:
    case 5:
        v->tag = LC_SORT_NUMBER;
        v->num = numbers[next8(in) % NNUMBERS];
        break;
    case 6: v->tag = LC_SORT_NUMBER; v->num = (double)(int8_t)next8(in) / 4; break;
    case 7: {
        if (b < 0xC0) { /* small integers, by far the most common */
            v->tag = LC_SORT_NUMBER;
            v->num = (double)(next8(in) % 8);
            break;
        }
        uint64_t u = 0; /* raw bits: NaN and infinities are unusable */
        for (int i = 0; i < 8; i++) u |= (uint64_t)next8(in) << (8 * i);
        v->tag = LC_SORT_NUMBER;
        memcpy(&v->num, &u, sizeof v->num);
        break;
    }
    case 8:
    case 9: {
        const char *s = strings[next8(in) % NSTRINGS];
        set_string(v, s, strlen(s));
        break;
    }
    case 10: {
        char buf[64];
        size_t n = 0;
        for (unsigned i = next8(in) % 13; i; i--) {
            const char *s = value_symbols[next8(in) % 16];
            size_t l = strlen(s);
            memcpy(buf + n, s, l);
            n += l;
        }
        set_string(v, buf, n);
        break;
    }
    default: /* unusable values, now and then */
        if (b < 0xF0) {
            v->tag = LC_SORT_NUMBER;
            v->num = (double)(b % 5);
        } else if (b < 0xF8) {
            v->tag = LC_SORT_NUMBER;
            v->num = (b & 1) ? INFINITY : NAN;
        } else if (b < 0xFC) {
            v->tag = LC_SORT_STRING;
            v->null_str = 1;
            v->len = 1 + b % 3;
        } else {
            v->tag = (lc_sort_tag)(6 + b % 4);
        }
    }
}

/* A value of a run over keys: kind from the operand, varied by i. */
void run_value(unsigned kind, unsigned mul, unsigned i, mval *v) {
    memset(v, 0, sizeof *v);
    switch (kind % 5) {
    case 0: v->tag = LC_SORT_NUMBER; v->num = (double)((i * mul) % 17); break;
    case 1: {
        const char *s = strings[(i * mul) % NSTRINGS];
        set_string(v, s, strlen(s));
        break;
    }
    case 2: v->tag = (i * mul) % 3 ? LC_SORT_TRUE : LC_SORT_FALSE; break;
    case 3: v->tag = LC_SORT_NULL; break;
    default: v->tag = (lc_sort_tag)((i * mul) % 6); v->num = (double)(i % 3); break;
    }
    if (v->tag == LC_SORT_STRING && !v->len && kind % 5 != 1) v->tag = LC_SORT_OBJECT;
}

/* The model's key for bytes a document gives back. */
void key_of_bytes(const char *p, size_t n, mkey *k) {
    memset(k, 0, sizeof *k);
    k->len = (uint16_t)n;
    if (n < sizeof k->b) {
        memcpy(k->b, p, n);
        return;
    }
    for (size_t i = 0; i < NFIXED && !k->ext; i++)
        if (strlen(fixed_keys[i]) == n && !memcmp(fixed_keys[i], p, n)) k->ext = fixed_keys[i];
    if (!k->ext) abort(); /* not a key of the universe */
}
