/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* GOMP_task, taskwait, taskyield and taskgroup entry points. */
#include <omp.h>

#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "../task/spawn_fast.h"
#include "../task/task_core.h"
#include "abi.h"

XOMP_EXPORT void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                           long arg_size, long arg_align, bool if_clause, unsigned flags,
                           void **depend, int priority, void *detach)
{
    struct xomp_thread *thr = xomp_self();
    XOMP_PROF_BEGIN(thr, XOMP_EV_TASK_CREATE, 0, 0);
    if (xomp_task_spawn_fast(thr, fn, data, cpyfn, (size_t)arg_size, (size_t)arg_align, if_clause,
                             flags)) {
        XOMP_PROF_END(thr, XOMP_EV_TASK_CREATE);
        return;
    }
    if (!(flags & GOMP_TASK_FLAG_PRIORITY) || priority < 0)
        priority = 0;
    else if ((unsigned)priority > xomp_cfg.max_task_priority)
        priority = (int)xomp_cfg.max_task_priority;
    if (arg_size < 0 || arg_align < 0 || (arg_align & (arg_align - 1)))
        xomp_fatal("GOMP_task: invalid argument block (size %ld, alignment %ld)", arg_size,
                   arg_align);
    xomp_task_spawn(thr, fn, data, cpyfn, (size_t)arg_size, (size_t)arg_align, !if_clause, flags,
                    priority, depend, (void **)detach);
    XOMP_PROF_END(thr, XOMP_EV_TASK_CREATE);
}

XOMP_EXPORT void GOMP_taskwait_depend(void **depend)
{
    struct xomp_thread *thr = xomp_self();
    XOMP_PROF_BEGIN(thr, XOMP_EV_TASKWAIT, 0, 0);
    xomp_task_wait_depend(thr, depend);
    XOMP_PROF_END(thr, XOMP_EV_TASKWAIT);
}

XOMP_EXPORT void omp_fulfill_event(omp_event_handle_t event)
{
    xomp_task_fulfill(xomp_self(), (struct xomp_task *)(uintptr_t)event);
}

XOMP_EXPORT void GOMP_taskwait(void)
{
    struct xomp_thread *thr = xomp_self();
    XOMP_PROF_BEGIN(thr, XOMP_EV_TASKWAIT, 0, 0);
    xomp_taskwait(thr);
    XOMP_PROF_END(thr, XOMP_EV_TASKWAIT);
}

XOMP_EXPORT void GOMP_taskyield(void)
{
    xomp_taskyield(xomp_self());
}

XOMP_EXPORT void GOMP_taskgroup_start(void)
{
    xomp_taskgroup_start(xomp_self());
}

XOMP_EXPORT void GOMP_taskgroup_end(void)
{
    xomp_taskgroup_end(xomp_self());
}
