/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Waiting for another member inside a loop construct: for the ordered turn
 * (ordered.c) or for a doacross dependence (doacross.c).
 *
 * An ordered or doacross wait is not a task scheduling point: the member
 * runs no task while it waits (as libgomp).  The tasks in its deque do not
 * wait for it: any other member may steal them (src/sched/README.md,
 * "Progress").
 *
 * A waiter spins, then yields, then sleeps on its own futex (wait.h).  Before it sleeps
 * the first time it registers: it writes the key it waits for into its
 * member state (`waits_for`, key + 1) and counts itself in the construct's
 * `sleepers`.  A member that makes progress on a key publishes it with a
 * release store, then calls xomp_ws_wake: when anyone is registered, it
 * wakes the members registered for that key.  Wakers never scan when
 * nobody sleeps, and never search for whom to wake otherwise.
 *
 * No lost wake-up.  The waiter registers, then issues a seq_cst fence F_w,
 * then re-checks its condition; the waker publishes, then issues a seq_cst
 * fence F_r, then reads `sleepers` and `waits_for`.  If F_w precedes F_r in
 * the single order of seq_cst operations, the waker's reads see the
 * registration and the waiter's `sleeping` flag (stored before F_w), so it
 * wakes the waiter (xomp_wake_if_sleeping); otherwise the waiter's
 * re-check sees the progress and it does not sleep.  A waker that sees a
 * member registered for another key, or no longer registered, leaves it:
 * that member is not waiting for this progress.  Spurious wake-ups only
 * cause a re-check.
 */
#include "loop.h"

#include "team.h"
#include "thread.h"
#include "wait.h"
#include "ws.h"

struct ws_waiter {
    struct xomp_ws_member *me;
    _Atomic uint32_t *sleepers;
    uint64_t key;
    bool (*ready)(const void *);
    const void *arg;
    bool registered;
};

/* Called by xomp_idle_step when the spin and yield budgets are spent,
 * after it announced `sleeping`; true means: do not sleep. */
static bool register_and_recheck(void *p)
{
    struct ws_waiter *w = p;
    if (!w->registered) {
        /* relaxed, both: F_w below orders them before the re-check. */
        atomic_store_explicit(&w->me->waits_for, w->key + 1, memory_order_relaxed);
        atomic_fetch_add_explicit(w->sleepers, 1, memory_order_relaxed);
        w->registered = true;
    }
    /* seq_cst fence F_w: pairs with F_r in xomp_ws_wake. */
    atomic_thread_fence(memory_order_seq_cst);
    return w->ready(w->arg);
}

void xomp_ws_wait(struct xomp_thread *thr, struct xomp_ws_member *me, _Atomic uint32_t *sleepers,
                  uint64_t key, bool (*ready)(const void *), const void *arg)
{
    if (ready(arg))
        return;
    struct ws_waiter w = {me, sleepers, key, ready, arg, false};
    struct xomp_idle idle;
    xomp_idle_begin(&idle, &thr->waker, &thr->spin, XOMP_SLEEP_PLAIN);
    while (!ready(arg))
        xomp_idle_step(&idle, register_and_recheck, &w);
    xomp_idle_end(&idle);
    if (w.registered) {
        /* relaxed, both: a waker that still sees the registration only
         * wakes us spuriously, or scans for nothing. */
        atomic_store_explicit(&me->waits_for, 0, memory_order_relaxed);
        atomic_fetch_sub_explicit(sleepers, 1, memory_order_relaxed);
    }
}

void xomp_ws_wake(struct xomp_team *team, _Atomic uint32_t *sleepers, uint64_t key)
{
    /* seq_cst fence F_r: pairs with F_w in register_and_recheck (the
     * caller's progress was published before it). */
    atomic_thread_fence(memory_order_seq_cst);
    /* relaxed: ordered by F_r (see the top of the file). */
    if (!atomic_load_explicit(sleepers, memory_order_relaxed))
        return;
    for (unsigned i = 0; i < team->nthreads; i++) {
        struct xomp_worker *w = &team->workers[i];
        /* relaxed: ordered by F_r, as above. */
        if (atomic_load_explicit(&w->loop.waits_for, memory_order_relaxed) == key + 1)
            xomp_wake_if_sleeping(&w->thread->waker);
    }
}
