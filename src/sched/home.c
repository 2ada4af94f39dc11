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
