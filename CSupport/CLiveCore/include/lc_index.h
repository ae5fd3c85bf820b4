/*
 * lc_index.h — the ordered index: (sort value, key) entries in Firebase
 * order, with positions.
 *
 * An order-statistic B+ tree over compact entries, plus a hash table from
 * key to entry: every operation is O(log n), none is O(n) (bulk build
 * excepted). Each entry has a stable 32-bit id, valid from insertion until
 * removal, which callers use to keep their own per-entry data in an array.
 *
 * Ownership: the index copies keys and string sort values. Pointers it
 * returns are borrowed and valid until the next mutation of the index.
 * Not thread-safe: one index must not be used from two threads at once.
 */
#ifndef LC_INDEX_H
#define LC_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lc_doc.h"
#include "lc_error.h"
#include "lc_value.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct lc_index lc_index;

/** No entry. */
#define LC_ID_NONE UINT32_MAX

/** No position: the old position of an insertion, the new one of a removal. */
#define LC_NO_POSITION SIZE_MAX

/** A new empty index, or NULL when memory is exhausted. */
lc_index *lc_index_new(void);

/** Frees the index. NULL is ignored. - Complexity: O(log n): nodes live in a
 *  few large chunks. */
void lc_index_free(lc_index *index);

/** Number of entries (0 for NULL). */
size_t lc_index_count(const lc_index *index);

/**
 * Inserts key with sort value v. *position receives its index in order and
 * *id its id (both may be NULL). LC_ERR_DUPLICATE_KEY if key is present,
 * LC_ERR_KEY_TOO_LONG / LC_ERR_ARGUMENT for unusable input; nothing changes
 * on error. - Complexity: O(log n).
 */
lc_status lc_index_insert(lc_index *index, const char *key, size_t key_len,
                          const lc_value *v, size_t *position, uint32_t *id);

/**
 * Removes key. *position receives the index it had, *id its id.
 * LC_ERR_NOT_FOUND if absent. - Complexity: O(log n).
 */
lc_status lc_index_remove(lc_index *index, const char *key, size_t key_len,
                          size_t *position, uint32_t *id);

/**
 * Changes the sort value of key to v: *old_position is its index before,
 * *new_position after. LC_ERR_NOT_FOUND if absent. - Complexity: O(log n).
 */
lc_status lc_index_update(lc_index *index, const char *key, size_t key_len,
                          const lc_value *v, size_t *old_position, size_t *new_position);

/**
 * Updates key to v when present, inserts it otherwise: *old_position is its
 * position before (LC_NO_POSITION when inserted), *new_position after, *id
 * its id. Any output may be NULL. Errors as lc_index_insert / lc_index_update.
 * - Complexity: O(log n).
 */
lc_status lc_index_upsert(lc_index *index, const char *key, size_t key_len, const lc_value *v,
                          size_t *old_position, size_t *new_position, uint32_t *id);

/** What one event of lc_index_apply does. */
typedef enum lc_op {
    LC_OP_INSERT = 0, /* as lc_index_insert */
    LC_OP_REMOVE = 1, /* as lc_index_remove */
    LC_OP_UPDATE = 2, /* as lc_index_update */
    LC_OP_UPSERT = 3, /* update when present, insert otherwise */
} lc_op;

/** One event: the key (and value, but for removals) are borrowed for the call. */
typedef struct lc_event {
    lc_op op;
    const char *key;
    size_t key_len;
    lc_value value;
} lc_event;


/** What one event did: its status, and positions as the single-event calls report them. */
typedef struct lc_event_result {
    lc_status status;
    size_t old_position;
    size_t new_position;
    uint32_t id;
} lc_event_result;

/**
 * Applies n events in order, each exactly as the single-event call would
 * (an event that fails changes nothing and the next one goes on), and
 * writes one result per event. It overlaps the memory accesses of upcoming
 * events with the work of the current one, which matters once the index is
 * larger than the caches: it loads their hash slots, records and leaves
 * ahead, and keeps the way down to each new place, which the event then
 * takes unless the tree's shape changed meanwhile. Returns the number of
 * events that succeeded.
 * results may be NULL. - Complexity: O(n log count).
 */
size_t lc_index_apply(lc_index *index, const lc_event *events, size_t n, lc_event_result *results);

/** Index of key in order. LC_ERR_NOT_FOUND if absent. - Complexity: O(log n). */
lc_status lc_index_find(const lc_index *index, const char *key, size_t key_len,
                        size_t *position, uint32_t *id);

/**
 * Entry at position: key (borrowed), sort value (strings borrowed), id; any
 * output may be NULL. LC_ERR_ARGUMENT if position >= count.
 * - Complexity: O(log n).
 */
lc_status lc_index_at(const lc_index *index, size_t position, const char **key,
                      size_t *key_len, lc_value *v, uint32_t *id);

/** Key and sort value of an id (borrowed). LC_ERR_NOT_FOUND for a free id. O(1). */
lc_status lc_index_entry(const lc_index *index, uint32_t id, const char **key,
                         size_t *key_len, lc_value *v);

/**
 * Number of entries ordered before the post (v, key): the position of the
 * first entry >= the post. A NULL key stands before every key, so the result
 * is the first entry whose value is >= v (startAt(v) / endBefore(v)).
 * - Complexity: O(log n).
 */
size_t lc_index_lower_bound(const lc_index *index, const lc_value *v,
                            const char *key, size_t key_len);

/**
 * Number of entries ordered before or at the post (v, key): the position of
 * the first entry > the post. A NULL key stands after every key
 * (endAt(v) / startAfter(v)). - Complexity: O(log n).
 */
size_t lc_index_upper_bound(const lc_index *index, const lc_value *v,
                            const char *key, size_t key_len);

/**
 * Replaces the whole content by the children of doc (under the doc's order),
 * sorting them in bulk: child i of doc gets entry id i. On error the index is
 * unchanged. The index does not keep doc (keys and values are copied).
 * - Complexity: O(n log n) comparisons, no per-entry allocation.
 */
lc_status lc_index_build_from_doc(lc_index *index, const lc_doc *doc);

/** One entry of a bulk build: a key and its sort value, borrowed for the call. */
typedef struct lc_entry {
    const char *key;
    size_t key_len;
    lc_value value;
} lc_entry;

/**
 * Replaces the whole content by the n entries (any order), sorting them in
 * bulk: entries[i] gets entry id i. Every key and value is checked first:
 * LC_ERR_ARGUMENT for a NULL index, NULL entries with n > 0 or an invalid
 * value, the key's own error for an invalid key, LC_ERR_DUPLICATE_KEY when
 * a key is given twice; on any error the index is unchanged. The index does
 * not keep the entries (keys and values are copied).
 * - Complexity: O(n log n) comparisons, no per-entry allocation.
 */
lc_status lc_index_build(lc_index *index, const lc_entry *entries, size_t n);

/** Removes every entry and returns the memory. LC_ERR_NOMEM (nothing changed)
 *  if the new empty root cannot be allocated. - Complexity: O(chunks). */
lc_status lc_index_clear(lc_index *index);

/** In-order iteration from a position. Invalidated by any mutation. */
typedef struct lc_index_iter {
    const void *leaf;
    unsigned slot;
    const lc_index *index;
} lc_index_iter;

/** Positions it at position (== count gives an exhausted iterator). */
lc_status lc_index_iter_init(const lc_index *index, size_t position, lc_index_iter *it);

/** Next entry, or false at the end. Outputs may be NULL. - Complexity: O(1) amortised. */
bool lc_index_iter_next(lc_index_iter *it, const char **key, size_t *key_len,
                        lc_value *v, uint32_t *id);

/** Memory held by the index, in bytes, and the part of it that is key and string-value bytes. */
void lc_index_memory(const lc_index *index, size_t *total_bytes, size_t *payload_bytes);

/**
 * Checks every structural invariant (order, counts, hash table, ids);
 * LC_OK or LC_ERR_ARGUMENT with error->text saying what is broken. For tests.
 * - Complexity: O(n).
 */
lc_status lc_index_check(const lc_index *index, lc_error *error);

#ifdef __cplusplus
}
#endif

#endif
