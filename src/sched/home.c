/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Task homes (home.h): what the runner of a homed task does after it. */
#include "home.h"

#include "../runtime/thread.h"

void xomp_home_task_ran(struct xomp_thread *thr, struct xomp_task *t, uint64_t began)
{
    uintptr_t word = xomp_task_home_word(t);
    struct xomp_home *h = xomp_home_of(word);
    if (h) {
        struct xomp_worker *me = thr->worker;
        bool at_home = me && (h->kind == XOMP_HOME_NODE ? me->map.node : me->id) == h->id;
        if (!at_home)
            thr->stats.homed_away++;
        if (h->ran)
            h->ran(h, thr, t, at_home, began ? xomp_now_ns() - began : 0);
    }
    /* relaxed: nobody reads it for a task that is not queued (task.h). */
    atomic_store_explicit(&t->home, 0, memory_order_relaxed);
}

void xomp_home_order_done(struct xomp_home_order *o, uint32_t pos)
{
    /* relaxed, both: see struct xomp_home_order. */
    if (pos >= atomic_load_explicit(&o->count, memory_order_relaxed))
        return;
    _Atomic uint64_t *done = atomic_load_explicit(&o->done, memory_order_relaxed);
    atomic_fetch_or_explicit(&done[pos / 64], UINT64_C(1) << (pos % 64), memory_order_relaxed);
}

bool xomp_home_order_ready(struct xomp_home_order *o, uint32_t pos)
{
    /* relaxed, all: see struct xomp_home_order. */
    uint32_t next = atomic_load_explicit(&o->next, memory_order_relaxed);
    if (pos <= next || pos >= atomic_load_explicit(&o->count, memory_order_relaxed))
        return true;
    _Atomic uint64_t *done = atomic_load_explicit(&o->done, memory_order_relaxed);
    uint32_t k = next;
    while (k < pos &&
           (atomic_load_explicit(&done[k / 64], memory_order_relaxed) >> (k % 64) & 1))
        k++;
    if (k != next)
        atomic_store_explicit(&o->next, k, memory_order_relaxed);
    return k == pos;
}
