/*
 * lc_scan.c — the scanner's structure: one iterative pass over objects and
 * arrays (an explicit frame stack, so no recursion), applying the Firebase
 * rules and recording the document's top-level children as it goes.
 *
 * Terms used below:
 * - A node's level: the document is level 0; the value of a member (other
 *   than ".priority" / ".value") or an element of a level-L container is at
 *   level L + 1 (for a patch, a top-level path key "a/b" puts its value at
 *   level 2). The value of ".value" is the same node as its wrapper.
 * - A value is empty when it normalises to nothing: null, or a container
 *   whose every member (by last occurrence) is empty.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_scan.h"

static int is_alpha(unsigned c) { return (c | 0x20) - 'a' < 26u; }

void lc_scan_ws(lc_scan *s) {
    const unsigned char *b = s->buf;
    size_t p = s->pos;
    while (b[p] == ' ' || b[p] == '\n' || b[p] == '\r' || b[p] == '\t') p++;
    s->pos = p < s->end ? p : s->end;
}

lc_status lc_scan_string(lc_scan *s, lc_str *out) {
    if (s->buf[s->pos] != '"' || s->pos >= s->end) {
        s->json_bad = 1;
        s->json_pos = s->pos;
        return LC_ERR_JSON_SYNTAX;
    }
    out->off = ++s->pos;
    lc_status st = lc_scan_string_body(s, &out->esc);
    out->len = s->pos - 1 - out->off;
    return st;
}

void lc_scan_rule_error(lc_scan *s, lc_status code, size_t pos, const char *fmt, ...) {
    if (!s->rules) return;
    s->rules = 0;
    s->rule = code;
    s->rule_pos = pos;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(s->rule_text, sizeof s->rule_text, fmt, ap);
    va_end(ap);
}

void lc_scan_quote(char *text, size_t cap, const char *what, const char *key, size_t len) {
    char q[72];
    size_t n = 0, max = 60;
    for (size_t i = 0; i < len && n < max; i++) {
        unsigned char c = (unsigned char)key[i];
        if (c >= 0x80 && (c & 0xC0) != 0x80) {
            size_t k = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
            if (n + k > max) break;
        }
        q[n++] = (c < 0x20 || c == 0x7F) ? '?' : (char)c;
    }
    q[n] = 0;
    snprintf(text, cap, "%s \"%s%s\"", what, q, n < len ? "..." : "");
}

static lc_status push(lc_scan *s, lc_scan_frame **f) {
    if (s->nfr == s->fcap) {
        size_t cap = s->fcap ? s->fcap * 2 : 32;
        lc_scan_frame *nf = realloc(s->fr, cap * sizeof *nf);
        if (!nf) return s->fatal = LC_ERR_NOMEM;
        s->fr = nf;
        s->fcap = cap;
    }
    *f = &s->fr[s->nfr++];
    return LC_OK;
}

static lc_status literal(lc_scan *s, lc_sval *sv) {
    const unsigned char *b = s->buf + s->pos;
    size_t n;
    if (!memcmp(b, "true", 4)) n = 4, sv->tag = LC_SORT_TRUE;
    else if (!memcmp(b, "false", 5)) n = 5, sv->tag = LC_SORT_FALSE;
    else if (!memcmp(b, "null", 4)) n = 4, sv->tag = LC_SORT_NULL;
    else n = 0;
    if (!n || is_alpha(b[n]) || s->pos + n > s->end) {
        s->json_bad = 1;
        s->json_pos = s->pos;
        return LC_ERR_JSON_SYNTAX;
    }
    s->pos += n;
    s->vend = s->pos;
    /* jansson drops one NUL byte right after a literal (its unget cannot keep a 0). */
    if (s->pos < s->end && b[n] == 0) s->pos++;
    return LC_OK;
}

lc_status lc_scan_value(lc_scan *s, size_t nesting, int doc) {
    const unsigned char *b = s->buf;
    lc_ctx c = {0, -1, R_NODE, 0, 0};
    lc_scan_frame *f;
    lc_sval sv;
    lc_str str;
    int empty;
    s->rules = doc;
    s->rule = LC_OK;
    s->nfr = 0;
    if (doc) {
        lc_scan_reset_doc(s);
        s->root_off = s->pos;
    }
value:
    if (nesting + s->nfr >= LC_JSON_MAX_DEPTH || s->pos >= s->end) goto bad;
    switch (b[s->pos]) {
    case '{':
    case '[':
        if (push(s, &f)) return s->fatal;
        memset(f, 0, sizeof *f);
        f->type = b[s->pos];
        f->start = s->pos;
        f->c = c;
        s->pos++;
        lc_scan_ws(s);
        if (b[s->pos] == (f->type == '{' ? '}' : ']') && s->pos < s->end) {
            s->pos++;
            goto close;
        }
        if (f->type == '{') goto member;
        goto element;
    case '"':
        if (lc_scan_string(s, &str)) return LC_ERR_JSON_SYNTAX;
        s->vend = s->pos;
        empty = 0;
        sv.tag = LC_SORT_STRING;
        if (s->rules && lc_ctx_wants(s, &c) && lc_str_sval(s, &str, &sv)) return s->fatal;
        break;
    case 't':
    case 'f':
    case 'n':
        if (literal(s, &sv)) return LC_ERR_JSON_SYNTAX;
        empty = sv.tag == LC_SORT_NULL;
        break;
    default:
        if (b[s->pos] != '-' && b[s->pos] - (unsigned)'0' >= 10u) goto bad;
        sv.tag = LC_SORT_NUMBER;
        sv.len = 0;
        if (lc_scan_number(s, s->rules && lc_ctx_wants(s, &c), &sv.u.num))
            return s->fatal ? s->fatal : LC_ERR_JSON_SYNTAX;
        empty = 0;
        break;
    }
    if (s->rules && lc_complete(s, &c, empty, &sv)) return s->fatal;
after:
    if (s->nfr == 0) {
        if (doc) s->root_len = s->vend - s->root_off;
        return s->rule;
    }
    f = &s->fr[s->nfr - 1];
    lc_scan_ws(s);
    if (s->pos >= s->end) goto bad;
    if (b[s->pos] == ',') {
        s->pos++;
        lc_scan_ws(s);
        if (f->type == '{') goto member;
        goto element;
    }
    if (b[s->pos] != (f->type == '{' ? '}' : ']')) goto bad;
    s->pos++;
    goto close;
member:
    f = &s->fr[s->nfr - 1];
    {
        size_t kq = s->pos;
        if (lc_scan_string(s, &str)) return LC_ERR_JSON_SYNTAX;
        lc_scan_ws(s);
        if (b[s->pos] != ':' || s->pos >= s->end) goto bad;
        s->pos++;
        lc_scan_ws(s);
        if (s->rules && lc_member_ctx(s, f, &str, kq, &c)) return s->fatal;
    }
    goto value;
element:
    f = &s->fr[s->nfr - 1];
    if (s->rules) lc_element_ctx(s, f, &c);
    f->index++;
    goto value;
close:
    s->vend = s->pos;
    f = &s->fr[--s->nfr];
    if (s->rules) {
        c = f->c;
        if (lc_close(s, f, &empty)) return s->fatal;
        if (s->rules && lc_complete(s, &c, empty, NULL)) return s->fatal;
    }
    goto after;
bad:
    s->json_bad = 1;
    s->json_pos = s->pos;
    return LC_ERR_JSON_SYNTAX;
}

/* ---- life cycle ---- */

void lc_scan_init(lc_scan *s, const char *buf, size_t len) {
    memset(s, 0, sizeof *s);
    s->buf = (const unsigned char *)buf;
    s->end = len;
    s->max_depth = LC_MAX_PATH_DEPTH;
    s->nseg = -1;
}

lc_status lc_scan_configure(lc_scan *s, const lc_parse_options *o, lc_error *error) {
    if (!o) return LC_OK;
    s->max_depth = o->max_depth ? o->max_depth : LC_MAX_PATH_DEPTH;
    s->keys_are_paths = o->keys_are_paths != 0;
    switch (o->order.kind) {
    case LC_ORDER_PRIORITY:
    case LC_ORDER_KEY:
        s->nseg = -1;
        return LC_OK;
    case LC_ORDER_VALUE:
        s->nseg = 0;
        return LC_OK;
    case LC_ORDER_CHILD:
        break;
    default:
        goto bad;
    }
    const char *p = o->order.child_path;
    size_t n = o->order.child_path_len;
    if (!p && n) goto bad;
    if (n && lc_path_validate(p, n, NULL) != LC_OK) goto bad;
    s->nseg = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && p[j] != '/') j++;
        if (j > i) {
            if (s->nseg == LC_MAX_PATH_DEPTH) goto bad;
            int64_t v = (p[i] == '0' && j - i > 1) ? -1 : 0;
            for (size_t k = i; k < j && v >= 0; k++)
                v = (p[k] >= '0' && p[k] <= '9' && v <= INT32_MAX / 10) ? v * 10 + (p[k] - '0') : -1;
            s->seg[s->nseg].p = p + i;
            s->seg[s->nseg].len = (uint32_t)(j - i);
            s->seg[s->nseg].index = v <= INT32_MAX ? (int32_t)v : -1;
            s->nseg++;
        }
        i = j + 1;
    }
    return LC_OK;
bad:
    if (error) {
        lc_error_clear(error);
        error->code = LC_ERR_ARGUMENT;
        snprintf(error->text, sizeof error->text, "invalid order (kind or child path)");
    }
    return LC_ERR_ARGUMENT;
}

void lc_scan_reset_doc(lc_scan *s) {
    s->nch = 0;
    s->alen = 0;
    s->hused = 0;
    if (s->slots) memset(s->slots, 0, s->hcap * sizeof *s->slots);
    memset(&s->cur, 0, sizeof s->cur);
    memset(&s->root_prio, 0, sizeof s->root_prio);
    s->root_leaf = 0;
}

void lc_scan_release(lc_scan *s) {
    free(s->fr);
    free(s->ch);
    free(s->slots);
    free(s->arena);
    free(s->scratch);
    s->fr = NULL;
    s->ch = NULL;
    s->slots = NULL;
    s->arena = NULL;
    s->scratch = NULL;
}
