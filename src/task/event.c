/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The table of detach events (event.h): slots in chunks that are never
 * freed, a directory of the chunks, and free slots kept per thread (a
 * small cache, like the task blocks') and in one list under a mutex,
 * touched once per batch.
 */
#include "event.h"

#include "../runtime/log.h"
#include "../runtime/mutex.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>

#define CHUNK_SLOTS 4096u
#define CHUNKS 65536u /* 268M events pending at once at most */
/* A thread's cache keeps at most CACHE_HIGH free slots and hands BATCH to
 * the shared list past it; an empty cache takes up to BATCH. */
#define CACHE_HIGH 256u
#define BATCH 128u

#define STATE_LIVE UINT64_C(1)

struct event_slot {
    /* generation << 32 | STATE_LIVE while an event lives here.  The live
     * store is a release (xomp_event_new) and the claim's compare-and-swap
     * an acquire, so the claimer sees `task`. */
    _Atomic uint64_t state;
    union {
        struct xomp_task *task; /* live: written before the live store */
        uint32_t next_free;     /* free: its successor in its list, index + 1 (0 ends) */
    };
};

/* Chunk k holds slots k * CHUNK_SLOTS ...; published with release once
 * zeroed, never freed (a stale handle may make a thread read its slot at
 * any time). */
static _Atomic(struct event_slot *) chunks[CHUNKS];
static _Atomic uint32_t pool_lock; /* xomp_mutex: the fields below */
static uint32_t chunk_count;
static uint32_t shared_head, shared_count; /* the shared free list */

static struct event_slot *slot_at(uint32_t index)
{
    /* relaxed: only slots whose chunk this thread published or read with
     * acquire (event_claim) are named here. */
    return &atomic_load_explicit(&chunks[index / CHUNK_SLOTS], memory_order_relaxed)
                [index % CHUNK_SLOTS];
}

/* Under pool_lock: a new chunk's slots onto the shared list (slot 0 of
 * chunk 0 is never used: a handle of 0 is never an event). */
static void chunk_add(void)
{
    if (chunk_count == CHUNKS)
        xomp_fatal("more than %u detachable tasks pending at once", CHUNKS * CHUNK_SLOTS - 1);
    struct event_slot *c = calloc(CHUNK_SLOTS, sizeof *c);
    if (!c)
        xomp_fatal("out of memory allocating detach events");
    uint32_t base = chunk_count * CHUNK_SLOTS;
    for (uint32_t i = CHUNK_SLOTS; i-- > (base == 0 ? 1u : 0u);) {
        c[i].next_free = shared_head;
        shared_head = base + i + 1;
        shared_count++;
    }
    /* release: a thread that reads the pointer (event_claim) sees the
     * zeroed slots. */
    atomic_store_explicit(&chunks[chunk_count++], c, memory_order_release);
}

static void cache_refill(struct xomp_event_cache *cache)
{
    xomp_mutex_lock(&pool_lock);
    if (!shared_count)
        chunk_add();
    for (uint32_t n = 0; n < BATCH && shared_head; n++) {
        uint32_t index = shared_head - 1;
        struct event_slot *s = slot_at(index);
        shared_head = s->next_free;
        shared_count--;
        s->next_free = cache->head;
        cache->head = index + 1;
        cache->count++;
    }
    xomp_mutex_unlock(&pool_lock);
}

static void cache_spill(struct xomp_event_cache *cache)
{
    xomp_mutex_lock(&pool_lock);
    for (uint32_t n = 0; n < BATCH; n++) {
        uint32_t index = cache->head - 1;
        struct event_slot *s = slot_at(index);
        cache->head = s->next_free;
        cache->count--;
        s->next_free = shared_head;
        shared_head = index + 1;
        shared_count++;
    }
    xomp_mutex_unlock(&pool_lock);
}

uintptr_t xomp_event_new(struct xomp_event_cache *cache, struct xomp_task *t)
{
    if (!cache->head)
        cache_refill(cache);
    uint32_t index = cache->head - 1;
    struct event_slot *s = slot_at(index);
    cache->head = s->next_free;
    cache->count--;
    s->task = t;
    /* relaxed: the slot is free, so only its last claim (by this thread, or
     * before the mutex that gave it to us) wrote it. */
    uint64_t generation = atomic_load_explicit(&s->state, memory_order_relaxed) >> 32;
    /* release: pairs with the claim's acquire (task is visible). */
    atomic_store_explicit(&s->state, generation << 32 | STATE_LIVE, memory_order_release);
    return (uintptr_t)(generation << 32 | index);
}

struct xomp_task *xomp_event_claim(struct xomp_event_cache *cache, uintptr_t handle)
{
    uint64_t h = (uint64_t)handle;
    uint32_t index = (uint32_t)h, generation = (uint32_t)(h >> 32);
    if (index == 0 || index / CHUNK_SLOTS >= CHUNKS)
        return NULL;
    /* acquire: pairs with the release in chunk_add (the slot is
     * initialized).  NULL: an index beyond every chunk made so far. */
    struct event_slot *c =
        atomic_load_explicit(&chunks[index / CHUNK_SLOTS], memory_order_acquire);
    if (!c)
        return NULL;
    struct event_slot *s = &c[index % CHUNK_SLOTS];
    uint64_t live = (uint64_t)generation << 32 | STATE_LIVE;
    uint64_t next = (uint64_t)(uint32_t)(generation + 1) << 32;
    /* acquire on success: pairs with the release in xomp_event_new, so
     * `task` is the live event's.  Only one claim of a live event can
     * succeed; a stale handle finds a later generation. */
    if (!atomic_compare_exchange_strong_explicit(&s->state, &live, next, memory_order_acquire,
                                                 memory_order_relaxed))
        return NULL;
    struct xomp_task *t = s->task;
    /* The slot is ours (free, in no list yet): into our cache. */
    s->next_free = cache->head;
    cache->head = index + 1;
    if (++cache->count > CACHE_HIGH)
        cache_spill(cache);
    return t;
}
