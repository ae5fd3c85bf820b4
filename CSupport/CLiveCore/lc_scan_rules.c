/*
 * lc_scan_rules.c — the Firebase side of the scanner: key and path rules,
 * export format (".priority" / ".value"), depth, sort values, and the list
 * of top-level children with duplicates resolved (last occurrence wins).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_scan.h"

static lc_status reserve(lc_scan *s, char **p, size_t *cap, size_t used, size_t more) {
    if (*cap - used >= more) return LC_OK;
    size_t n = *cap ? *cap : 256;
    while (n - used < more) {
        if (n > SIZE_MAX / 2) return s->fatal = LC_ERR_NOMEM;
        n *= 2;
    }
    char *q = realloc(*p, n);
    if (!q) return s->fatal = LC_ERR_NOMEM;
    *p = q;
    *cap = n;
    return LC_OK;
}

static const char *key_at(const lc_scan *s, uint64_t off) {
    return (off & LC_IN_ARENA) ? s->arena + (off & ~LC_IN_ARENA) : (const char *)s->buf + off;
}

lc_status lc_str_sval(lc_scan *s, const lc_str *str, lc_sval *sv) {
    sv->tag = LC_SORT_STRING;
    if (str->len > UINT32_MAX) return s->fatal = LC_ERR_CAPACITY;
    if (!str->esc) {
        sv->u.off = str->off;
        sv->len = (uint32_t)str->len;
        return LC_OK;
    }
    if (reserve(s, &s->arena, &s->acap, s->alen, str->len)) return s->fatal;
    sv->len = (uint32_t)lc_scan_unescape(s, str, s->arena + s->alen);
    sv->u.off = LC_IN_ARENA | s->alen;
    s->alen += sv->len;
    return LC_OK;
}

/* ---- top-level keys: hash of (hash32 << 32 | index + 1) ---- */

static uint32_t hash_key(const char *p, size_t n) {
    uint64_t h = UINT64_C(0x9E3779B97F4A7C15) ^ n, v;
    for (; n >= 8; p += 8, n -= 8) {
        memcpy(&v, p, 8);
        h = (h ^ v) * UINT64_C(0xBF58476D1CE4E5B9);
        h ^= h >> 29;
    }
    v = 0;
    memcpy(&v, p, n);
    h = (h ^ v) * UINT64_C(0x94D049BB133111EB);
    return (uint32_t)(h ^ (h >> 32));
}

/* Expected number of top-level children, from the bytes each took so far. */
static size_t estimate(const lc_scan *s, size_t at_least) {
    size_t used = s->pos - s->root_off, total = s->end - s->root_off;
    if (s->nch < 512 || used == 0) return at_least;
    double e = (double)s->nch * ((double)total / (double)used) * 1.05;
    return e > (double)at_least && e < (double)(UINT32_MAX - 1) ? (size_t)e : at_least;
}

static lc_status hash_grow(lc_scan *s) {
    size_t cap = s->hcap ? s->hcap * 2 : 1024;
    size_t want = estimate(s, 0);
    while (cap / 2 < want && cap <= SIZE_MAX / 32) cap *= 2;
    uint64_t *t = calloc(cap, sizeof *t);
    if (!t) return s->fatal = LC_ERR_NOMEM;
    for (size_t i = 0; i < s->hcap; i++) {
        uint64_t e = s->slots[i];
        if (!e) continue;
        size_t j = (size_t)(e >> 32) & (cap - 1);
        while (t[j]) j = (j + 1) & (cap - 1);
        t[j] = e;
    }
    free(s->slots);
    s->slots = t;
    s->hcap = cap;
    return LC_OK;
}

/* Resolves a top-level object member: kills an earlier occurrence, records the new one. */
static lc_status dedup(lc_scan *s, int keep) {
    if ((s->hused + 1) * 2 > s->hcap && hash_grow(s)) return s->fatal;
    const char *k = key_at(s, s->cur.key_off);
    size_t kl = s->cur.key_len, mask = s->hcap - 1;
    uint32_t h = s->cur_hash;
    size_t i = h & mask;
    for (; s->slots[i]; i = (i + 1) & mask) {
        if ((uint32_t)(s->slots[i] >> 32) != h) continue;
        lc_child *o = &s->ch[(uint32_t)s->slots[i] - 1];
        if (o->key_len == kl && !memcmp(key_at(s, o->key_off), k, kl)) {
            o->dead = 1;
            break;
        }
    }
    if (!keep) return LC_OK;
    if (!s->slots[i]) s->hused++;
    s->slots[i] = ((uint64_t)h << 32) | (uint64_t)(s->nch + 1);
    return LC_OK;
}

static lc_status finish_child(lc_scan *s, const lc_scan_frame *p, int empty) {
    s->cur.span_len = s->vend - s->cur.span_off;
    s->cur.empty = (uint16_t)(empty != 0);
    if (p->type == '[') {
        if (empty) return LC_OK;
        char *d;
        if (reserve(s, &s->arena, &s->acap, s->alen, 12)) return s->fatal;
        d = s->arena + s->alen;
        s->cur.key_len = (uint32_t)snprintf(d, 12, "%lu", (unsigned long)(p->index - 1));
        s->cur.key_off = LC_IN_ARENA | s->alen;
        s->alen += s->cur.key_len;
    } else {
        int keep = !empty || s->keys_are_paths; /* in a patch an empty member is a deletion */
        if (dedup(s, keep) || !keep) return s->fatal;
    }
    if (s->nch == s->chcap) {
        size_t cap = estimate(s, s->chcap ? s->chcap * 2 : 64);
        if (cap > UINT32_MAX - 1) return s->fatal = LC_ERR_CAPACITY;
        lc_child *n = realloc(s->ch, cap * sizeof *n);
        if (!n) return s->fatal = LC_ERR_NOMEM;
        s->ch = n;
        s->chcap = cap;
    }
    s->ch[s->nch++] = s->cur;
    return LC_OK;
}

/* Raw keys that may name the same member (escaped keys conservatively do). */
static int maybe_same(const lc_scan *s, const lc_str *a, const lc_str *b) {
    if (a->len == b->len && !memcmp(s->buf + a->off, s->buf + b->off, a->len)) return 1;
    return a->esc || b->esc;
}

lc_status lc_complete(lc_scan *s, const lc_ctx *c, int empty, const lc_sval *sv) {
    lc_scan_frame *p = s->nfr ? &s->fr[s->nfr - 1] : NULL;
    if (sv && lc_ctx_wants(s, c)) {
        if (c->role != R_PRIO) s->cur.sort = *sv;
        else if (p && p->c.level == 0) s->root_prio = *sv;
        else if (p && p->c.topnode) s->cur.prio = *sv;
    }
    if (!p) {
        if (sv) s->root_leaf = !empty;
        return LC_OK;
    }
    if (p->type == '[') {
        p->nonempty |= (uint8_t)!empty;
    } else if (c->role == R_VALUE) {
        p->value_empty = (uint8_t)empty;
        if (c->level == 0 && sv && !empty) s->root_leaf = 1;
    } else if (c->role == R_NODE) {
        if (!empty) {
            p->nonempty = 1;
            p->uncertain = 0;
            p->last_ne = p->mkey;
        } else if (p->nonempty && maybe_same(s, &p->mkey, &p->last_ne)) {
            p->uncertain = 1;
        }
    }
    return c->top ? finish_child(s, p, empty) : LC_OK;
}

lc_status lc_close(lc_scan *s, const lc_scan_frame *f, int *empty) {
    int e = 0;
    if (f->type == '[') e = !f->nonempty;
    else if (f->has_value) e = f->value_empty;
    else if (!f->nonempty) e = 1;
    else if (!f->uncertain || f->c.level == 0) e = 0;
    else if (lc_json_text_is_empty((const char *)s->buf + f->start, s->pos - f->start, &e) == LC_ERR_NOMEM)
        return s->fatal = LC_ERR_NOMEM;
    if (f->c.match == s->nseg && s->nseg >= 0 && !f->has_value) {
        s->cur.sort.tag = e ? LC_SORT_NULL : LC_SORT_OBJECT;
        s->cur.sort.len = 0;
    }
    *empty = e;
    return LC_OK;
}

static void key_error(lc_scan *s, lc_status st, size_t kq, const char *k, size_t kl) {
    char q[LC_ERROR_TEXT_LENGTH], why[24] = "";
    if (st == LC_ERR_KEY_TOO_LONG) {
        lc_scan_quote(q, sizeof q, "key", k, kl);
        lc_scan_rule_error(s, st, kq, "%s longer than %d bytes", q, LC_MAX_KEY_BYTES);
        return;
    }
    lc_scan_quote(q, sizeof q, "invalid key", k, kl);
    if (!kl) snprintf(why, sizeof why, " (empty)");
    for (size_t i = 0; i < kl && !why[0]; i++) {
        unsigned char b = (unsigned char)k[i];
        if (b < 0x20 || b == 0x7F) snprintf(why, sizeof why, " (control 0x%02X)", b);
        else if (strchr(".#$/[]", b)) snprintf(why, sizeof why, " (contains '%c')", b);
    }
    lc_scan_rule_error(s, st, kq, "%s%s", q, why);
}

static void start_child(lc_scan *s, lc_ctx *n, const char *k, uint64_t key_off, size_t kl) {
    if (k) {
        s->cur_hash = hash_key(k, kl);
#if defined(__GNUC__)
        if (s->slots) __builtin_prefetch(&s->slots[s->cur_hash & (s->hcap - 1)]);
#endif
    }
    n->top = n->topnode = 1;
    n->match = s->nseg >= 0 ? 0 : -1;
    memset(&s->cur, 0, sizeof s->cur);
    s->cur.key_off = key_off;
    s->cur.key_len = (uint32_t)kl;
    s->cur.span_off = s->pos;
}

/* lc_key_validate, remembering the last few short keys it accepted (keys repeat a lot). */
static void validate_key(lc_scan *s, const char *k, size_t kl, size_t kq, int memo) {
    unsigned set = 0;
    memo = memo && kl && kl <= sizeof s->valid[0].key;
    if (memo) {
        unsigned h = (unsigned)kl;
        for (size_t i = 0; i < kl && i < 4; i++) h = h * 31u + (unsigned char)k[i];
        h = h * 31u + (unsigned char)k[kl - 1];
        set = (h ^ (h >> 4) ^ (h >> 8)) & 15u;
        for (unsigned w = 0; w < 2; w++)
            if (s->valid[2 * set + w].len == kl && !memcmp(s->valid[2 * set + w].key, k, kl)) return;
    }
    lc_status st = lc_key_validate(k, kl, NULL);
    if (st) {
        key_error(s, st, kq, k, kl);
    } else if (memo) {
        unsigned w = 2 * set + s->victim[set];
        s->victim[set] ^= 1;
        s->valid[w].len = (uint8_t)kl;
        memcpy(s->valid[w].key, k, kl);
    }
}

lc_status lc_member_ctx(lc_scan *s, lc_scan_frame *f, const lc_str *key, size_t kq, lc_ctx *c) {
    const char *k = (const char *)s->buf + key->off;
    size_t kl = key->len;
    uint64_t koff = key->off;
    int top = f->c.level == 0;
    f->mkey = *key;
    if (key->esc) {
        char **dst = top ? &s->arena : &s->scratch;
        size_t *cap = top ? &s->acap : &s->scap, used = top ? s->alen : 0;
        if (reserve(s, dst, cap, used, kl)) return s->fatal;
        kl = lc_scan_unescape(s, key, *dst + used);
        k = *dst + used;
        koff = LC_IN_ARENA | used;
    }
    lc_ctx n = {f->c.level, -1, R_NODE, 0, 0};
    if (kl == 9 && !memcmp(k, ".priority", 9)) {
        unsigned v = s->buf[s->pos];
        n.role = R_PRIO;
        if (!(v == '"' || v == '-' || v - '0' < 10u || v == 'n'))
            lc_scan_rule_error(s, LC_ERR_VALUE_INVALID, s->pos,
                               "invalid .priority: not a number, a string or null");
    } else if (kl == 6 && !memcmp(k, ".value", 6)) {
        if (f->has_other) lc_scan_rule_error(s, LC_ERR_VALUE_INVALID, kq, "\".value\" beside other members");
        f->has_value = 1;
        n = f->c;
        n.role = R_VALUE;
        n.top = 0;
        if (top) { /* a later ".value" replaces what an earlier one held */
            s->nch = 0;
            s->hused = 0;
            s->root_leaf = 0;
            if (s->slots) memset(s->slots, 0, s->hcap * sizeof *s->slots);
        }
    } else {
        if (f->has_value) lc_scan_rule_error(s, LC_ERR_VALUE_INVALID, kq, "\".value\" beside other members");
        f->has_other = 1;
        size_t level = (size_t)f->c.level + 1;
        if (top && s->keys_are_paths) {
            lc_status st = lc_path_validate(k, kl, NULL);
            level = lc_path_depth(k, kl);
            if (st == LC_OK && level == 0) st = LC_ERR_PATH_INVALID;
            if (st) {
                char q[LC_ERROR_TEXT_LENGTH];
                lc_scan_quote(q, sizeof q, st == LC_ERR_PATH_TOO_LONG ? "path too long:" : "invalid path", k, kl);
                lc_scan_rule_error(s, st, kq, "%s", q);
            }
        } else {
            validate_key(s, k, kl, kq, !top);
        }
        if (level > s->max_depth)
            lc_scan_rule_error(s, LC_ERR_TOO_DEEP, kq, "nesting deeper than %u levels", s->max_depth);
        n.level = (uint16_t)level;
        if (top) {
            start_child(s, &n, k, koff, kl);
        } else {
            int m = f->c.match;
            if (m >= 0 && m < s->nseg && kl == s->seg[m].len && !memcmp(k, s->seg[m].p, kl))
                n.match = (int16_t)(m + 1);
        }
    }
    if (top && key->esc && s->rules && n.role == R_NODE) s->alen += kl;
    /* a later occurrence on the order path replaces whatever an earlier one held */
    if (!n.top && n.match >= 0) memset(&s->cur.sort, 0, sizeof s->cur.sort);
    *c = n;
    return LC_OK;
}

void lc_element_ctx(lc_scan *s, lc_scan_frame *f, lc_ctx *c) {
    lc_ctx n = {(uint16_t)(f->c.level + 1), -1, R_NODE, 0, 0};
    if ((unsigned)f->c.level + 1 > s->max_depth) {
        lc_scan_rule_error(s, LC_ERR_TOO_DEEP, s->pos, "nesting deeper than %u levels", s->max_depth);
        return;
    }
    if (f->c.level == 0) {
        start_child(s, &n, NULL, 0, 0);
    } else {
        int m = f->c.match;
        if (m >= 0 && m < s->nseg && s->seg[m].index == (int64_t)f->index) n.match = (int16_t)(m + 1);
    }
    *c = n;
}
