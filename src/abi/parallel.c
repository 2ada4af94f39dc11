/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* GOMP_parallel* entry points: translate the ABI, nothing more. */
#include "../runtime/team.h"
#include "abi.h"

/* A parallel region's entry point with hooks on (noinline: the plain path
 * keeps no register for it): the encountering task's enter_frame is the
 * entry point's frame, `cfa`. */
__attribute__((noinline)) void xomp_parallel_entered(void (*fn)(void *), void *data,
                                                     unsigned num_threads, unsigned flags,
                                                     const void *codeptr, void *cfa)
{
    struct xomp_task *entered = xomp_ompt_enter_runtime(cfa);
    xomp_parallel(fn, data, num_threads, flags, codeptr);
    xomp_ompt_leave_runtime(entered);
}

XOMP_EXPORT void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads,
                               unsigned flags)
{
    if (XOMP_HOOKS_ON()) {
        xomp_parallel_entered(fn, data, num_threads, flags, XOMP_CODEPTR(),
                              __builtin_dwarf_cfa());
        return;
    }
    xomp_parallel(fn, data, num_threads, flags, XOMP_CODEPTR());
}

XOMP_EXPORT void GOMP_parallel_start(void (*fn)(void *), void *data, unsigned num_threads)
{
    XOMP_ENTRY_OPEN();
    xomp_parallel_start(fn, data, num_threads, 0, XOMP_CODEPTR(), false);
}

XOMP_EXPORT void GOMP_parallel_end(void)
{
    xomp_parallel_end();
    XOMP_HOOK(xomp_ompt_leave_region());
}
