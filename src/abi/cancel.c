/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Cancellation (active only with OMP_CANCELLATION=true, as in libgomp).
 *
 *   parallel:      team->cancelled; members skip to the end of the region
 *                  at their next cancellation point; queued tasks of the
 *                  team are discarded instead of run.
 *   for, sections: team->ws_cancel_interval, the barrier interval the
 *                  construct was cancelled in, read by the construct's
 *                  cancellation points; the team's next barrier (the
 *                  construct's end) ends the interval, and the region goes on:
 *                  a cancellable barrier returns true only when the
 *                  region itself was cancelled, as in libgomp.
 * cancel with if(false) cancels nothing: it is the cancellation point of
 * its kind (GOMP_cancel with do_cancel false).
 *   taskgroup:     the innermost taskgroup's `cancelled`; tasks of it that
 *                  have not started are discarded.
 * A cancellable barrier hands every member the same verdict (barrier.c).
 */
#include "../runtime/thread.h"
#include "../sched/barrier.h"
#include "../task/task_core.h"
#include "../tool/ompt.h"
#include "abi.h"

#define GOMP_CANCEL_PARALLEL 1
#define GOMP_CANCEL_LOOP 2
#define GOMP_CANCEL_SECTIONS 4
#define GOMP_CANCEL_TASKGROUP 8

/* OMPT's flag for a construct kind of GOMP_cancel's `which`. */
static int cancel_construct(int which)
{
    if (which & GOMP_CANCEL_LOOP)
        return ompt_cancel_loop;
    if (which & GOMP_CANCEL_SECTIONS)
        return ompt_cancel_sections;
    if (which & GOMP_CANCEL_TASKGROUP)
        return ompt_cancel_taskgroup;
    return ompt_cancel_parallel;
}

static bool cancellation_point(int which)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_team *team = thr->team;
    if (which & (GOMP_CANCEL_LOOP | GOMP_CANCEL_SECTIONS))
        /* acquire: pairs with the release store in GOMP_cancel. */
        return team && atomic_load_explicit(&team->ws_cancel_interval, memory_order_acquire) ==
                           xomp_barrier_interval(thr);
    if ((which & GOMP_CANCEL_TASKGROUP) && xomp_taskgroup_cancelled(thr->task))
        return true;
    /* `cancel parallel` also cancels every explicit task of the region. */
    return team && atomic_load_explicit(&team->cancelled, memory_order_acquire);
}

/* A cancellation point that finds its construct cancelled tells a tool. */
static bool detected(int which, bool cancelled, const void *codeptr)
{
    if (cancelled)
        XOMP_HOOK(xomp_ompt_cancel(xomp_self(), ompt_cancel_detected | cancel_construct(which),
                                   codeptr));
    return cancelled;
}

XOMP_EXPORT bool GOMP_cancellation_point(int which)
{
    if (!xomp_cfg.cancellation)
        return false;
    return detected(which, cancellation_point(which), XOMP_CODEPTR());
}

XOMP_EXPORT bool GOMP_cancel(int which, bool do_cancel)
{
    if (!xomp_cfg.cancellation)
        return false;
    const void *codeptr = XOMP_CODEPTR();
    if (!do_cancel)
        return detected(which, cancellation_point(which), codeptr);
    struct xomp_thread *thr = xomp_self();
    struct xomp_team *team = thr->team;
    XOMP_HOOK(xomp_ompt_cancel(thr, ompt_cancel_activated | cancel_construct(which), codeptr));
    if (which & (GOMP_CANCEL_LOOP | GOMP_CANCEL_SECTIONS)) {
        /* Orphaned: only this thread's share is cancelled, which the caller
         * does by leaving the loop. */
        if (team)
            /* release: pairs with the acquire loads of cancellation points
             * and of the barrier's verdict. */
            atomic_store_explicit(&team->ws_cancel_interval, xomp_barrier_interval(thr),
                                  memory_order_release);
        return true;
    }
    if (which & GOMP_CANCEL_TASKGROUP) {
        xomp_taskgroup_cancel(thr->task);
        return true;
    }
    if (team)
        /* release: as above; members see it at their next cancellation
         * point or barrier. */
        atomic_store_explicit(&team->cancelled, true, memory_order_release);
    return true;
}

XOMP_EXPORT bool GOMP_barrier_cancel(void)
{
    struct xomp_thread *thr = xomp_self();
    if (!thr->team)
        return false;
    const void *codeptr = XOMP_CODEPTR();
    /* Only a cancelled region makes the caller skip to its end: a `cancel
     * for` of a nowait loop before this barrier is consumed here, and the
     * region goes on (barrier.h). */
    return detected(GOMP_CANCEL_PARALLEL,
                    xomp_barrier_wait_cancellable(thr, ompt_sync_region_barrier_explicit, codeptr),
                    codeptr);
}
