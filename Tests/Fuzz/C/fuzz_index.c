/*
 * fuzz_index.c — libFuzzer target for the ordered index (lc_index.h).
 *
 * The input is a program: each operation is an opcode byte followed by its
 * operands (keys, values, positions), all read from the input; missing bytes
 * read as 0. Operations: insert, remove, update, upsert (single calls, with
 * or without outputs), find, at, entry (by id), lower and upper bound,
 * iteration from a position, lc_index_apply batches (invalid ops included),
 * clear, bulk build from a parsed document, runs of one operation over a
 * range of keys (so the tree splits and merges), and updates whose value
 * string is borrowed from the index itself.
 *
 * Operands come from index_universe.c, the model from index_model.c and
 * the checks from index_checks.c. Every operation's status, positions (old
 * and new), ids, find / at / entry results, bounds and iterations are
 * compared with the model, and after every operation lc_index_check must
 * pass and the whole index must iterate exactly as the model (keys, values,
 * ids). Any divergence prints the operation and the input, then aborts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "index_checks.h"
#include "index_universe.h"

/* ---- operations ---- */

static void op_bound(const fctx *c, input *in, const lc_index *ix) {
    unsigned flags = next8(in);
    mval v;
    mkey k;
    read_value(in, &v);
    read_key(in, c->m, &k);
    int upper = flags & 1, with_key = flags & 2;
    lc_value x = lv(&v);
    size_t got = upper ? lc_index_upper_bound(ix, &x, with_key ? kp(&k) : NULL, with_key ? k.len : 0)
                       : lc_index_lower_bound(ix, &x, with_key ? kp(&k) : NULL, with_key ? k.len : 0);
    if (!value_ok(&v)) return; /* unspecified for unusable values: only must not crash */
    size_t want = model_bound(c->m, &x, with_key ? &k : NULL, upper);
    if (got != want) {
        char vs[128];
        show_value(&x, vs, sizeof vs);
        fail(c, "%s_bound(%s, %s%.*s%s) = %zu, model %zu", upper ? "upper" : "lower", vs, with_key ? "\"" : "",
             with_key ? (int)(k.len < 80 ? k.len : 80) : 4, with_key ? kp(&k) : "NULL", with_key ? "\"" : "", got,
             want);
    }
}

static void op_iterate(const fctx *c, input *in, const lc_index *ix) {
    const model *m = c->m;
    size_t from = next16(in) % (m->n + 2), steps = next8(in);
    lc_index_iter it;
    lc_status st = lc_index_iter_init(ix, from, &it);
    if (from > m->n) {
        if (st != LC_ERR_ARGUMENT) fail(c, "iter_init(%zu) past the end: %s", from, lc_status_name(st));
        return;
    }
    if (st != LC_OK) fail(c, "iter_init(%zu): %s", from, lc_status_name(st));
    for (size_t i = 0; i <= steps; i++) {
        const char *key;
        size_t kl;
        lc_value v;
        uint32_t id;
        int more = (i & 1) ? lc_index_iter_next(&it, &key, &kl, &v, &id)
                           : lc_index_iter_next(&it, NULL, NULL, NULL, NULL);
        size_t pos = from + i;
        if (more != (pos < m->n)) fail(c, "iteration from %zu: entry %zu %s", from, pos, more ? "past the end" : "missing");
        if (!more) {
            if (lc_index_iter_next(&it, NULL, NULL, NULL, NULL)) fail(c, "an exhausted iterator goes on");
            return;
        }
        if (i & 1) same_entry(c, pos, model_at(m, pos), key, kl, &v, id, "iteration");
    }
}

static void op_find_at_entry(const fctx *c, input *in, const lc_index *ix, unsigned which) {
    const model *m = c->m;
    const char *key = NULL;
    size_t kl = 0, pos = 0;
    lc_value v;
    uint32_t id = LC_ID_NONE;
    if (which == 0) { /* find */
        mkey k;
        read_key(in, m, &k);
        size_t want = model_find(m, &k);
        lc_status st = lc_index_find(ix, kp(&k), k.len, &pos, &id);
        if (want == SIZE_MAX) {
            if (st != LC_ERR_NOT_FOUND) fail(c, "find(\"%.*s\") of an absent key: %s", (int)(k.len < 80 ? k.len : 80), kp(&k), lc_status_name(st));
            return;
        }
        if (st != LC_OK || pos != want || id != model_at(m, want)->id)
            fail(c, "find(\"%.*s\"): %s at %zu id %u, model %zu id %u", (int)(k.len < 80 ? k.len : 80), kp(&k),
                 lc_status_name(st), pos, (unsigned)id, want, (unsigned)model_at(m, want)->id);
    } else if (which == 1) { /* at */
        pos = next16(in) % (m->n + 2);
        lc_status st = lc_index_at(ix, pos, &key, &kl, &v, &id);
        if (pos >= m->n) {
            if (st != LC_ERR_ARGUMENT) fail(c, "at(%zu) past the end: %s", pos, lc_status_name(st));
            return;
        }
        if (st != LC_OK) fail(c, "at(%zu): %s", pos, lc_status_name(st));
        same_entry(c, pos, model_at(m, pos), key, kl, &v, id, "at");
    } else { /* entry by id: ids in use and a few free ones */
        uint32_t max = 0;
        for (size_t i = 0; i < m->n; i++)
            if (model_at(m, i)->id > max) max = model_at(m, i)->id;
        id = (uint32_t)(next16(in) % ((size_t)max + 3));
        if (next8(in) == 0xFF) id = LC_ID_NONE - (next8(in) & 1);
        size_t want = SIZE_MAX;
        for (size_t i = 0; i < m->n && want == SIZE_MAX; i++)
            if (model_at(m, i)->id == id) want = i;
        lc_status st = lc_index_entry(ix, id, &key, &kl, &v);
        if (want == SIZE_MAX) {
            if (st != LC_ERR_NOT_FOUND) fail(c, "entry(%u) of a free id: %s", (unsigned)id, lc_status_name(st));
            return;
        }
        if (st != LC_OK) fail(c, "entry(%u): %s", (unsigned)id, lc_status_name(st));
        same_entry(c, want, model_at(m, want), key, kl, &v, id, "entry");
    }
}

static void op_apply(const fctx *c, input *in, lc_index *ix) {
    enum { MAX_EVENTS = 16 };
    unsigned head = next8(in);
    size_t n = 1 + head % MAX_EVENTS;
    int with_results = head < 0xF0;
    mkey keys[MAX_EVENTS];
    mval vals[MAX_EVENTS];
    lc_event ev[MAX_EVENTS];
    lc_event_result res[MAX_EVENTS];
    for (size_t i = 0; i < n; i++) {
        unsigned o = next8(in);
        read_key(in, c->m, &keys[i]);
        memset(&vals[i], 0, sizeof vals[i]);
        if (o % 8 != LC_OP_REMOVE) read_value(in, &vals[i]);
        ev[i].op = (lc_op)(o % 8 < 4 ? o % 8 : o % 8 == 7 ? 4 + (o >> 3) : o % 4); /* now and then an unknown op */
        ev[i].key = kp(&keys[i]);
        ev[i].key_len = keys[i].len;
        ev[i].value = lv(&vals[i]);
        memset(&res[i], 0x5A, sizeof res[i]);
    }
    size_t ok = lc_index_apply(ix, ev, n, with_results ? res : NULL);
    size_t want_ok = 0;
    if (with_results) {
        for (size_t i = 0; i < n; i++) {
            check_event(c, ev[i].op, &keys[i], &vals[i], &res[i], HAVE_OLD | HAVE_NEW | HAVE_ID | FAIL_NOPOS);
            want_ok += res[i].status == LC_OK;
        }
    } else { /* the model alone says what succeeds; new ids are looked up afterwards */
        for (size_t i = 0; i < n; i++) {
            lc_status want, alt;
            size_t at, old, new_;
            expect(c->m, ev[i].op, &keys[i], &vals[i], &want, &alt, &at);
            if (want != LC_OK) continue;
            model_apply(c->m, ev[i].op, &keys[i], &vals[i], at, LC_ID_NONE, &old, &new_);
            want_ok++;
        }
        for (size_t i = 0; i < c->m->n; i++) {
            ment *e = model_at(c->m, i);
            if (e->id != LC_ID_NONE) continue;
            uint32_t id = LC_ID_NONE;
            if (lc_index_find(ix, kp(&e->key), e->key.len, NULL, &id) != LC_OK)
                fail(c, "apply: inserted key \"%.*s\" not found", (int)(e->key.len < 80 ? e->key.len : 80), kp(&e->key));
            if (id == LC_ID_NONE || id_in_use(c->m, id)) fail(c, "apply: new id %u is in use", (unsigned)id);
            e->id = id;
            id_mark(c->m, id, 1);
        }
    }
    if (ok != want_ok) fail(c, "apply returned %zu successes, the model %zu", ok, want_ok);
}

static void op_range(const fctx *c, input *in, lc_index *ix) {
    unsigned start = next16(in) % RANGE_KEYS, count = next8(in);
    count = count < 0xC0 ? 1 + count : 1 + next16(in) % RANGE_KEYS; /* up to the whole range: a deep tree */
    unsigned o = next8(in), kind = next8(in), mul = 1 + next8(in);
    static const lc_op ops[] = {LC_OP_INSERT, LC_OP_INSERT, LC_OP_UPSERT, LC_OP_REMOVE, LC_OP_UPDATE};
    lc_op op = ops[o % 5];
    for (unsigned i = 0; i < count; i++) {
        mkey k;
        mval v;
        range_key((start + i * (1 + (o >> 4))) % RANGE_KEYS, &k);
        run_value(kind, mul, i, &v);
        lc_value x = lv(&v);
        single(c, ix, op, &k, &x, &v, 1);
    }
}

/* Updates (or upserts, inserts) a key with a value borrowed from the index itself. */
static void op_alias(const fctx *c, input *in, lc_index *ix) {
    const model *m = c->m;
    unsigned o = next8(in);
    size_t pos = next16(in);
    mkey k;
    read_key(in, m, &k);
    if (!m->n) return;
    pos %= m->n;
    const ment *src = model_at(m, pos);
    lc_value v;
    const char *key;
    size_t kl;
    uint32_t id;
    if (o & 4) {
        if (lc_index_entry(ix, src->id, &key, &kl, &v) != LC_OK) fail(c, "entry(%u) failed", (unsigned)src->id);
        id = src->id;
    } else if (lc_index_at(ix, pos, &key, &kl, &v, &id) != LC_OK) {
        fail(c, "at(%zu) failed", pos);
    }
    same_entry(c, pos, src, key, kl, &v, id, "borrowed value");
    mval copy = src->val;
    static const lc_op ops[] = {LC_OP_UPDATE, LC_OP_UPSERT, LC_OP_INSERT, LC_OP_UPDATE};
    single(c, ix, ops[o & 3], &k, &v, &copy, 1);
}

/* JSON text of a key: the bytes, with quotes, backslashes and controls escaped. */
static size_t json_key(const mkey *k, char *out) {
    size_t n = 0;
    const char *p = kp(k);
    out[n++] = '"';
    for (size_t i = 0; i < k->len; i++) {
        unsigned char b = (unsigned char)p[i];
        if (b == '"' || b == '\\') {
            out[n++] = '\\';
            out[n++] = (char)b;
        } else if (b < 0x20) {
            n += (size_t)sprintf(out + n, "\\u%04x", b);
        } else {
            out[n++] = (char)b;
        }
    }
    out[n++] = '"';
    return n;
}

/* Replaces the content by a document's children (lc_index_build_from_doc): a
 * small document of any keys, or a large one over the generated keys. */
static void op_build(const fctx *c, input *in, lc_index *ix) {
    static const char *const values[] = {
        "1", "-0", "2.5", "1e300", "-7", "\"a\"", "\"b\"", "\"\"", "\"\\u00e9\"", "\"abcdefgh\"",
        "\"abcdefgi\"", "true", "false", "null", "{}", "{\"x\":1}", "[1]", "{\".value\":3,\".priority\":1}",
        "{\"x\":\"s\",\".priority\":\"p\"}", "{\".priority\":2,\"x\":{\"y\":null}}", "[null]", "{\"x\":null}",
    };
    enum { NV = sizeof values / sizeof *values, MAXC = 12, VMAX = 48 };
    static const lc_order orders[] = {
        {LC_ORDER_VALUE, NULL, 0}, {LC_ORDER_PRIORITY, NULL, 0}, {LC_ORDER_KEY, NULL, 0}, {LC_ORDER_CHILD, "x", 1},
    };
    unsigned head = next8(in);
    int big = head & 0x80;
    size_t nc = big ? next16(in) % (RANGE_KEYS + 64) : head % (MAXC + 1);
    unsigned start = big ? next16(in) : 0, stride = big ? 1 + next8(in) % 8 : 0, mul = big ? next8(in) : 0;
    size_t per = big ? sizeof ((mkey *)0)->b + VMAX : 6 * (LC_MAX_KEY_BYTES + 2) + VMAX;
    char *json = malloc(nc * per + 4);
    if (!json) abort();
    size_t len = 0;
    json[len++] = '{';
    for (size_t i = 0; i < nc; i++) {
        mkey k;
        if (big) range_key((unsigned)((start + i * stride) % RANGE_KEYS), &k);
        else read_key(in, c->m, &k);
        if (i) json[len++] = ',';
        len += json_key(&k, json + len);
        json[len++] = ':';
        const char *v = values[(big ? i * mul + i / 7 : next8(in)) % NV];
        memcpy(json + len, v, strlen(v));
        len += strlen(v);
    }
    json[len++] = '}';
    lc_parse_options o;
    memset(&o, 0, sizeof o);
    o.order = orders[(head >> 4) & 3];
    lc_doc *d = NULL;
    lc_status st = lc_doc_parse(json, len, &o, &d, NULL);
    free(json);
    if (st != LC_OK) return; /* an invalid key: nothing to build */
    st = lc_index_build_from_doc(ix, d);
    if (st != LC_OK) fail(c, "build_from_doc: %s", lc_status_name(st));
    model_clear(c->m);
    for (size_t i = 0; i < lc_doc_count(d); i++) {
        size_t kl;
        const char *key = lc_doc_key(d, i, &kl);
        mkey k;
        key_of_bytes(key, kl, &k);
        lc_value sv;
        lc_doc_sort_value(d, i, &sv);
        mval v;
        memset(&v, 0, sizeof v);
        v.tag = sv.tag;
        v.num = sv.number;
        if (sv.tag == LC_SORT_STRING) set_string(&v, sv.str, sv.len);
        uint32_t id;
        if (lc_index_find(ix, key, kl, NULL, &id) != LC_OK) fail(c, "build_from_doc: key \"%.*s\" missing", (int)kl, key);
        if (id == LC_ID_NONE || id_in_use(c->m, id)) fail(c, "build_from_doc: id %u given twice", (unsigned)id);
        model_insert(c->m, &k, &v, id);
    }
    lc_doc_free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    model m;
    memset(&m, 0, sizeof m);
    input in = {data, size, 0};
    fctx c = {data, size, &in, 0, "start", &m};
    lc_index *ix = lc_index_new();
    if (!ix) abort();
    full_check(&c, ix);
    static const char *const names[] = {"insert", "insert", "remove", "update", "upsert", "find", "at", "entry",
                                        "bound", "iterate", "apply", "clear", "range", "alias", "build", "insert"};
    while (in.at < in.n && c.op_no < 4000) {
        unsigned op = next8(&in);
        c.op_no++;
        c.op = names[op % 16];
        mkey k;
        mval v;
        lc_value x;
        switch (op % 16) {
        case 0:
        case 1:
        case 15:
        case 3:
        case 4: {
            static const lc_op ops[] = {LC_OP_INSERT, LC_OP_INSERT, LC_OP_REMOVE, LC_OP_UPDATE, LC_OP_UPSERT};
            lc_op o = op % 16 == 15 ? LC_OP_INSERT : ops[op % 16];
            read_key(&in, &m, &k);
            read_value(&in, &v);
            x = lv(&v);
            single(&c, ix, o, &k, &x, &v, op < 0xE0);
            break;
        }
        case 2:
            read_key(&in, &m, &k);
            memset(&v, 0, sizeof v);
            x = lv(&v);
            single(&c, ix, LC_OP_REMOVE, &k, &x, &v, op < 0xE0);
            break;
        case 5: op_find_at_entry(&c, &in, ix, 0); break;
        case 6: op_find_at_entry(&c, &in, ix, 1); break;
        case 7: op_find_at_entry(&c, &in, ix, 2); break;
        case 8: op_bound(&c, &in, ix); break;
        case 9: op_iterate(&c, &in, ix); break;
        case 10: op_apply(&c, &in, ix); break;
        case 11:
            if (op < 0x80) break; /* rarely: a clear undoes everything */
            check_memory(&c, ix);
            if (lc_index_clear(ix) != LC_OK) fail(&c, "clear failed");
            model_clear(&m);
            break;
        case 12: op_range(&c, &in, ix); break;
        case 13: op_alias(&c, &in, ix); break;
        default: op_build(&c, &in, ix); break;
        }
        full_check(&c, ix);
    }
    check_memory(&c, ix);
    lc_index_free(ix);
    model_free(&m);
    return 0;
}