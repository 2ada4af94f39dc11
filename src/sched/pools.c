/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "pools.h"

#include "../runtime/log.h"
#include "../runtime/mutex.h"
#include "constraint.h"

#include <stdlib.h>

void xomp_pools_init(struct xomp_pools *p)
{
    atomic_init(&p->lock, 0);
    atomic_init(&p->prio_count, 0);
    atomic_init(&p->common_count, 0);
    p->heap = NULL;
    p->heap_cap = 0;
    p->prio_seq = 0;
    p->common_head = p->common_tail = NULL;
}

void xomp_pools_destroy(struct xomp_pools *p)
{
    free(p->heap);
    p->heap = NULL;
    p->heap_cap = 0;
}

/* ---- the priority heap (under the lock) ---- */

#define PRIO_SEQ_BITS 40

static void heap_swap(struct xomp_prio_entry *h, uint32_t i, uint32_t j)
{
    struct xomp_prio_entry x = h[i];
    h[i] = h[j];
    h[j] = x;
}

static void sift_up(struct xomp_prio_entry *h, uint32_t i)
{
    while (i > 0 && h[(i - 1) / 2].key < h[i].key) {
        heap_swap(h, i, (i - 1) / 2);
        i = (i - 1) / 2;
    }
}

static void sift_down(struct xomp_prio_entry *h, uint32_t n, uint32_t i)
{
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, big = i;
        if (l < n && h[l].key > h[big].key)
            big = l;
        if (r < n && h[r].key > h[big].key)
            big = r;
        if (big == i)
            return;
        heap_swap(h, i, big);
        i = big;
    }
}

void xomp_pools_put_prio(struct xomp_pools *p, struct xomp_task *t, int priority)
{
    xomp_mutex_lock(&p->lock);
    /* relaxed: written only under the lock. */
    uint32_t n = atomic_load_explicit(&p->prio_count, memory_order_relaxed);
    if (n == p->heap_cap) {
        uint32_t cap = p->heap_cap ? p->heap_cap * 2 : 64;
        struct xomp_prio_entry *h = realloc(p->heap, cap * sizeof *h);
        if (!h)
            xomp_fatal("out of memory queueing a task with a priority");
        p->heap = h;
        p->heap_cap = cap;
    }
    /* Larger key first: higher priority, then the older task (a smaller
     * sequence).  Sequences wrap after 2^40 tasks, which only reorders
     * tasks of equal priority queued that far apart. */
    uint64_t seq = p->prio_seq++ & ((UINT64_C(1) << PRIO_SEQ_BITS) - 1);
    p->heap[n].key = ((int64_t)priority << PRIO_SEQ_BITS) |
                     (int64_t)(((UINT64_C(1) << PRIO_SEQ_BITS) - 1) - seq);
    p->heap[n].task = t;
    sift_up(p->heap, n);
    /* relaxed: a hint for lock-free readers (above). */
    atomic_store_explicit(&p->prio_count, n + 1, memory_order_relaxed);
    xomp_mutex_unlock(&p->lock);
}

/* Remove heap entry i; the caller holds the lock. */
static struct xomp_task *heap_remove(struct xomp_pools *p, uint32_t i)
{
    uint32_t n = atomic_load_explicit(&p->prio_count, memory_order_relaxed) - 1;
    struct xomp_task *t = p->heap[i].task;
    p->heap[i] = p->heap[n];
    atomic_store_explicit(&p->prio_count, n, memory_order_relaxed);
    if (i < n) {
        sift_down(p->heap, n, i);
        sift_up(p->heap, i);
    }
    return t;
}

struct xomp_task *xomp_pools_take_prio(struct xomp_pools *p, const struct xomp_sched_wait *w)
{
    xomp_mutex_lock(&p->lock);
    uint32_t n = atomic_load_explicit(&p->prio_count, memory_order_relaxed);
    struct xomp_task *t = NULL;
    if (n && xomp_sched_may_run(p->heap[0].task, w)) {
        t = heap_remove(p, 0);
    } else if (n && w->constraint) {
        /* The best task the constraint allows: a linear scan (rare). */
        uint32_t best = n;
        for (uint32_t i = 1; i < n; i++)
            if ((best == n || p->heap[i].key > p->heap[best].key) &&
                xomp_sched_may_run(p->heap[i].task, w))
                best = i;
        if (best < n)
            t = heap_remove(p, best);
    }
    xomp_mutex_unlock(&p->lock);
    return t;
}

/* ---- the common queue (under the lock) ---- */

void xomp_pools_put_common(struct xomp_pools *p, struct xomp_task *t)
{
    t->next = NULL;
    xomp_mutex_lock(&p->lock);
    if (p->common_tail)
        p->common_tail->next = t;
    else
        p->common_head = t;
    p->common_tail = t;
    /* relaxed: a hint, as prio_count. */
    atomic_store_explicit(&p->common_count,
                          atomic_load_explicit(&p->common_count, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    xomp_mutex_unlock(&p->lock);
}

struct xomp_task *xomp_pools_take_common(struct xomp_pools *p, const struct xomp_sched_wait *w)
{
    xomp_mutex_lock(&p->lock);
    struct xomp_task *prev = NULL, *t = p->common_head;
    while (t && !xomp_sched_may_run(t, w)) {
        prev = t;
        t = t->next;
    }
    if (t) {
        if (prev)
            prev->next = t->next;
        else
            p->common_head = t->next;
        if (p->common_tail == t)
            p->common_tail = prev;
        atomic_store_explicit(&p->common_count,
                              atomic_load_explicit(&p->common_count, memory_order_relaxed) - 1,
                              memory_order_relaxed);
    }
    xomp_mutex_unlock(&p->lock);
    return t;
}

bool xomp_pools_have(struct xomp_pools *p, const struct xomp_sched_wait *w)
{
    /* relaxed: hints; the caller's sleep protocol orders them (see
     * README, "Task publication": publishers update the counts under the
     * lock before they look for sleepers). */
    if (!atomic_load_explicit(&p->prio_count, memory_order_relaxed) &&
        !atomic_load_explicit(&p->common_count, memory_order_relaxed))
        return false;
    if (!w->constraint)
        return true;
    bool found = false;
    xomp_mutex_lock(&p->lock);
    uint32_t n = atomic_load_explicit(&p->prio_count, memory_order_relaxed);
    for (uint32_t i = 0; i < n && !found; i++)
        found = xomp_sched_may_run(p->heap[i].task, w);
    for (struct xomp_task *t = p->common_head; t && !found; t = t->next)
        found = xomp_sched_may_run(t, w);
    xomp_mutex_unlock(&p->lock);
    return found;
}
