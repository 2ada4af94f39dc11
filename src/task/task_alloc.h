/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Task memory: per-thread caches of fixed-size blocks, so that creating a
 * task does not call malloc in steady state.
 *
 * A block is returned to the cache of the thread that frees it, whoever
 * allocated it.  Producer-heavy programs therefore drain one thread's cache
 * and fill another's; a thread whose cache grows past a bound hands a
 * batch of blocks to a process-wide depot, and a thread whose cache is empty
 * takes the depot's batches.  The depot is a Treiber stack of batches that
 * is only pushed to (CAS) or emptied whole (exchange), so it has no ABA
 * problem; it is touched once per batch, not per task.
 */
#ifndef XOMP_TASK_ALLOC_H
#define XOMP_TASK_ALLOC_H

#include "task.h"

#include <stddef.h>
#include <stdint.h>

#define XOMP_TASK_CLASSES 4
/* Block size of the smallest class, which most tasks use. */
#define XOMP_TASK_SMALL_BLOCK 256
/* A thread's cache keeps at most this many bytes of free blocks of one
 * class; past it, it gives a quarter away.  (The free blocks of a consumer
 * thread are what a producer-heavy program has in flight: 4096 blocks a
 * class held 2-3 MB for a loop of small tasks.) */
#define XOMP_TASK_CACHE_BYTES (256 * 1024)
/* ... in blocks of the smallest class (the inline free's bound). */
#define XOMP_TASK_CACHE_HIGH (XOMP_TASK_CACHE_BYTES / XOMP_TASK_SMALL_BLOCK)

struct xomp_task_cache {
    struct xomp_task *free[XOMP_TASK_CLASSES];
    uint32_t count[XOMP_TASK_CLASSES];
    uint32_t chunks[XOMP_TASK_CLASSES]; /* chunks this cache got from malloc */
};

/* A task with room for arg_size bytes of arguments aligned to arg_align;
 * *args receives their address.  Never returns NULL (aborts with a message
 * when memory is exhausted). */
struct xomp_task *xomp_task_alloc(struct xomp_task_cache *cache, size_t arg_size,
                                  size_t arg_align, void **args);

/* Slow paths of the inline functions below. */
struct xomp_task *xomp_task_refill_small(struct xomp_task_cache *cache);
void xomp_task_free_slow(struct xomp_task_cache *cache, struct xomp_task *task);

/* Bytes of the block from t's argument block (t->data) to its end: the
 * task's own memory for ompt_get_task_memory; 0 when t->data is not in
 * t's block or a heap block of its own (arguments read in place). */
size_t xomp_task_args_room(const struct xomp_task *t);

/* Offset of the arguments in a block when their alignment is at most that
 * of a pointer. */
#define XOMP_TASK_ARGS_OFFSET ((sizeof(struct xomp_task) + 7) & ~(size_t)7)

/* Fast path: a block of the smallest class (the caller checked that the
 * arguments fit at XOMP_TASK_ARGS_OFFSET). */
static inline struct xomp_task *xomp_task_alloc_small(struct xomp_task_cache *cache)
{
    struct xomp_task *t = cache->free[0];
    if (__builtin_expect(!t, 0))
        return xomp_task_refill_small(cache);
    cache->free[0] = t->next;
    cache->count[0]--;
    return t; /* size_class is 0 in every block of this list */
}

static inline void xomp_task_free(struct xomp_task_cache *cache, struct xomp_task *t)
{
    unsigned cls = t->size_class;
    if (__builtin_expect(cls != 0 || cache->count[0] >= XOMP_TASK_CACHE_HIGH, 0)) {
        xomp_task_free_slow(cache, t);
        return;
    }
    t->next = cache->free[0];
    cache->free[0] = t;
    cache->count[0]++;
}

#endif
