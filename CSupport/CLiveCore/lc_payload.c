/*
 * lc_payload.c — stream event payloads {"path": P, "data": D}. The input is
 * copied once; the document parsed from D owns that copy, and its spans and
 * error positions are offsets in the whole payload.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lc_scan.h"

typedef struct shape {
    lc_status code;
    size_t pos;
    char text[LC_ERROR_TEXT_LENGTH];
} shape;

static void shape_error(shape *sh, lc_status code, size_t pos, const char *text) {
    if (sh->code) return;
    sh->code = code;
    sh->pos = pos;
    snprintf(sh->text, sizeof sh->text, "%s", text);
}

/* Which member a key names: 1 "path", 2 "data", 0 another. */
static int member_kind(const lc_scan *s, const lc_str *k) {
    char tmp[32];
    const char *p = (const char *)s->buf + k->off;
    size_t n = k->len;
    if (k->esc) {
        if (n > sizeof tmp) return 0;
        n = lc_scan_unescape(s, k, tmp);
        p = tmp;
    }
    if (n == 4 && !memcmp(p, "path", 4)) return 1;
    if (n == 4 && !memcmp(p, "data", 4)) return 2;
    return 0;
}

/* Scans the members of the payload object; LC_OK or a scanner failure. */
static lc_status scan_members(lc_scan *s, shape *sh, lc_str *path, shape *data_rule, int *have) {
    const unsigned char *b = s->buf;
    s->pos++;
    lc_scan_ws(s);
    if (b[s->pos] == '}' && s->pos < s->end) {
        s->pos++;
        return LC_OK;
    }
    for (;;) {
        lc_str key;
        if (lc_scan_string(s, &key)) return LC_ERR_JSON_SYNTAX;
        lc_scan_ws(s);
        if (b[s->pos] != ':' || s->pos >= s->end) goto bad;
        s->pos++;
        lc_scan_ws(s);
        int kind = member_kind(s, &key);
        size_t vpos = s->pos;
        lc_status st;
        if (kind == 1 && b[s->pos] == '"') {
            if (lc_scan_string(s, path)) return LC_ERR_JSON_SYNTAX;
            *have |= 1;
            *have &= ~4;
        } else if (kind == 2) {
            st = lc_scan_value(s, 1, 1);
            if (s->json_bad || s->fatal) return st;
            data_rule->code = st;
            data_rule->pos = s->rule_pos;
            memcpy(data_rule->text, s->rule_text, sizeof data_rule->text);
            *have |= 2;
        } else {
            st = lc_scan_value(s, 1, 0);
            if (s->json_bad || s->fatal) return st;
            if (kind == 1) {
                *have |= 1 | 4; /* a path that is not a string */
                sh->pos = vpos;
            }
        }
        lc_scan_ws(s);
        if (b[s->pos] == ',' && s->pos < s->end) {
            s->pos++;
            lc_scan_ws(s);
            continue;
        }
        if (b[s->pos] == '}' && s->pos < s->end) {
            s->pos++;
            return LC_OK;
        }
        goto bad;
    }
bad:
    s->json_bad = 1;
    s->json_pos = s->pos;
    return LC_ERR_JSON_SYNTAX;
}

static lc_status fail(lc_status code, size_t pos, const char *text, const char *input, lc_error *error) {
    if (error) {
        lc_error_clear(error);
        error->code = code;
        error->position = pos;
        if (input) lc_locate(input, pos, &error->line, &error->column);
        snprintf(error->text, sizeof error->text, "%s", text);
    }
    return code;
}

static lc_status finish(lc_scan *s, char *buf, size_t len, const lc_str *path, const shape *data_rule,
                        const lc_parse_options *options, lc_payload *out, lc_error *error) {
    char *p = malloc(path->len + 1);
    if (!p) return fail(LC_ERR_NOMEM, 0, "out of memory", NULL, error);
    size_t n = lc_scan_unescape(s, path, p);
    p[n] = 0;
    lc_status st = lc_path_validate(p, n, NULL);
    if (st) {
        char q[LC_ERROR_TEXT_LENGTH];
        lc_scan_quote(q, sizeof q, st == LC_ERR_PATH_TOO_LONG ? "path too long:" : "invalid path", p, n);
        free(p);
        return fail(st, path->off - 1, q, buf, error);
    }
    if (data_rule->code) {
        free(p);
        return fail(data_rule->code, data_rule->pos, data_rule->text, buf, error);
    }
    out->data = lc_doc_from_scan(s, buf, len, options ? options->order.kind : LC_ORDER_PRIORITY);
    if (!out->data) {
        free(p);
        return fail(LC_ERR_NOMEM, 0, "out of memory", NULL, error);
    }
    out->path = p;
    out->path_len = n;
    return LC_OK;
}

lc_status lc_payload_parse(const char *json, size_t len, const lc_parse_options *options,
                           lc_payload *out, lc_error *error) {
    lc_error_clear(error);
    if (!out) return fail(LC_ERR_ARGUMENT, 0, "out is NULL", NULL, error);
    memset(out, 0, sizeof *out);
    if (!json) return fail(LC_ERR_ARGUMENT, 0, "json is NULL", NULL, error);
    char *buf = lc_scan_copy(json, len);
    if (!buf) return fail(LC_ERR_NOMEM, 0, "out of memory", NULL, error);
    lc_scan s;
    shape sh = {LC_OK, 0, ""}, data_rule = {LC_OK, 0, ""};
    lc_str path = {0, 0, 0};
    int have = 0;
    lc_scan_init(&s, buf, len);
    lc_status st = lc_scan_configure(&s, options, error);
    if (st) goto done;
    lc_scan_ws(&s);
    size_t obj = s.pos;
    if (buf[obj] == '{' && obj < len) {
        st = scan_members(&s, &sh, &path, &data_rule, &have);
    } else {
        st = lc_scan_value(&s, 0, 0);
        shape_error(&sh, LC_ERR_PAYLOAD_SHAPE, obj, "payload is not an object");
    }
    if (!s.json_bad && !s.fatal) {
        lc_scan_ws(&s);
        if (s.pos < len) {
            s.json_bad = 1;
            s.json_pos = s.pos;
        }
    }
    if (s.json_bad || s.fatal) {
        st = lc_scan_report(&s, json, len, st, error);
        goto done;
    }
    if (!(have & 1)) shape_error(&sh, LC_ERR_PAYLOAD_SHAPE, obj, "payload has no \"path\"");
    if (have & 4) shape_error(&sh, LC_ERR_PAYLOAD_SHAPE, sh.pos, "payload \"path\" is not a string");
    if (!(have & 2)) shape_error(&sh, LC_ERR_PAYLOAD_SHAPE, obj, "payload has no \"data\"");
    if (sh.code) {
        st = fail(sh.code, sh.pos, sh.text, json, error);
        goto done;
    }
    st = finish(&s, buf, len, &path, &data_rule, options, out, error);
done:
    lc_scan_release(&s);
    if (st) {
        free(buf);
        memset(out, 0, sizeof *out);
    }
    return st;
}

void lc_payload_release(lc_payload *payload) {
    if (!payload) return;
    free(payload->path);
    lc_doc_free(payload->data);
    memset(payload, 0, sizeof *payload);
}
