/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* GOMP_parallel* entry points: translate the ABI, nothing more. */
#include "../runtime/team.h"
#include "abi.h"

XOMP_EXPORT void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads,
                               unsigned flags)
{
    XOMP_ENTRY(xomp_parallel(fn, data, num_threads, flags, XOMP_CODEPTR()));
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
