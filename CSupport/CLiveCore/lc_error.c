/* lc_error.c — names of status codes. */
#include "lc_error.h"

#include <string.h>

const char *lc_status_name(lc_status status) {
    switch (status) {
    case LC_OK: return "ok";
    case LC_ERR_ARGUMENT: return "argument";
    case LC_ERR_NOMEM: return "out_of_memory";
    case LC_ERR_JSON_SYNTAX: return "json_syntax";
    case LC_ERR_JSON_TRUNCATED: return "json_truncated";
    case LC_ERR_JSON_TRAILING: return "json_trailing";
    case LC_ERR_JSON_UTF8: return "json_utf8";
    case LC_ERR_JSON_NUL: return "json_nul";
    case LC_ERR_NUMBER_RANGE: return "number_range";
    case LC_ERR_KEY_INVALID: return "key_invalid";
    case LC_ERR_KEY_TOO_LONG: return "key_too_long";
    case LC_ERR_TOO_DEEP: return "too_deep";
    case LC_ERR_PATH_INVALID: return "path_invalid";
    case LC_ERR_PATH_TOO_LONG: return "path_too_long";
    case LC_ERR_PAYLOAD_SHAPE: return "payload_shape";
    case LC_ERR_NOT_FOUND: return "not_found";
    case LC_ERR_DUPLICATE_KEY: return "duplicate_key";
    case LC_ERR_CAPACITY: return "capacity";
    case LC_ERR_VALUE_INVALID: return "value_invalid";
    }
    return "unknown";
}

void lc_error_clear(lc_error *error) {
    if (!error) return;
    memset(error, 0, sizeof *error);
    error->code = LC_OK;
}
