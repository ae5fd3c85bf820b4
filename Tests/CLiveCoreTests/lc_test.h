/*
 * lc_test.h — a minimal test harness for the C core.
 *
 * A test is a function void name(lc_test *t). CHECK records a failure with
 * its file and line and goes on; REQUIRE returns from the test. The runner
 * (main.c) prints one line per failure and the closing line
 * "N passed, N failed".
 */
#ifndef LC_TEST_H
#define LC_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct lc_test {
    const char *name;
    int failures;
} lc_test;

typedef void (*lc_test_fn)(lc_test *t);

typedef struct lc_test_case {
    const char *name;
    lc_test_fn fn;
} lc_test_case;

#include <stdarg.h>

/* Prints the optional detail of a failure (a printf format and arguments). */
static inline void lc_test_detail(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

#define LC_FAIL(t, ...)                                                        \
    do {                                                                       \
        (t)->failures++;                                                       \
        fprintf(stderr, "FAIL %s (%s:%d): ", (t)->name, __FILE__, __LINE__);   \
        lc_test_detail("" __VA_ARGS__);                                        \
    } while (0)

#define CHECK(t, cond, ...)                                                    \
    do {                                                                       \
        if (!(cond)) {                                                         \
            (t)->failures++;                                                   \
            fprintf(stderr, "FAIL %s (%s:%d): %s ", (t)->name, __FILE__,       \
                    __LINE__, #cond);                                          \
            lc_test_detail("" __VA_ARGS__);                                    \
        }                                                                      \
    } while (0)

#define REQUIRE(t, cond, ...)                                                  \
    do {                                                                       \
        if (!(cond)) {                                                         \
            CHECK(t, cond, __VA_ARGS__);                                       \
            return;                                                            \
        }                                                                      \
    } while (0)

/* A seeded generator for randomised tests (splitmix64). */
static inline uint64_t lc_test_rand(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The seed of randomised tests: LC_TEST_SEED from the environment, or a fixed default. */
uint64_t lc_test_seed(void);

/* Each test file exports its table; main.c lists the tables. */
#define LC_TEST_TABLE(name) const lc_test_case name[]
#define LC_TEST_END {NULL, NULL}

#endif
