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
/* Block size of the smallest class, which most tasks use: the task header
 * (208 bytes with the steal-tree words, task.h) and the fast path's 60
 * bytes of arguments (spawn_fast.h), in whole cache lines. */
#define XOMP_TASK_SMALL_BLOCK 320
/* A thread's cache keeps at most this many bytes of free blocks of one
 * class; past it, it gives a quarter away.  The free blocks of the
 * consumer threads are what a producer-heavy program has in flight: 256 KB
 * a class held 1.8 MB more than libgomp for 1M tasks with 256-byte
 * arguments at 8 threads, 32 KB holds 0.1 MB more (docs/memory.md); a
 * batch then moves through the depot every 16-32 tasks of a producer, one
 * CAS each. */
#define XOMP_TASK_CACHE_BYTES (32 * 1024)
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

/* A task's share of its deque's capacity: log2 of its memory in blocks of
 * the smallest class (classes of 320, 512, 1024 and 4096 bytes; arguments
 * in the heap are larger still).  A deque holds XOMP_QUEUE_SIZE small
 * tasks, or half as many of twice the size, ... (sched.c), so that a
 * producer of tasks with large arguments keeps as much memory queued as
 * one of small tasks, not up to 16 times more. */
static inline unsigned xomp_task_queue_shift(const struct xomp_task *t)
{
    static const unsigned char shift[XOMP_TASK_CLASSES + 1] = {0, 1, 2, 4, 4};
    return shift[t->size_class];
}

/* Bytes of the block from t's argument block (t->data) to its end: the
 * task's own memory for ompt_get_task_memory; 0 when t->data is not in
 * t's block or a heap block of its own (arguments read in place). */
size_t xomp_task_args_room(const struct xomp_task *t);

/* Offset of the arguments in a block when their alignment is at most that
 * of a cache line: the header rounded up to whole lines (blocks are
 * line-aligned).  The LLVM ABI's task descriptor starts there and clang
 * lays over-aligned firstprivates out from it (abi/kmp_task.c). */
#define XOMP_TASK_ARGS_OFFSET ((sizeof(struct xomp_task) + 63) & ~(size_t)63)

/* Blocks for arguments that the caller writes in place (the LLVM ABI's
 * task descriptors, abi/kmp_task.c): the arguments start at
 * XOMP_TASK_ARGS_OFFSET from a base address -- the block itself, or, for
 * arguments too large for any class, a heap block whose first bytes are a
 * shadow header (size_class XOMP_TASK_SHADOW, `next` pointing to the task
 * block), so that the task is found from its arguments' address alone.
 * The base is the task's `data`, which xomp_task_free_slow frees for a
 * heap block. */
#define XOMP_TASK_SHADOW 0xffu
_Static_assert(XOMP_TASK_ARGS_OFFSET % 16 == 0, "in-place arguments are 16-byte aligned");

/* A task with room for `size` bytes of arguments at *base +
 * XOMP_TASK_ARGS_OFFSET.  Never returns NULL. */
struct xomp_task *xomp_task_alloc_inplace(struct xomp_task_cache *cache, size_t size, void **base);

/* The task whose in-place arguments start at `args`. */
static inline struct xomp_task *xomp_task_of_inplace(void *args)
{
    struct xomp_task *h = (struct xomp_task *)(void *)((char *)args - XOMP_TASK_ARGS_OFFSET);
    return __builtin_expect(h->size_class == XOMP_TASK_SHADOW, 0) ? h->next : h;
}

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
