/*
 * fuzz_index.c — libFuzzer target for the ordered index (lc_index.h).
 *
 * The input is a program: each operation is an opcode byte followed by its
 * operands (keys, values, positions), all read from the input; missing bytes
 * read as 0. Operations: insert, remove, update, upsert (single calls, with
 * or without outputs), find, at, entry (by id), lower and upper bound,
 * iteration from a position, lc_index_apply batches (invalid ops included),
 * clear, bulk build from a parsed document, runs of one operation over a
 * range of keys (so the tree splits and merges), and updates whose value
 * string is borrowed from the index itself.
 *
 * Keys come from a small universe so that they collide often: fixed keys
 * (integer keys and their non-canonical spellings, the int32 edges, shared
 * prefixes, UTF-16 order traps, 768 and 769 bytes, invalid keys), short
 * combinations of a few symbols, 4096 generated keys, or a key already in the
 * index. Values are of every kind: null, booleans, numbers (-0, subnormals,
 * extremes, raw bits: NaN and infinities are invalid), strings (shared
 * prefixes of 7 and 8 bytes, characters above and below the surrogates),
 * objects, and unusable ones (unknown tag, NULL string).
 *
 * The model is a plain array of entries kept sorted by Firebase value order
 * then key order, using the core's own lc_value_compare and lc_key_compare
 * (tested on their own in Tests/CLiveCoreTests); statuses of invalid keys use
 * lc_key_validate. Every operation's status, positions (old and new), ids,
 * find / at / entry results, bounds and iterations are compared with it, and
 * after every operation lc_index_check must pass and the whole index must
 * iterate exactly as the model (keys, values, ids). Any divergence prints
 * the operation and the input, then aborts.
 */
#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CLiveCore.h"
#include "fuzz_common.h"

/* ---- the key universe ---- */

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
enum { RANGE_KEYS = 4096 };

typedef struct mkey {
    const char *ext; /* a fixed key, or NULL: the bytes are in b */
    uint16_t len;
    char b[30];
} mkey;

static const char *kp(const mkey *k) { return k->ext ? k->ext : k->b; }

static void range_key(unsigned id, mkey *k) {
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

typedef struct mval {
    lc_sort_tag tag;
    double num;
    size_t len;
    int null_str; /* an unusable string: NULL with len > 0 */
    char s[64];
} mval;

static lc_value lv(const mval *v) {
    lc_value r;
    memset(&r, 0, sizeof r);
    r.tag = v->tag;
    r.number = v->num;
    r.str = v->null_str ? NULL : v->s;
    r.len = v->len;
    return r;
}

/* The model's own idea of a usable value (lc_value_check's contract). */
static int value_ok(const mval *v) {
    if ((unsigned)v->tag > LC_SORT_OBJECT) return 0;
    if (v->tag == LC_SORT_NUMBER) return isfinite(v->num);
    if (v->tag == LC_SORT_STRING) return !v->null_str || v->len == 0;
    return 1;
}

static void set_string(mval *v, const char *s, size_t n) {
    memset(v, 0, sizeof *v);
    v->tag = LC_SORT_STRING;
    if (n >= sizeof v->s) n = sizeof v->s - 1;
    memcpy(v->s, s, n);
    v->len = n;
}

/* ---- reading the input ---- */

typedef struct input {
    const uint8_t *p;
    size_t n, at;
} input;

static unsigned next8(input *in) { return in->at < in->n ? in->p[in->at++] : 0; }
static unsigned next16(input *in) {
    unsigned a = next8(in);
    return a | (next8(in) << 8);
}

/* ---- the model ---- */

typedef struct ment {
    mkey key;
    mval val;
    uint32_t id;
} ment;

typedef struct model {
    ment *pool;       /* entries; order holds indices into it */
    uint32_t *order;  /* sorted */
    uint32_t *spare;  /* free pool slots */
    size_t n, nspare, cap;
    /* accelerators only: pool slot by key bytes (linear probing), ids in use */
    uint32_t *hash;
    size_t hcap;
    uint8_t *id_used;
    size_t id_cap;
} model;

typedef struct fctx {
    const uint8_t *data;
    size_t size;
    input *in;
    size_t op_no;
    const char *op;
    model *m;
} fctx;

#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 2, 3)))
#endif
static void fail(const fctx *c, const char *fmt, ...) {
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

static ment *at_(const model *m, size_t pos) { return &m->pool[m->order[pos]]; }

static void model_free(model *m) {
    free(m->pool);
    free(m->order);
    free(m->spare);
    free(m->hash);
    free(m->id_used);
}

/* Firebase order of (value a, key a) against (value b, key b). */
static int order_cmp(const mval *va, const mkey *ka, const mval *vb, const mkey *kb) {
    lc_value x = lv(va), y = lv(vb);
    int c = lc_value_compare(&x, &y);
    return c ? c : lc_key_compare(kp(ka), ka->len, kp(kb), kb->len);
}

static int same_key(const mkey *a, const char *b, size_t bl) { return a->len == bl && !memcmp(kp(a), b, bl); }

/* Number of entries ordered before (v, k). */
static size_t model_rank(const model *m, const mval *v, const mkey *k) {
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const ment *e = at_(m, mid);
        if (order_cmp(&e->val, &e->key, v, k) < 0) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

/* ---- key -> pool slot, linear probing (FNV-1a) ---- */

#define H_EMPTY UINT32_MAX

static size_t h_home(const model *m, const char *k, size_t n) {
    uint64_t h = 0xCBF29CE484222325ull;
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)k[i]) * 0x100000001B3ull;
    return (size_t)(h ^ (h >> 29)) & (m->hcap - 1);
}

/* The hash index holding key, or the empty one where it would go. */
static size_t h_probe(const model *m, const char *k, size_t n) {
    size_t i = h_home(m, k, n);
    while (m->hash[i] != H_EMPTY && !same_key(&m->pool[m->hash[i]].key, k, n)) i = (i + 1) & (m->hcap - 1);
    return i;
}

static void h_put(model *m, uint32_t slot) {
    const mkey *k = &m->pool[slot].key;
    m->hash[h_probe(m, kp(k), k->len)] = slot;
}

static void h_grow(model *m) {
    uint32_t *old = m->hash;
    size_t oldcap = m->hcap;
    m->hcap = oldcap ? oldcap * 2 : 1024;
    m->hash = malloc(m->hcap * sizeof *m->hash);
    if (!m->hash) abort();
    for (size_t i = 0; i < m->hcap; i++) m->hash[i] = H_EMPTY;
    for (size_t i = 0; i < oldcap; i++)
        if (old[i] != H_EMPTY) h_put(m, old[i]);
    free(old);
}

/* Removes the key of slot (present), shifting later members of its run back. */
static void h_del(model *m, uint32_t slot) {
    const mkey *k = &m->pool[slot].key;
    size_t i = h_probe(m, kp(k), k->len), mask = m->hcap - 1;
    m->hash[i] = H_EMPTY;
    for (size_t j = (i + 1) & mask; m->hash[j] != H_EMPTY; j = (j + 1) & mask) {
        const mkey *o = &m->pool[m->hash[j]].key;
        size_t home = h_home(m, kp(o), o->len);
        /* j's entry may move to i unless its home lies in (i, j] */
        if (((j - home) & mask) >= ((j - i) & mask)) {
            m->hash[i] = m->hash[j];
            m->hash[j] = H_EMPTY;
            i = j;
        }
    }
}

static void id_mark(model *m, uint32_t id, int used) {
    if (id == LC_ID_NONE) return;
    if (id >= m->id_cap) {
        size_t cap = m->id_cap ? m->id_cap : 1024;
        while (cap <= id) cap *= 2;
        uint8_t *u = realloc(m->id_used, cap);
        if (!u) abort();
        memset(u + m->id_cap, 0, cap - m->id_cap);
        m->id_used = u;
        m->id_cap = cap;
    }
    m->id_used[id] = (uint8_t)used;
}

static int id_in_use(const model *m, uint32_t id) { return id < m->id_cap && m->id_used[id]; }

/* Position of key in the model, or SIZE_MAX. */
static size_t model_find(const model *m, const mkey *k) {
    if (!m->hcap) return SIZE_MAX;
    uint32_t slot = m->hash[h_probe(m, kp(k), k->len)];
    if (slot == H_EMPTY) return SIZE_MAX;
    const ment *e = &m->pool[slot];
    size_t pos = model_rank(m, &e->val, &e->key);
    if (pos >= m->n || m->order[pos] != slot) { /* the model itself is broken */
        fputs("fuzz_index: internal error: the model's order and hash disagree\n", stderr);
        abort();
    }
    return pos;
}

static size_t model_insert(model *m, const mkey *k, const mval *v, uint32_t id) {
    if (!m->nspare) {
        size_t cap = m->cap ? m->cap * 2 : 256;
        ment *pool = realloc(m->pool, cap * sizeof *pool);
        uint32_t *order = realloc(m->order, cap * sizeof *order), *spare = NULL;
        if (pool) m->pool = pool;
        if (order) m->order = order;
        if (pool && order) spare = realloc(m->spare, cap * sizeof *spare);
        if (!spare) abort();
        m->spare = spare;
        for (size_t i = cap; i-- > m->cap;) m->spare[m->nspare++] = (uint32_t)i;
        m->cap = cap;
    }
    if (2 * (m->n + 1) > m->hcap) h_grow(m);
    size_t pos = model_rank(m, v, k);
    uint32_t slot = m->spare[--m->nspare];
    m->pool[slot].key = *k;
    m->pool[slot].val = *v;
    m->pool[slot].id = id;
    memmove(m->order + pos + 1, m->order + pos, (m->n - pos) * sizeof *m->order);
    m->order[pos] = slot;
    m->n++;
    h_put(m, slot);
    id_mark(m, id, 1);
    return pos;
}

static void model_remove(model *m, size_t pos) {
    uint32_t slot = m->order[pos];
    h_del(m, slot);
    id_mark(m, m->pool[slot].id, 0);
    m->spare[m->nspare++] = slot;
    memmove(m->order + pos, m->order + pos + 1, (m->n - pos - 1) * sizeof *m->order);
    m->n--;
}

static void model_clear(model *m) {
    while (m->n) model_remove(m, m->n - 1);
}

/* Bound of (v, key); key NULL stands before (lower) or after (upper) every key. */
static size_t model_bound(const model *m, const lc_value *v, const mkey *key, int upper) {
    size_t pos = 0;
    for (; pos < m->n; pos++) { /* brute force: the first entry past the post */
        const ment *e = at_(m, pos);
        lc_value ev = lv(&e->val);
        int c = lc_value_compare(v, &ev);
        if (!c) c = !key ? (upper ? 1 : -1) : lc_key_compare(kp(key), key->len, kp(&e->key), e->key.len);
        if (upper ? c < 0 : c <= 0) break;
    }
    return pos;
}

/* ---- comparing ---- */

static void show_value(const lc_value *v, char *out, size_t cap) {
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
static void same_entry(const fctx *c, size_t pos, const ment *e, const char *key, size_t kl, const lc_value *v,
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

static void full_check(const fctx *c, const lc_index *ix) {
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
        same_entry(c, i, at_(m, i), key, kl, &v, id, "iteration");
        i++;
    }
    if (i != m->n) fail(c, "iteration stops after %zu of %zu entries", i, m->n);
    size_t probe[3] = {0, m->n / 2, m->n ? m->n - 1 : 0};
    for (int k = 0; k < 3 && m->n; k++) {
        if (lc_index_at(ix, probe[k], &key, &kl, &v, &id) != LC_OK) fail(c, "at(%zu) failed", probe[k]);
        same_entry(c, probe[k], at_(m, probe[k]), key, kl, &v, id, "at");
    }
    if (lc_index_at(ix, m->n, NULL, NULL, NULL, NULL) != LC_ERR_ARGUMENT) fail(c, "at(count) answered");
}

/* lc_index_memory walks the whole tree: called now and then only. */
static void check_memory(const fctx *c, const lc_index *ix) {
    size_t total = 0, payload = 0;
    lc_index_memory(ix, &total, &payload);
    if (payload > total) fail(c, "memory: payload %zu > total %zu", payload, total);
}

/* ---- one event, checked against the model ---- */

enum {
    HAVE_OLD = 1,   /* got.old_position is meaningful */
    HAVE_NEW = 2,   /* got.new_position is meaningful */
    HAVE_ID = 4,    /* got.id is meaningful */
    FAIL_NOPOS = 8, /* on failure, positions are LC_NO_POSITION; LC_NO_POSITION for the side that has none */
};

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
static void expect(const model *m, lc_op op, const mkey *key, const mval *v, lc_status *want, lc_status *alt,
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
static void model_apply(model *m, lc_op op, const mkey *key, const mval *v, size_t at, uint32_t new_id,
                        size_t *old, size_t *new_) {
    *old = *new_ = LC_NO_POSITION;
    if (at != SIZE_MAX) {
        uint32_t id = at_(m, at)->id;
        *old = at;
        model_remove(m, at);
        if (op != LC_OP_REMOVE) *new_ = model_insert(m, key, v, id);
    } else {
        *new_ = model_insert(m, key, v, new_id);
    }
}

/* Checks what op (key, v) did against the model, then applies it to the model. */
static void check_event(const fctx *c, lc_op op, const mkey *key, const mval *v, const lc_event_result *got,
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
        if ((have & HAVE_ID) && got->id != at_(m, at)->id)
            fail(c, "%s: id %u, model %u", op_name(op), (unsigned)got->id, (unsigned)at_(m, at)->id);
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
static void single(const fctx *c, lc_index *ix, lc_op op, const mkey *key, const lc_value *call_v, const mval *v,
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

/* ---- operands ---- */

static void read_key(input *in, const model *m, mkey *k) {
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
        *k = at_(m, next16(in) % m->n)->key;
    }
}

static void read_value(input *in, mval *v) {
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
static void run_value(unsigned kind, unsigned mul, unsigned i, mval *v) {
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

/* ---- operations ---- */

static void op_bound(const fctx *c, input *in, const lc_index *ix) {
    unsigned flags = next8(in);
    mval v;
    mkey k;
    read_value(in, &v);
    read_key(in, c->m, &k);
    int upper = flags & 1, with_key = flags & 2;
    lc_value x = lv(&v);
    size_t got = upper ? lc_index_upper_bound(ix, &x, with_key ? kp(&k) : NULL, with_key ? k.len : 0)
                       : lc_index_lower_bound(ix, &x, with_key ? kp(&k) : NULL, with_key ? k.len : 0);
    if (!value_ok(&v)) return; /* unspecified for unusable values: only must not crash */
    size_t want = model_bound(c->m, &x, with_key ? &k : NULL, upper);
    if (got != want) {
        char vs[128];
        show_value(&x, vs, sizeof vs);
        fail(c, "%s_bound(%s, %s%.*s%s) = %zu, model %zu", upper ? "upper" : "lower", vs, with_key ? "\"" : "",
             with_key ? (int)(k.len < 80 ? k.len : 80) : 4, with_key ? kp(&k) : "NULL", with_key ? "\"" : "", got,
             want);
    }
}

static void op_iterate(const fctx *c, input *in, const lc_index *ix) {
    const model *m = c->m;
    size_t from = next16(in) % (m->n + 2), steps = next8(in);
    lc_index_iter it;
    lc_status st = lc_index_iter_init(ix, from, &it);
    if (from > m->n) {
        if (st != LC_ERR_ARGUMENT) fail(c, "iter_init(%zu) past the end: %s", from, lc_status_name(st));
        return;
    }
    if (st != LC_OK) fail(c, "iter_init(%zu): %s", from, lc_status_name(st));
    for (size_t i = 0; i <= steps; i++) {
        const char *key;
        size_t kl;
        lc_value v;
        uint32_t id;
        int more = (i & 1) ? lc_index_iter_next(&it, &key, &kl, &v, &id)
                           : lc_index_iter_next(&it, NULL, NULL, NULL, NULL);
        size_t pos = from + i;
        if (more != (pos < m->n)) fail(c, "iteration from %zu: entry %zu %s", from, pos, more ? "past the end" : "missing");
        if (!more) {
            if (lc_index_iter_next(&it, NULL, NULL, NULL, NULL)) fail(c, "an exhausted iterator goes on");
            return;
        }
        if (i & 1) same_entry(c, pos, at_(m, pos), key, kl, &v, id, "iteration");
    }
}

static void op_find_at_entry(const fctx *c, input *in, const lc_index *ix, unsigned which) {
    const model *m = c->m;
    const char *key = NULL;
    size_t kl = 0, pos = 0;
    lc_value v;
    uint32_t id = LC_ID_NONE;
    if (which == 0) { /* find */
        mkey k;
        read_key(in, m, &k);
        size_t want = model_find(m, &k);
        lc_status st = lc_index_find(ix, kp(&k), k.len, &pos, &id);
        if (want == SIZE_MAX) {
            if (st != LC_ERR_NOT_FOUND) fail(c, "find(\"%.*s\") of an absent key: %s", (int)(k.len < 80 ? k.len : 80), kp(&k), lc_status_name(st));
            return;
        }
        if (st != LC_OK || pos != want || id != at_(m, want)->id)
            fail(c, "find(\"%.*s\"): %s at %zu id %u, model %zu id %u", (int)(k.len < 80 ? k.len : 80), kp(&k),
                 lc_status_name(st), pos, (unsigned)id, want, (unsigned)at_(m, want)->id);
    } else if (which == 1) { /* at */
        pos = next16(in) % (m->n + 2);
        lc_status st = lc_index_at(ix, pos, &key, &kl, &v, &id);
        if (pos >= m->n) {
            if (st != LC_ERR_ARGUMENT) fail(c, "at(%zu) past the end: %s", pos, lc_status_name(st));
            return;
        }
        if (st != LC_OK) fail(c, "at(%zu): %s", pos, lc_status_name(st));
        same_entry(c, pos, at_(m, pos), key, kl, &v, id, "at");
    } else { /* entry by id: ids in use and a few free ones */
        uint32_t max = 0;
        for (size_t i = 0; i < m->n; i++)
            if (at_(m, i)->id > max) max = at_(m, i)->id;
        id = (uint32_t)(next16(in) % ((size_t)max + 3));
        if (next8(in) == 0xFF) id = LC_ID_NONE - (next8(in) & 1);
        size_t want = SIZE_MAX;
        for (size_t i = 0; i < m->n && want == SIZE_MAX; i++)
            if (at_(m, i)->id == id) want = i;
        lc_status st = lc_index_entry(ix, id, &key, &kl, &v);
        if (want == SIZE_MAX) {
            if (st != LC_ERR_NOT_FOUND) fail(c, "entry(%u) of a free id: %s", (unsigned)id, lc_status_name(st));
            return;
        }
        if (st != LC_OK) fail(c, "entry(%u): %s", (unsigned)id, lc_status_name(st));
        same_entry(c, want, at_(m, want), key, kl, &v, id, "entry");
    }
}

static void op_apply(const fctx *c, input *in, lc_index *ix) {
    enum { MAX_EVENTS = 16 };
    unsigned head = next8(in);
    size_t n = 1 + head % MAX_EVENTS;
    int with_results = head < 0xF0;
    mkey keys[MAX_EVENTS];
    mval vals[MAX_EVENTS];
    lc_event ev[MAX_EVENTS];
    lc_event_result res[MAX_EVENTS];
    for (size_t i = 0; i < n; i++) {
        unsigned o = next8(in);
        read_key(in, c->m, &keys[i]);
        memset(&vals[i], 0, sizeof vals[i]);
        if (o % 8 != LC_OP_REMOVE) read_value(in, &vals[i]);
        ev[i].op = (lc_op)(o % 8 < 4 ? o % 8 : o % 8 == 7 ? 4 + (o >> 3) : o % 4); /* now and then an unknown op */
        ev[i].key = kp(&keys[i]);
        ev[i].key_len = keys[i].len;
        ev[i].value = lv(&vals[i]);
        memset(&res[i], 0x5A, sizeof res[i]);
    }
    size_t ok = lc_index_apply(ix, ev, n, with_results ? res : NULL);
    size_t want_ok = 0;
    if (with_results) {
        for (size_t i = 0; i < n; i++) {
            check_event(c, ev[i].op, &keys[i], &vals[i], &res[i], HAVE_OLD | HAVE_NEW | HAVE_ID | FAIL_NOPOS);
            want_ok += res[i].status == LC_OK;
        }
    } else { /* the model alone says what succeeds; new ids are looked up afterwards */
        for (size_t i = 0; i < n; i++) {
            lc_status want, alt;
            size_t at, old, new_;
            expect(c->m, ev[i].op, &keys[i], &vals[i], &want, &alt, &at);
            if (want != LC_OK) continue;
            model_apply(c->m, ev[i].op, &keys[i], &vals[i], at, LC_ID_NONE, &old, &new_);
            want_ok++;
        }
        for (size_t i = 0; i < c->m->n; i++) {
            ment *e = at_(c->m, i);
            if (e->id != LC_ID_NONE) continue;
            uint32_t id = LC_ID_NONE;
            if (lc_index_find(ix, kp(&e->key), e->key.len, NULL, &id) != LC_OK)
                fail(c, "apply: inserted key \"%.*s\" not found", (int)(e->key.len < 80 ? e->key.len : 80), kp(&e->key));
            if (id == LC_ID_NONE || id_in_use(c->m, id)) fail(c, "apply: new id %u is in use", (unsigned)id);
            e->id = id;
            id_mark(c->m, id, 1);
        }
    }
    if (ok != want_ok) fail(c, "apply returned %zu successes, the model %zu", ok, want_ok);
}

static void op_range(const fctx *c, input *in, lc_index *ix) {
    unsigned start = next16(in) % RANGE_KEYS, count = next8(in);
    count = count < 0xC0 ? 1 + count : 1 + next16(in) % RANGE_KEYS; /* up to the whole range: a deep tree */
    unsigned o = next8(in), kind = next8(in), mul = 1 + next8(in);
    static const lc_op ops[] = {LC_OP_INSERT, LC_OP_INSERT, LC_OP_UPSERT, LC_OP_REMOVE, LC_OP_UPDATE};
    lc_op op = ops[o % 5];
    for (unsigned i = 0; i < count; i++) {
        mkey k;
        mval v;
        range_key((start + i * (1 + (o >> 4))) % RANGE_KEYS, &k);
        run_value(kind, mul, i, &v);
        lc_value x = lv(&v);
        single(c, ix, op, &k, &x, &v, 1);
    }
}

/* Updates (or upserts, inserts) a key with a value borrowed from the index itself. */
static void op_alias(const fctx *c, input *in, lc_index *ix) {
    const model *m = c->m;
    unsigned o = next8(in);
    size_t pos = next16(in);
    mkey k;
    read_key(in, m, &k);
    if (!m->n) return;
    pos %= m->n;
    const ment *src = at_(m, pos);
    lc_value v;
    const char *key;
    size_t kl;
    uint32_t id;
    if (o & 4) {
        if (lc_index_entry(ix, src->id, &key, &kl, &v) != LC_OK) fail(c, "entry(%u) failed", (unsigned)src->id);
        id = src->id;
    } else if (lc_index_at(ix, pos, &key, &kl, &v, &id) != LC_OK) {
        fail(c, "at(%zu) failed", pos);
    }
    same_entry(c, pos, src, key, kl, &v, id, "borrowed value");
    mval copy = src->val;
    static const lc_op ops[] = {LC_OP_UPDATE, LC_OP_UPSERT, LC_OP_INSERT, LC_OP_UPDATE};
    single(c, ix, ops[o & 3], &k, &v, &copy, 1);
}

/* JSON text of a key: the bytes, with quotes, backslashes and controls escaped. */
static size_t json_key(const mkey *k, char *out) {
    size_t n = 0;
    const char *p = kp(k);
    out[n++] = '"';
    for (size_t i = 0; i < k->len; i++) {
        unsigned char b = (unsigned char)p[i];
        if (b == '"' || b == '\\') {
            out[n++] = '\\';
            out[n++] = (char)b;
        } else if (b < 0x20) {
            n += (size_t)sprintf(out + n, "\\u%04x", b);
        } else {
            out[n++] = (char)b;
        }
    }
    out[n++] = '"';
    return n;
}

/* The model's key for bytes a document gives back. */
static void key_of_bytes(const char *p, size_t n, mkey *k) {
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

/* Replaces the content by a document's children (lc_index_build_from_doc): a
 * small document of any keys, or a large one over the generated keys. */
static void op_build(const fctx *c, input *in, lc_index *ix) {
    static const char *const values[] = {
        "1", "-0", "2.5", "1e300", "-7", "\"a\"", "\"b\"", "\"\"", "\"\\u00e9\"", "\"abcdefgh\"",
        "\"abcdefgi\"", "true", "false", "null", "{}", "{\"x\":1}", "[1]", "{\".value\":3,\".priority\":1}",
        "{\"x\":\"s\",\".priority\":\"p\"}", "{\".priority\":2,\"x\":{\"y\":null}}", "[null]", "{\"x\":null}",
    };
    enum { NV = sizeof values / sizeof *values, MAXC = 12, VMAX = 48 };
    static const lc_order orders[] = {
        {LC_ORDER_VALUE, NULL, 0}, {LC_ORDER_PRIORITY, NULL, 0}, {LC_ORDER_KEY, NULL, 0}, {LC_ORDER_CHILD, "x", 1},
    };
    unsigned head = next8(in);
    int big = head & 0x80;
    size_t nc = big ? next16(in) % (RANGE_KEYS + 64) : head % (MAXC + 1);
    unsigned start = big ? next16(in) : 0, stride = big ? 1 + next8(in) % 8 : 0, mul = big ? next8(in) : 0;
    size_t per = big ? sizeof ((mkey *)0)->b + VMAX : 6 * (LC_MAX_KEY_BYTES + 2) + VMAX;
    char *json = malloc(nc * per + 4);
    if (!json) abort();
    size_t len = 0;
    json[len++] = '{';
    for (size_t i = 0; i < nc; i++) {
        mkey k;
        if (big) range_key((unsigned)((start + i * stride) % RANGE_KEYS), &k);
        else read_key(in, c->m, &k);
        if (i) json[len++] = ',';
        len += json_key(&k, json + len);
        json[len++] = ':';
        const char *v = values[(big ? i * mul + i / 7 : next8(in)) % NV];
        memcpy(json + len, v, strlen(v));
        len += strlen(v);
    }
    json[len++] = '}';
    lc_parse_options o;
    memset(&o, 0, sizeof o);
    o.order = orders[(head >> 4) & 3];
    lc_doc *d = NULL;
    lc_status st = lc_doc_parse(json, len, &o, &d, NULL);
    free(json);
    if (st != LC_OK) return; /* an invalid key: nothing to build */
    st = lc_index_build_from_doc(ix, d);
    if (st != LC_OK) fail(c, "build_from_doc: %s", lc_status_name(st));
    model_clear(c->m);
    for (size_t i = 0; i < lc_doc_count(d); i++) {
        size_t kl;
        const char *key = lc_doc_key(d, i, &kl);
        mkey k;
        key_of_bytes(key, kl, &k);
        lc_value sv;
        lc_doc_sort_value(d, i, &sv);
        mval v;
        memset(&v, 0, sizeof v);
        v.tag = sv.tag;
        v.num = sv.number;
        if (sv.tag == LC_SORT_STRING) set_string(&v, sv.str, sv.len);
        uint32_t id;
        if (lc_index_find(ix, key, kl, NULL, &id) != LC_OK) fail(c, "build_from_doc: key \"%.*s\" missing", (int)kl, key);
        if (id == LC_ID_NONE || id_in_use(c->m, id)) fail(c, "build_from_doc: id %u given twice", (unsigned)id);
        model_insert(c->m, &k, &v, id);
    }
    lc_doc_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    model m;
    memset(&m, 0, sizeof m);
    input in = {data, size, 0};
    fctx c = {data, size, &in, 0, "start", &m};
    lc_index *ix = lc_index_new();
    if (!ix) abort();
    full_check(&c, ix);
    static const char *const names[] = {"insert", "insert", "remove", "update", "upsert", "find", "at", "entry",
                                        "bound", "iterate", "apply", "clear", "range", "alias", "build", "insert"};
    while (in.at < in.n && c.op_no < 4000) {
        unsigned op = next8(&in);
        c.op_no++;
        c.op = names[op % 16];
        mkey k;
        mval v;
        lc_value x;
        switch (op % 16) {
        case 0:
        case 1:
        case 15:
        case 3:
        case 4: {
            static const lc_op ops[] = {LC_OP_INSERT, LC_OP_INSERT, LC_OP_REMOVE, LC_OP_UPDATE, LC_OP_UPSERT};
            lc_op o = op % 16 == 15 ? LC_OP_INSERT : ops[op % 16];
            read_key(&in, &m, &k);
            read_value(&in, &v);
            x = lv(&v);
            single(&c, ix, o, &k, &x, &v, op < 0xE0);
            break;
        }
        case 2:
            read_key(&in, &m, &k);
            memset(&v, 0, sizeof v);
            x = lv(&v);
            single(&c, ix, LC_OP_REMOVE, &k, &x, &v, op < 0xE0);
            break;
        case 5: op_find_at_entry(&c, &in, ix, 0); break;
        case 6: op_find_at_entry(&c, &in, ix, 1); break;
        case 7: op_find_at_entry(&c, &in, ix, 2); break;
        case 8: op_bound(&c, &in, ix); break;
        case 9: op_iterate(&c, &in, ix); break;
        case 10: op_apply(&c, &in, ix); break;
        case 11:
            if (op < 0x80) break; /* rarely: a clear undoes everything */
            check_memory(&c, ix);
            if (lc_index_clear(ix) != LC_OK) fail(&c, "clear failed");
            model_clear(&m);
            break;
        case 12: op_range(&c, &in, ix); break;
        case 13: op_alias(&c, &in, ix); break;
        default: op_build(&c, &in, ix); break;
        }
        full_check(&c, ix);
    }
    check_memory(&c, ix);
    lc_index_free(ix);
    model_free(&m);
    return 0;
}
