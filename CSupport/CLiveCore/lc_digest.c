/*
 * lc_digest.c — a canonical 128-bit digest of a Firebase value, read from
 * its JSON text without building a tree: equal values (under Firebase's
 * normal form) have equal digests whatever their spelling.
 *
 * What counts: leaves by type and value (numbers as doubles, -0 as 0;
 * strings by their unescaped bytes), objects by their non-empty members in
 * any order (arrays as objects keyed "0", "1", ...), {".value": v} as v,
 * and, with LC_DIGEST_PRIORITIES (the export value), every node's non-null
 * ".priority". Null members and containers left empty are absent, as in
 * lc_doc_child_json.
 *
 * Members combine commutatively (a sum of mixed member digests), so member
 * order costs nothing. An object with a key twice (the last occurrence
 * wins) is the one case the text walk cannot sum: it falls back to jansson,
 * whose parser keeps the last occurrence, and walks its tree the same way.
 */
#include <stdlib.h>
#include <string.h>

#include "lc_scan.h"

typedef struct dg {
    uint64_t a, b;
    int present;
} dg;

/* --- mixing ------------------------------------------------------------ */

static uint64_t mix64(uint64_t x) {
    x ^= x >> 30;
    x *= UINT64_C(0xbf58476d1ce4e5b9);
    x ^= x >> 27;
    x *= UINT64_C(0x94d049bb133111eb);
    x ^= x >> 31;
    return x;
}

typedef struct hasher {
    uint64_t a, b;
} hasher;

static hasher h_start(uint64_t tag) {
    hasher h = {mix64(tag ^ UINT64_C(0x9e3779b97f4a7c15)), mix64(tag ^ UINT64_C(0xc2b2ae3d27d4eb4f))};
    return h;
}

static void h_word(hasher *h, uint64_t w) {
    h->a = mix64(h->a ^ w) + UINT64_C(0x9e3779b97f4a7c15);
    h->b = mix64(h->b + (w * UINT64_C(0xff51afd7ed558ccd))) ^ h->a;
}

static void h_bytes(hasher *h, const unsigned char *p, size_t n) {
    while (n >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        h_word(h, w);
        p += 8;
        n -= 8;
    }
    uint64_t w = 0;
    for (size_t i = 0; i < n; i++) w |= (uint64_t)p[i] << (8 * i);
    h_word(h, w ^ ((uint64_t)n << 59));
}

static dg h_done(hasher h) {
    dg d = {mix64(h.a ^ (h.b >> 1)), mix64(h.b + h.a), 1};
    return d;
}

enum { T_FALSE = 1, T_TRUE, T_NUMBER, T_STRING, T_OBJECT, T_MEMBER, T_PRIORITY, T_KEY };

static dg leaf_number(double v) {
    if (v == 0) v = 0; /* -0 is 0 */
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);
    hasher h = h_start(T_NUMBER);
    h_word(&h, bits);
    return h_done(h);
}

static dg leaf_bool(int v) {
    hasher h = h_start(v ? T_TRUE : T_FALSE);
    return h_done(h);
}

/* A member's contribution: its key's digest and its value's, mixed. */
static dg member_of(dg key, dg value) {
    hasher h = h_start(T_MEMBER);
    h_word(&h, key.a);
    h_word(&h, key.b);
    h_word(&h, value.a);
    h_word(&h, value.b);
    return h_done(h);
}

static void add_member(dg *sum, uint64_t *count, dg key, dg value) {
    dg m = member_of(key, value);
    sum->a += m.a;
    sum->b += m.b;
    (*count)++;
}

static dg object_of(dg sum, uint64_t count) {
    dg none = {0, 0, 0};
    if (!count) return none;
    hasher h = h_start(T_OBJECT);
    h_word(&h, count);
    h_word(&h, sum.a);
    h_word(&h, sum.b);
    return h_done(h);
}

/* A node with its value and priority (absent priority: the value alone). */
static dg with_priority(dg value, dg priority) {
    if (!value.present || !priority.present) return value;
    hasher h = h_start(T_PRIORITY);
    h_word(&h, value.a);
    h_word(&h, value.b);
    h_word(&h, priority.a);
    h_word(&h, priority.b);
    return h_done(h);
}

static dg key_digest(const unsigned char *p, size_t n) {
    hasher h = h_start(T_KEY);
    h_bytes(&h, p, n);
    return h_done(h);
}

static dg string_digest(const unsigned char *p, size_t n) {
    hasher h = h_start(T_STRING);
    h_bytes(&h, p, n);
    return h_done(h);
}

/* --- the reference: a jansson tree ------------------------------------- */

static dg tree_digest(const json_t *v, int priorities);

static dg tree_priority(const json_t *p) {
    dg none = {0, 0, 0};
    if (!p) return none;
    if (json_is_string(p)) return string_digest((const unsigned char *)json_string_value(p), json_string_length(p));
    if (json_is_number(p)) return leaf_number(json_number_value(p));
    return none;
}

static dg tree_digest(const json_t *v, int priorities) {
    dg none = {0, 0, 0};
    switch (json_typeof(v)) {
    case JSON_NULL: return none;
    case JSON_TRUE: return leaf_bool(1);
    case JSON_FALSE: return leaf_bool(0);
    case JSON_INTEGER:
    case JSON_REAL: return leaf_number(json_number_value(v));
    case JSON_STRING: return string_digest((const unsigned char *)json_string_value(v), json_string_length(v));
    case JSON_ARRAY: {
        dg sum = {0, 0, 0};
        uint64_t count = 0;
        for (size_t i = 0; i < json_array_size(v); i++) {
            dg value = tree_digest(json_array_get(v, i), priorities);
            if (!value.present) continue;
            char key[24];
            int n = snprintf(key, sizeof key, "%zu", i);
            add_member(&sum, &count, key_digest((const unsigned char *)key, (size_t)n), value);
        }
        return object_of(sum, count);
    }
    case JSON_OBJECT: {
        dg priority = priorities ? tree_priority(json_object_get(v, ".priority")) : none;
        const json_t *inner = json_object_get(v, ".value");
        if (inner) return with_priority(tree_digest(inner, priorities), priority);
        dg sum = {0, 0, 0};
        uint64_t count = 0;
        const char *k;
        size_t klen;
        json_t *m;
        json_object_keylen_foreach((json_t *)v, k, klen, m) {
            if (klen == 9 && !memcmp(k, ".priority", 9)) continue;
            dg value = tree_digest(m, priorities);
            if (value.present) add_member(&sum, &count, key_digest((const unsigned char *)k, klen), value);
        }
        return with_priority(object_of(sum, count), priority);
    }
    }
    return none;
}

/* --- the text walk ----------------------------------------------------- */

typedef struct walk {
    lc_scan s;          /* over validated text: only its lexer is used */
    char *text;         /* unescaped strings */
    size_t cap;
    uint64_t *keys;     /* key digests of the open objects, to find duplicates */
    size_t nkeys, kcap;
    int duplicate;      /* an object has a key twice: use the reference */
    int priorities;     /* whether priorities count */
    lc_status fatal;
} walk;

static int reserve_text(walk *w, size_t n) {
    if (n <= w->cap) return 1;
    char *t = realloc(w->text, n);
    if (!t) {
        w->fatal = LC_ERR_NOMEM;
        return 0;
    }
    w->text = t;
    w->cap = n;
    return 1;
}

/* The unescaped bytes of the string at the walk's position. */
static const unsigned char *read_string(walk *w, size_t *len) {
    lc_str str;
    if (lc_scan_string(&w->s, &str) != LC_OK) {
        w->fatal = LC_ERR_JSON_SYNTAX;
        return NULL;
    }
    if (!str.esc) {
        *len = str.len;
        return w->s.buf + str.off;
    }
    if (!reserve_text(w, str.len + 1)) return NULL;
    *len = lc_scan_unescape(&w->s, &str, w->text);
    return (const unsigned char *)w->text;
}

static int push_key(walk *w, uint64_t key) {
    if (w->nkeys == w->kcap) {
        size_t cap = w->kcap ? w->kcap * 2 : 64;
        uint64_t *k = realloc(w->keys, cap * sizeof *k);
        if (!k) {
            w->fatal = LC_ERR_NOMEM;
            return 0;
        }
        w->keys = k;
        w->kcap = cap;
    }
    w->keys[w->nkeys++] = key;
    return 1;
}

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Whether keys[from..] holds a value twice (it sorts them). */
static int has_duplicate(walk *w, size_t from) {
    size_t n = w->nkeys - from;
    if (n < 2) return 0;
    qsort(w->keys + from, n, sizeof *w->keys, compare_u64);
    for (size_t i = from + 1; i < w->nkeys; i++)
        if (w->keys[i] == w->keys[i - 1]) return 1;
    return 0;
}

static dg walk_value(walk *w);

static dg walk_priority(walk *w) {
    dg none = {0, 0, 0};
    const unsigned char c = w->s.buf[w->s.pos];
    if (c == '"') {
        size_t n;
        const unsigned char *p = read_string(w, &n);
        return p ? string_digest(p, n) : none;
    }
    /* A number counts; anything else (which Firebase's rules refuse) is
     * read past and counts for nothing, as the reference reads it. */
    dg v = walk_value(w);
    return c == '-' || (c >= '0' && c <= '9') ? v : none;
}

static dg walk_object(walk *w) {
    dg none = {0, 0, 0}, sum = {0, 0, 0}, priority = none, inner = none;
    uint64_t count = 0;
    int has_inner = 0;
    size_t from = w->nkeys;
    w->s.pos++; /* '{' */
    lc_scan_ws(&w->s);
    if (w->s.buf[w->s.pos] == '}') {
        w->s.pos++;
        return none;
    }
    for (;;) {
        size_t klen;
        const unsigned char *k = read_string(w, &klen);
        if (!k) return none;
        dg key = key_digest(k, klen);
        int is_priority = klen == 9 && !memcmp(k, ".priority", 9);
        int is_value = klen == 6 && !memcmp(k, ".value", 6);
        if (!push_key(w, key.a)) return none;
        lc_scan_ws(&w->s);
        w->s.pos++; /* ':' */
        lc_scan_ws(&w->s);
        if (is_priority) {
            priority = walk_priority(w);
            if (!w->priorities) priority = none;
        } else if (is_value) {
            inner = walk_value(w);
            has_inner = 1;
        } else {
            dg value = walk_value(w);
            if (value.present) add_member(&sum, &count, key, value);
        }
        if (w->fatal || w->duplicate) return none;
        lc_scan_ws(&w->s);
        if (w->s.buf[w->s.pos] == ',') {
            w->s.pos++;
            lc_scan_ws(&w->s);
            continue;
        }
        w->s.pos++; /* '}' */
        break;
    }
    if (has_duplicate(w, from)) {
        w->duplicate = 1;
        return none;
    }
    w->nkeys = from;
    return with_priority(has_inner ? inner : object_of(sum, count), priority);
}

static dg walk_array(walk *w) {
    dg none = {0, 0, 0}, sum = {0, 0, 0};
    uint64_t count = 0;
    w->s.pos++; /* '[' */
    lc_scan_ws(&w->s);
    if (w->s.buf[w->s.pos] == ']') {
        w->s.pos++;
        return none;
    }
    for (size_t i = 0;; i++) {
        dg value = walk_value(w);
        if (w->fatal || w->duplicate) return none;
        if (value.present) {
            char key[24];
            int n = snprintf(key, sizeof key, "%zu", i);
            add_member(&sum, &count, key_digest((const unsigned char *)key, (size_t)n), value);
        }
        lc_scan_ws(&w->s);
        if (w->s.buf[w->s.pos] == ',') {
            w->s.pos++;
            lc_scan_ws(&w->s);
            continue;
        }
        w->s.pos++; /* ']' */
        return object_of(sum, count);
    }
}

/* Moves past a literal of n bytes, and the one NUL byte jansson drops right
 * after a literal (the scanner accepts that text, as jansson does). */
static void skip_literal(walk *w, size_t n) {
    w->s.pos += n;
    if (w->s.pos < w->s.end && w->s.buf[w->s.pos] == 0) w->s.pos++;
}

static dg walk_value(walk *w) {
    dg none = {0, 0, 0};
    const unsigned char *b = w->s.buf;
    switch (b[w->s.pos]) {
    case '{': return walk_object(w);
    case '[': return walk_array(w);
    case '"': {
        size_t n;
        const unsigned char *p = read_string(w, &n);
        return p ? string_digest(p, n) : none;
    }
    case 't': skip_literal(w, 4); return leaf_bool(1);
    case 'f': skip_literal(w, 5); return leaf_bool(0);
    case 'n': skip_literal(w, 4); return none;
    default: {
        double v = 0;
        lc_status st = lc_scan_number(&w->s, 1, &v);
        if (st != LC_OK) {
            w->fatal = st == LC_ERR_NOMEM ? LC_ERR_NOMEM : LC_ERR_JSON_SYNTAX;
            return none;
        }
        return leaf_number(v);
    }
    }
}

/* Digests text with w's buffers (kept, grown as needed); the rest of w is
 * reset. */
static lc_status digest_with(walk *w, const char *text, size_t len, unsigned flags, lc_digest *out) {
    char *buffer = w->text;
    size_t cap = w->cap, kcap = w->kcap;
    uint64_t *keys = w->keys;
    memset(w, 0, sizeof *w);
    w->text = buffer;
    w->cap = cap;
    w->keys = keys;
    w->kcap = kcap;
    w->priorities = (flags & LC_DIGEST_PRIORITIES) != 0;
    lc_scan_init(&w->s, text, len);
    lc_scan_ws(&w->s);
    dg d = walk_value(w);
    lc_status st = w->fatal;
    if (st) return st;
    if (w->duplicate) {
        json_error_t je;
        json_t *j = json_loadb(text, len, JSON_DECODE_ANY, &je);
        if (!j) return json_error_code(&je) == json_error_out_of_memory ? LC_ERR_NOMEM : LC_ERR_JSON_SYNTAX;
        d = tree_digest(j, (flags & LC_DIGEST_PRIORITIES) != 0);
        json_decref(j);
    }
    out->high = d.present ? d.a : 0;
    out->low = d.present ? d.b : 0;
    return LC_OK;
}

lc_status lc_digest_text(const char *text, size_t len, unsigned flags, lc_digest *out) {
    walk *w = calloc(1, sizeof *w);
    if (!w) return LC_ERR_NOMEM;
    lc_status st = digest_with(w, text, len, flags, out);
    free(w->text);
    free(w->keys);
    free(w);
    return st;
}

lc_status lc_doc_child_digest(const lc_doc *doc, size_t i, unsigned flags, lc_digest *out) {
    const char *text;
    size_t len;
    if (!out) return LC_ERR_ARGUMENT;
    lc_status st = lc_doc_child_text(doc, i, &text, &len);
    if (st) return st;
    /* The child's text lies inside the document's padded buffer, so the lexer
     * may look past its end; what follows it is valid JSON or padding. */
    return lc_digest_text(text, len, flags, out);
}

lc_status lc_json_digest(const json_t *value, unsigned flags, lc_digest *out) {
    if (!out) return LC_ERR_ARGUMENT;
    dg d = value ? tree_digest(value, (flags & LC_DIGEST_PRIORITIES) != 0) : (dg){0, 0, 0};
    out->high = d.present ? d.a : 0;
    out->low = d.present ? d.b : 0;
    return LC_OK;
}

/* --- digests built from parts ------------------------------------------ */

static lc_digest out_of(dg d) {
    lc_digest o = {d.present ? d.a : 0, d.present ? d.b : 0};
    return o;
}

static dg in_of(lc_digest d) {
    dg o = {d.high, d.low, (d.high | d.low) != 0};
    return o;
}

lc_digest lc_digest_bool(int value) { return out_of(leaf_bool(value != 0)); }

lc_digest lc_digest_number(double value) { return out_of(leaf_number(value)); }

lc_digest lc_digest_string(const char *bytes, size_t len) {
    if (!bytes) len = 0;
    return out_of(string_digest((const unsigned char *)(bytes ? bytes : ""), len));
}

void lc_digest_members_add(lc_digest_members *members, const char *key, size_t key_len, lc_digest value) {
    if (!members || (!key && key_len)) return;
    dg v = in_of(value);
    if (!v.present) return;
    dg sum = {members->sum_high, members->sum_low, 1};
    add_member(&sum, &members->count, key_digest((const unsigned char *)(key ? key : ""), key_len), v);
    members->sum_high = sum.a;
    members->sum_low = sum.b;
}

void lc_digest_members_remove(lc_digest_members *members, const char *key, size_t key_len, lc_digest value) {
    if (!members || (!key && key_len) || members->count == 0) return;
    dg v = in_of(value);
    if (!v.present) return;
    /* Members are summed lane by lane, modulo 2^64: a difference undoes a sum. */
    dg m = member_of(key_digest((const unsigned char *)(key ? key : ""), key_len), v);
    members->sum_high -= m.a;
    members->sum_low -= m.b;
    members->count--;
}

lc_digest lc_digest_object(const lc_digest_members *members) {
    dg none = {0, 0, 0};
    if (!members) return out_of(none);
    dg sum = {members->sum_high, members->sum_low, 1};
    return out_of(object_of(sum, members->count));
}

lc_digest lc_digest_with_priority(lc_digest value, lc_digest priority) {
    return out_of(with_priority(in_of(value), in_of(priority)));
}

struct lc_digester {
    char *buf; /* the text, copied and padded */
    size_t cap;
    lc_scan scan; /* the check: its frames are kept */
    lc_scan_frame *frames;
    size_t frames_cap;
    walk w;
};

lc_digester *lc_digester_new(void) { return calloc(1, sizeof(lc_digester)); }

void lc_digester_free(lc_digester *d) {
    if (!d) return;
    free(d->buf);
    free(d->frames);
    free(d->w.text);
    free(d->w.keys);
    free(d);
}

/* Whether d->buf[0..len) is one JSON value, as jansson reads it. */
static lc_status check_json(lc_digester *d, size_t len) {
    lc_scan *s = &d->scan;
    lc_scan_init(s, d->buf, len);
    s->fr = d->frames;
    s->fcap = d->frames_cap;
    lc_scan_ws(s);
    lc_status st = s->pos < len ? lc_scan_value(s, 0, 0) : LC_ERR_JSON_SYNTAX;
    if (st == LC_OK) {
        lc_scan_ws(s);
        if (s->pos != len) st = LC_ERR_JSON_SYNTAX;
    }
    d->frames = s->fr;
    d->frames_cap = s->fcap;
    s->fr = NULL; /* kept for the next text; anything else the scan made goes */
    lc_scan_release(s);
    return st;
}

lc_status lc_digester_digest(lc_digester *d, const char *text, size_t len, unsigned flags, lc_digest *out) {
    if (!d || !out || (!text && len)) return LC_ERR_ARGUMENT;
    if (len > SIZE_MAX - LC_SCAN_PAD) return LC_ERR_ARGUMENT;
    /* The lexer reads a little past the end: a padded copy. */
    if (len + LC_SCAN_PAD > d->cap) {
        size_t cap = len + LC_SCAN_PAD > 2 * d->cap ? len + LC_SCAN_PAD : 2 * d->cap;
        char *buf = realloc(d->buf, cap);
        if (!buf) return LC_ERR_NOMEM;
        d->buf = buf;
        d->cap = cap;
    }
    if (len) memcpy(d->buf, text, len);
    memset(d->buf + len, 0, LC_SCAN_PAD);
    /* Checked first: the walk reads valid text only. */
    lc_status st = check_json(d, len);
    return st ? st : digest_with(&d->w, d->buf, len, flags, out);
}

lc_status lc_digest_of_text(const char *text, size_t len, unsigned flags, lc_digest *out) {
    if (!out || (!text && len)) return LC_ERR_ARGUMENT;
    lc_digester *d = lc_digester_new();
    if (!d) return LC_ERR_NOMEM;
    lc_status st = lc_digester_digest(d, text, len, flags, out);
    lc_digester_free(d);
    return st;
}
