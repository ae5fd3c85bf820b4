/*
 * lc_doc.c — parsed documents: lc_doc_parse, the accessors, and error
 * reporting (jansson's own error for malformed JSON).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_scan.h"

struct lc_doc {
    char *buf; /* the input, followed by LC_SCAN_PAD zero bytes */
    size_t len;
    size_t root_off, root_len;
    lc_child *ch;
    size_t n;
    char *arena;
    lc_sval root_prio;
    lc_doc_kind kind;
    lc_order_kind order;
};

char *lc_scan_copy(const char *json, size_t len) {
    if (len > SIZE_MAX - LC_SCAN_PAD) return NULL;
    char *b = malloc(len + LC_SCAN_PAD);
    if (!b) return NULL;
    if (len) memcpy(b, json, len);
    memset(b + len, 0, LC_SCAN_PAD);
    return b;
}

void lc_locate(const char *buf, size_t pos, int *line, int *column) {
    int l = 1, c = 0;
    for (size_t i = 0; i <= pos; i++) {
        unsigned char b = (unsigned char)buf[i];
        if (b == '\n') l++, c = 0;
        else if ((b & 0xC0) != 0x80) c++;
    }
    *line = l;
    *column = c;
}

static lc_status status_of(int code) {
    switch (code) {
    case json_error_out_of_memory: return LC_ERR_NOMEM;
    case json_error_stack_overflow: return LC_ERR_TOO_DEEP;
    case json_error_invalid_utf8: return LC_ERR_JSON_UTF8;
    case json_error_premature_end_of_input: return LC_ERR_JSON_TRUNCATED;
    case json_error_end_of_input_expected: return LC_ERR_JSON_TRAILING;
    case json_error_null_character:
    case json_error_null_byte_in_key: return LC_ERR_JSON_NUL;
    case json_error_numeric_overflow: return LC_ERR_NUMBER_RANGE;
    default: return LC_ERR_JSON_SYNTAX;
    }
}

lc_status lc_scan_report(lc_scan *s, const char *input, size_t len, lc_status st, lc_error *error) {
    lc_error e;
    memset(&e, 0, sizeof e);
    if (s->fatal) {
        st = s->fatal;
        snprintf(e.text, sizeof e.text, "%s", st == LC_ERR_NOMEM ? "out of memory" : "too many children");
    } else if (s->json_bad) {
        json_error_t je;
        json_t *j = json_loadb(input, len, JSON_DECODE_ANY, &je);
        if (j) { /* jansson accepted what the scanner refused: report the scanner's view */
            json_decref(j);
            st = LC_ERR_JSON_SYNTAX;
            e.position = s->json_pos < len ? s->json_pos : len;
            if (len) lc_locate(input, e.position < len ? e.position : len - 1, &e.line, &e.column);
            snprintf(e.text, sizeof e.text, "invalid JSON");
        } else {
            st = status_of(json_error_code(&je));
            e.line = je.line;
            e.column = je.column;
            e.position = je.position > 0 ? (size_t)je.position : 0;
            memcpy(e.text, je.text, sizeof e.text);
            e.text[sizeof e.text - 1] = 0;
        }
    } else {
        st = s->rule;
        e.position = s->rule_pos;
        lc_locate(input, s->rule_pos, &e.line, &e.column);
        memcpy(e.text, s->rule_text, sizeof e.text);
    }
    e.code = st;
    if (error) *error = e;
    return st;
}

lc_doc *lc_doc_from_scan(lc_scan *s, char *buf, size_t len, lc_order_kind order) {
    lc_doc *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    size_t n = 0;
    for (size_t i = 0; i < s->nch; i++)
        if (!s->ch[i].dead) s->ch[n++] = s->ch[i];
    d->buf = buf;
    d->len = len;
    d->root_off = s->root_off;
    d->root_len = s->root_len;
    d->ch = s->ch;
    d->n = n;
    d->arena = s->arena;
    d->root_prio = s->root_prio;
    d->kind = n ? LC_DOC_CHILDREN : s->root_leaf ? LC_DOC_LEAF : LC_DOC_NULL;
    d->order = order;
    s->ch = NULL;
    s->arena = NULL;
    if (n && n < s->chcap / 2) {
        lc_child *c = realloc(d->ch, n * sizeof *c);
        if (c) d->ch = c;
    }
    return d;
}

static lc_status arg_error(lc_error *error, const char *what) {
    if (error) {
        lc_error_clear(error);
        error->code = LC_ERR_ARGUMENT;
        snprintf(error->text, sizeof error->text, "%s", what);
    }
    return LC_ERR_ARGUMENT;
}

static lc_status nomem(lc_error *error) {
    if (error) {
        lc_error_clear(error);
        error->code = LC_ERR_NOMEM;
        snprintf(error->text, sizeof error->text, "out of memory");
    }
    return LC_ERR_NOMEM;
}

/*
 * Scans buf (the text of input, followed by LC_SCAN_PAD zero bytes) as a
 * document into s, which the caller releases; errors are reported against
 * input.
 */
static lc_status scan_doc(lc_scan *s, const char *input, const char *buf, size_t len,
                          const lc_parse_options *options, lc_error *error) {
    lc_scan_init(s, buf, len);
    lc_status st = lc_scan_configure(s, options, error);
    if (st == LC_OK) {
        lc_scan_ws(s);
        st = lc_scan_value(s, 0, 1);
        if (!s->json_bad && !s->fatal) {
            lc_scan_ws(s);
            if (s->pos < len) {
                s->json_bad = 1;
                s->json_pos = s->pos;
            }
        }
        if (st || s->json_bad) st = lc_scan_report(s, input, len, st, error);
    }
    return st;
}

lc_status lc_doc_parse(const char *json, size_t len, const lc_parse_options *options,
                       lc_doc **out, lc_error *error) {
    lc_error_clear(error);
    if (!out) return arg_error(error, "out is NULL");
    *out = NULL;
    if (!json) return arg_error(error, "json is NULL");
    char *buf = lc_scan_copy(json, len);
    if (!buf) return nomem(error);
    lc_scan s;
    lc_status st = scan_doc(&s, json, buf, len, options, error);
    if (st == LC_OK) {
        *out = lc_doc_from_scan(&s, buf, len, options ? options->order.kind : LC_ORDER_PRIORITY);
        if (!*out) st = nomem(error);
    }
    lc_scan_release(&s);
    if (st) free(buf);
    return st;
}

lc_status lc_doc_check(const char *json, size_t len, size_t size, const lc_parse_options *options,
                       lc_error *error) {
    lc_error_clear(error);
    if (!json) return arg_error(error, "json is NULL");
    if (size < len) return arg_error(error, "size is less than len");
    int padded = size - len >= LC_DOC_PAD;
    for (size_t i = 0; padded && i < LC_DOC_PAD; i++)
        if (json[len + i]) padded = 0;
    char *copy = NULL;
    if (!padded && !(copy = lc_scan_copy(json, len))) return nomem(error);
    lc_scan s;
    lc_status st = scan_doc(&s, json, padded ? json : copy, len, options, error);
    lc_scan_release(&s);
    free(copy);
    return st;
}

void lc_doc_free(lc_doc *doc) {
    if (!doc) return;
    free(doc->buf);
    free(doc->ch);
    free(doc->arena);
    free(doc);
}

lc_doc_kind lc_doc_kind_of(const lc_doc *doc) { return doc ? doc->kind : LC_DOC_NULL; }

size_t lc_doc_count(const lc_doc *doc) { return doc ? doc->n : 0; }

static const char *bytes_at(const lc_doc *d, uint64_t off) {
    return (off & LC_IN_ARENA) ? d->arena + (off & ~LC_IN_ARENA) : d->buf + off;
}

const char *lc_doc_key(const lc_doc *doc, size_t i, size_t *len) {
    if (len) *len = 0;
    if (!doc || i >= doc->n) return NULL;
    if (len) *len = doc->ch[i].key_len;
    return bytes_at(doc, doc->ch[i].key_off);
}

static lc_status to_value(const lc_doc *d, const lc_sval *v, lc_value *out) {
    memset(out, 0, sizeof *out);
    out->tag = (lc_sort_tag)v->tag;
    if (v->tag == LC_SORT_NUMBER) out->number = v->u.num;
    if (v->tag == LC_SORT_STRING) {
        out->str = bytes_at(d, v->u.off);
        out->len = v->len;
    }
    return LC_OK;
}

lc_status lc_doc_sort_value(const lc_doc *doc, size_t i, lc_value *out) {
    if (!doc || !out || i >= doc->n) return LC_ERR_ARGUMENT;
    static const lc_sval null_value;
    const lc_sval *v = doc->order == LC_ORDER_PRIORITY ? &doc->ch[i].prio
                       : doc->order == LC_ORDER_KEY    ? &null_value
                                                       : &doc->ch[i].sort;
    return to_value(doc, v, out);
}

lc_status lc_doc_priority(const lc_doc *doc, size_t i, lc_value *out) {
    if (!doc || !out || i >= doc->n) return LC_ERR_ARGUMENT;
    return to_value(doc, &doc->ch[i].prio, out);
}

lc_status lc_doc_root_priority(const lc_doc *doc, lc_value *out) {
    if (!doc || !out) return LC_ERR_ARGUMENT;
    return to_value(doc, &doc->root_prio, out);
}

lc_status lc_doc_child_text(const lc_doc *doc, size_t i, const char **json, size_t *len) {
    if (!doc || !json || !len || i >= doc->n) return LC_ERR_ARGUMENT;
    *json = doc->buf + doc->ch[i].span_off;
    *len = (size_t)doc->ch[i].span_len;
    return LC_OK;
}

lc_status lc_doc_root_text(const lc_doc *doc, const char **json, size_t *len) {
    if (!doc || !json || !len) return LC_ERR_ARGUMENT;
    *json = doc->buf + doc->root_off;
    *len = doc->root_len;
    return LC_OK;
}

int lc_doc_child_is_null(const lc_doc *doc, size_t i) {
    return doc && i < doc->n && doc->ch[i].empty;
}

static json_t *load_normalized(const char *text, size_t len, lc_error *error) {
    json_error_t je;
    int oom = 0;
    lc_error_clear(error);
    json_t *j = json_loadb(text, len, JSON_DECODE_ANY, &je);
    if (!j) {
        if (error) {
            error->code = status_of(json_error_code(&je));
            error->line = je.line;
            error->column = je.column;
            error->position = je.position > 0 ? (size_t)je.position : 0;
            memcpy(error->text, je.text, sizeof error->text);
            error->text[sizeof error->text - 1] = 0;
        }
        return NULL;
    }
    json_t *r = lc_json_normalize(j, &oom);
    json_decref(j);
    if (oom) {
        nomem(error);
        return NULL;
    }
    return r ? r : json_null();
}

json_t *lc_doc_child_json(const lc_doc *doc, size_t i, lc_error *error) {
    if (!doc || i >= doc->n) {
        arg_error(error, "no such child");
        return NULL;
    }
    return load_normalized(doc->buf + doc->ch[i].span_off, (size_t)doc->ch[i].span_len, error);
}

json_t *lc_doc_root_json(const lc_doc *doc, lc_error *error) {
    if (!doc) {
        arg_error(error, "doc is NULL");
        return NULL;
    }
    return load_normalized(doc->buf + doc->root_off, doc->root_len, error);
}

lc_status lc_doc_root_digest(const lc_doc *doc, unsigned flags, lc_digest *out) {
    if (!doc || !out) return LC_ERR_ARGUMENT;
    return lc_digest_text(doc->buf + doc->root_off, doc->root_len, flags, out);
}
