/*
 * lc_normalize.c — turns a jansson tree of Firebase data (export format,
 * arrays, null members) into the plain value it stands for.
 */
#include <stdio.h>
#include <string.h>

#include "lc_scan.h"

static json_t *normalize_object(json_t *v, int *oom) {
    json_t *inner = json_object_get(v, ".value");
    if (inner) return lc_json_normalize(inner, oom);
    void *it = json_object_iter(v);
    while (it) {
        const char *k = json_object_iter_key(it);
        json_t *val = json_object_iter_value(it);
        void *next = json_object_iter_next(v, it);
        json_t *nv = strcmp(k, ".priority") ? lc_json_normalize(val, oom) : NULL;
        if (*oom) return NULL;
        if (!nv) json_object_del(v, k);
        else if (nv == val) json_decref(nv);
        else json_object_iter_set_new(v, it, nv);
        it = next;
    }
    return json_object_size(v) ? json_incref(v) : NULL;
}

static json_t *normalize_array(json_t *v, int *oom) {
    json_t *o = json_object();
    if (!o) {
        *oom = 1;
        return NULL;
    }
    for (size_t i = 0, n = json_array_size(v); i < n; i++) {
        json_t *nv = lc_json_normalize(json_array_get(v, i), oom);
        if (*oom) break;
        if (!nv) continue;
        char key[24];
        snprintf(key, sizeof key, "%zu", i);
        if (json_object_set_new(o, key, nv)) {
            *oom = 1;
            break;
        }
    }
    if (*oom || !json_object_size(o)) {
        json_decref(o);
        return NULL;
    }
    return o;
}

/*
 * Normalises v in place where it can (v must not be shared): ".priority"
 * members go, {".value": x} becomes x, arrays become objects keyed "0",
 * "1", ... and null members and empty containers disappear. Returns a new
 * reference, or NULL when nothing is left (or on failure, with *oom set).
 */
json_t *lc_json_normalize(json_t *v, int *oom) {
    if (!v) return NULL;
    switch (json_typeof(v)) {
    case JSON_NULL: return NULL;
    case JSON_OBJECT: return normalize_object(v, oom);
    case JSON_ARRAY: return normalize_array(v, oom);
    default: return json_incref(v);
    }
}

lc_status lc_json_text_is_empty(const char *text, size_t len, int *empty) {
    json_error_t je;
    int oom = 0;
    json_t *j = json_loadb(text, len, JSON_DECODE_ANY, &je);
    if (!j) return json_error_code(&je) == json_error_out_of_memory ? LC_ERR_NOMEM : LC_ERR_JSON_SYNTAX;
    json_t *r = lc_json_normalize(j, &oom);
    json_decref(j);
    *empty = r == NULL;
    json_decref(r);
    return oom ? LC_ERR_NOMEM : LC_OK;
}
