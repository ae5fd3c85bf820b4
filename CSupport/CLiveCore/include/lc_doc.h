/*
 * lc_doc.h — parsed snapshots: REST bodies and stream payloads.
 *
 * A document is parsed once, validated whole (JSON syntax exactly as jansson
 * accepts it, Firebase keys, depth), and keeps its bytes: each child's value
 * stays as JSON text until someone reads it, and is then parsed by jansson.
 * Parsing never applies anything partially: it yields a complete document or
 * an error with its position.
 *
 * Ownership: an lc_doc owns a copy of the input. Pointers returned by the
 * lc_doc_* accessors are borrowed from the document and valid until
 * lc_doc_free. json_t values returned are new references (the caller must
 * json_decref them). A document never changes after parsing: its accessors
 * may be called from several threads at once.
 *
 * Terms used below:
 * - Level: the document itself is level 0. The value of an object member
 *   (other than ".priority" and ".value") or of an array element is one
 *   level below its container; the value of ".value" is the same node as its
 *   wrapper, at the same level. In a patch (keys_are_paths), a top-level key
 *   "a/b/c" puts its value at level 3. A member or element at a level above
 *   max_depth fails with LC_ERR_TOO_DEEP: with the default 32, a value at the
 *   end of 32 keys is fine, a 33rd key is too deep.
 * - Empty: a value that normalises to nothing (see lc_doc_child_json): null,
 *   {}, [], {"x": null}, {".priority": 1}, {".value": null}, ... An empty
 *   top-level member is an absent child.
 * - Errors, in order of precedence: a JSON error anywhere (jansson's own
 *   line, column, position and text, from json_loadb on the same bytes);
 *   for payloads, then the shape, then the path; then the first Firebase rule
 *   error in document order. For rule errors, position is the byte offset
 *   (from 0) of the offending token: the opening quote of a bad key or path,
 *   the first byte of a ".priority" value or of a too-deep array element;
 *   line is 1-based and column counts UTF-8 characters of that line up to
 *   and including that byte (jansson's way). Texts are short and say what
 *   was wrong, e.g. `invalid key "a.b" (contains '.')`.
 */
#ifndef LC_DOC_H
#define LC_DOC_H

#include <stddef.h>
#include <stdint.h>
#include <jansson.h>

#include "lc_error.h"
#include "lc_value.h"

#ifdef __cplusplus
extern "C" {
#endif

/** What children are ordered by. */
typedef enum lc_order_kind {
    /** Priority, then key: Firebase's default order. */
    LC_ORDER_PRIORITY = 0,
    /** Key only (every sort value is null). */
    LC_ORDER_KEY = 1,
    /** The child's own value. */
    LC_ORDER_VALUE = 2,
    /** The value at a relative path inside the child ("a/b"). */
    LC_ORDER_CHILD = 3,
} lc_order_kind;

/**
 * An order. child_path is borrowed for the duration of a call; for
 * LC_ORDER_CHILD it must pass lc_path_validate (else LC_ERR_ARGUMENT), and an
 * empty path ("" or "/") orders by the child's own value.
 */
typedef struct lc_order {
    lc_order_kind kind;
    const char *child_path;
    size_t child_path_len;
} lc_order;

typedef struct lc_parse_options {
    /** The order whose sort value is computed for every child. */
    lc_order order;
    /** Deepest nesting allowed, counting the document itself as level 0's
     *  children at level 1; 0 means LC_MAX_PATH_DEPTH (32). See "Level" above. */
    unsigned max_depth;
    /** Non-zero for a patch: top-level keys are relative paths ("a/b"),
     *  validated as paths, not keys. */
    int keys_are_paths;
} lc_parse_options;

typedef enum lc_doc_kind {
    /** null, or an object or array with no children. */
    LC_DOC_NULL = 0,
    /** A primitive (boolean, number, string). */
    LC_DOC_LEAF = 1,
    /** An object (or an array standing for one) with at least one child. */
    LC_DOC_CHILDREN = 2,
} lc_doc_kind;

typedef struct lc_doc lc_doc;

/**
 * Parses json[0..len) as a snapshot. Rules:
 * - Any JSON value may stand at the top (jansson's JSON_DECODE_ANY); U+0000
 *   in strings, invalid UTF-8, integers beyond int64 and reals beyond double
 *   are rejected as jansson rejects them.
 * - An array stands for an object with keys "0", "1", ...; null entries are
 *   absent children. Object members whose value is null are absent too.
 * - Export format: ".priority" members give a node's priority (a number or
 *   a string); {".value": v, ".priority": p} is the leaf v with priority p.
 *   ".priority" is never a child.
 * - Every other key must pass lc_key_validate (or lc_path_validate for the
 *   top-level keys when options->keys_are_paths).
 * - Nesting deeper than options->max_depth fails with LC_ERR_TOO_DEEP.
 * - A key present twice in one object: the last occurrence wins.
 * - ".priority" must be a number, a string or null, and ".value" may only
 *   stand beside ".priority": otherwise LC_ERR_VALUE_INVALID.
 * - Children are listed in the document order of their last occurrence;
 *   empty members are absent (they still replace an earlier occurrence),
 *   except at the top of a patch (keys_are_paths), where an empty member is
 *   kept as a deletion (see lc_doc_child_is_null).
 * - Sort values (lc_doc_sort_value): LC_ORDER_KEY gives null for every
 *   child; LC_ORDER_PRIORITY the child's priority; LC_ORDER_VALUE the child's
 *   own value; LC_ORDER_CHILD the value at child_path inside the child. A
 *   value is read as its normalised form: {".value": v, ...} counts as v, an
 *   empty value or a missing member, or a path passing through a primitive,
 *   is null, any other object or array is LC_SORT_OBJECT, numbers are doubles
 *   (an integer converts as (double) of its int64, as json_number_value does).
 *   In a patch the sort value is that of the value at the (path) key.
 * - A child's priority is the last ".priority" member of its node (the
 *   child's object, or the object its ".value" holds); the document's is the
 *   top-level one. The priority of a node without one is null.
 * - Like jansson, one NUL byte right after a number or a literal (true,
 *   false, null) is skipped (jansson's lexer cannot push back a 0 byte).
 * options may be NULL (priority order, depth 32). On success *out receives a
 * new document; on failure *out is NULL and *error (if non-NULL) says what and
 * where: for JSON errors, jansson's own line, column, position and text.
 * json may not be NULL (LC_ERR_ARGUMENT), even with len 0.
 * - Complexity: O(len), one pass, no allocation per nested value (except
 *   in one rare case: an object whose last non-empty member is followed by
 *   an empty member of the same key is re-parsed with jansson to decide
 *   whether it is empty).
 */
lc_status lc_doc_parse(const char *json, size_t len, const lc_parse_options *options,
                       lc_doc **out, lc_error *error);

/** The zero bytes lc_doc_check needs after the text to read it in place. */
#define LC_DOC_PAD 16

/**
 * Checks json[0..len) as lc_doc_parse would, with the same status and
 * error, without making a document.
 *
 * When the caller's buffer holds size bytes with size >= len + LC_DOC_PAD
 * and json[len..len+LC_DOC_PAD) are zero bytes, the text is read where it
 * lies; otherwise it is copied first, as lc_doc_parse copies it. json is
 * only read, never past size. json may not be NULL, and size may not be
 * less than len (LC_ERR_ARGUMENT).
 * - Complexity: O(len), one pass; no copy of a padded text.
 */
lc_status lc_doc_check(const char *json, size_t len, size_t size, const lc_parse_options *options,
                       lc_error *error);

/** Frees a document. NULL is ignored. */
void lc_doc_free(lc_doc *doc);

/** The kind of the document. NULL doc is LC_DOC_NULL. */
lc_doc_kind lc_doc_kind_of(const lc_doc *doc);

/** Number of children (0 unless LC_DOC_CHILDREN). */
size_t lc_doc_count(const lc_doc *doc);

/**
 * Key of child i (document order, duplicates removed), unescaped UTF-8,
 * borrowed. NULL if doc is NULL or i is out of range; *len may be NULL.
 */
const char *lc_doc_key(const lc_doc *doc, size_t i, size_t *len);

/**
 * Sort value of child i under the document's order (strings borrowed from
 * the document). LC_ERR_ARGUMENT if i is out of range.
 */
lc_status lc_doc_sort_value(const lc_doc *doc, size_t i, lc_value *out);

/**
 * Priority of child i: LC_SORT_NULL, LC_SORT_NUMBER or LC_SORT_STRING
 * (strings borrowed). LC_ERR_ARGUMENT if i is out of range.
 */
lc_status lc_doc_priority(const lc_doc *doc, size_t i, lc_value *out);

/** Priority of the document itself (its top-level ".priority"). */
lc_status lc_doc_root_priority(const lc_doc *doc, lc_value *out);

/**
 * The JSON text of child i exactly as received (export members included),
 * from its first byte to its last (no surrounding whitespace), borrowed.
 * LC_ERR_ARGUMENT if i is out of range.
 */
lc_status lc_doc_child_text(const lc_doc *doc, size_t i, const char **json, size_t *len);

/**
 * The JSON text of the whole document exactly as received (export members
 * included), from its first byte to its last, borrowed.
 */
lc_status lc_doc_root_text(const lc_doc *doc, const char **json, size_t *len);

/**
 * A quick read of the value at a relative path ("a/b", segments split at '/')
 * inside child i, from its text without parsing it: *decided is 1 and *out
 * is what lc_doc_sort_value gives child i of a document ordered by that
 * child path (LC_SORT_NULL when the path ends in nothing or passes through a
 * primitive; strings borrowed from the document) for the common shapes:
 * objects whose member names have no escapes and no ".value" member along
 * the path, and at its end a string without escapes, an integer of at most
 * 15 digits, true, false or null. For anything else *decided is 0 and *out
 * is untouched: parse the child instead. The path must be valid (see
 * lc_path_validate); an empty path reads the child itself.
 * LC_ERR_ARGUMENT for a NULL doc, out or decided, a NULL path with a length,
 * or i out of range.
 * - Complexity: O(length of the child's text), with no allocation.
 */
lc_status lc_doc_child_path_value(const lc_doc *doc, size_t i, const char *path, size_t path_len, lc_value *out,
                                  int *decided);

/**
 * Whether child i's value is null or empty (an object or array with nothing
 * but null, empty or ".priority" members). Only a patch keeps such members:
 * they are deletions. 0 for NULL doc or i out of range. - Complexity: O(1).
 */
int lc_doc_child_is_null(const lc_doc *doc, size_t i);

/**
 * Child i's value parsed by jansson: a new reference, with ".priority"
 * members removed at every level and {".value": v} wrappers replaced by v;
 * arrays standing for children become objects keyed "0", "1", ... without
 * null entries; null members are dropped and a container left empty counts
 * as null (and is dropped from its parent). NULL on error (then *error says
 * why: LC_ERR_ARGUMENT, LC_ERR_NOMEM; error may be NULL).
 * - Complexity: O(size of the child's text).
 */
json_t *lc_doc_child_json(const lc_doc *doc, size_t i, lc_error *error);

/**
 * The whole document's value, normalised as lc_doc_child_json does: a new
 * reference (json_null() for LC_DOC_NULL), NULL on error.
 * - Complexity: O(size of the document): it parses everything.
 */
json_t *lc_doc_root_json(const lc_doc *doc, lc_error *error);

/**
 * A 128-bit canonical digest of a value (lc_doc_child_digest, lc_json_digest).
 * Two values equal in Firebase, export value included, have equal digests
 * however they are spelled: members in any order, numbers compared as
 * doubles (1, 1.0 and 1e0 are one number; -0 is 0), strings by their
 * unescaped bytes, arrays as objects keyed "0", "1", ..., {".value": v} as v,
 * null members and empty containers absent, a key given twice counted by
 * its last occurrence. With LC_DIGEST_PRIORITIES, priorities count at every
 * level (a node's non-null ".priority"), as in a snapshot's export value;
 * without it only the normalised value counts (lc_doc_child_json's). Distinct values
 * have distinct digests except with probability about 2^-64 per pair. An
 * absent (null or empty) value's digest is {0, 0}.
 */
typedef struct lc_digest {
    uint64_t high, low;
} lc_digest;

/** Digest flag: priorities count (the export value). */
#define LC_DIGEST_PRIORITIES 1u

/**
 * The digest of child i's value, read from its text without building a tree
 * (an object with a key twice is read again by jansson). LC_ERR_ARGUMENT if
 * doc or out is NULL or i is out of range; LC_ERR_NOMEM.
 * - Complexity: O(size of the child's text).
 */
lc_status lc_doc_child_digest(const lc_doc *doc, size_t i, unsigned flags, lc_digest *out);

/**
 * The digest of the whole document's value (its top-level ".priority"
 * included), as lc_doc_child_digest reads a child. LC_ERR_ARGUMENT if doc or
 * out is NULL; LC_ERR_NOMEM.
 * - Complexity: O(size of the document).
 */
lc_status lc_doc_root_digest(const lc_doc *doc, unsigned flags, lc_digest *out);

/**
 * The digest of a jansson value, read as Firebase data (export members,
 * arrays and nulls as lc_doc_child_digest reads them); value is borrowed
 * (NULL is absent). LC_ERR_ARGUMENT if out is NULL.
 * - Complexity: O(size of the value).
 */
lc_status lc_json_digest(const json_t *value, unsigned flags, lc_digest *out);

/**
 * Digests built from their parts, for data held otherwise than as text (a
 * tree of nodes): each equals what lc_digest_of_text gives the value the
 * parts spell. A leaf: lc_digest_bool, lc_digest_number (-0 as 0) or
 * lc_digest_string (the string's bytes, unescaped). An object: its members
 * added in any order to a zeroed lc_digest_members (an absent value, {0, 0},
 * is no member), then lc_digest_object (absent when no member was added). A
 * node with a priority: lc_digest_with_priority (the value alone when either
 * is absent), the priority's own digest being a leaf's.
 * NULL members are ignored; a NULL key counts as the empty key when key_len
 * is 0 and is ignored otherwise.
 * - Complexity: O(1), or O(length) for a string or a key.
 */
lc_digest lc_digest_bool(int value);
lc_digest lc_digest_number(double value);
lc_digest lc_digest_string(const char *bytes, size_t len);

/** An object's members added so far (zero it before the first). */
typedef struct lc_digest_members {
    uint64_t sum_high, sum_low, count;
} lc_digest_members;

void lc_digest_members_add(lc_digest_members *members, const char *key, size_t key_len, lc_digest value);
/**
 * Takes back a member lc_digest_members_add added (the same key and value),
 * so that an object's digest follows a change of one member without adding
 * the others again: remove the old member, add the new one. Removing a
 * member that was not added gives a digest no set of members has. Ignores
 * what lc_digest_members_add ignores, and a removal from no member.
 * - Complexity: O(length of the key).
 */
void lc_digest_members_remove(lc_digest_members *members, const char *key, size_t key_len, lc_digest value);
lc_digest lc_digest_object(const lc_digest_members *members);
lc_digest lc_digest_with_priority(lc_digest value, lc_digest priority);

/**
 * The digest of the value text[0..len) spells, checked first as JSON
 * (what jansson's json_loadb accepts; keys are not checked against
 * Firebase's rules); text need not be padded. LC_ERR_ARGUMENT if out is NULL
 * or text is NULL with len > 0; LC_ERR_JSON_SYNTAX (or the scanner's
 * status) when the text is not one JSON value; LC_ERR_NOMEM.
 * - Complexity: O(len): a copy, the check and the walk.
 */
lc_status lc_digest_of_text(const char *text, size_t len, unsigned flags, lc_digest *out);

/**
 * A digester: the work space of lc_digest_of_text, kept from one text to
 * the next so that digesting many small texts allocates nothing after the
 * first. Used by one thread at a time; owned by the caller, who frees it
 * with lc_digester_free (NULL is ignored). lc_digester_new returns NULL when
 * memory runs out.
 */
typedef struct lc_digester lc_digester;
lc_digester *lc_digester_new(void);
void lc_digester_free(lc_digester *digester);
/** lc_digest_of_text with digester's work space (LC_ERR_ARGUMENT for a NULL digester). */
lc_status lc_digester_digest(lc_digester *digester, const char *text, size_t len, unsigned flags, lc_digest *out);

/**
 * A stream event's payload, {"path": P, "data": D}: path is a NUL-terminated
 * copy of P, unescaped (owned), data the parsed D (owned). data keeps the
 * payload's bytes: its child texts and all error positions are relative to
 * the whole payload.
 */
typedef struct lc_payload {
    char *path;
    size_t path_len;
    lc_doc *data;
} lc_payload;

/**
 * Parses a put or patch payload: an object with a string "path" (validated
 * with lc_path_validate) and a "data" member (parsed as lc_doc_parse does,
 * with options; for a patch set options->keys_are_paths). Other members are
 * ignored (they must be valid JSON; their keys are not checked); a member
 * present twice counts by its last occurrence, as in jansson. Shape errors
 * (LC_ERR_PAYLOAD_SHAPE) point at the payload's first non-blank byte, or at the value
 * of a "path" that is not a string; path errors at the path's opening quote.
 * On failure *out is zeroed and nothing is allocated.
 * - Complexity: O(len).
 */
lc_status lc_payload_parse(const char *json, size_t len, const lc_parse_options *options,
                           lc_payload *out, lc_error *error);

/** Frees what a payload owns and zeroes it. NULL is ignored. */
void lc_payload_release(lc_payload *payload);

#ifdef __cplusplus
}
#endif

#endif
