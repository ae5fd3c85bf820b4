/* lc_key.c — Firebase key order and key / path validation. */
#include "lc_key.h"

#include <stdio.h>
#include <string.h>

#include "lc_utf8.h"

bool lc_key_integer(const char *key, size_t len, int32_t *value) {
    if (!key || len == 0) return false;
    size_t i = 0;
    bool negative = false;
    if (key[0] == '-') {
        negative = true;
        i = 1;
        if (len == 1) return false;
    }
    while (i < len && key[i] == '0') i++;           /* leading zeros: any number */
    bool had_zero = i > (negative ? 1u : 0u);
    size_t significant = len - i;
    if (significant > 10) return false;
    int64_t v = 0;
    for (size_t k = i; k < len; k++) {
        unsigned char c = (unsigned char)key[k];
        if (c < '0' || c > '9') return false;
        v = v * 10 + (c - '0');
    }
    if (significant == 0 && !had_zero) return false; /* "-" alone was handled; "" too */
    if (negative) v = -v;
    if (v < INT32_MIN || v > INT32_MAX) return false;
    if (value) *value = (int32_t)v;
    return true;
}

int lc_utf16_compare(const char *a, size_t a_len, const char *b, size_t b_len) {
    size_t n = a_len < b_len ? a_len : b_len;
    const unsigned char *x = (const unsigned char *)a, *y = (const unsigned char *)b;
    for (size_t i = 0; i < n; i++) {
        if (x[i] != y[i]) {
            unsigned rx = lc_utf16_rank(x[i]), ry = lc_utf16_rank(y[i]);
            return rx < ry ? -1 : 1;
        }
    }
    return a_len < b_len ? -1 : (a_len > b_len ? 1 : 0);
}

int lc_key_compare(const char *a, size_t a_len, const char *b, size_t b_len) {
    if (!a) a_len = 0;
    if (!b) b_len = 0;
    int32_t ia = 0, ib = 0;
    bool a_int = lc_key_integer(a, a_len, &ia);
    bool b_int = lc_key_integer(b, b_len, &ib);
    if (a_int && b_int) {
        if (ia != ib) return ia < ib ? -1 : 1;
        if (a_len != b_len) return a_len < b_len ? -1 : 1;
        return lc_utf16_compare(a, a_len, b, b_len);
    }
    if (a_int) return -1;
    if (b_int) return 1;
    return lc_utf16_compare(a, a_len, b, b_len);
}

static lc_status fail(lc_error *error, lc_status code, size_t position, const char *what,
                      const char *s, size_t len) {
    if (error) {
        lc_error_clear(error);
        error->code = code;
        error->position = position;
        int shown = len > 40 ? 40 : (int)len;
        snprintf(error->text, sizeof error->text, "%s in \"%.*s%s\" at byte %zu", what, shown,
                 s ? s : "", len > 40 ? "..." : "", position);
    }
    return code;
}

/* Byte classes of ASCII: 0 allowed anywhere, 1 never allowed (control
 * characters and . # $ [ ]), 2 '/', allowed in paths only. */
static const unsigned char ascii_class[128] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    ['#'] = 1, ['$'] = 1, ['.'] = 1, ['/'] = 2, ['['] = 1, [']'] = 1, [0x7F] = 1,
};

/* Checks the characters of a key or a path; slash_ok allows '/'. */
static lc_status check_chars(const char *s, size_t len, bool slash_ok, lc_status bad,
                             lc_error *error) {
    const unsigned char *u = (const unsigned char *)s;
    unsigned char forbidden = slash_ok ? 1 : 3;
    for (size_t i = 0; i < len;) {
        unsigned char c = u[i];
        if (c < 0x80) {
            if (ascii_class[c] & forbidden) {
                if (c < 0x20 || c == 0x7F) return fail(error, bad, i, "control character", s, len);
                char what[32];
                snprintf(what, sizeof what, "'%c' is not allowed", c);
                return fail(error, bad, i, what, s, len);
            }
            i++;
            continue;
        }
        uint32_t cp;
        size_t n = lc_utf8_decode(u + i, len - i, &cp);
        if (n == 0) return fail(error, bad, i, "invalid UTF-8", s, len);
        i += n;
    }
    return LC_OK;
}

lc_status lc_key_validate(const char *key, size_t len, lc_error *error) {
    if (!key && len) return fail(error, LC_ERR_ARGUMENT, 0, "NULL key", "", 0);
    if (len == 0) return fail(error, LC_ERR_KEY_INVALID, 0, "empty key", "", 0);
    if (len > LC_MAX_KEY_BYTES)
        return fail(error, LC_ERR_KEY_TOO_LONG, LC_MAX_KEY_BYTES, "key longer than 768 bytes", key, len);
    lc_status st = check_chars(key, len, false, LC_ERR_KEY_INVALID, error);
    if (st == LC_OK) lc_error_clear(error);
    return st;
}

size_t lc_path_depth(const char *path, size_t len) {
    if (!path) return 0;
    size_t depth = 0;
    bool in_segment = false;
    for (size_t i = 0; i < len; i++) {
        if (path[i] == '/') in_segment = false;
        else if (!in_segment) { in_segment = true; depth++; }
    }
    return depth;
}

lc_status lc_path_validate(const char *path, size_t len, lc_error *error) {
    if (!path && len) return fail(error, LC_ERR_ARGUMENT, 0, "NULL path", "", 0);
    if (len > LC_MAX_KEY_BYTES)
        return fail(error, LC_ERR_PATH_TOO_LONG, LC_MAX_KEY_BYTES, "path longer than 768 bytes", path, len);
    lc_status st = check_chars(path, len, true, LC_ERR_PATH_INVALID, error);
    if (st != LC_OK) return st;
    if (lc_path_depth(path, len) > LC_MAX_PATH_DEPTH)
        return fail(error, LC_ERR_PATH_TOO_LONG, 0, "path deeper than 32 levels", path, len);
    lc_error_clear(error);
    return LC_OK;
}
