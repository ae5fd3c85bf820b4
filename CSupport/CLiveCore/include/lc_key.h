/*
 * lc_key.h — Firebase keys and paths: validation and key order.
 *
 * Keys are UTF-8 byte strings given as (pointer, length); they need not be
 * NUL-terminated.
 */
#ifndef LC_KEY_H
#define LC_KEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lc_error.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Longest key and longest path Firebase accepts, in bytes of UTF-8. */
#define LC_MAX_KEY_BYTES 768
/** Deepest path Firebase accepts, in segments. */
#define LC_MAX_PATH_DEPTH 32

/**
 * Whether key is an integer key: an optional '-' then one or more ASCII
 * digits (any number of leading zeros) whose value fits in int32_t. On true
 * and when value is non-NULL, *value receives it. NULL key returns false.
 */
bool lc_key_integer(const char *key, size_t len, int32_t *value);

/**
 * Firebase key order: integer keys first by value, equal values shorter
 * first; then all other keys by UTF-16 code units; a final raw UTF-16
 * comparison so that distinct keys never compare equal.
 * Returns <0, 0 or >0. Both keys must be valid UTF-8; a NULL pointer with a
 * length of 0 is the empty key.
 */
int lc_key_compare(const char *a, size_t a_len, const char *b, size_t b_len);

/**
 * Compares two UTF-8 strings by their UTF-16 code units (the order of
 * JavaScript's < on strings). Returns <0, 0 or >0.
 */
int lc_utf16_compare(const char *a, size_t a_len, const char *b, size_t b_len);

/**
 * Checks a key: not empty, at most LC_MAX_KEY_BYTES, valid UTF-8, none of
 * . # $ / [ ] and no ASCII control character (U+0000–U+001F, U+007F).
 * Returns LC_OK, LC_ERR_KEY_INVALID, LC_ERR_KEY_TOO_LONG or LC_ERR_ARGUMENT
 * (NULL key). On error, error->position is the offending byte in key.
 * error may be NULL.
 */
lc_status lc_key_validate(const char *key, size_t len, lc_error *error);

/**
 * Checks a path such as "/a/b", "a/b/" or "/": segments separated by '/',
 * empty segments ignored, each a valid key; at most LC_MAX_PATH_DEPTH
 * segments and LC_MAX_KEY_BYTES bytes. Returns LC_OK, LC_ERR_PATH_INVALID,
 * LC_ERR_PATH_TOO_LONG or LC_ERR_ARGUMENT. error may be NULL.
 */
lc_status lc_path_validate(const char *path, size_t len, lc_error *error);

/** Number of non-empty segments of a path ("/" and "" have 0). */
size_t lc_path_depth(const char *path, size_t len);

#ifdef __cplusplus
}
#endif

#endif
