/*
 * test_doc_random.c — differential tests against jansson. Random JSON-ish
 * inputs (valid Firebase data, then mutated: flipped, inserted and deleted
 * bytes, truncation, escapes, big numbers) must be rejected by lc_doc_parse
 * with a JSON-level error exactly when json_loadb(JSON_DECODE_ANY) rejects
 * them, with jansson's line, column, position and text. Accepted inputs are
 * checked against an independent model built from jansson's tree: children,
 * normalised JSON, sort values and priorities.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_doc_util.h"

typedef struct gen {
    char *b;
    size_t n, cap;
    uint64_t *rng;
} gen;

static unsigned rnd(gen *g, unsigned n) { return (unsigned)(lc_test_rand(g->rng) % n); }

static void put(gen *g, const char *s, size_t n) {
    if (g->n + n + 1 > g->cap) {
        g->cap = (g->n + n + 1) * 2;
        g->b = realloc(g->b, g->cap);
    }
    memcpy(g->b + g->n, s, n);
    g->n += n;
}
static void puts_(gen *g, const char *s) { put(g, s, strlen(s)); }

static const char *const keys[] = {"a", "b", "score", "0", "1", "2", "k\\u00e9", "\\u0061", "\xC3\xA9", "x y",
                                   "-1", "10", "\\\"q", "\xF0\x9F\x98\x80", "a\\u0062"};
static const char *const numbers[] = {
    "0", "-0", "1", "-1", "123", "1.5", "-2.25e-3", "1e5", "1E+2", "9223372036854775807",
    "-9223372036854775808", "1e308", "1.7976931348623157e308", "1e-400", "0.000001e-300",
    "1.00000000000000000000001", "4.9e-324", "12345678901234567e-5", "7e22", "7e23", "-0.0",
    "123456789012345678901234567890.5", "0.1e309", "1797693134862315708145274237317043567981e269"};
static const char *const bad_numbers[] = {"9223372036854775808", "-9223372036854775809", "99999999999999999999",
                                          "1.7976931348623159e308", "1e309", "0.1e310", "-1e400",
                                          "1797693134862315808145274237317043567981e269"};
static const char *const pieces[] = {"a", "hello", " ", "\\n", "\\\"", "\\\\", "\\/", "\\u00e9", "\\ud83d\\ude00",
                                     "\xC3\xA9", "\xF0\x9F\x98\x80", "\\u0001", "\x7F", "\\t", "\\b\\f\\r"};

static void gen_string(gen *g) {
    puts_(g, "\"");
    for (unsigned i = rnd(g, 4); i; i--) puts_(g, pieces[rnd(g, sizeof pieces / sizeof *pieces)]);
    puts_(g, "\"");
}

static void gen_number(gen *g) {
    char t[64];
    switch (rnd(g, 3)) {
    case 0:
        if (rnd(g, 40)) puts_(g, numbers[rnd(g, sizeof numbers / sizeof *numbers)]);
        else puts_(g, bad_numbers[rnd(g, sizeof bad_numbers / sizeof *bad_numbers)]);
        break;
    case 1: snprintf(t, sizeof t, "%lld", (long long)(lc_test_rand(g->rng) >> rnd(g, 64))); puts_(g, t); break;
    default: snprintf(t, sizeof t, "%.*g", 1 + (int)rnd(g, 17), (double)(int64_t)lc_test_rand(g->rng) / 1e9); puts_(g, t);
    }
}

static void gen_value(gen *g, int depth);

static void gen_object(gen *g, int depth) {
    if (rnd(g, 10) == 0) { /* export format */
        puts_(g, "{\".value\":");
        if (rnd(g, 2)) gen_number(g);
        else gen_string(g);
        puts_(g, rnd(g, 2) ? ",\".priority\":" : ",\".priority\":\"p\"}");
        if (g->b[g->n - 1] == ':') {
            gen_number(g);
            puts_(g, "}");
        }
        return;
    }
    puts_(g, "{");
    unsigned n = rnd(g, 5);
    for (unsigned i = 0; i < n; i++) {
        if (i) puts_(g, rnd(g, 8) ? "," : " ,\n ");
        if (rnd(g, 12) == 0) {
            puts_(g, "\".priority\":");
            if (rnd(g, 2)) gen_number(g);
            else gen_string(g);
            continue;
        }
        puts_(g, "\"");
        puts_(g, keys[rnd(g, sizeof keys / sizeof *keys)]);
        puts_(g, "\":");
        gen_value(g, depth + 1);
    }
    puts_(g, "}");
}

static void gen_value(gen *g, int depth) {
    unsigned k = rnd(g, depth > 4 ? 6 : 9);
    switch (k) {
    case 0: puts_(g, "null"); break;
    case 1: puts_(g, rnd(g, 2) ? "true" : "false"); break;
    case 2:
    case 3: gen_number(g); break;
    case 4:
    case 5: gen_string(g); break;
    case 6: {
        puts_(g, "[");
        unsigned n = rnd(g, 5);
        for (unsigned i = 0; i < n; i++) {
            if (i) puts_(g, ",");
            gen_value(g, depth + 1);
        }
        puts_(g, "]");
        break;
    }
    default: gen_object(g, depth);
    }
}

static const unsigned char bytes[] = {0x00, 0x01, 0x1F, 0x20, '"', '\\', '{', '}', '[', ']', ',', ':', '.', 'e',
                                      '-', '0', '9', 'u', 'n', 't', 'a', 0x7F, 0x80, 0xBF, 0xC0, 0xC3, 0xE0,
                                      0xED, 0xF0, 0xF4, 0xF5, 0xFF, '\n', 'E', '+', 'D', '8'};
static const char *const snippets[] = {"\\u0000", "\\ud800", "\\udc00", "\\u00", "\\x", "\\uD83D\\uDE00",
                                       "1e400", "99999999999999999999", "\xED\xA0\x80", "\xF4\x90\x80\x80",
                                       "\xC0\xAF", "\xE2\x82", "tru", "nul", "-", "0.", "[]", "{}", "\"\"",
                                       "\"a.b\":1,", "\".value\":1,"};

/* Applies 1-3 random mutations in place. */
static void mutate(gen *g) {
    for (unsigned m = 1 + rnd(g, 3); m; m--) {
        size_t at = g->n ? rnd(g, (unsigned)g->n + 1) : 0;
        switch (rnd(g, 7)) {
        case 6: /* a NUL right after a number or literal: jansson drops it */
            for (size_t i = at; i + 1 < g->n; i++) {
                unsigned c = (unsigned char)g->b[i], d = (unsigned char)g->b[i + 1];
                if ((c - '0' < 10u || c == 'e' || c == 'l') && d - '0' >= 10u && d != '.' && d != 'e') {
                    put(g, "", 1);
                    memmove(g->b + i + 2, g->b + i + 1, g->n - i - 2);
                    g->b[i + 1] = 0;
                    break;
                }
            }
            break;
        case 0:
            if (at < g->n) g->b[at] = (char)(rnd(g, 4) ? bytes[rnd(g, sizeof bytes)] : rnd(g, 256));
            break;
        case 1: g->n = at; break;
        case 2:
        case 3: {
            char ins[32];
            size_t k;
            if (rnd(g, 2)) {
                const char *s = snippets[rnd(g, sizeof snippets / sizeof *snippets)];
                k = strlen(s);
                memcpy(ins, s, k);
            } else {
                k = 1 + rnd(g, 3);
                for (size_t i = 0; i < k; i++) ins[i] = (char)bytes[rnd(g, sizeof bytes)];
            }
            put(g, ins, k); /* grow, then move into place */
            memmove(g->b + at + k, g->b + at, g->n - k - at);
            memcpy(g->b + at, ins, k);
            break;
        }
        default:
            if (at < g->n) {
                size_t k = 1 + rnd(g, 4);
                if (k > g->n - at) k = g->n - at;
                memmove(g->b + at, g->b + at + k, g->n - at - k);
                g->n -= k;
            }
        }
    }
}

/* ---- the model ---- */

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

static int same_json(json_t *a, json_t *b) {
    char *x = json_dumps(a, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    char *y = json_dumps(b, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    int ok = x && y && !strcmp(x, y);
    free(x);
    free(y);
    return ok;
}

static const char *const order_paths[] = {"", "a", "score", "a/b", "0", "a/0", "\xC3\xA9", "x y/-1"};

/* Checks an accepted document against jansson's tree raw. Returns a failure description or NULL. */
static const char *check_doc(const lc_doc *d, json_t *raw, const char *path) {
    json_t *root = node_of(raw), *norm = ref_norm(raw);
    const char *why = NULL;
    json_t *mine = lc_doc_root_json(d, NULL);
    lc_doc_kind want = !norm ? LC_DOC_NULL : json_is_object(norm) ? LC_DOC_CHILDREN : LC_DOC_LEAF;
    if (!mine || !same_json(mine, norm ? norm : json_null())) why = "root json";
    else if (lc_doc_kind_of(d) != want) why = "kind";
    else if (want == LC_DOC_CHILDREN && lc_doc_count(d) != json_object_size(norm)) why = "count";
    for (size_t i = 0; !why && i < lc_doc_count(d); i++) {
        size_t kl;
        const char *k = lc_doc_key(d, i, &kl);
        char key[1024];
        if (kl >= sizeof key || memchr(k, 0, kl)) { why = "key"; break; }
        memcpy(key, k, kl);
        key[kl] = 0;
        json_t *c = json_object_get(norm, key), *rc = member(root, key);
        json_t *cj = lc_doc_child_json(d, i, NULL);
        if (!c || !rc || !cj || !same_json(cj, c)) why = "child json";
        json_decref(cj);
        if (why) break;
        /* sort value: walk the order path in the raw child */
        json_t *v = rc;
        char seg[64];
        for (const char *p = path; v && *p;) {
            size_t n = strcspn(p, "/");
            memcpy(seg, p, n);
            seg[n] = 0;
            v = n ? member(v, seg) : v;
            p += n + (p[n] == '/');
        }
        lc_value sv;
        lc_doc_sort_value(d, i, &sv);
        if (!same_value(&sv, v, 0)) why = "sort value";
        /* priority, unless ".value" holds a container (its inner ".priority" is then ambiguous) */
        json_t *inner = json_is_object(rc) ? json_object_get(rc, ".value") : NULL;
        if (!why && !json_is_object(inner) && !json_is_array(inner)) {
            json_t *pr = json_is_object(rc) ? json_object_get(rc, ".priority") : NULL;
            lc_doc_priority(d, i, &sv);
            if (!same_value(&sv, pr, 1)) why = "priority";
        }
    }
    json_decref(mine);
    json_decref(norm);
    return why;
}

/*
 * lc_doc_check decides as lc_doc_parse did (status st, error e), reading a
 * padded text in place and an unpadded one through a copy.
 */
static const char *check_agrees(const char *in, size_t n, const lc_parse_options *o, lc_status st,
                                const lc_error *e) {
    char *padded = malloc(n + LC_DOC_PAD);
    if (!padded) return "out of memory";
    if (n) memcpy(padded, in, n);
    memset(padded + n, 0, LC_DOC_PAD);
    const char *why = NULL;
    for (int copied = 0; copied < 2 && !why; copied++) {
        lc_error ce;
        lc_status cst = copied ? lc_doc_check(in, n, n, o, &ce) : lc_doc_check(padded, n, n + LC_DOC_PAD, o, &ce);
        if (cst != st || ce.code != e->code || ce.position != e->position || ce.line != e->line ||
            ce.column != e->column || strcmp(ce.text, e->text))
            why = copied ? "lc_doc_check on a copy differs from lc_doc_parse"
                         : "lc_doc_check in place differs from lc_doc_parse";
    }
    free(padded);
    return why;
}

/* Compares one input; returns 0 on a failure (already reported). */
static int compare_one(lc_test *t, const char *in, size_t n, int mutated, uint64_t *rng, int payload) {
    lc_parse_options o;
    memset(&o, 0, sizeof o);
    const char *path = order_paths[lc_test_rand(rng) % (sizeof order_paths / sizeof *order_paths)];
    o.order.kind = LC_ORDER_CHILD;
    o.order.child_path = path;
    o.order.child_path_len = strlen(path);
    o.max_depth = 64;
    json_error_t je;
    json_t *j = json_loadb(in, n, JSON_DECODE_ANY, &je);
    lc_error e;
    lc_doc *d = NULL;
    lc_payload pl;
    lc_status st = payload ? lc_payload_parse(in, n, &o, &pl, &e) : lc_doc_parse(in, n, &o, &d, &e);
    if (payload) d = pl.data;
    const char *why = NULL;
    if (!j) {
        if (st != td_status_of_jansson(&je)) why = "status differs from jansson";
        else if (e.line != je.line || e.column != je.column || e.position != (size_t)je.position ||
                 strcmp(e.text, je.text))
            why = "error differs from jansson";
        else if (d || (payload && pl.path)) why = "output not cleared";
    } else if (td_is_json_status(st)) {
        why = "rejected what jansson accepts";
    } else if (st != LC_OK && !mutated && !payload) {
        why = "rejected generated data";
    } else if (st == LC_OK) {
        json_t *data = payload ? json_object_get(j, "data") : j;
        why = check_doc(d, data, path);
    }
    if (!why && !payload) why = check_agrees(in, n, &o, st, &e);
    if (why) {
        LC_FAIL(t, "%s: lc %s \"%s\" at %d:%d/%zu; jansson %s \"%s\" at %d:%d/%d (order path \"%s\")", why,
                lc_status_name(st), e.text, e.line, e.column, e.position, j ? "ok" : "error", j ? "" : je.text,
                je.line, je.column, je.position, path);
        td_show("input", in, n);
    }
    if (payload) lc_payload_release(&pl);
    else lc_doc_free(d);
    json_decref(j);
    return why == NULL;
}

static void run_random(lc_test *t, int payload, int count) {
    uint64_t seed = lc_test_seed() + (uint64_t)payload, rng = seed;
    gen g = {NULL, 0, 0, &rng};
    int failures = 0, accepted = 0;
    for (int i = 0; i < count && failures < 5; i++) {
        g.n = 0;
        if (payload) {
            static const char *const paths[] = {"/", "/a", "a/b/", "/\\u00e9", "", "/x.y"};
            puts_(&g, rnd(&g, 2) ? "{\"path\":\"" : "{\"x\":[1],\"path\":\"");
            puts_(&g, paths[rnd(&g, 6)]);
            puts_(&g, "\",\"data\":");
            gen_value(&g, 0);
            puts_(&g, rnd(&g, 4) ? "}" : ",\"data\":{\"b\":{\"c\":1}}}");
        } else if (rnd(&g, 4) == 0) {
            gen_object(&g, 0);
        } else {
            gen_value(&g, 0);
        }
        int mutated = rnd(&g, 10) < 6;
        if (mutated) mutate(&g);
        if (!compare_one(t, g.b ? g.b : "", g.n, mutated, &rng, payload)) {
            failures++;
            fprintf(stderr, "  iteration %d, seed %llu\n", i, (unsigned long long)seed);
        }
        json_t *j = json_loadb(g.b ? g.b : "", g.n, JSON_DECODE_ANY, NULL);
        accepted += j != NULL;
        json_decref(j);
    }
    free(g.b);
    /* both sides of the comparison must be well represented */
    CHECK(t, accepted > count / 5 && accepted < count * 4 / 5, "accepted %d of %d", accepted, count);
}

void doc_differential_random(lc_test *t) { run_random(t, 0, 20000); }
void doc_payload_differential_random(lc_test *t) { run_random(t, 1, 5000); }

/* jansson refuses values nested in 2048 containers; the Firebase limit is max_depth. */
void doc_nesting_limits(lc_test *t) {
    size_t cap = 3 * 2100 * 6 + 64;
    char *b = malloc(cap);
    for (int kind = 0; kind < 4; kind++) {
        for (int depth = 2046; depth <= 2050; depth++) {
            size_t n = 0;
            if (kind == 3) n += (size_t)snprintf(b, cap, "{\"path\":\"/\",\"data\":");
            for (int i = 0; i < depth; i++)
                n += (size_t)snprintf(b + n, cap - n, "%s", kind == 1 ? "{\"a\":" : kind == 2 ? "{\".value\":" : "[");
            b[n++] = '1';
            for (int i = 0; i < depth; i++) b[n++] = kind == 0 || kind == 3 ? ']' : '}';
            if (kind == 3) b[n++] = '}';
            uint64_t rng = (uint64_t)depth;
            compare_one(t, b, n, 1, &rng, kind == 3);
            /* default depth: Firebase's limit, unless jansson refuses first */
            lc_doc *d = NULL;
            lc_error e;
            json_t *j = json_loadb(b, n, JSON_DECODE_ANY, NULL);
            lc_status st = kind == 3 ? LC_ERR_TOO_DEEP : lc_doc_parse(b, n, NULL, &d, &e);
            CHECK(t, st == (kind == 2 && j ? LC_OK : LC_ERR_TOO_DEEP), "kind %d depth %d: %s", kind, depth,
                  lc_status_name(st));
            json_decref(j);
            lc_doc_free(d);
        }
    }
    free(b);
}

/* Thousands of top-level children with duplicates and nulls: the key hash grows and resolves them. */
void doc_many_children(lc_test *t) {
    uint64_t rng = lc_test_seed() + 7;
    gen g = {NULL, 0, 0, &rng};
    for (int round = 0; round < 3; round++) {
        g.n = 0;
        puts_(&g, round == 2 ? "[" : "{");
        int n = 5000 + (int)rnd(&g, 30000);
        for (int i = 0; i < n; i++) {
            char item[96];
            unsigned k = rnd(&g, (unsigned)n / 2 + 1), v = rnd(&g, 10);
            const char *value = v == 0 ? "null" : v == 1 ? "{}" : v < 5 ? "{\"score\":%u}" : "%u";
            char val[32];
            snprintf(val, sizeof val, value, rnd(&g, 1000));
            if (round == 2) snprintf(item, sizeof item, "%s%s", i ? "," : "", val);
            else snprintf(item, sizeof item, "%s\"%s%u\":%s", i ? "," : "", round ? "\\u006b" : "k", k, val);
            puts_(&g, item);
        }
        puts_(&g, round == 2 ? "]" : "}");
        lc_parse_options o;
        memset(&o, 0, sizeof o);
        o.order.kind = LC_ORDER_CHILD;
        o.order.child_path = "score";
        o.order.child_path_len = 5;
        lc_doc *d = NULL;
        json_t *j = json_loadb(g.b, g.n, JSON_DECODE_ANY, NULL);
        REQUIRE(t, j && lc_doc_parse(g.b, g.n, &o, &d, NULL) == LC_OK);
        const char *why = check_doc(d, j, "score");
        CHECK(t, !why, "round %d: %s", round, why);
        lc_doc_free(d);
        json_decref(j);
    }
    free(g.b);
}
