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
 *
 * The LLVM ABI's entries (__kmpc_cancel, __kmpc_cancellationpoint,
 * __kmpc_cancel_barrier) are the same, with their own numbering of the
 * construct kinds; a member that leaves a dispatched loop it cancelled
 * leaves its worksharing construct too (the compiler jumps past the
 * loop's remaining __kmpc_dispatch_next calls).
 */
#include "../runtime/log.h"
#include "../runtime/loop.h"
#include "../runtime/thread.h"
#include "../sched/barrier.h"
#include "../task/task_core.h"
#include "../tool/ompt.h"
#include "kmp.h"

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

static bool cancel(int which, bool do_cancel, const void *codeptr)
{
    if (!xomp_cfg.cancellation)
        return false;
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

XOMP_EXPORT bool GOMP_cancel(int which, bool do_cancel)
{
    return cancel(which, do_cancel, XOMP_CODEPTR());
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
    XOMP_ENTRY_RETURN(bool, detected(GOMP_CANCEL_PARALLEL,
                                     xomp_barrier_wait_cancellable(
                                         thr, ompt_sync_region_barrier_explicit, codeptr),
                                     codeptr));
}

/* ---- the LLVM ABI ---- */

/* GOMP_cancel's `which` for a construct kind of the LLVM ABI (parallel 1,
 * loop 2, sections 3, taskgroup 4); 0 for an unknown one. */
static int gomp_which(kmp_int32 kind)
{
    switch (kind) {
    case 1: return GOMP_CANCEL_PARALLEL;
    case 2: return GOMP_CANCEL_LOOP;
    case 3: return GOMP_CANCEL_SECTIONS;
    case 4: return GOMP_CANCEL_TASKGROUP;
    default: return 0;
    }
}

static kmp_int32 kmp_cancel(const char *entry, kmp_int32 kind, bool do_cancel,
                            const void *codeptr)
{
    int which = gomp_which(kind);
    if (!which) {
        xomp_warn("%s: unknown construct kind %d; nothing cancelled", entry, kind);
        return 0;
    }
    bool cancelled = cancel(which, do_cancel, codeptr);
    if (cancelled && (which & (GOMP_CANCEL_LOOP | GOMP_CANCEL_SECTIONS)))
        xomp_loop_end(XOMP_LOOP_END_NOWAIT, codeptr); /* a dispatched loop ends here */
    return cancelled;
}

XOMP_EXPORT kmp_int32 __kmpc_cancel(kmp_ident *loc, kmp_int32 gtid, kmp_int32 kind)
{
    return kmp_cancel("__kmpc_cancel", kind, true, XOMP_CODEPTR());
}

XOMP_EXPORT kmp_int32 __kmpc_cancellationpoint(kmp_ident *loc, kmp_int32 gtid, kmp_int32 kind)
{
    return kmp_cancel("__kmpc_cancellationpoint", kind, false, XOMP_CODEPTR());
}

XOMP_EXPORT kmp_int32 __kmpc_cancel_barrier(kmp_ident *loc, kmp_int32 gtid)
{
    struct xomp_thread *thr = xomp_self();
    if (!thr->team)
        return 0;
    const void *codeptr = XOMP_CODEPTR();
    XOMP_ENTRY_RETURN(kmp_int32, detected(GOMP_CANCEL_PARALLEL,
                                          xomp_barrier_wait_cancellable(
                                              thr, xomp_kmp_barrier_kind(loc), codeptr),
                                          codeptr));
}

/* LLVM's omp.h: is cancellation of this kind requested for the innermost
 * such construct?  (A query: unlike a cancellation point, it leaves no
 * loop.) */
XOMP_EXPORT int kmp_get_cancellation_status(int kind)
{
    int which = gomp_which(kind);
    return xomp_cfg.cancellation && which && cancellation_point(which);
}
