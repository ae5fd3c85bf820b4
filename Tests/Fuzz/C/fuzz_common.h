/*
 * fuzz_common.h — what the libFuzzer targets of the C core share: reporting
 * a divergence (a message, the input as a C string literal, then abort()).
 */
#ifndef FUZZ_COMMON_H
#define FUZZ_COMMON_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* Prints bytes as a C string literal (at most 4000 of them) to stderr. */
static inline void fz_show(const char *label, const void *bytes, size_t n) {
    const unsigned char *s = bytes;
    fprintf(stderr, "  %s (%zu bytes): \"", label, n);
    for (size_t i = 0; i < n && i < 4000; i++) {
        unsigned c = s[i];
        if (c == '"' || c == '\\') fprintf(stderr, "\\%c", c);
        else if (c >= 0x20 && c < 0x7F) fputc((int)c, stderr);
        else fprintf(stderr, "\\x%02X\"\"", c);
    }
    fprintf(stderr, "%s\"\n", n > 4000 ? "..." : "");
}

/* Prints the first line of a divergence report (the caller then shows its
 * context and calls abort(), so that libFuzzer saves the input as a crash). */
static inline void fz_vreport(const char *fmt, va_list ap) {
    fputs("\nFUZZ DIVERGENCE: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

#endif
