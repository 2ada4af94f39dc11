/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Task reductions: see reduction.h for the descriptor layout. */
#include "reduction.h"

#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "../sched/barrier.h"
#include "../tool/ompt.h"
#include "task_core.h"

#include <stdlib.h>
#include <string.h>

enum {
    D_COUNT = 0,
    D_SIZE = 1,
    D_ARRAY = 2, /* alignment on input, then the private array */
    D_ALLOCATOR = 3,
    D_NEXT = 4,
    D_TABLE = 5,
    D_END = 6,
    D_ENTRIES = 7,
};
enum { E_ADDR = 0, E_OFFSET = 1, E_DESC = 2, E_SIZE = 3 };

/* The registration shared by the members of one worksharing construct
 * (reduction.h): the first member's descriptor, which the others copy the
 * private arrays from, and how many members still hold the arrays. */
struct xomp_ws_reduction {
    uintptr_t *first;
    _Atomic uint32_t holders;
};

/* Address -> entry, open addressing.  One per registering task (d[D_TABLE]
 * of its first descriptor). */
struct lookup {
    size_t mask;
    struct xomp_ws_reduction *share; /* worksharing registrations only */
    uintptr_t *slots[];
};

static size_t hash_ptr(uintptr_t p, size_t mask)
{
    uint64_t x = (uint64_t)p;
    x ^= x >> 31;
    x *= 0x9e3779b97f4a7c15ULL;
    return (size_t)(x >> 17) & mask;
}

static void lookup_insert(struct lookup *t, uintptr_t *entry)
{
    size_t i = hash_ptr(entry[E_ADDR], t->mask);
    while (t->slots[i] && t->slots[i][E_ADDR] != entry[E_ADDR])
        i = (i + 1) & t->mask;
    t->slots[i] = entry;
}

static uintptr_t *lookup_find(const struct lookup *t, uintptr_t addr)
{
    size_t i = hash_ptr(addr, t->mask);
    while (t->slots[i]) {
        if (t->slots[i][E_ADDR] == addr)
            return t->slots[i];
        i = (i + 1) & t->mask;
    }
    return NULL;
}

/* Allocate the private arrays (or take orig's), link the chain to `old`
 * (the enclosing taskgroup's registration), and build the lookup table of
 * this registration and the enclosing ones. */
static void do_register(uintptr_t *data, uintptr_t *old, uintptr_t *orig, unsigned nthreads)
{
    size_t total = 0;
    uintptr_t *d = data;
    for (;;) {
        if (orig) {
            d[D_ARRAY] = orig[D_ARRAY];
            d[D_END] = orig[D_END];
            orig = (uintptr_t *)orig[D_NEXT];
        } else {
            size_t align = d[D_ARRAY] < sizeof(void *) ? sizeof(void *) : d[D_ARRAY];
            size_t bytes = d[D_SIZE] * nthreads;
            void *p = aligned_alloc(align, (bytes + align - 1) / align * align);
            if (!p)
                xomp_fatal("out of memory for task reduction copies (%zu bytes)", bytes);
            memset(p, 0, bytes);
            d[D_ARRAY] = (uintptr_t)p;
            d[D_END] = (uintptr_t)p + bytes;
        }
        d[D_TABLE] = 0;
        total += d[D_COUNT];
        if (!d[D_NEXT]) {
            d[D_NEXT] = (uintptr_t)old;
            break;
        }
        d = (uintptr_t *)d[D_NEXT];
    }
    const struct lookup *old_table = old ? (const struct lookup *)old[D_TABLE] : NULL;
    if (old_table)
        total += old_table->mask + 1;
    size_t size = 16;
    while (size < 2 * total)
        size *= 2;
    struct lookup *t = calloc(1, sizeof *t + size * sizeof(uintptr_t *));
    if (!t)
        xomp_fatal("out of memory for a task reduction table");
    t->mask = size - 1;
    if (old_table)
        for (size_t i = 0; i <= old_table->mask; i++)
            if (old_table->slots[i])
                lookup_insert(t, old_table->slots[i]);
    for (d = data; d && d != old; d = (uintptr_t *)d[D_NEXT])
        for (size_t j = 0; j < d[D_COUNT]; j++) {
            uintptr_t *entry = d + D_ENTRIES + j * E_SIZE;
            entry[E_DESC] = (uintptr_t)d;
            lookup_insert(t, entry);
        }
    data[D_TABLE] = (uintptr_t)t;
}

void xomp_taskgroup_reduction_register(struct xomp_thread *thr, uintptr_t *data)
{
    struct xomp_taskgroup *tg = thr->task->taskgroup;
    if (!tg)
        xomp_fatal("task reduction registered outside a taskgroup");
    unsigned nthreads = thr->team ? thr->team->nthreads : 1;
    do_register(data, tg->reductions, NULL, nthreads);
    tg->reductions = data;
}

void xomp_taskgroup_reduction_unregister(uintptr_t *data)
{
    free((void *)data[D_TABLE]);
    /* Free this registration's arrays, up to the enclosing registration
     * (whose first descriptor holds a table). */
    uintptr_t *d = data;
    do {
        free((void *)d[D_ARRAY]);
        d = (uintptr_t *)d[D_NEXT];
    } while (d && !d[D_TABLE]);
}

void xomp_task_reduction_remap(struct xomp_thread *thr, size_t cnt, size_t cntorig, void **ptrs)
{
    struct xomp_taskgroup *tg = thr->task->taskgroup;
    uintptr_t *data = tg ? tg->reductions : NULL;
    if (!data)
        xomp_fatal("in_reduction outside any task reduction");
    uintptr_t id = thr->team_id;
    const struct lookup *table = (const struct lookup *)data[D_TABLE];
    for (size_t i = 0; i < cnt; i++) {
        uintptr_t *entry = lookup_find(table, (uintptr_t)ptrs[i]);
        if (entry) {
            /* The original variable: this thread's copy of it. */
            uintptr_t *d = (uintptr_t *)entry[E_DESC];
            ptrs[i] = (void *)(d[D_ARRAY] + id * d[D_SIZE] + entry[E_OFFSET]);
            if (i < cntorig)
                ptrs[cnt + i] = (void *)entry[E_ADDR];
            continue;
        }
        /* Already a private copy (of some thread): this thread's copy at
         * the same offset. */
        uintptr_t *d = data;
        while (d && !((uintptr_t)ptrs[i] >= d[D_ARRAY] && (uintptr_t)ptrs[i] < d[D_END]))
            d = (uintptr_t *)d[D_NEXT];
        if (!d)
            xomp_fatal("no task reduction matches the address %p", ptrs[i]);
        uintptr_t off = ((uintptr_t)ptrs[i] - d[D_ARRAY]) % d[D_SIZE];
        ptrs[i] = (void *)(d[D_ARRAY] + id * d[D_SIZE] + off);
        if (i < cntorig) {
            /* Entries are sorted by offset: find the original. */
            size_t lo = 0, hi = d[D_COUNT];
            while (lo < hi) {
                size_t m = (lo + hi) / 2;
                if (d[D_ENTRIES + m * E_SIZE + E_OFFSET] < off)
                    lo = m + 1;
                else
                    hi = m;
            }
            if (lo == d[D_COUNT] || d[D_ENTRIES + lo * E_SIZE + E_OFFSET] != off)
                xomp_fatal("no task reduction matches the address %p", ptrs[i]);
            ptrs[cnt + i] = (void *)d[D_ENTRIES + lo * E_SIZE + E_ADDR];
        }
    }
}

struct xomp_taskgroup *xomp_parallel_reduction_taskgroup(uintptr_t *data, unsigned nthreads,
                                                         struct xomp_thread *master)
{
    struct xomp_taskgroup *tg = xomp_taskgroup_new(master);
    do_register(data, NULL, NULL, nthreads);
    tg->reductions = data;
    return tg;
}

struct xomp_ws_reduction *xomp_workshare_reduction_start(struct xomp_thread *thr, uintptr_t *data,
                                                         struct xomp_ws_reduction *join)
{
    xomp_taskgroup_start(thr, NULL);
    struct xomp_taskgroup *tg = thr->task->taskgroup;
    tg->workshare = true;
    struct xomp_ws_reduction *share = join;
    if (!share) {
        share = malloc(sizeof *share);
        if (!share)
            xomp_fatal("out of memory registering a worksharing task reduction");
        share->first = data;
        atomic_init(&share->holders, 1);
    } else {
        /* relaxed: every member registers before the construct's closing
         * barrier and unregisters after it, so no decrement can precede
         * this increment; the barrier orders them. */
        atomic_fetch_add_explicit(&share->holders, 1, memory_order_relaxed);
    }
    unsigned nthreads = thr->team ? thr->team->nthreads : 1;
    do_register(data, tg->reductions, join ? join->first : NULL, nthreads);
    ((struct lookup *)data[D_TABLE])->share = share;
    tg->reductions = data;
    return share;
}

void xomp_workshare_reduction_end(struct xomp_thread *thr, bool cancelled)
{
    struct xomp_taskgroup *tg = thr->task->taskgroup;
    if (!tg || !tg->workshare)
        xomp_fatal("GOMP_workshare_task_reduction_unregister outside a worksharing construct "
                   "with task reductions");
    uintptr_t *data = tg->reductions;
    struct lookup *table = (struct lookup *)data[D_TABLE];
    struct xomp_ws_reduction *share = table->share;
    /* Every task that may use the private copies through this member is
     * in the taskgroup: wait for them. */
    xomp_taskgroup_end(thr, NULL);
    /* acq_rel: the last holder acquires the other members' uses of the
     * copies (member 0 combined them just before its own call) before it
     * frees them; release orders this member's uses before. */
    if (atomic_fetch_sub_explicit(&share->holders, 1, memory_order_acq_rel) == 1) {
        xomp_taskgroup_reduction_unregister(data);
        free(share);
    } else {
        free(table);
    }
    if (!cancelled && thr->team)
        xomp_barrier_wait(thr, ompt_sync_region_barrier_implicit_workshare, NULL);
}
