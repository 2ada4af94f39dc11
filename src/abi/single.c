/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* The single construct: the first member to arrive executes it. */
#include "../runtime/thread.h"
#include "../runtime/ws.h"
#include "../sched/barrier.h"
#include "abi.h"

XOMP_EXPORT bool GOMP_single_start(void)
{
    return xomp_ws_single(xomp_self());
}

/* single with copyprivate: the winner gets NULL, runs the body and calls
 * GOMP_single_copy_end with its data; the others get that data once the
 * winner is done.  The compiler adds a barrier after, which keeps the
 * winner's data alive while the others copy it. */
XOMP_EXPORT void *GOMP_single_copy_start(void)
{
    struct xomp_thread *thr = xomp_self();
    if (!thr->team)
        return NULL;
    bool first;
    struct xomp_ws *ws = xomp_ws_enter(thr, &first);
    if (first) {
        xomp_ws_publish(thr, ws);
        return NULL;
    }
    xomp_barrier_wait(thr); /* the winner stored copyprivate before it */
    void *data = ws->copyprivate;
    xomp_ws_leave(thr, ws);
    return data;
}

XOMP_EXPORT void GOMP_single_copy_end(void *data)
{
    struct xomp_thread *thr = xomp_self();
    if (!thr->team)
        return;
    struct xomp_ws *ws = xomp_ws_current(thr);
    ws->copyprivate = data;
    xomp_barrier_wait(thr); /* publishes copyprivate to the others */
    xomp_ws_leave(thr, ws);
}
