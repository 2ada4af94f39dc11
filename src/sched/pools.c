/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "pools.h"

#include "../runtime/log.h"
#include "../runtime/mutex.h"
#include "constraint.h"
#include "watch.h"

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
    atomic_init(&p->taken, 0);
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
    /* relaxed: a signature for the watcher (struct xomp_pools). */
    atomic_store_explicit(&p->taken, atomic_load_explicit(&p->taken, memory_order_relaxed) + 1,
                          memory_order_relaxed);
    if (i < n) {
        sift_down(p->heap, n, i);
        sift_up(p->heap, i);
    }
    return t;
}

struct xomp_task *xomp_pools_take_prio(struct xomp_pools *p, struct xomp_taker *tk)
{
    xomp_mutex_lock(&p->lock);
    uint32_t n = atomic_load_explicit(&p->prio_count, memory_order_relaxed);
    struct xomp_task *t = NULL;
    if (n && xomp_sched_may_take(p->heap[0].task, tk)) {
        t = heap_remove(p, 0);
    } else if (n) {
        /* The best task the constraint and the homes allow: a linear scan
         * (rare). */
        uint32_t best = n;
        for (uint32_t i = 1; i < n; i++)
            if ((best == n || p->heap[i].key > p->heap[best].key) &&
                xomp_sched_may_take(p->heap[i].task, tk))
                best = i;
        if (best < n)
            t = heap_remove(p, best);
    }
    xomp_mutex_unlock(&p->lock);
    return t;
}

/* ---- FIFO lists: the common queue and the inboxes (under their lock) ---- */

static void list_append(struct xomp_task **head, struct xomp_task **tail, struct xomp_task *t)
{
    t->next = NULL;
    if (*tail)
        (*tail)->next = t;
    else
        *head = t;
    *tail = t;
}

/* Remove and return the first task the taker may take. */
static struct xomp_task *list_take(struct xomp_task **head, struct xomp_task **tail,
                                   struct xomp_taker *tk)
{
    struct xomp_task *prev = NULL, *t = *head;
    while (t && !xomp_sched_may_take(t, tk)) {
        prev = t;
        t = t->next;
    }
    if (t) {
        if (prev)
            prev->next = t->next;
        else
            *head = t->next;
        if (*tail == t)
            *tail = prev;
    }
    return t;
}

/* Is there a task the taker may take?  Those refused for their home are
 * noted in r (when given), as queue `where` in state `state`. */
static bool list_have(struct xomp_task *head, struct xomp_taker *tk, struct xomp_refusals *r,
                      uint64_t where, uint64_t state)
{
    for (struct xomp_task *t = head; t; t = t->next) {
        tk->refused_home = false;
        if (xomp_sched_may_take(t, tk))
            return true;
        if (tk->refused_home && r)
            xomp_refusals_note(r, where, state, xomp_home_of(xomp_task_home_word(t)));
    }
    return false;
}

/* relaxed, both: counts written only under the lock, read as hints. */
static void count_add(_Atomic uint32_t *count, int32_t delta)
{
    atomic_store_explicit(count, atomic_load_explicit(count, memory_order_relaxed) + (uint32_t)delta,
                          memory_order_relaxed);
}

static void taken_add(_Atomic uint64_t *taken)
{
    atomic_store_explicit(taken, atomic_load_explicit(taken, memory_order_relaxed) + 1,
                          memory_order_relaxed);
}

void xomp_pools_put_common(struct xomp_pools *p, struct xomp_task *t)
{
    xomp_mutex_lock(&p->lock);
    list_append(&p->common_head, &p->common_tail, t);
    count_add(&p->common_count, 1);
    xomp_mutex_unlock(&p->lock);
}

struct xomp_task *xomp_pools_take_common(struct xomp_pools *p, struct xomp_taker *tk)
{
    xomp_mutex_lock(&p->lock);
    struct xomp_task *t = list_take(&p->common_head, &p->common_tail, tk);
    if (t) {
        count_add(&p->common_count, -1);
        taken_add(&p->taken);
    }
    xomp_mutex_unlock(&p->lock);
    return t;
}

/* The watcher's name of the pools in a signature (members use their
 * number). */
#define POOLS_WHERE UINT64_C(0xffffffff)

bool xomp_pools_have(struct xomp_pools *p, struct xomp_taker *tk, struct xomp_refusals *r)
{
    /* relaxed: hints; the caller's sleep protocol orders them (see
     * README, "Task publication": publishers update the counts under the
     * lock before they look for sleepers). */
    if (!atomic_load_explicit(&p->prio_count, memory_order_relaxed) &&
        !atomic_load_explicit(&p->common_count, memory_order_relaxed))
        return false;
    bool found = false;
    xomp_mutex_lock(&p->lock);
    uint64_t state = atomic_load_explicit(&p->taken, memory_order_relaxed);
    uint32_t n = atomic_load_explicit(&p->prio_count, memory_order_relaxed);
    for (uint32_t i = 0; i < n && !found; i++) {
        struct xomp_task *t = p->heap[i].task;
        tk->refused_home = false;
        found = xomp_sched_may_take(t, tk);
        if (!found && tk->refused_home && r)
            xomp_refusals_note(r, POOLS_WHERE, state, xomp_home_of(xomp_task_home_word(t)));
    }
    if (!found)
        found = list_have(p->common_head, tk, r, POOLS_WHERE, state);
    xomp_mutex_unlock(&p->lock);
    return found;
}

/* ---- inboxes ---- */

void xomp_inbox_put(struct xomp_inbox *b, struct xomp_task *t)
{
    xomp_mutex_lock(&b->lock);
    list_append(&b->head, &b->tail, t);
    count_add(&b->count, 1);
    xomp_mutex_unlock(&b->lock);
}

struct xomp_task *xomp_inbox_take(struct xomp_inbox *b, struct xomp_taker *tk)
{
    if (!xomp_inbox_nonempty(b))
        return NULL;
    xomp_mutex_lock(&b->lock);
    struct xomp_task *t = list_take(&b->head, &b->tail, tk);
    if (t) {
        count_add(&b->count, -1);
        taken_add(&b->taken);
    }
    xomp_mutex_unlock(&b->lock);
    return t;
}

bool xomp_inbox_have(struct xomp_inbox *b, struct xomp_taker *tk, struct xomp_refusals *r,
                     uint64_t where)
{
    if (!xomp_inbox_nonempty(b))
        return false;
    xomp_mutex_lock(&b->lock);
    uint64_t state = atomic_load_explicit(&b->taken, memory_order_relaxed);
    bool found = list_have(b->head, tk, r, where, state);
    xomp_mutex_unlock(&b->lock);
    return found;
}
