/*
 * fuzz_doc.c — libFuzzer target for the snapshot parser: lc_doc_parse (REST
 * bodies) and lc_payload_parse (stream payloads).
 *
 * Input: byte 0 chooses the options, the rest is the JSON text.
 *   bits 0-1  order kind: priority, key, value, child
 *   bits 2-4  child path of LC_ORDER_CHILD (order_paths below)
 *   bit  5    clear: keys_are_paths (a patch)
 *   bits 5-7  max_depth: 1, 3, 0 (the default, 32), 0, 2100, 2100, 64, 64
 * So in ASCII: a lowercase letter is a document with the default depth
 * ('a' key order, 'b' value order, 'c' child order by its own value, 'd'
 * priority order, 'g' child order by "a", 'k' by "score", 'o' by "a/b"...),
 * an uppercase letter the same as a patch, a digit or punctuation a
 * document with max_depth 3.
 * The text is parsed as a document with those options and with the defaults
 * (options NULL), and as a payload with those options.
 *
 * Checks (any failure prints the options and the input, then aborts):
 * - The claim of lc_doc.h, as the differential test in
 *   Tests/CLiveCoreTests/test_doc_random.c states it: when json_loadb
 *   (JSON_DECODE_ANY) rejects the text, lc rejects it with the status that
 *   jansson's error code maps to and jansson's own line, column, position
 *   and text; when jansson accepts it, lc never reports a JSON-level error
 *   (Firebase rules -- keys, paths, depth, ".priority"/".value" -- may still
 *   reject it). On failure nothing is returned.
 * - Payloads: when jansson accepts the text, LC_ERR_PAYLOAD_SHAPE exactly
 *   when it is not an object with a string "path" and a "data" member (last
 *   occurrences, as jansson keeps them); then an invalid path gives
 *   lc_path_validate's status; an accepted payload has jansson's path.
 * - Every accepted document is walked: keys (valid, distinct), child texts
 *   (non-blank JSON), sort values (lc_value_check, order kind), priorities,
 *   child_is_null against lc_doc_child_json, the root JSON against the kind,
 *   each child's digest from its text against the digest of jansson's tree.
 *   Outside patches, children, normalised JSON, sort values and priorities
 *   are compared with a model built from jansson's tree (the model of
 *   test_doc_random.c). Everything is freed: ASan reports leaks.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "CLiveCore.h"
#include "fuzz_common.h"

static const char *const order_paths[] = {"", "a", "score", "a/b", "0", "a/0", "\xC3\xA9", "x y/-1"};
static const unsigned depths[] = {1, 3, 0, 0, 2100, 2100, 64, 64};
static const char *const kind_names[] = {"priority", "key", "value", "child"};

typedef struct ctx {
    const char *in;
    size_t n;
    const char *what;           /* "doc" or "payload" */
    const lc_parse_options *o;  /* NULL: the defaults */
} ctx;

#if defined(__GNUC__)
__attribute__((noreturn, format(printf, 2, 3)))
#endif
static void fail(const ctx *c, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fz_vreport(fmt, ap);
    va_end(ap);
    if (c->o)
        fprintf(stderr, "  %s, order %s path \"%.*s\", keys_are_paths %d, max_depth %u\n", c->what,
                kind_names[c->o->order.kind & 3], (int)c->o->order.child_path_len,
                c->o->order.child_path ? c->o->order.child_path : "", c->o->keys_are_paths, c->o->max_depth);
    else
        fprintf(stderr, "  %s, default options\n", c->what);
    fz_show("json", c->in, c->n);
    fflush(stderr);
    abort();
}

/* Reads every byte (ASan checks each read). */
static void touch(const char *p, size_t n) {
    volatile unsigned char sink = 0;
    for (size_t i = 0; i < n; i++) sink ^= (unsigned char)p[i];
    (void)sink;
}

/* ---- the differential claim ---- */

static int is_json_status(lc_status st) {
    return st == LC_ERR_JSON_SYNTAX || st == LC_ERR_JSON_TRUNCATED || st == LC_ERR_JSON_TRAILING ||
           st == LC_ERR_JSON_UTF8 || st == LC_ERR_JSON_NUL || st == LC_ERR_NUMBER_RANGE;
}

/* The status lc maps jansson's error to (lc_error.h, test_doc.c). */
static lc_status status_of_jansson(const json_error_t *je) {
    switch (json_error_code(je)) {
    case json_error_stack_overflow: return LC_ERR_TOO_DEEP;
    case json_error_invalid_utf8: return LC_ERR_JSON_UTF8;
    case json_error_premature_end_of_input: return LC_ERR_JSON_TRUNCATED;
    case json_error_end_of_input_expected: return LC_ERR_JSON_TRAILING;
    case json_error_null_character:
    case json_error_null_byte_in_key: return LC_ERR_JSON_NUL;
    case json_error_numeric_overflow: return LC_ERR_NUMBER_RANGE;
    default: return LC_ERR_JSON_SYNTAX;
    }
}

static void differential(const ctx *c, lc_status st, const lc_error *e, const json_t *j,
                         const json_error_t *je, int out_cleared) {
    if (st != LC_OK && e->code != st)
        fail(c, "status %s but error->code %s", lc_status_name(st), lc_status_name(e->code));
    if (!j) {
        if (st != status_of_jansson(je) || e->line != je->line || e->column != je->column ||
            e->position != (size_t)je->position || strcmp(e->text, je->text))
            fail(c, "jansson rejects with %s \"%s\" at %d:%d/%d, lc says %s \"%s\" at %d:%d/%zu",
                 lc_status_name(status_of_jansson(je)), je->text, je->line, je->column, je->position,
                 lc_status_name(st), e->text, e->line, e->column, e->position);
    } else if (is_json_status(st)) {
        fail(c, "rejected what jansson accepts: %s \"%s\" at %d:%d/%zu", lc_status_name(st), e->text, e->line,
             e->column, e->position);
    }
    if (st != LC_OK && !out_cleared) fail(c, "%s but the output is not cleared", lc_status_name(st));
}

/* ---- the model: jansson's tree, read as test_doc_random.c reads it ---- */

static json_t *ref_norm(json_t *v) {
    if (!v || json_is_null(v)) return NULL;
    if (json_is_object(v)) {
        json_t *inner = json_object_get(v, ".value");
        if (inner) return ref_norm(inner);
        json_t *o = json_object();
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x) {
            json_t *n = strcmp(k, ".priority") ? ref_norm(x) : NULL;
            if (n) json_object_set_new(o, k, n);
        }
        if (json_object_size(o)) return o;
        json_decref(o);
        return NULL;
    }
    if (json_is_array(v)) {
        json_t *o = json_object();
        for (size_t i = 0; i < json_array_size(v); i++) {
            json_t *n = ref_norm(json_array_get(v, i));
            char k[24];
            snprintf(k, sizeof k, "%zu", i);
            if (n) json_object_set_new(o, k, n);
        }
        if (json_object_size(o)) return o;
        json_decref(o);
        return NULL;
    }
    return json_incref(v);
}

static json_t *node_of(json_t *v) {
    while (json_is_object(v) && json_object_get(v, ".value")) v = json_object_get(v, ".value");
    return v;
}

static json_t *member(json_t *v, const char *seg) {
    v = node_of(v);
    if (json_is_object(v)) return json_object_get(v, seg);
    if (!json_is_array(v)) return NULL;
    char *end;
    unsigned long i = strtoul(seg, &end, 10);
    if (*end || !*seg || (seg[0] == '0' && seg[1]) || seg[0] == '-' || seg[0] == '+') return NULL;
    return json_array_get(v, i);
}

/* Whether lc's value equals the model's value of raw (NULL: missing). */
static int same_value(const lc_value *got, json_t *raw, int as_priority) {
    json_t *n = as_priority ? (json_is_null(raw) ? NULL : json_incref(raw)) : ref_norm(node_of(raw));
    int ok;
    if (!n) ok = got->tag == LC_SORT_NULL;
    else if (json_is_object(n)) ok = got->tag == LC_SORT_OBJECT;
    else if (json_is_true(n)) ok = got->tag == LC_SORT_TRUE;
    else if (json_is_false(n)) ok = got->tag == LC_SORT_FALSE;
    else if (json_is_number(n))
        ok = got->tag == LC_SORT_NUMBER && got->number == json_number_value(n) &&
             !signbit(got->number) == !signbit(json_number_value(n));
    else
        ok = got->tag == LC_SORT_STRING && got->len == json_string_length(n) &&
             !memcmp(got->str, json_string_value(n), got->len);
    json_decref(n);
    return ok;
}

/* Deep equality (test_doc_random.c compares dumps; json_equal needs no allocation). */
static int same_json(json_t *a, json_t *b) { return json_equal(a, b); }

static void describe(const lc_value *v, char *out, size_t cap) {
    switch (v->tag) {
    case LC_SORT_NULL: snprintf(out, cap, "null"); break;
    case LC_SORT_FALSE: snprintf(out, cap, "false"); break;
    case LC_SORT_TRUE: snprintf(out, cap, "true"); break;
    case LC_SORT_NUMBER: snprintf(out, cap, "%.17g", v->number); break;
    case LC_SORT_STRING: snprintf(out, cap, "'%.*s'", (int)(v->len < 60 ? v->len : 60), v->str); break;
    case LC_SORT_OBJECT: snprintf(out, cap, "object"); break;
    default: snprintf(out, cap, "tag %d", (int)v->tag);
    }
}

static int identical(const lc_value *a, const lc_value *b) {
    if (a->tag != b->tag) return 0;
    if (a->tag == LC_SORT_NUMBER) return !memcmp(&a->number, &b->number, sizeof a->number);
    if (a->tag == LC_SORT_STRING) return a->len == b->len && (!a->len || !memcmp(a->str, b->str, a->len));
    return 1;
}

/* Compares an accepted (non-patch) document with jansson's tree raw. */
static void check_model(const ctx *c, const lc_doc *d, json_t *raw, const lc_order *order) {
    json_t *root = node_of(raw), *norm = ref_norm(raw);
    json_t *mine = lc_doc_root_json(d, NULL);
    lc_doc_kind want = !norm ? LC_DOC_NULL : json_is_object(norm) ? LC_DOC_CHILDREN : LC_DOC_LEAF;
    if (!mine || !same_json(mine, norm ? norm : json_null())) fail(c, "root json differs from the model");
    if (lc_doc_kind_of(d) != want) fail(c, "kind %d, model %d", (int)lc_doc_kind_of(d), (int)want);
    if (want == LC_DOC_CHILDREN && lc_doc_count(d) != json_object_size(norm))
        fail(c, "%zu children, model %zu", lc_doc_count(d), json_object_size(norm));
    const char *path = order->kind == LC_ORDER_VALUE ? "" : order->kind == LC_ORDER_CHILD ? order->child_path : NULL;
    char text[128];
    lc_value sv, pv;
    /* the document's priority, unless ".value" holds a container (its inner ".priority" is then ambiguous) */
    json_t *rinner = json_is_object(raw) ? json_object_get(raw, ".value") : NULL;
    if (!json_is_object(rinner) && !json_is_array(rinner)) {
        json_t *pr = json_is_object(raw) ? json_object_get(raw, ".priority") : NULL;
        lc_doc_root_priority(d, &pv);
        describe(&pv, text, sizeof text);
        if (!same_value(&pv, pr, 1)) fail(c, "root priority %s differs from the model", text);
    }
    for (size_t i = 0; i < lc_doc_count(d); i++) {
        size_t kl;
        const char *k = lc_doc_key(d, i, &kl);
        char key[1024];
        if (!k || kl >= sizeof key || memchr(k, 0, kl)) fail(c, "child %zu: bad key", i);
        memcpy(key, k, kl);
        key[kl] = 0;
        json_t *cm = json_object_get(norm, key), *rc = member(root, key);
        json_t *cj = lc_doc_child_json(d, i, NULL);
        if (!cm || !rc || !cj || !same_json(cj, cm)) fail(c, "child \"%s\": json differs from the model", key);
        json_decref(cj);
        lc_doc_sort_value(d, i, &sv);
        lc_doc_priority(d, i, &pv);
        describe(&sv, text, sizeof text);
        if (path) { /* walk the order path in the raw child */
            json_t *v = rc;
            char seg[LC_MAX_KEY_BYTES + 1];
            for (const char *p = path; v && *p;) {
                size_t n = strcspn(p, "/");
                if (n >= sizeof seg) n = sizeof seg - 1;
                memcpy(seg, p, n);
                seg[n] = 0;
                v = n ? member(v, seg) : v;
                p += n + (p[n] == '/');
            }
            if (!same_value(&sv, v, 0)) fail(c, "child \"%s\": sort value %s differs from the model", key, text);
        } else if (order->kind == LC_ORDER_KEY ? sv.tag != LC_SORT_NULL : !identical(&sv, &pv)) {
            fail(c, "child \"%s\": sort value %s, not what the %s order gives", key, text,
                 kind_names[order->kind & 3]);
        }
        json_t *inner = json_is_object(rc) ? json_object_get(rc, ".value") : NULL;
        if (!json_is_object(inner) && !json_is_array(inner)) {
            json_t *pr = json_is_object(rc) ? json_object_get(rc, ".priority") : NULL;
            describe(&pv, text, sizeof text);
            if (!same_value(&pv, pr, 1)) fail(c, "child \"%s\": priority %s differs from the model", key, text);
        }
    }
    json_decref(mine);
    json_decref(norm);
}

/* ---- walking an accepted document ---- */

typedef struct keyref {
    const char *p;
    size_t n;
} keyref;

static int keyref_cmp(const void *a, const void *b) {
    const keyref *x = a, *y = b;
    if (x->n != y->n) return x->n < y->n ? -1 : 1;
    return memcmp(x->p, y->p, x->n);
}

static int is_blank(unsigned char b) { return b == ' ' || b == '\t' || b == '\n' || b == '\r'; }

static void check_value(const ctx *c, const lc_value *v, int priority, const char *what, size_t i) {
    if (lc_value_check(v) != LC_OK) fail(c, "%s of child %zu: unusable value (tag %d)", what, i, (int)v->tag);
    if (priority && v->tag != LC_SORT_NULL && v->tag != LC_SORT_NUMBER && v->tag != LC_SORT_STRING)
        fail(c, "%s of child %zu: tag %d", what, i, (int)v->tag);
    if (v->tag == LC_SORT_STRING) touch(v->str, v->len);
}

static void walk(const ctx *c, const lc_doc *d, int patch, const lc_order *order) {
    size_t n = lc_doc_count(d);
    lc_doc_kind kind = lc_doc_kind_of(d);
    if ((kind == LC_DOC_CHILDREN) != (n > 0)) fail(c, "kind %d with %zu children", (int)kind, n);
    lc_value v, p;
    if (lc_doc_root_priority(d, &v) != LC_OK) fail(c, "root priority");
    check_value(c, &v, 1, "root priority", 0);
    json_t *root = lc_doc_root_json(d, NULL);
    if (!root) fail(c, "no root json");
    if (!patch && (json_is_null(root) != (kind == LC_DOC_NULL) ||
                   (json_is_object(root) && json_object_size(root) != n) ||
                   json_is_array(root) || (kind == LC_DOC_CHILDREN && !json_is_object(root))))
        fail(c, "root json does not match kind %d with %zu children", (int)kind, n);
    json_decref(root);
    keyref *keys = n ? malloc(n * sizeof *keys) : NULL;
    if (n && !keys) abort();
    for (size_t i = 0; i < n; i++) {
        size_t kl = 0;
        const char *k = lc_doc_key(d, i, &kl);
        if (!k) fail(c, "no key for child %zu", i);
        touch(k, kl);
        lc_status ks = patch ? lc_path_validate(k, kl, NULL) : lc_key_validate(k, kl, NULL);
        if (ks != LC_OK) fail(c, "child %zu has an invalid key \"%.*s\": %s", i, (int)kl, k, lc_status_name(ks));
        keys[i].p = k;
        keys[i].n = kl;
        const char *t;
        size_t tl;
        if (lc_doc_child_text(d, i, &t, &tl) != LC_OK || !t || !tl) fail(c, "child %zu: no text", i);
        touch(t, tl);
        if (is_blank((unsigned char)t[0]) || is_blank((unsigned char)t[tl - 1]))
            fail(c, "child %zu: text with surrounding blanks", i);
        json_t *tj = json_loadb(t, tl, JSON_DECODE_ANY, NULL);
        if (!tj) fail(c, "child %zu: its text is not JSON: \"%.*s\"", i, (int)(tl < 200 ? tl : 200), t);
        /* The digest read from the text equals the one read from jansson's tree. */
        for (unsigned flags = 0; flags <= LC_DIGEST_PRIORITIES; flags++) {
            lc_digest dt, dj;
            if (lc_doc_child_digest(d, i, flags, &dt) != LC_OK || lc_json_digest(tj, flags, &dj) != LC_OK)
                fail(c, "child %zu: no digest", i);
            if (dt.high != dj.high || dt.low != dj.low)
                fail(c, "child %zu: the text's digest differs from the tree's (flags %u): \"%.*s\"", i, flags,
                     (int)(tl < 200 ? tl : 200), t);
        }
        json_decref(tj);
        if (lc_doc_sort_value(d, i, &v) != LC_OK || lc_doc_priority(d, i, &p) != LC_OK)
            fail(c, "child %zu: no sort value or priority", i);
        check_value(c, &v, 0, "sort value", i);
        check_value(c, &p, 1, "priority", i);
        if (order->kind == LC_ORDER_KEY && v.tag != LC_SORT_NULL) fail(c, "child %zu: key order, non-null sort value", i);
        if (order->kind == LC_ORDER_PRIORITY && !identical(&v, &p)) fail(c, "child %zu: priority order, sort value is not the priority", i);
        if (order->kind == LC_ORDER_CHILD && !patch) {
            /* The quick read of the order path, where it decides, gives the sort value (-0 read as 0). */
            lc_value q;
            int decided = 0;
            if (lc_doc_child_path_value(d, i, order->child_path, order->child_path_len, &q, &decided) != LC_OK)
                fail(c, "child %zu: the quick read of the order path failed", i);
            if (decided && !identical(&q, &v) &&
                !(q.tag == LC_SORT_NUMBER && v.tag == LC_SORT_NUMBER && q.number == v.number))
                fail(c, "child %zu: the quick read of the order path differs from the sort value", i);
        }
        lc_error e;
        json_t *cj = lc_doc_child_json(d, i, &e);
        if (!cj) fail(c, "child %zu: no json (%s \"%s\")", i, lc_status_name(e.code), e.text);
        int is_null = lc_doc_child_is_null(d, i);
        if (is_null != json_is_null(cj)) fail(c, "child %zu: child_is_null %d, json %s", i, is_null, json_is_null(cj) ? "null" : "not null");
        if (!patch && is_null) fail(c, "child %zu: empty child outside a patch", i);
        json_decref(cj);
    }
    if (lc_doc_key(d, n, NULL) || lc_doc_sort_value(d, n, &v) != LC_ERR_ARGUMENT ||
        lc_doc_priority(d, n, &v) != LC_ERR_ARGUMENT || lc_doc_child_is_null(d, n))
        fail(c, "child %zu (out of range) answered", n);
    if (n > 1) {
        qsort(keys, n, sizeof *keys, keyref_cmp);
        for (size_t i = 1; i < n; i++)
            if (!keyref_cmp(&keys[i - 1], &keys[i])) fail(c, "key \"%.*s\" listed twice", (int)keys[i].n, keys[i].p);
    }
    free(keys);
}

/* ---- the two entry points ---- */

static void run_doc(const char *in, size_t n, const lc_parse_options *o, json_t *j, const json_error_t *je) {
    ctx c = {in, n, "doc", o};
    lc_doc *d = (lc_doc *)&c; /* must be overwritten */
    lc_error e;
    memset(&e, 0x5A, sizeof e);
    lc_status st = lc_doc_parse(in, n, o, &d, &e);
    differential(&c, st, &e, j, je, d == NULL);
    if (st == LC_OK) {
        if (!d) fail(&c, "LC_OK without a document");
        int patch = o && o->keys_are_paths;
        lc_order def = {LC_ORDER_PRIORITY, NULL, 0};
        const lc_order *order = o ? &o->order : &def;
        walk(&c, d, patch, order);
        if (!patch) check_model(&c, d, j, order);
        lc_doc_free(d);
    }
}

static void run_payload(const char *in, size_t n, const lc_parse_options *o, json_t *j, const json_error_t *je) {
    ctx c = {in, n, "payload", o};
    lc_payload pl;
    memset(&pl, 0x5A, sizeof pl);
    lc_error e;
    memset(&e, 0x5A, sizeof e);
    lc_status st = lc_payload_parse(in, n, o, &pl, &e);
    differential(&c, st, &e, j, je, !pl.path && !pl.data && !pl.path_len);
    if (j) {
        json_t *path = json_object_get(j, "path"), *data = json_object_get(j, "data");
        int shape = json_is_object(j) && json_is_string(path) && data;
        if (!shape != (st == LC_ERR_PAYLOAD_SHAPE))
            fail(&c, "%s, yet the payload %s the shape {\"path\": string, \"data\": any}", lc_status_name(st),
                 shape ? "has" : "lacks");
        lc_status ps = shape ? lc_path_validate(json_string_value(path), json_string_length(path), NULL) : LC_OK;
        if (ps != LC_OK && st != ps) fail(&c, "path invalid (%s) but lc says %s", lc_status_name(ps), lc_status_name(st));
        if (st == LC_OK) {
            if (!pl.path || !pl.data || pl.path_len != json_string_length(path) ||
                memcmp(pl.path, json_string_value(path), pl.path_len) || pl.path[pl.path_len])
                fail(&c, "path \"%s\" differs from jansson's \"%s\"", pl.path ? pl.path : "(null)", json_string_value(path));
            int patch = o->keys_are_paths;
            walk(&c, pl.data, patch, &o->order);
            if (!patch) check_model(&c, pl.data, data, &o->order);
        }
    }
    lc_payload_release(&pl);
    if (pl.path || pl.data) fail(&c, "payload not zeroed by lc_payload_release");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    unsigned sel = size ? data[0] : 0;
    const char *in = size ? (const char *)data + 1 : "";
    size_t n = size ? size - 1 : 0;
    lc_parse_options o;
    memset(&o, 0, sizeof o);
    o.order.kind = (lc_order_kind)(sel & 3);
    if (o.order.kind == LC_ORDER_CHILD) {
        o.order.child_path = order_paths[(sel >> 2) & 7];
        o.order.child_path_len = strlen(o.order.child_path);
    }
    o.keys_are_paths = !(sel & 0x20);
    o.max_depth = depths[(sel >> 5) & 7];
    json_error_t je;
    json_t *j = json_loadb(in, n, JSON_DECODE_ANY, &je);
    run_doc(in, n, &o, j, &je);
    run_doc(in, n, NULL, j, &je);
    run_payload(in, n, &o, j, &je);
    json_decref(j);
    return 0;
}
