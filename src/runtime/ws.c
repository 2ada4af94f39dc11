/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "ws.h"

#include "../task/reduction.h"
#include "log.h"
#include "loop.h"
#include "thread.h"

#include <stdlib.h>

/* Waits on another member: for a slot still used by the construct
 * XOMP_WS_SLOTS before ours (a member that far behind may be blocked for
 * long), or for the first member to finish filling a slot in.  They use the
 * wait primitive of loop_wait.c, keyed by the construct's number: whoever
 * changes a slot's state wakes the members waiting for that construct. */
struct slot_wait {
    struct xomp_ws *ws;
    uint64_t k;
};

/* Slot free for construct k, or already taken by it. */
static bool slot_reached(const void *arg)
{
    const struct slot_wait *sw = arg;
    /* acquire: as in xomp_ws_enter. */
    uint64_t v = atomic_load_explicit(&sw->ws->seq, memory_order_acquire);
    return (v >> 2) >= sw->k;
}

static bool slot_ready(const void *arg)
{
    const struct slot_wait *sw = arg;
    /* acquire: pairs with xomp_ws_publish. */
    return atomic_load_explicit(&sw->ws->seq, memory_order_acquire) ==
           ((sw->k << 2) | XOMP_WS_READY);
}

void xomp_ws_reset(struct xomp_team *team)
{
    for (uint64_t i = 0; i < XOMP_WS_SLOTS; i++) {
        /* No construct entered the slot since the last reset: it is as
         * this would leave it.  Skipping it keeps its line where it is (a
         * region without worksharing writes none of the 16).  relaxed: the
         * last region's members have left the team (team_wait_left), and
         * every entry changes seq. */
        if (atomic_load_explicit(&team->ws[i].seq, memory_order_relaxed) ==
            ((i << 2) | XOMP_WS_FREE))
            continue;
        /* A construct the last region left without ending (cancelled). */
        free(team->ws[i].heap);
        team->ws[i].heap = NULL;
        atomic_store_explicit(&team->ws[i].seq, (i << 2) | XOMP_WS_FREE, memory_order_relaxed);
        atomic_store_explicit(&team->ws[i].users, 0, memory_order_relaxed);
        atomic_store_explicit(&team->ws[i].slot_sleepers, 0, memory_order_relaxed);
    }
}

struct xomp_ws *xomp_ws_enter(struct xomp_thread *thr, bool *first)
{
    struct xomp_team *team = thr->team;
    uint64_t k = thr->worker->ws_count++;
    /* Whatever loop the member claimed from is over for it (loop_fast.h). */
    thr->worker->loop.fast.kind = XOMP_LOOP_FAST_NONE;
    struct xomp_ws *ws = &team->ws[k % XOMP_WS_SLOTS];
    for (;;) {
        /* acquire: pairs with the release stores of xomp_ws_publish and of
         * the last leaver in xomp_ws_leave. */
        uint64_t v = atomic_load_explicit(&ws->seq, memory_order_acquire);
        if (v == ((k << 2) | XOMP_WS_FREE)) {
            /* acquire on success: we then own the slot's fields. */
            if (atomic_compare_exchange_strong_explicit(&ws->seq, &v, (k << 2) | XOMP_WS_INITING,
                                                        memory_order_acquire,
                                                        memory_order_acquire)) {
                atomic_store_explicit(&ws->users, team->nthreads, memory_order_relaxed);
                *first = true;
                return ws;
            }
            continue;
        }
        if ((v >> 2) == k) {
            *first = false;
            return ws;
        }
        /* The slot still holds construct k - XOMP_WS_SLOTS. */
        struct slot_wait sw = {ws, k};
        xomp_ws_wait(thr, &thr->worker->loop, &ws->slot_sleepers, k, slot_reached, &sw);
    }
}

void xomp_ws_publish(struct xomp_thread *thr, struct xomp_ws *ws)
{
    uint64_t k = thr->worker->ws_count - 1;
    /* release: the fields written by the first member (and users) become
     * visible to members that acquire READY. */
    atomic_store_explicit(&ws->seq, (k << 2) | XOMP_WS_READY, memory_order_release);
    xomp_ws_wake(thr->team, &ws->slot_sleepers, k);
}

void xomp_ws_wait_ready(struct xomp_thread *thr, struct xomp_ws *ws)
{
    struct slot_wait sw = {ws, thr->worker->ws_count - 1};
    xomp_ws_wait(thr, &thr->worker->loop, &ws->slot_sleepers, sw.k, slot_ready, &sw);
}

void xomp_ws_leave(struct xomp_thread *thr, struct xomp_ws *ws)
{
    uint64_t k = thr->worker->ws_count - 1;
    xomp_ws_wait_ready(thr, ws); /* `users` is set before READY */
    /* acq_rel: the last leaver acquires every member's uses of the slot
     * before it frees it; release orders our own uses before. */
    if (atomic_fetch_sub_explicit(&ws->users, 1, memory_order_acq_rel) == 1) {
        free(ws->heap); /* nobody uses it any more */
        ws->heap = NULL;
        /* release: the next construct's first member acquires FREE. */
        atomic_store_explicit(&ws->seq, ((k + XOMP_WS_SLOTS) << 2) | XOMP_WS_FREE,
                              memory_order_release);
        xomp_ws_wake(thr->team, &ws->slot_sleepers, k + XOMP_WS_SLOTS);
    }
}

struct xomp_ws *xomp_ws_current(struct xomp_thread *thr)
{
    return &thr->team->ws[(thr->worker->ws_count - 1) % XOMP_WS_SLOTS];
}

struct xomp_ws *xomp_ws_join_prepared(struct xomp_thread *thr)
{
    uint64_t k = thr->worker->ws_count++;
    thr->worker->loop.fast.kind = XOMP_LOOP_FAST_NONE;
    struct xomp_ws *ws = &thr->team->ws[k % XOMP_WS_SLOTS];
    xomp_ws_wait_ready(thr, ws);
    return ws;
}

void xomp_ws_share_task_reductions(struct xomp_thread *thr, struct xomp_ws *ws, bool first,
                                   uintptr_t *reductions)
{
    if (first) {
        ws->task_reductions =
            reductions ? xomp_workshare_reduction_start(thr, reductions, NULL) : NULL;
        return;
    }
    if (!reductions)
        return;
    if (!ws->task_reductions)
        xomp_fatal("members of a team disagree on a worksharing construct's task reductions");
    xomp_workshare_reduction_start(thr, reductions, ws->task_reductions);
}

bool xomp_ws_single(struct xomp_thread *thr)
{
    if (!thr->team)
        return true;
    bool first;
    struct xomp_ws *ws = xomp_ws_enter(thr, &first);
    if (first)
        xomp_ws_publish(thr, ws);
    xomp_ws_leave(thr, ws);
    return first;
}
