/* test_doc_util.h — helpers shared by the lc_doc / lc_payload tests. */
#ifndef TEST_DOC_UTIL_H
#define TEST_DOC_UTIL_H

#include <jansson.h>

#include "CLiveCore.h"
#include "lc_test.h"

/** Prints bytes as a C string literal to stderr. */
void td_show(const char *label, const char *s, size_t n);
/** Whether status is one of the JSON-level errors (what jansson reports). */
int td_is_json_status(lc_status st);
/** The status lc maps jansson's error to. */
lc_status td_status_of_jansson(const json_error_t *je);
/** Describes a document: "K<kind> P<root prio> | key s=<sort> p=<prio>; ...". */
void td_describe(const lc_doc *doc, char *out, size_t cap);
/** Formats a value: n f t o, numbers with %.17g, strings in single quotes. */
void td_value(const lc_value *v, char *out, size_t cap);

/* Tests in other files of the table. */
void doc_good_children(lc_test *t);
void doc_child_json(lc_test *t);
void doc_payload_good(lc_test *t);
void doc_patch_deletions(lc_test *t);
void doc_differential_random(lc_test *t);
void doc_payload_differential_random(lc_test *t);
void doc_nesting_limits(lc_test *t);
void doc_many_children(lc_test *t);
void doc_path_value_random(lc_test *t);
void doc_path_value_arguments(lc_test *t);

#endif
