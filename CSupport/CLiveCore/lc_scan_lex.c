/*
 * lc_scan_lex.c — the scanner's tokens: strings and numbers, validated
 * exactly as jansson's lexer (src/load.c) validates them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_scan.h"

#define ONES UINT64_C(0x0101010101010101)
#define HIGHS UINT64_C(0x8080808080808080)

static int is_digit(unsigned c) { return c - '0' < 10u; }

static int hex_value(unsigned c) {
    if (c - '0' < 10u) return (int)(c - '0');
    if (c - 'a' < 6u) return (int)(c - 'a' + 10);
    if (c - 'A' < 6u) return (int)(c - 'A' + 10);
    return -1;
}

/* Four hex digits at p, or -1. */
static int32_t hex4(const unsigned char *p) {
    int32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hex_value(p[i]);
        if (h < 0) return -1;
        v = (v << 4) | h;
    }
    return v;
}

/* Length of the valid UTF-8 sequence at p (jansson's utf8_check_first/full), 0 if invalid. */
static size_t utf8_seq(const unsigned char *p) {
    unsigned u = p[0];
    size_t n;
    int32_t v;
    if (u >= 0xC2 && u <= 0xDF) n = 2, v = (int32_t)(u & 0x1F);
    else if (u >= 0xE0 && u <= 0xEF) n = 3, v = (int32_t)(u & 0x0F);
    else if (u >= 0xF0 && u <= 0xF4) n = 4, v = (int32_t)(u & 0x07);
    else return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        v = (v << 6) | (p[i] & 0x3F);
    }
    if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    if ((n == 3 && v < 0x800) || (n == 4 && v < 0x10000)) return 0;
    return n;
}

static lc_status bad(lc_scan *s, size_t pos) {
    s->json_bad = 1;
    s->json_pos = pos;
    return LC_ERR_JSON_SYNTAX;
}

lc_status lc_scan_string_body(lc_scan *s, int *esc) {
    const unsigned char *b = s->buf;
    size_t p = s->pos, end = s->end;
    int e = 0;
    for (;;) {
        /* Runs of plain ASCII, eight bytes at a time (the buffer is padded). */
        for (;;) {
            uint64_t v;
            memcpy(&v, b + p, 8);
            uint64_t q = v ^ (ONES * '"'), bs = v ^ (ONES * '\\');
            uint64_t m = (((q - ONES) & ~q) | ((bs - ONES) & ~bs) | ((v - ONES * 0x20) & ~v) | v) & HIGHS;
            if (m) {
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
                p += (size_t)__builtin_ctzll(m) >> 3;
#endif
                break;
            }
            p += 8;
        }
        unsigned c = b[p];
        if (p >= end) return bad(s, end);
        if (c == '"') break;
        if (c < 0x20) return bad(s, p);
        if (c >= 0x80) {
            size_t n = utf8_seq(b + p);
            if (!n || p + n > end) return bad(s, p);
            p += n;
            continue;
        }
        if (c != '\\') { p++; continue; }
        e = 1;
        c = b[p + 1];
        if (p + 1 >= end) return bad(s, end);
        if (c == 'u') {
            int32_t v = hex4(b + p + 2);
            if (v < 0 || p + 6 > end) return bad(s, p);
            if (v == 0) return bad(s, p); /* U+0000 */
            if (v >= 0xDC00 && v <= 0xDFFF) return bad(s, p);
            if (v >= 0xD800 && v <= 0xDBFF) {
                if (b[p + 6] != '\\' || b[p + 7] != 'u') return bad(s, p);
                int32_t w = hex4(b + p + 8);
                if (w < 0xDC00 || w > 0xDFFF || p + 12 > end) return bad(s, p);
                p += 6;
            }
            p += 6;
        } else if (c == '"' || c == '\\' || c == '/' || c == 'b' || c == 'f' || c == 'n' ||
                   c == 'r' || c == 't') {
            p += 2;
        } else {
            return bad(s, p);
        }
    }
    s->pos = p + 1;
    *esc = e;
    return LC_OK;
}

static size_t put_utf8(char *o, int32_t v) {
    if (v < 0x80) { o[0] = (char)v; return 1; }
    if (v < 0x800) {
        o[0] = (char)(0xC0 | (v >> 6));
        o[1] = (char)(0x80 | (v & 0x3F));
        return 2;
    }
    if (v < 0x10000) {
        o[0] = (char)(0xE0 | (v >> 12));
        o[1] = (char)(0x80 | ((v >> 6) & 0x3F));
        o[2] = (char)(0x80 | (v & 0x3F));
        return 3;
    }
    o[0] = (char)(0xF0 | (v >> 18));
    o[1] = (char)(0x80 | ((v >> 12) & 0x3F));
    o[2] = (char)(0x80 | ((v >> 6) & 0x3F));
    o[3] = (char)(0x80 | (v & 0x3F));
    return 4;
}

size_t lc_scan_unescape(const lc_scan *s, const lc_str *str, char *out) {
    const unsigned char *p = s->buf + str->off, *e = p + str->len;
    size_t n = 0;
    while (p < e) {
        const unsigned char *bs = memchr(p, '\\', (size_t)(e - p));
        size_t run = bs ? (size_t)(bs - p) : (size_t)(e - p);
        memcpy(out + n, p, run);
        n += run;
        p += run;
        if (!bs) break;
        unsigned c = p[1];
        if (c == 'u') {
            int32_t v = hex4(p + 2);
            p += 6;
            if (v >= 0xD800 && v <= 0xDBFF) {
                v = 0x10000 + ((v - 0xD800) << 10) + (hex4(p + 2) - 0xDC00);
                p += 6;
            }
            n += put_utf8(out + n, v);
            continue;
        }
        char o = (char)c;
        if (c == 'b') o = '\b';
        else if (c == 'f') o = '\f';
        else if (c == 'n') o = '\n';
        else if (c == 'r') o = '\r';
        else if (c == 't') o = '\t';
        out[n++] = o;
        p += 2;
    }
    return n;
}

#define EXP_CLAMP 1000000000000000LL

/* strtod on "[-]DIGITS e EXP" (no decimal point, so no locale dependence). */
static lc_status slow_real(lc_scan *s, const unsigned char *b, size_t start, size_t ie,
                           size_t fs, size_t fe, long long e10, double *out, int *overflow) {
    size_t nd = (ie - start) + (fe - fs);
    char small[128], *t = nd + 32 <= sizeof small ? small : malloc(nd + 32);
    if (!t) return s->fatal = LC_ERR_NOMEM;
    size_t n = 0;
    for (size_t i = start; i < ie; i++) t[n++] = (char)b[i];
    for (size_t i = fs; i < fe; i++) t[n++] = (char)b[i];
    snprintf(t + n, 32, "e%lld", e10);
    errno = 0;
    double v = strtod(t, NULL);
    *overflow = (v == HUGE_VAL || v == -HUGE_VAL) && errno == ERANGE;
    *out = v;
    if (t != small) free(t);
    return LC_OK;
}

static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

lc_status lc_scan_number(lc_scan *s, int want, double *out) {
    const unsigned char *b = s->buf;
    size_t start = s->pos, p = start;
    int neg = b[p] == '-';
    p += (size_t)neg;
    size_t ds = p;
    if (b[p] == '0') {
        p++;
        if (is_digit(b[p])) return bad(s, p);
    } else if (is_digit(b[p])) {
        while (is_digit(b[p])) p++;
    } else {
        return bad(s, p);
    }
    size_t ie = p, fs = p, fe = p;
    if (b[p] != '.' && b[p] != 'e' && b[p] != 'E') {
        size_t nd = ie - ds;
        if (nd > 19 ||
            (nd == 19 && memcmp(b + ds, neg ? "9223372036854775808" : "9223372036854775807", 19) > 0))
            return bad(s, ie);
        if (want) {
            uint64_t v = 0;
            for (size_t i = ds; i < ie; i++) v = v * 10 + (uint64_t)(b[i] - '0');
            *out = v == 0 ? 0.0 : neg ? -(double)v : (double)v;
        }
    } else {
        if (b[p] == '.') {
            p++;
            if (!is_digit(b[p])) return bad(s, p);
            fs = p;
            while (is_digit(b[p])) p++;
            fe = p;
        }
        long long ex = 0;
        if (b[p] == 'e' || b[p] == 'E') {
            p++;
            int eneg = 0;
            if (b[p] == '+' || b[p] == '-') eneg = b[p++] == '-';
            if (!is_digit(b[p])) return bad(s, p);
            while (is_digit(b[p])) {
                if (ex < EXP_CLAMP) ex = ex * 10 + (b[p] - '0');
                p++;
            }
            if (eneg) ex = -ex;
        }
        long long idig = (b[ds] == '0') ? 0 : (long long)(ie - ds);
        if (idig > EXP_CLAMP) idig = EXP_CLAMP;
        long long fl = (long long)(fe - fs);
        if (fl > EXP_CLAMP) fl = EXP_CLAMP;
        int done = 0;
        if (want) {
            /* Exact fast path: at most 15 significant digits and |e10| <= 22. */
            uint64_t w = 0;
            int sig = 0;
            for (size_t i = ds; i < fe && sig <= 15; i = (i + 1 == ie) ? fs : i + 1) {
                unsigned d = b[i] - '0';
                if (sig || d) { w = w * 10 + d; sig++; }
            }
            long long e10 = ex - fl;
            if (w == 0 && sig == 0) {
                *out = neg ? -0.0 : 0.0;
                done = 1;
            } else if (sig <= 15 && e10 >= -22 && e10 <= 22) {
                double v = e10 >= 0 ? (double)w * pow10_exact[e10] : (double)w / pow10_exact[-e10];
                *out = neg ? -v : v;
                done = idig + ex <= 308;
            }
        }
        if (!done && (want || idig + ex > 308)) {
            double v;
            int overflow;
            size_t from = neg ? start : ds;
            if (slow_real(s, b, from, ie, fs, fe, ex - fl, &v, &overflow)) return s->fatal;
            if (overflow) return bad(s, p);
            if (want) *out = v;
        }
    }
    s->vend = p;
    /* jansson drops one NUL byte right after a number (its unget cannot keep a 0). */
    if (p < s->end && b[p] == 0) p++;
    s->pos = p;
    return LC_OK;
}
