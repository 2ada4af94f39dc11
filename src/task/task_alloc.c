/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "task_alloc.h"

#include "../runtime/log.h"
#include "task.h"

#include <limits.h>
#include <malloc.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* Block sizes of the classes; a task needing more is malloc'ed. */
static const size_t class_size[XOMP_TASK_CLASSES] = {XOMP_TASK_SMALL_BLOCK, 512, 1024, 4096};

/* Blocks obtained from malloc at once when a cache and the depot are empty:
 * 4 the first time, twice as many each time after, and never more than
 * CHUNK_BYTES (at least one block).  Most threads of a large team run few
 * tasks (2,048 threads holding 64 blocks each would be 32 MB), and a
 * thread's blocks should grow with what it has in flight (chunks of 64
 * blocks held 0.1 MB more than libgomp for fib(30) at 8 threads,
 * docs/memory.md); steady state takes no chunk. */
#define CHUNK_BLOCKS_FIRST 4
#define CHUNK_BYTES 4096
/* Blocks of a class a cache may keep, and how many it gives to the depot
 * at once when it holds more. */
static uint32_t cache_high(unsigned cls)
{
    return (uint32_t)(XOMP_TASK_CACHE_BYTES / class_size[cls]);
}

static uint32_t depot_batch(unsigned cls)
{
    return cache_high(cls) / 4;
}

/* A batch of free blocks in the depot is a list of blocks linked through
 * `next`, as in a cache.  Its first block holds the batch's own fields in
 * fields of a task that no other thread reads while the block is free:
 * `data` links the depot's batches, `created_children` counts the blocks.
 * Never `parent`, `level` or `child_state`: the lineage checks may read
 * those of any block at any time (sched/lineage.h), with atomic loads,
 * and must find a task's values there, never a batch's. */
static struct xomp_task *batch_next(const struct xomp_task *b)
{
    return b->data;
}

static _Atomic(struct xomp_task *) depot[XOMP_TASK_CLASSES];

static void depot_push(unsigned cls, struct xomp_task *b)
{
    /* relaxed load, then release CAS: a taker's acquire exchange sees the
     * batch's contents.  Pushing cannot suffer ABA: the CAS only succeeds if
     * the head is the one we linked to. */
    struct xomp_task *head = atomic_load_explicit(&depot[cls], memory_order_relaxed);
    do
        b->data = head;
    while (!atomic_compare_exchange_weak_explicit(&depot[cls], &head, b, memory_order_release,
                                                  memory_order_relaxed));
}

/* Move every batch in the depot into the cache.  Returns blocks moved. */
static uint32_t depot_take_all(struct xomp_task_cache *cache, unsigned cls)
{
    if (!atomic_load_explicit(&depot[cls], memory_order_relaxed))
        return 0;
    /* acquire: pairs with the release CAS in depot_push. */
    struct xomp_task *b = atomic_exchange_explicit(&depot[cls], NULL, memory_order_acquire);
    uint32_t moved = 0;
    while (b) {
        struct xomp_task *next = batch_next(b);
        uint32_t count = (uint32_t)b->created_children;
        /* Append the whole batch to the cache list. */
        struct xomp_task *tail = b;
        while (tail->next)
            tail = tail->next;
        tail->next = cache->free[cls];
        cache->free[cls] = b;
        cache->count[cls] += count;
        moved += count;
        b = next;
    }
    return moved;
}

static void cache_refill(struct xomp_task_cache *cache, unsigned cls)
{
    if (depot_take_all(cache, cls))
        return;
    size_t size = class_size[cls];
    uint32_t grown = cache->chunks[cls]++;
    int blocks = grown < 4 ? CHUNK_BLOCKS_FIRST << grown : INT_MAX;
    int most = size < CHUNK_BYTES ? (int)(CHUNK_BYTES / size) : 1;
    if (blocks > most)
        blocks = most;
    char *chunk = aligned_alloc(64, size * (size_t)blocks);
    if (!chunk)
        xomp_fatal("out of memory allocating task storage (%zu bytes)", size * (size_t)blocks);
    for (int i = blocks - 1; i >= 0; i--) {
        struct xomp_task *t = (struct xomp_task *)(void *)(chunk + (size_t)i * size);
        t->size_class = (uint8_t)cls; /* kept for the block's life (alloc_small relies on it) */
        /* No placement restriction: the task fast paths never write it
         * (task.h, sched/home.h).  An atomic store, not atomic_init: a
         * thief's speculative look at a stale deque slot (validated by its
         * CAS on top) may read it without synchronising with this thread.
         * relaxed: type-stable storage, the value only advice until then. */
        atomic_store_explicit(&t->home, 0, memory_order_relaxed);
        t->next = cache->free[cls];
        cache->free[cls] = t;
    }
    cache->count[cls] += (uint32_t)blocks;
}

static void cache_spill(struct xomp_task_cache *cache, unsigned cls)
{
    uint32_t batch = depot_batch(cls);
    struct xomp_task *first = cache->free[cls];
    struct xomp_task *last = first;
    for (uint32_t i = 1; i < batch; i++)
        last = last->next;
    cache->free[cls] = last->next;
    cache->count[cls] -= batch;
    last->next = NULL;
    first->created_children = batch;
    depot_push(cls, first);
}

struct xomp_task *xomp_task_refill_small(struct xomp_task_cache *cache)
{
    cache_refill(cache, 0);
    return xomp_task_alloc_small(cache);
}

/* A block of class `cls` from the cache (refilled when empty). */
static struct xomp_task *class_pop(struct xomp_task_cache *cache, unsigned cls)
{
    if (__builtin_expect(!cache->free[cls], 0))
        cache_refill(cache, cls);
    struct xomp_task *t = cache->free[cls];
    cache->free[cls] = t->next;
    cache->count[cls]--;
    t->size_class = (uint8_t)cls;
    return t;
}

struct xomp_task *xomp_task_alloc(struct xomp_task_cache *cache, size_t arg_size,
                                  size_t arg_align, void **args)
{
    if (arg_align < sizeof(void *))
        arg_align = sizeof(void *);
    size_t offset = (sizeof(struct xomp_task) + arg_align - 1) & ~(arg_align - 1);
    size_t need = offset + arg_size;

    unsigned cls = 0;
    while (cls < XOMP_TASK_CLASSES && class_size[cls] < need)
        cls++;
    /* Blocks are 64-byte aligned: larger alignments, and argument blocks
     * larger than the largest class, live in a separate heap block; the
     * task itself still takes a block of the smallest class, so that task
     * headers stay type-stable (sched/lineage.h reads them speculatively). */
    struct xomp_task *t;
    if (cls == XOMP_TASK_CLASSES || arg_align > 64) {
        size_t align = arg_align > 64 ? arg_align : 64;
        size_t bytes = arg_size ? (arg_size + align - 1) & ~(align - 1) : align;
        void *heap_args = aligned_alloc(align, bytes);
        if (!heap_args)
            xomp_fatal("out of memory allocating a task with %zu bytes of arguments", arg_size);
        t = xomp_task_alloc_small(cache);
        t->size_class = XOMP_TASK_CLASSES; /* arguments in the heap: freed with free() */
        *args = heap_args;
        return t;
    }
    t = class_pop(cache, cls);
    *args = (char *)t + offset;
    return t;
}

struct xomp_task *xomp_task_alloc_inplace(struct xomp_task_cache *cache, size_t size, void **base)
{
    if (size > UINT32_MAX - XOMP_TASK_ARGS_OFFSET)
        xomp_fatal("a task with %zu bytes of arguments", size);
    size_t need = XOMP_TASK_ARGS_OFFSET + size;
    unsigned cls = 0;
    while (cls < XOMP_TASK_CLASSES && class_size[cls] < need)
        cls++;
    struct xomp_task *t;
    if (cls == XOMP_TASK_CLASSES) {
        /* The arguments go to the heap, behind a shadow header (see
         * task_alloc.h); the task takes a block of the smallest class. */
        char *heap = aligned_alloc(64, (need + 63) & ~(size_t)63);
        if (!heap)
            xomp_fatal("out of memory allocating a task with %zu bytes of arguments", size);
        t = xomp_task_alloc_small(cache);
        t->size_class = XOMP_TASK_CLASSES; /* arguments in the heap: freed with free() */
        struct xomp_task *shadow = (struct xomp_task *)(void *)heap;
        shadow->size_class = XOMP_TASK_SHADOW;
        shadow->next = t;
        t->args_size = (uint32_t)size;
        *base = heap;
        return t;
    }
    t = class_pop(cache, cls);
    t->args_size = (uint32_t)size;
    *base = t;
    return t;
}

size_t xomp_task_args_room(const struct xomp_task *t)
{
    if (!t->data)
        return 0;
    if (t->size_class == XOMP_TASK_CLASSES)
        return malloc_usable_size(t->data);
    const char *block = (const char *)t, *args = (const char *)t->data;
    size_t size = class_size[t->size_class];
    if (args == block) /* arguments written in place (xomp_task_alloc_inplace) */
        return size - XOMP_TASK_ARGS_OFFSET;
    return args >= block + sizeof *t && args < block + size ? (size_t)(block + size - args) : 0;
}

void xomp_task_free_slow(struct xomp_task_cache *cache, struct xomp_task *t)
{
    unsigned cls = t->size_class;
    if (cls == XOMP_TASK_CLASSES) {
        /* A small block whose arguments live in the heap (xomp_task_alloc). */
        free(t->data);
        t->size_class = 0;
        xomp_task_free(cache, t);
        return;
    }
    t->next = cache->free[cls];
    cache->free[cls] = t;
    if (++cache->count[cls] > cache_high(cls))
        cache_spill(cache, cls);
}
