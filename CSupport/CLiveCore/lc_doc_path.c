/*
 * lc_doc_path.c — a quick read of the value at a relative path inside one
 * child of a parsed document, from the child's text, for the common shapes:
 * objects whose member names have no escapes, and a string without escapes,
 * an integer of up to 15 digits, true, false or null at the end of the path.
 * Anything else is left to the caller (a full parse of the child).
 */
#include <stdint.h>
#include <string.h>

#include "lc_doc.h"

/** A reader over validated JSON text. */
typedef struct reader {
    const char *p;
    size_t n, i;
} reader;

static void skip_ws(reader *r) {
    while (r->i < r->n && (r->p[r->i] == ' ' || r->p[r->i] == '\t' || r->p[r->i] == '\n' || r->p[r->i] == '\r'))
        r->i++;
}

/* Skips the string at r->i (a '"'); *escaped is set when it holds escapes.
 * 0 when the text ends first. */
static int skip_string(reader *r, int *escaped) {
    for (r->i++; r->i < r->n; r->i++) {
        if (r->p[r->i] == '"') {
            r->i++;
            return 1;
        }
        if (r->p[r->i] == '\\') {
            *escaped = 1;
            r->i++;
        }
    }
    return 0;
}

static int is_delimiter(char c) { return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

/* Skips the value at r->i (whitespace skipped). 0 when the text ends first. */
static int skip_value(reader *r) {
    if (r->i >= r->n) return 0;
    int escaped = 0;
    char c = r->p[r->i];
    if (c == '"') return skip_string(r, &escaped);
    if (c != '{' && c != '[') {
        while (r->i < r->n && !is_delimiter(r->p[r->i])) r->i++;
        return 1;
    }
    size_t depth = 0;
    while (r->i < r->n) {
        c = r->p[r->i];
        if (c == '"') {
            if (!skip_string(r, &escaped)) return 0;
            continue;
        }
        if (c == '{' || c == '[') {
            depth++;
        } else if (c == '}' || c == ']') {
            if (--depth == 0) {
                r->i++;
                return 1;
            }
        }
        r->i++;
    }
    return 0;
}

/* Moves r to the value of the last member named seg of the object at r->i.
 * Returns 1 (found), 0 (no such member: the path ends in nothing) or -1
 * (undecided: an array, a name with escapes, a ".value" member, bad text). */
static int find_member(reader *r, const char *seg, size_t seg_len) {
    if (r->i >= r->n) return -1;
    if (r->p[r->i] == '[') return -1;
    if (r->p[r->i] != '{') return 0; /* a primitive has no members */
    size_t found = SIZE_MAX;
    r->i++;
    skip_ws(r);
    if (r->i < r->n && r->p[r->i] == '}') return 0;
    for (;;) {
        skip_ws(r);
        if (r->i >= r->n || r->p[r->i] != '"') return -1;
        size_t name = r->i + 1;
        int escaped = 0;
        if (!skip_string(r, &escaped) || escaped) return -1;
        size_t name_len = r->i - 1 - name;
        if (name_len == 6 && !memcmp(r->p + name, ".value", 6)) return -1;
        skip_ws(r);
        if (r->i >= r->n || r->p[r->i] != ':') return -1;
        r->i++;
        skip_ws(r);
        if (name_len == seg_len && !memcmp(r->p + name, seg, seg_len)) found = r->i; /* the last one holds */
        if (!skip_value(r)) return -1;
        skip_ws(r);
        if (r->i < r->n && r->p[r->i] == ',') {
            r->i++;
            continue;
        }
        if (r->i < r->n && r->p[r->i] == '}') break;
        return -1;
    }
    if (found == SIZE_MAX) return 0;
    r->i = found;
    return 1;
}

/* The primitive at r->i; 0 when undecided. */
static int read_leaf(reader *r, lc_value *out) {
    if (r->i >= r->n) return 0;
    const char *p = r->p + r->i;
    size_t left = r->n - r->i;
    int escaped = 0;
    switch (*p) {
    case '"': {
        size_t start = r->i + 1;
        if (!skip_string(r, &escaped) || escaped) return 0;
        *out = lc_value_string(r->p + start, r->i - 1 - start);
        return 1;
    }
    case 't': *out = lc_value_bool(1); return left >= 4;
    case 'f': *out = lc_value_bool(0); return left >= 5;
    case 'n': *out = lc_value_null(); return left >= 4;
    default: break;
    }
    size_t k = *p == '-' ? 1 : 0, digits = 0;
    int64_t v = 0;
    while (k < left && p[k] >= '0' && p[k] <= '9') {
        if (++digits > 15) return 0;
        v = v * 10 + (p[k] - '0');
        k++;
    }
    if (!digits || (k < left && !is_delimiter(p[k]))) return 0; /* a fraction, an exponent, an object, an array */
    /* -0 is the integer 0, as jansson reads it */
    *out = lc_value_number(*p == '-' && v ? -(double)v : (double)v);
    return 1;
}

lc_status lc_doc_child_path_value(const lc_doc *doc, size_t i, const char *path, size_t path_len, lc_value *out,
                                  int *decided) {
    if (!out || !decided || (!path && path_len)) return LC_ERR_ARGUMENT;
    *decided = 0;
    reader r = {NULL, 0, 0};
    lc_status st = lc_doc_child_text(doc, i, &r.p, &r.n);
    if (st != LC_OK) return st;
    size_t s = 0;
    for (;;) {
        while (s < path_len && path[s] == '/') s++;
        if (s >= path_len) break;
        size_t e = s;
        while (e < path_len && path[e] != '/') e++;
        skip_ws(&r);
        int found = find_member(&r, path + s, e - s);
        if (found < 0) return LC_OK;
        if (found == 0) {
            *out = lc_value_null();
            *decided = 1;
            return LC_OK;
        }
        s = e;
    }
    skip_ws(&r);
    *decided = read_leaf(&r, out);
    return LC_OK;
}
