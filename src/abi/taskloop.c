/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* GOMP_taskloop and GOMP_taskloop_ull. */
#include "../task/taskloop.h"
#include "abi.h"

XOMP_EXPORT void GOMP_taskloop(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                               long arg_size, long arg_align, unsigned flags,
                               unsigned long num_tasks, int priority, long start, long end,
                               long step)
{
    XOMP_ENTRY(xomp_taskloop_long(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks,
                                  priority, start, end, step, XOMP_CODEPTR()));
}

XOMP_EXPORT void GOMP_taskloop_ull(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                                   long arg_size, long arg_align, unsigned flags,
                                   unsigned long num_tasks, int priority, unsigned long long start,
                                   unsigned long long end, unsigned long long step)
{
    XOMP_ENTRY(xomp_taskloop_ull(fn, data, cpyfn, arg_size, arg_align, flags, num_tasks,
                                 priority, start, end, step, XOMP_CODEPTR()));
}
