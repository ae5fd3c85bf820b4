/* lc_utf8.h — private UTF-8 helpers of the core. */
#ifndef LC_UTF8_H
#define LC_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
 * Length of the valid UTF-8 sequence starting at s[0] (at most n bytes
 * available): 1–4, or 0 if the bytes there are not a valid, shortest-form
 * encoding of a scalar value (no surrogates, nothing above U+10FFFF).
 * On success *cp receives the code point.
 */
size_t lc_utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/*
 * Maps a byte of UTF-8 to a rank such that comparing ranks byte by byte
 * orders strings by UTF-16 code units: lead bytes of U+E000–U+FFFF
 * (0xEE, 0xEF) move above lead bytes of supplementary characters
 * (0xF0–0xF4), which UTF-16 encodes as surrogates (0xD800–0xDFFF).
 */
static inline unsigned lc_utf16_rank(unsigned char b) {
    if (b < 0xEE) return b;
    if (b <= 0xEF) return (unsigned)b + 5u; /* 0xF3, 0xF4 */
    if (b <= 0xF4) return (unsigned)b - 2u; /* 0xEE..0xF2 */
    return b;
}

#endif
