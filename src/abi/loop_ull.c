/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * GOMP_loop_ull_* entry points (unsigned long long iteration variables):
 * translate the ABI into runtime/loop.h, nothing more.  `up` says whether
 * the loop counts up (incr > 0) or down (incr is then a negative step in
 * two's complement).  There are no combined parallel forms for these.
 */
#include "../runtime/log.h"
#include "../runtime/loop.h"
#include "../runtime/loop_fast.h"
#include "abi.h"

typedef unsigned long long ull;

/* A schedule(nonmonotonic: kind, chunk) clause. */
static struct xomp_sched nonmonotonic(uint32_t kind, ull chunk)
{
    return xomp_sched_with_monotonic(xomp_sched_make(kind, chunk), false);
}

/* The chunk's values come back as uint64_t and are copied out: the
 * caller's variables are unsigned long long, another type. */
static bool copy_out(bool got, const uint64_t *s, const uint64_t *e, ull *istart, ull *iend)
{
    if (got && istart) {
        *istart = *s;
        *iend = *e;
    }
    return got;
}

static bool ull_start(const void *codeptr, bool up, ull start, ull end, ull incr, struct xomp_sched s, bool ordered,
                      uintptr_t *reductions, void **mem, ull *istart, ull *iend)
{
    struct xomp_loop l;
    xomp_loop_of_ull(&l, up, start, end, incr);
    struct xomp_loop_args a = {.loop = &l, .sched = s, .ordered = ordered, .mem = mem,
                              .reductions = reductions, .codeptr = codeptr};
    uint64_t vs = 0, ve = 0;
    return copy_out(xomp_loop_start(&a, istart ? &vs : NULL, &ve), &vs, &ve, istart, iend);
}

static bool ull_next(ull *istart, ull *iend)
{
    uint64_t vs = 0, ve = 0;
    return copy_out(xomp_loop_next_inline(&vs, &ve), &vs, &ve, istart, iend);
}

static bool ull_doacross_start(const void *codeptr, unsigned ncounts, const ull *counts, struct xomp_sched s,
                               uintptr_t *reductions, void **mem, ull *istart, ull *iend)
{
    if (ncounts > XOMP_DOACROSS_MAX_DIMS)
        xomp_fatal("ordered(%u) loop: more than %d dimensions are not supported", ncounts,
                   XOMP_DOACROSS_MAX_DIMS);
    uint64_t dims[ncounts ? ncounts : 1];
    for (unsigned i = 0; i < ncounts; i++)
        dims[i] = counts[i];
    struct xomp_loop l;
    xomp_loop_of_ull(&l, true, 0, ncounts ? dims[0] : 0, 1);
    struct xomp_loop_args a = {.loop = &l, .sched = s, .ndims = ncounts, .dims = dims, .mem = mem,
                              .reductions = reductions, .codeptr = codeptr};
    uint64_t vs = 0, ve = 0;
    return copy_out(xomp_loop_start(&a, istart ? &vs : NULL, &ve), &vs, &ve, istart, iend);
}

/* ---- loops ---- */

XOMP_EXPORT bool GOMP_loop_ull_static_start(bool up, ull start, ull end, ull incr, ull chunk,
                                            ull *istart, ull *iend)
{
    return ull_start(XOMP_CODEPTR(), up, start, end, incr, xomp_sched_make(XOMP_SCHED_STATIC, chunk), false, NULL,
                     NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_dynamic_start(bool up, ull start, ull end, ull incr, ull chunk,
                                             ull *istart, ull *iend)
{
    return ull_start(XOMP_CODEPTR(), up, start, end, incr, xomp_sched_make(XOMP_SCHED_DYNAMIC, chunk), false,
                     NULL, NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_guided_start(bool up, ull start, ull end, ull incr, ull chunk,
                                            ull *istart, ull *iend)
{
    return ull_start(XOMP_CODEPTR(), up, start, end, incr, xomp_sched_make(XOMP_SCHED_GUIDED, chunk), false, NULL,
                     NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_nonmonotonic_dynamic_start(bool up, ull start, ull end, ull incr,
                                                          ull chunk, ull *istart, ull *iend)
{
    return ull_start(XOMP_CODEPTR(), up, start, end, incr, nonmonotonic(XOMP_SCHED_DYNAMIC, chunk), false,
                     NULL, NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_nonmonotonic_guided_start(bool up, ull start, ull end, ull incr,
                                                         ull chunk, ull *istart, ull *iend)
{
    return ull_start(XOMP_CODEPTR(), up, start, end, incr, nonmonotonic(XOMP_SCHED_GUIDED, chunk), false, NULL,
                     NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_runtime_start(bool up, ull start, ull end, ull incr, ull *istart,
                                             ull *iend)
{
    return ull_start(XOMP_CODEPTR(), up, start, end, incr, xomp_sched_runtime_modified(true), false, NULL, NULL,
                     istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_nonmonotonic_runtime_start(bool up, ull start, ull end, ull incr,
                                                          ull *istart, ull *iend)
{
    return ull_start(XOMP_CODEPTR(), up, start, end, incr, xomp_sched_runtime_modified(false), false, NULL, NULL,
                     istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_maybe_nonmonotonic_runtime_start(bool up, ull start, ull end,
                                                                ull incr, ull *istart,
                                                                ull *iend)
{
    return ull_start(XOMP_CODEPTR(), up, start, end, incr, xomp_sched_runtime(), false, NULL, NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_start(bool up, ull start, ull end, ull incr, long sched,
                                     ull chunk, ull *istart, ull *iend, uintptr_t *reductions,
                                     void **mem)
{
    return ull_start(XOMP_CODEPTR(), up, start, end, incr, xomp_sched_of_gomp(sched, chunk), false, reductions,
                     mem, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_static_next(ull *istart, ull *iend)
{
    return ull_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_dynamic_next(ull *istart, ull *iend)
{
    return ull_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_guided_next(ull *istart, ull *iend)
{
    return ull_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_runtime_next(ull *istart, ull *iend)
{
    return ull_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_nonmonotonic_dynamic_next(ull *istart, ull *iend)
{
    return ull_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_nonmonotonic_guided_next(ull *istart, ull *iend)
{
    return ull_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_nonmonotonic_runtime_next(ull *istart, ull *iend)
{
    return ull_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_maybe_nonmonotonic_runtime_next(ull *istart, ull *iend)
{
    return ull_next(istart, iend);
}

/* ---- ordered loops ---- */

XOMP_EXPORT bool GOMP_loop_ull_ordered_static_start(bool up, ull start, ull end, ull incr,
                                                    ull chunk, ull *istart, ull *iend)
{
    return ull_start(XOMP_CODEPTR(), up, start, end, incr, xomp_sched_make(XOMP_SCHED_STATIC, chunk), true, NULL,
                     NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_ordered_dynamic_start(bool up, ull start, ull end, ull incr,
                                                     ull chunk, ull *istart, ull *iend)
{
    return ull_start(XOMP_CODEPTR(), up, start, end, incr, xomp_sched_make(XOMP_SCHED_DYNAMIC, chunk), true, NULL,
                     NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_ordered_guided_start(bool up, ull start, ull end, ull incr,
                                                    ull chunk, ull *istart, ull *iend)
{
    return ull_start(XOMP_CODEPTR(), up, start, end, incr, xomp_sched_make(XOMP_SCHED_GUIDED, chunk), true, NULL,
                     NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_ordered_runtime_start(bool up, ull start, ull end, ull incr,
                                                     ull *istart, ull *iend)
{
    return ull_start(XOMP_CODEPTR(), up, start, end, incr, xomp_sched_runtime(), true, NULL, NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_ordered_start(bool up, ull start, ull end, ull incr, long sched,
                                             ull chunk, ull *istart, ull *iend,
                                             uintptr_t *reductions, void **mem)
{
    return ull_start(XOMP_CODEPTR(), up, start, end, incr, xomp_sched_of_gomp(sched, chunk), true, reductions,
                     mem, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_ordered_static_next(ull *istart, ull *iend)
{
    return ull_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_ordered_dynamic_next(ull *istart, ull *iend)
{
    return ull_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_ordered_guided_next(ull *istart, ull *iend)
{
    return ull_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_ordered_runtime_next(ull *istart, ull *iend)
{
    return ull_next(istart, iend);
}

/* ---- doacross loops: iterate over 0 .. counts[0]-1 ---- */

XOMP_EXPORT bool GOMP_loop_ull_doacross_static_start(unsigned ncounts, ull *counts, ull chunk,
                                                     ull *istart, ull *iend)
{
    return ull_doacross_start(XOMP_CODEPTR(), ncounts, counts, xomp_sched_make(XOMP_SCHED_STATIC, chunk), NULL,
                              NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_doacross_dynamic_start(unsigned ncounts, ull *counts, ull chunk,
                                                      ull *istart, ull *iend)
{
    return ull_doacross_start(XOMP_CODEPTR(), ncounts, counts, xomp_sched_make(XOMP_SCHED_DYNAMIC, chunk), NULL,
                              NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_doacross_guided_start(unsigned ncounts, ull *counts, ull chunk,
                                                     ull *istart, ull *iend)
{
    return ull_doacross_start(XOMP_CODEPTR(), ncounts, counts, xomp_sched_make(XOMP_SCHED_GUIDED, chunk), NULL,
                              NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_doacross_runtime_start(unsigned ncounts, ull *counts, ull *istart,
                                                      ull *iend)
{
    return ull_doacross_start(XOMP_CODEPTR(), ncounts, counts, xomp_sched_runtime(), NULL, NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ull_doacross_start(unsigned ncounts, ull *counts, long sched,
                                              ull chunk, ull *istart, ull *iend,
                                              uintptr_t *reductions, void **mem)
{
    return ull_doacross_start(XOMP_CODEPTR(), ncounts, counts, xomp_sched_of_gomp(sched, chunk), reductions, mem,
                              istart, iend);
}
