/* lc_mem.c — huge-page-backed allocations and a fixed-size block slab. */
#include "lc_mem.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

void *lc_big_alloc(size_t bytes) {
    if (bytes < LC_HUGE_PAGE) return malloc(bytes ? bytes : 1);
    size_t size = round_up(bytes, LC_HUGE_PAGE);
    if (size < bytes) return NULL; /* overflow */
    void *p = aligned_alloc(LC_HUGE_PAGE, size);
#ifdef MADV_HUGEPAGE
    if (p) (void)madvise(p, size, MADV_HUGEPAGE); /* advice only: failure is harmless */
#endif
    return p;
}

void *lc_big_realloc(void *p, size_t old_bytes, size_t new_bytes) {
    if (new_bytes < LC_HUGE_PAGE && old_bytes < LC_HUGE_PAGE) return realloc(p, new_bytes ? new_bytes : 1);
    void *q = lc_big_alloc(new_bytes);
    if (!q) return NULL;
    if (p) {
        memcpy(q, p, old_bytes < new_bytes ? old_bytes : new_bytes);
        free(p);
    }
    return q;
}

void lc_slab_init(lc_slab *slab, size_t block) {
    memset(slab, 0, sizeof *slab);
    slab->block = round_up(block < sizeof(void *) ? sizeof(void *) : block, 16);
}

/* Starts a new chunk; what was left of the previous one joins the free list. */
static int new_chunk(lc_slab *slab) {
    if (slab->n_chunks == slab->cap_chunks) {
        size_t cap = slab->cap_chunks ? slab->cap_chunks * 2 : 8;
        void **c = realloc(slab->chunks, cap * sizeof *c);
        if (!c) return -1;
        slab->chunks = c;
        slab->cap_chunks = cap;
    }
    size_t size = slab->last_chunk ? slab->last_chunk * 2 : slab->block * 8;
    if (size > LC_HUGE_PAGE) size = slab->block > LC_HUGE_PAGE ? slab->block : LC_HUGE_PAGE;
    char *chunk = lc_big_alloc(size);
    if (!chunk) return -1;
    while (slab->cursor && (size_t)(slab->limit - slab->cursor) >= slab->block) {
        memcpy(slab->cursor, &slab->free_list, sizeof(void *));
        slab->free_list = slab->cursor;
        slab->n_free++;
        slab->cursor += slab->block;
    }
    slab->chunks[slab->n_chunks++] = chunk;
    slab->last_chunk = size;
    slab->total += size;
    slab->cursor = chunk;
    slab->limit = chunk + size;
    return 0;
}

static size_t room(const lc_slab *slab) {
    return slab->cursor ? (size_t)(slab->limit - slab->cursor) / slab->block : 0;
}

void *lc_slab_alloc(lc_slab *slab) {
    if (slab->free_list) {
        void *b = slab->free_list;
        memcpy(&slab->free_list, b, sizeof(void *));
        slab->n_free--;
        slab->live++;
        return b;
    }
    if (room(slab) == 0 && new_chunk(slab)) return NULL;
    void *b = slab->cursor;
    slab->cursor += slab->block;
    slab->live++;
    return b;
}

int lc_slab_reserve(lc_slab *slab, size_t n) {
    while (slab->n_free + room(slab) < n)
        if (new_chunk(slab)) return -1;
    return 0;
}

void lc_slab_free(lc_slab *slab, void *block) {
    if (!block) return;
    memcpy(block, &slab->free_list, sizeof(void *));
    slab->free_list = block;
    slab->n_free++;
    slab->live--;
}

void lc_slab_destroy(lc_slab *slab) {
    for (size_t i = 0; i < slab->n_chunks; i++) free(slab->chunks[i]);
    free(slab->chunks);
    size_t block = slab->block;
    lc_slab_init(slab, block);
}

size_t lc_slab_bytes(const lc_slab *slab) { return slab->total; }
