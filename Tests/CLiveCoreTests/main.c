/* main.c — runs every C core test table; exit status 1 on any failure. */
#include <stdlib.h>

#include "lc_test.h"

extern const lc_test_case key_tests[];
extern const lc_test_case value_tests[];
extern const lc_test_case index_tests[];
extern const lc_test_case index_apply_tests[];
extern const lc_test_case index_load_tests[];
extern const lc_test_case doc_tests[];
extern const lc_test_case digest_tests[];

static const lc_test_case *const tables[] = {key_tests,          value_tests, index_tests, index_apply_tests,
                                             index_load_tests,   doc_tests,   digest_tests};

uint64_t lc_test_seed(void) {
    const char *s = getenv("LC_TEST_SEED");
    return s ? strtoull(s, NULL, 0) : 20261121ull;
}

int main(int argc, char **argv) {
    const char *only = argc > 1 ? argv[1] : NULL;
    int passed = 0, failed = 0;
    fprintf(stderr, "seed %llu (set LC_TEST_SEED to change)\n", (unsigned long long)lc_test_seed());
    for (size_t k = 0; k < sizeof tables / sizeof tables[0]; k++) {
        for (const lc_test_case *c = tables[k]; c->name; c++) {
            if (only && !strstr(c->name, only)) continue;
            lc_test t = {c->name, 0};
            c->fn(&t);
            if (t.failures) failed++; else passed++;
            printf("%s %s\n", t.failures ? "FAIL" : "ok  ", c->name);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed ? 1 : 0;
}
