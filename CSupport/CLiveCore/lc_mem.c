/* lc_mem.c — huge-page-backed allocations and a fixed-size block slab. */
#if defined(__linux__) && !defined(_DEFAULT_SOURCE)
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS and madvise */
#endif
#include "lc_mem.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__linux__)
#include <sys/mman.h>
#define LC_USE_MMAP 1
#endif

static size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

void *lc_big_alloc(size_t bytes) {
#ifdef LC_USE_MMAP
    if (bytes >= LC_HUGE_PAGE) {
        size_t size = round_up(bytes, LC_HUGE_PAGE);
        if (size < bytes || size + LC_HUGE_PAGE < size) return NULL; /* overflow */
        /* Map one huge page more, then trim to a 2 MiB-aligned range. */
        char *raw = mmap(NULL, size + LC_HUGE_PAGE, PROT_READ | PROT_WRITE,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (raw == MAP_FAILED) return NULL;
        char *p = (char *)round_up((size_t)(uintptr_t)raw, LC_HUGE_PAGE);
        size_t head = (size_t)(p - raw), tail = LC_HUGE_PAGE - head;
        if (head) munmap(raw, head);
        if (tail) munmap(p + size, tail);
#ifdef MADV_HUGEPAGE
        (void)madvise(p, size, MADV_HUGEPAGE); /* advice only: failure is harmless */
#endif
        return p;
    }
#endif
    return malloc(bytes ? bytes : 1);
}

void lc_big_free(void *p, size_t bytes) {
    if (!p) return;
#ifdef LC_USE_MMAP
    if (bytes >= LC_HUGE_PAGE) {
        munmap(p, round_up(bytes, LC_HUGE_PAGE));
        return;
    }
#endif
    (void)bytes;
    free(p);
}

void *lc_big_realloc(void *p, size_t old_bytes, size_t new_bytes) {
    if (new_bytes < LC_HUGE_PAGE && old_bytes < LC_HUGE_PAGE) return realloc(p, new_bytes ? new_bytes : 1);
    void *q = lc_big_alloc(new_bytes);
    if (!q) return NULL;
    if (p) {
        memcpy(q, p, old_bytes < new_bytes ? old_bytes : new_bytes);
        lc_big_free(p, old_bytes);
    }
    return q;
}

void lc_slab_init(lc_slab *slab, size_t block) {
    memset(slab, 0, sizeof *slab);
    slab->block = round_up(block < sizeof(void *) ? sizeof(void *) : block, 16);
}

/* Chunk i holds 8 << i blocks, up to LC_HUGE_PAGE bytes: sizes need no storing. */
static size_t chunk_size(const lc_slab *slab, size_t i) {
    size_t size = slab->block * 8;
    while (i-- && size < LC_HUGE_PAGE) size *= 2;
    if (size > LC_HUGE_PAGE) size = slab->block > LC_HUGE_PAGE ? slab->block : LC_HUGE_PAGE;
    return size;
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
    size_t size = chunk_size(slab, slab->n_chunks);
    char *chunk = lc_big_alloc(size);
    if (!chunk) return -1;
    while (slab->cursor && (size_t)(slab->limit - slab->cursor) >= slab->block) {
        memcpy(slab->cursor, &slab->free_list, sizeof(void *));
        slab->free_list = slab->cursor;
        slab->n_free++;
        slab->cursor += slab->block;
    }
    slab->chunks[slab->n_chunks++] = chunk;
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
    for (size_t i = 0; i < slab->n_chunks; i++) lc_big_free(slab->chunks[i], chunk_size(slab, i));
    free(slab->chunks);
    size_t block = slab->block;
    lc_slab_init(slab, block);
}

size_t lc_slab_bytes(const lc_slab *slab) { return slab->total; }
