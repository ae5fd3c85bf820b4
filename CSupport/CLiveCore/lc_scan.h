/*
 * lc_scan.h — private: the validating single-pass JSON scanner behind
 * lc_doc_parse and lc_payload_parse.
 *
 * The scanner accepts exactly what jansson's json_loadb(JSON_DECODE_ANY)
 * accepts and, in "doc" mode, applies the Firebase rules while recording
 * the top-level children of the document (key, value span, sort value,
 * priority) without building a tree. It reads a private copy of the input
 * padded with LC_SCAN_PAD zero bytes, so that it may look a few bytes past
 * the end without bounds checks.
 */
#ifndef LC_SCAN_H
#define LC_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "lc_doc.h"
#include "lc_error.h"
#include "lc_key.h"
#include "lc_value.h"

/** Zero bytes after the input in every scanned buffer. */
#define LC_SCAN_PAD LC_DOC_PAD
/** jansson's JSON_PARSER_MAX_DEPTH: values nested in 2048 containers are rejected. */
#define LC_JSON_MAX_DEPTH 2048

/** Bit 63 of an lc_sval / lc_child offset: the bytes are in the arena, not the buffer. */
#define LC_IN_ARENA (UINT64_C(1) << 63)

/** A compact sort value or priority; strings are (offset, len) in buffer or arena. */
typedef struct lc_sval {
    union {
        double num;
        uint64_t off; /* LC_IN_ARENA | offset */
    } u;
    uint32_t len;
    uint8_t tag; /* lc_sort_tag */
} lc_sval;

/** One top-level child. */
typedef struct lc_child {
    uint64_t key_off; /* LC_IN_ARENA | offset */
    uint64_t span_off;
    uint64_t span_len;
    uint32_t key_len;
    uint16_t dead;  /* superseded by a later duplicate */
    uint16_t empty; /* null or empty: a deletion (kept in patches only) */
    lc_sval sort;
    lc_sval prio;
} lc_child;

/** A scanned string: raw bytes between the quotes. */
typedef struct lc_str {
    size_t off, len;
    int esc; /* contains escapes */
} lc_str;

/** How a value stands in its container. */
enum { R_NODE = 0, R_PRIO = 1, R_VALUE = 2 };

/** The context of a value: its node level, matched order-path segments, role. */
typedef struct lc_ctx {
    uint16_t level;
    int16_t match;   /* segments of the order path matched; -1: off the path */
    uint8_t role;    /* R_NODE, R_PRIO or R_VALUE */
    uint8_t top;     /* the value of a top-level child */
    uint8_t topnode; /* a top-level child's node (the value or its ".value") */
} lc_ctx;

/** An open object or array. */
typedef struct lc_scan_frame {
    size_t start;   /* offset of '{' or '[' */
    lc_str mkey;    /* raw key of the member being scanned */
    lc_str last_ne; /* raw key of the last non-empty member */
    lc_ctx c;       /* the container's own context */
    uint32_t index; /* next array index */
    uint8_t type;   /* '{' or '[' */
    uint8_t has_value, has_other, nonempty, uncertain, value_empty;
} lc_scan_frame;

typedef struct lc_scan {
    const unsigned char *buf; /* input, followed by LC_SCAN_PAD zero bytes */
    size_t end;               /* length of the input */
    size_t pos;
    size_t vend; /* end of the last value (before a NUL jansson skips) */

    /* configuration */
    unsigned max_depth;
    int keys_are_paths;
    int nseg; /* segments of the order's child path; -1: no per-child target */
    struct {
        const char *p;
        uint32_t len;
        int32_t index; /* canonical non-negative decimal value, or -1 */
    } seg[LC_MAX_PATH_DEPTH];

    /* state */
    int rules; /* Firebase rules and bookkeeping on */
    lc_scan_frame *fr;
    size_t nfr, fcap;

    /* results of the last lc_scan_value in doc mode */
    lc_child *ch;
    size_t nch, chcap;
    uint64_t *slots; /* hash of top-level keys: (hash32 << 32) | (index + 1) */
    size_t hcap, hused;
    uint32_t cur_hash; /* hash of cur's key (computed early to prefetch its slot) */
    struct {
        uint8_t len;
        char key[31];
    } valid[32]; /* keys lc_key_validate accepted lately, 2-way (a memo, not a rule) */
    uint8_t victim[16];
    char *arena;
    size_t alen, acap;
    char *scratch;
    size_t scap;
    lc_child cur; /* the top-level child being scanned */
    lc_sval root_prio;
    int root_leaf;
    size_t root_off, root_len;

    /* errors */
    int json_bad;     /* a JSON error was found at json_pos */
    size_t json_pos;
    lc_status fatal;  /* LC_ERR_NOMEM / LC_ERR_CAPACITY: stop at once */
    lc_status rule;   /* first Firebase rule error of the current value */
    size_t rule_pos;
    char rule_text[LC_ERROR_TEXT_LENGTH];
} lc_scan;

/* lc_scan.c */
void lc_scan_init(lc_scan *s, const char *buf, size_t len);
/** Sets the order and depth; LC_ERR_ARGUMENT (error filled) for a bad child path. */
lc_status lc_scan_configure(lc_scan *s, const lc_parse_options *o, lc_error *error);
void lc_scan_release(lc_scan *s);
/** Forgets the children, arena and priorities of a previous doc-mode scan. */
void lc_scan_reset_doc(lc_scan *s);
void lc_scan_ws(lc_scan *s);
/**
 * Scans one value at s->pos (whitespace already skipped) nested in `nesting`
 * containers. doc: apply the Firebase rules and record children. Returns
 * LC_OK, LC_ERR_JSON_SYNTAX (s->json_bad set), LC_ERR_NOMEM/LC_ERR_CAPACITY,
 * or the first rule error (the value was still scanned to its end).
 */
lc_status lc_scan_value(lc_scan *s, size_t nesting, int doc);
/** Scans a string at s->pos (which is '"'). LC_OK or LC_ERR_JSON_SYNTAX. */
lc_status lc_scan_string(lc_scan *s, lc_str *out);
/** Unescapes a validated string into out (room for str->len bytes); returns the length. */
size_t lc_scan_unescape(const lc_scan *s, const lc_str *str, char *out);
/** Records a rule error (the first one wins) and turns the rules off. */
void lc_scan_rule_error(lc_scan *s, lc_status code, size_t pos, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
/** Writes `what "key"` into text, shortened and with control bytes as '?'. */
void lc_scan_quote(char *text, size_t cap, const char *what, const char *key, size_t len);

/* lc_scan_rules.c: the Firebase rules and the bookkeeping of children */
static inline int lc_ctx_wants(const lc_scan *s, const lc_ctx *c) {
    return c->role == R_PRIO || (c->match == s->nseg && s->nseg >= 0);
}
lc_status lc_str_sval(lc_scan *s, const lc_str *str, lc_sval *sv);
lc_status lc_member_ctx(lc_scan *s, lc_scan_frame *f, const lc_str *key, size_t kq, lc_ctx *c);
void lc_element_ctx(lc_scan *s, lc_scan_frame *f, lc_ctx *c);
/** A value ended: priority, sort value, emptiness of the container, top-level child. */
lc_status lc_complete(lc_scan *s, const lc_ctx *c, int empty, const lc_sval *sv);
/** A container ended: *empty says whether it normalises to nothing. */
lc_status lc_close(lc_scan *s, const lc_scan_frame *f, int *empty);

/* lc_scan_lex.c */
/** Scans a number at s->pos; if want, *out receives its value as a double. */
lc_status lc_scan_number(lc_scan *s, int want, double *out);
/** Validates the string body starting after the opening quote; s->pos ends after the closing quote. */
lc_status lc_scan_string_body(lc_scan *s, int *esc);

/* lc_doc.c */
/** 1-based line and jansson-style column of the byte at pos. */
void lc_locate(const char *buf, size_t pos, int *line, int *column);
/** Fills *error from the scanner's failure (running jansson for JSON errors). */
lc_status lc_scan_report(lc_scan *s, const char *input, size_t len, lc_status st, lc_error *error);
/** Moves the scanner's results into a new document that owns buf. NULL on NOMEM. */
lc_doc *lc_doc_from_scan(lc_scan *s, char *buf, size_t len, lc_order_kind order);
/** A copy of json[0..len) followed by LC_SCAN_PAD zero bytes, or NULL. */
char *lc_scan_copy(const char *json, size_t len);

/* lc_digest.c */
/**
 * The digest of valid JSON text[0..len) inside a scanned buffer (what
 * follows it is valid JSON or the buffer's zero padding).
 */
lc_status lc_digest_text(const char *text, size_t len, unsigned flags, lc_digest *out);

/* lc_normalize.c */
/** Normalises v (not consumed): a new reference, NULL for an empty value; *oom on failure. */
json_t *lc_json_normalize(json_t *v, int *oom);
/** Whether the JSON text normalises to nothing. LC_OK, LC_ERR_NOMEM or LC_ERR_JSON_SYNTAX. */
lc_status lc_json_text_is_empty(const char *text, size_t len, int *empty);

#endif
