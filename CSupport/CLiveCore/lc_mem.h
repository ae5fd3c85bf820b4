/*
 * lc_mem.h — large allocations backed by huge pages where the system offers
 * them (private). Random access over a million entries is dominated by TLB
 * misses with 4 KiB pages.
 */
#ifndef LC_MEM_H
#define LC_MEM_H

#include <stddef.h>

#define LC_HUGE_PAGE ((size_t)2 << 20)

/* Like malloc; on Linux, blocks of LC_HUGE_PAGE or more are mapped aligned
 * to it and marked for transparent huge pages. Free with lc_big_free and the
 * same size. */
void *lc_big_alloc(size_t bytes);
void lc_big_free(void *p, size_t bytes);

/* Like realloc for blocks from lc_big_alloc; old_bytes is the current size.
 * On failure returns NULL and p is untouched. */
void *lc_big_realloc(void *p, size_t old_bytes, size_t new_bytes);

/* A pool of fixed-size blocks carved from chunks that double in size up to
 * LC_HUGE_PAGE (so a small pool stays small); freed blocks are reused, chunks
 * are returned only by lc_slab_destroy. */
typedef struct lc_slab {
    size_t block;     /* block size, a multiple of 16 */
    void *free_list;  /* freed blocks, linked through their first word */
    void **chunks;
    size_t n_chunks, cap_chunks;
    char *cursor, *limit; /* the unused tail of the newest chunk */
    size_t live;      /* blocks handed out and not freed */
    size_t n_free;    /* blocks on the free list */
    size_t total;     /* bytes of all chunks; chunk sizes double from 8 blocks to LC_HUGE_PAGE */
} lc_slab;

void lc_slab_init(lc_slab *slab, size_t block);
void *lc_slab_alloc(lc_slab *slab);
void lc_slab_free(lc_slab *slab, void *block);
/* Makes sure the next n lc_slab_alloc calls succeed; 0 on success, -1 when memory is exhausted. */
int lc_slab_reserve(lc_slab *slab, size_t n);
void lc_slab_destroy(lc_slab *slab);
/* Bytes reserved from the system by the slab. */
size_t lc_slab_bytes(const lc_slab *slab);

#endif
