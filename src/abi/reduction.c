/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Task reduction entry points (GOMP_5.0). */
#include "../runtime/team.h"
#include "../runtime/thread.h"
#include "../task/reduction.h"
#include "../task/task_core.h"
#include "abi.h"

#include <stdlib.h>

XOMP_EXPORT void GOMP_taskgroup_reduction_register(uintptr_t *data)
{
    xomp_taskgroup_reduction_register(xomp_self(), data);
}

XOMP_EXPORT void GOMP_taskgroup_reduction_unregister(uintptr_t *data)
{
    xomp_taskgroup_reduction_unregister(data);
}

XOMP_EXPORT void GOMP_task_reduction_remap(size_t cnt, size_t cntorig, void **ptrs)
{
    xomp_task_reduction_remap(xomp_self(), cnt, cntorig, ptrs);
}

XOMP_EXPORT void GOMP_workshare_task_reduction_unregister(bool cancelled)
{
    xomp_workshare_reduction_end(xomp_self(), cancelled);
}

/* parallel reduction(task, ...): the first word of the data block points
 * to the reduction descriptor. */
static unsigned parallel_reductions(void (*fn)(void *), void *data, unsigned num_threads,
                                    unsigned flags, const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    unsigned n = xomp_resolve_num_threads(thr, num_threads);
    struct xomp_taskgroup *tg = xomp_parallel_reduction_taskgroup(*(uintptr_t **)data, n, thr);
    n = xomp_parallel_start_in_taskgroup(fn, data, n, flags, tg, num_threads, codeptr, true);
    fn(data);
    xomp_parallel_end();
    xomp_taskgroup_delete(thr, tg);
    return n;
}

XOMP_EXPORT unsigned GOMP_parallel_reductions(void (*fn)(void *), void *data, unsigned num_threads,
                                              unsigned flags)
{
    XOMP_ENTRY_RETURN(unsigned,
                      parallel_reductions(fn, data, num_threads, flags, XOMP_CODEPTR()));
}
