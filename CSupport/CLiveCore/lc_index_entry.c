/* lc_index_entry.c — order-preserving entry prefixes and the entry order. */
#include <math.h>

#include "lc_index_internal.h"
#include "lc_key.h"
#include "lc_utf8.h"

uint64_t lc_ix_number_bits(double d) {
    if (d == 0) d = 0; /* -0 orders as 0 */
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return (u >> 63) ? ~u : (u | (1ull << 63));
}

/* Seven bytes mapped to UTF-16 rank, big-endian, then min(len, 8): ordered
 * like the strings whenever it differs; equal and len <= 7 means equal. */
uint64_t lc_ix_string_prefix(const char *s, size_t len) {
    uint64_t p = 0;
    for (size_t i = 0; i < 7; i++) {
        unsigned b = i < len ? lc_utf16_rank((unsigned char)s[i]) : 0;
        p = (p << 8) | b;
    }
    return (p << 8) | (len < 8 ? len : 8);
}

void lc_ix_key_prefix(const char *key, size_t len, uint64_t *k, uint8_t *flags) {
    int32_t iv;
    if (lc_key_integer(key, len, &iv)) {
        *k = ((uint64_t)((int64_t)iv + 2147483648ll) << 16) | (uint64_t)len;
        /* Canonical spellings are unique per (value, length). */
        int canonical = !(len > 1 && (key[0] == '0' || (key[0] == '-' && key[1] == '0')));
        *flags = (uint8_t)(F_KEY_INT | (canonical ? F_KEY_EXACT : 0));
    } else {
        *k = lc_ix_string_prefix(key, len);
        *flags = len <= 7 ? F_KEY_EXACT : 0;
    }
}

void lc_ix_encode(const char *key, size_t len, const lc_value *v, entry *out) {
    memset(out, 0, sizeof *out);
    out->id = LC_ID_NONE;
    out->tag = (uint8_t)v->tag;
    lc_ix_key_prefix(key, len, &out->k, &out->flags);
    if (v->tag == LC_SORT_NUMBER) {
        out->v = lc_ix_number_bits(v->number);
    } else if (v->tag == LC_SORT_STRING) {
        out->v = lc_ix_string_prefix(v->str, v->len);
        if (v->len <= 7) out->flags |= F_VAL_EXACT;
    }
}

void lc_ix_string_of(const lc_index *ix, uint32_t id, const char **s, size_t *len) {
    const record *r = &ix->rec[id];
    uint32_t n;
    const char *p = ix->arena + r->off + r->key_len;
    memcpy(&n, p, sizeof n);
    *s = p + sizeof n;
    *len = n;
}

void lc_ix_value_of(const lc_index *ix, uint32_t id, lc_value *out) {
    const record *r = &ix->rec[id];
    out->tag = (lc_sort_tag)r->tag;
    out->number = 0;
    out->str = NULL;
    out->len = 0;
    if (r->tag == LC_SORT_NUMBER) {
        uint64_t u = lc_ix_entry_of(ix, id).v;
        u = (u >> 63) ? (u & ~(1ull << 63)) : ~u;
        memcpy(&out->number, &u, sizeof u);
    } else if (r->tag == LC_SORT_STRING) {
        lc_ix_string_of(ix, id, &out->str, &out->len);
    }
}

static int full_string_compare(const lc_index *ix, const entry *a, const probe_ext *ax,
                               const entry *b) {
    const char *sa, *sb;
    size_t la, lb;
    if (ax) {
        sa = ax->str;
        la = ax->str_len;
    } else {
        lc_ix_string_of(ix, a->id, &sa, &la);
    }
    lc_ix_string_of(ix, b->id, &sb, &lb);
    return lc_utf16_compare(sa, la, sb, lb);
}

int lc_ix_compare(const lc_index *ix, const entry *a, const probe_ext *ax, const entry *b) {
    if (a->tag != b->tag) return a->tag < b->tag ? -1 : 1;
    if (a->v != b->v) return a->v < b->v ? -1 : 1;
    if (a->tag == LC_SORT_STRING && !(a->flags & b->flags & F_VAL_EXACT)) {
        int c = full_string_compare(ix, a, ax, b);
        if (c) return c;
    }
    if (ax && ax->key_side) return ax->key_side;
    unsigned ca = !(a->flags & F_KEY_INT), cb = !(b->flags & F_KEY_INT);
    if (ca != cb) return ca < cb ? -1 : 1;
    if (a->k != b->k) return a->k < b->k ? -1 : 1;
    if (!ax && a->id == b->id) return 0;
    if (a->flags & b->flags & F_KEY_EXACT) return 0;
    size_t la, lb;
    const char *ka = ax ? (la = ax->key_len, ax->key) : lc_ix_key(ix, a->id, &la);
    const char *kb = lc_ix_key(ix, b->id, &lb);
    return lc_key_compare(ka, la, kb, lb);
}
