/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* GOMP_task, taskwait, taskyield and taskgroup entry points. */
#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "../task/task_core.h"
#include "abi.h"

XOMP_EXPORT void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                           long arg_size, long arg_align, bool if_clause, unsigned flags,
                           void **depend, int priority, void *detach)
{
    (void)depend;
    (void)detach;
    if (flags & GOMP_TASK_FLAG_DEPEND)
        xomp_fatal("task dependences (depend clause) are not supported yet");
    if (flags & GOMP_TASK_FLAG_DETACH)
        xomp_fatal("detachable tasks (detach clause) are not supported yet");
    if (!(flags & GOMP_TASK_FLAG_PRIORITY))
        priority = 0;
    if (arg_size < 0 || arg_align < 0 || (arg_align & (arg_align - 1)))
        xomp_fatal("GOMP_task: invalid argument block (size %ld, alignment %ld)", arg_size,
                   arg_align);
    xomp_task_spawn(xomp_self(), fn, data, cpyfn, (size_t)arg_size, (size_t)arg_align, !if_clause,
                    flags, priority);
}

XOMP_EXPORT void GOMP_taskwait(void)
{
    xomp_taskwait(xomp_self());
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
