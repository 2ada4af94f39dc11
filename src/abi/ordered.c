/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The ordered construct: GOMP_ordered_* (ordered regions of a loop with an
 * `ordered` clause) and GOMP_doacross_* (ordered(n) loops with
 * depend(sink) / depend(source)).  Outside such loops they do nothing, as
 * in libgomp.  Iterations are logical numbers, one per dimension.
 */
#include "../runtime/loop.h"
#include "abi.h"

#include <stdarg.h>

XOMP_EXPORT void GOMP_ordered_start(void)
{
    xomp_ordered_start(XOMP_CODEPTR());
}

XOMP_EXPORT void GOMP_ordered_end(void)
{
    xomp_ordered_end(XOMP_CODEPTR());
}

XOMP_EXPORT void GOMP_doacross_post(long *counts)
{
    unsigned n = xomp_doacross_dims();
    uint64_t iter[n ? n : 1];
    for (unsigned i = 0; i < n; i++)
        iter[i] = (uint64_t)counts[i];
    xomp_doacross_post(n ? iter : NULL);
}

XOMP_EXPORT void GOMP_doacross_ull_post(unsigned long long *counts)
{
    unsigned n = xomp_doacross_dims();
    uint64_t iter[n ? n : 1];
    for (unsigned i = 0; i < n; i++)
        iter[i] = counts[i];
    xomp_doacross_post(n ? iter : NULL);
}

/* The sink's iteration: `first`, then one argument per further dimension. */
XOMP_EXPORT void GOMP_doacross_wait(long first, ...)
{
    unsigned n = xomp_doacross_dims();
    uint64_t iter[n ? n : 1];
    iter[0] = (uint64_t)first;
    va_list ap;
    va_start(ap, first);
    for (unsigned i = 1; i < n; i++)
        iter[i] = (uint64_t)va_arg(ap, long);
    va_end(ap);
    xomp_doacross_wait(n ? iter : NULL);
}

XOMP_EXPORT void GOMP_doacross_ull_wait(unsigned long long first, ...)
{
    unsigned n = xomp_doacross_dims();
    uint64_t iter[n ? n : 1];
    iter[0] = first;
    va_list ap;
    va_start(ap, first);
    for (unsigned i = 1; i < n; i++)
        iter[i] = va_arg(ap, unsigned long long);
    va_end(ap);
    xomp_doacross_wait(n ? iter : NULL);
}
