/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* The single construct: the first member to arrive executes it. */
#include "../runtime/thread.h"
#include "../runtime/ws.h"
#include "../sched/barrier.h"
#include "../tool/ompt.h"
#include "abi.h"

void xomp_single_events(struct xomp_thread *thr, bool executor, bool end_announced,
                        const void *codeptr)
{
    if (!executor) {
        xomp_ompt_work(thr, ompt_work_single_other, ompt_scope_begin, 1, codeptr);
        xomp_ompt_work(thr, ompt_work_single_other, ompt_scope_end, 1, codeptr);
    } else if (end_announced) {
        xomp_ompt_work(thr, ompt_work_single_executor, ompt_scope_begin, 1, codeptr);
    } else {
        /* The executor's region ends where GCC's ABI does not say (its
         * body runs after we return): at the member's next barrier or
         * construct. */
        xomp_ompt_work_open(thr, ompt_work_single_executor, codeptr);
    }
}

XOMP_EXPORT bool GOMP_single_start(void)
{
    struct xomp_thread *thr = xomp_self();
    bool first = xomp_ws_single(thr);
    XOMP_HOOK(xomp_single_events(thr, first, false, XOMP_CODEPTR()));
    return first;
}

/* single with copyprivate: the winner gets NULL, runs the body and calls
 * GOMP_single_copy_end with its data; the others get that data once the
 * winner is done.  The compiler adds a barrier after, which keeps the
 * winner's data alive while the others copy it. */
XOMP_EXPORT void *GOMP_single_copy_start(void)
{
    struct xomp_thread *thr = xomp_self();
    const void *codeptr = XOMP_CODEPTR();
    if (!thr->team) {
        XOMP_HOOK(xomp_ompt_work(thr, ompt_work_single_executor, ompt_scope_begin, 1, codeptr));
        return NULL;
    }
    bool first;
    struct xomp_ws *ws = xomp_ws_enter(thr, &first);
    if (first) {
        xomp_ws_publish(thr, ws);
        XOMP_HOOK(xomp_ompt_work(thr, ompt_work_single_executor, ompt_scope_begin, 1, codeptr));
        return NULL;
    }
    XOMP_HOOK(xomp_ompt_work(thr, ompt_work_single_other, ompt_scope_begin, 1, codeptr));
    /* the winner stored copyprivate before it */
    XOMP_ENTRY(xomp_barrier_wait(thr, ompt_sync_region_barrier_implicit_workshare, codeptr));
    void *data = ws->copyprivate;
    xomp_ws_leave(thr, ws);
    XOMP_HOOK(xomp_ompt_work(thr, ompt_work_single_other, ompt_scope_end, 1, codeptr));
    return data;
}

XOMP_EXPORT void GOMP_single_copy_end(void *data)
{
    struct xomp_thread *thr = xomp_self();
    const void *codeptr = XOMP_CODEPTR();
    XOMP_HOOK(xomp_ompt_work(thr, ompt_work_single_executor, ompt_scope_end, 1, codeptr));
    if (!thr->team)
        return;
    struct xomp_ws *ws = xomp_ws_current(thr);
    ws->copyprivate = data;
    /* publishes copyprivate to the others */
    XOMP_ENTRY(xomp_barrier_wait(thr, ompt_sync_region_barrier_implicit_workshare, codeptr));
    xomp_ws_leave(thr, ws);
}
