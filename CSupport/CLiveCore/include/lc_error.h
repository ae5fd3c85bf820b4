/*
 * lc_error.h — status codes and error details of the LiveCollection C core.
 *
 * Every entry point returns an lc_status (or reports one through an
 * lc_error). Codes are stable: their numeric values never change, new codes
 * are only appended.
 */
#ifndef LC_ERROR_H
#define LC_ERROR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum lc_status {
    LC_OK = 0,
    /** An argument is NULL, out of range or otherwise unusable. */
    LC_ERR_ARGUMENT = 1,
    /** Memory could not be allocated; nothing was changed. */
    LC_ERR_NOMEM = 2,
    /** Malformed JSON (jansson: invalid syntax). */
    LC_ERR_JSON_SYNTAX = 3,
    /** JSON ends before the value is complete (jansson: premature end of input). */
    LC_ERR_JSON_TRUNCATED = 4,
    /** Something follows the JSON value (jansson: end of input expected). */
    LC_ERR_JSON_TRAILING = 5,
    /** The bytes are not valid UTF-8 (jansson: invalid UTF-8). */
    LC_ERR_JSON_UTF8 = 6,
    /** A string contains U+0000 (jansson: null character). */
    LC_ERR_JSON_NUL = 7,
    /** A number does not fit: an integer beyond 64 bits or a real beyond double (jansson: numeric overflow). */
    LC_ERR_NUMBER_RANGE = 8,
    /** A key Firebase does not allow: empty, or containing . # $ / [ ] or an ASCII control character. */
    LC_ERR_KEY_INVALID = 9,
    /** A key longer than 768 bytes of UTF-8. */
    LC_ERR_KEY_TOO_LONG = 10,
    /** Data nested deeper than the allowed number of levels (32 by default). */
    LC_ERR_TOO_DEEP = 11,
    /** A path with an invalid segment. */
    LC_ERR_PATH_INVALID = 12,
    /** A path longer than 768 bytes or 32 segments. */
    LC_ERR_PATH_TOO_LONG = 13,
    /** A stream payload that is not an object with a string "path" and a "data" member. */
    LC_ERR_PAYLOAD_SHAPE = 14,
    /** The key (or index) is not present. */
    LC_ERR_NOT_FOUND = 15,
    /** The key is already present. */
    LC_ERR_DUPLICATE_KEY = 16,
    /** A size limit of the core was reached (more than 2^32 - 2 entries, or 4 GiB of key bytes). */
    LC_ERR_CAPACITY = 17,
    /** A value that has no meaning where it stands (e.g. a boolean priority, ".value" beside children). */
    LC_ERR_VALUE_INVALID = 18,
} lc_status;

/** Length of lc_error.text, including the terminating NUL (jansson's JSON_ERROR_TEXT_LENGTH). */
#define LC_ERROR_TEXT_LENGTH 160

/**
 * Where and why an operation failed. For JSON errors, line, column,
 * position and text are jansson's own (json_error_t); for Firebase rules
 * (keys, depth, paths) they are computed the same way: line and column are
 * 1-based, column counts UTF-8 characters, position counts bytes from the
 * start of the input. Fields that do not apply are 0 (line, column, position)
 * or an empty string.
 */
typedef struct lc_error {
    lc_status code;
    int line;
    int column;
    size_t position;
    char text[LC_ERROR_TEXT_LENGTH];
} lc_error;

/** A stable identifier for a status, e.g. "json_syntax". Never NULL. */
const char *lc_status_name(lc_status status);

/** Clears *error to LC_OK with no position. NULL is ignored. */
void lc_error_clear(lc_error *error);

#ifdef __cplusplus
}
#endif

#endif
