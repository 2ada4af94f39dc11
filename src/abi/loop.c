/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * GOMP_loop_* and GOMP_parallel_loop_* entry points (long iteration
 * variables): translate the ABI into runtime/loop.h, nothing more.
 *
 * The compiler's code calls a *_start, then the matching *_next until it
 * returns false, then GOMP_loop_end*; the *_next entry points all do the
 * same (the construct remembers its schedule).  The nonmonotonic variants
 * are the same schedules: every schedule here is monotonic.
 */
#include "../runtime/log.h"
#include "../runtime/loop.h"
#include "../runtime/team.h"
#include "abi.h"

/* A chunk of zero or less means "none given". */
static uint64_t chunk_of(long chunk)
{
    return chunk > 0 ? (uint64_t)chunk : 0;
}

static void no_task_reductions(uintptr_t *reductions)
{
    if (reductions)
        xomp_fatal("task reductions on worksharing loops are not supported yet");
}

static bool start(long start, long end, long incr, struct xomp_sched s, bool ordered, void **mem,
                  long *istart, long *iend)
{
    struct xomp_loop l;
    xomp_loop_of_long(&l, start, end, incr);
    struct xomp_loop_args a = {.loop = &l, .sched = s, .ordered = ordered, .mem = mem};
    return xomp_loop_start(&a, (uint64_t *)istart, (uint64_t *)iend);
}

static bool next(long *istart, long *iend)
{
    return xomp_loop_next((uint64_t *)istart, (uint64_t *)iend);
}

static bool doacross_start(unsigned ncounts, const long *counts, struct xomp_sched s, void **mem,
                           long *istart, long *iend)
{
    uint64_t dims[ncounts ? ncounts : 1];
    for (unsigned i = 0; i < ncounts; i++)
        dims[i] = counts[i] > 0 ? (uint64_t)counts[i] : 0;
    struct xomp_loop l;
    xomp_loop_of_long(&l, 0, ncounts ? (long)dims[0] : 0, 1);
    struct xomp_loop_args a = {.loop = &l, .sched = s, .ndims = ncounts, .dims = dims, .mem = mem};
    return xomp_loop_start(&a, (uint64_t *)istart, (uint64_t *)iend);
}

static void parallel_loop(void (*fn)(void *), void *data, unsigned num_threads, long start,
                          long end, long incr, struct xomp_sched s, unsigned flags)
{
    struct xomp_loop l;
    xomp_loop_of_long(&l, start, end, incr);
    xomp_parallel_loop_start(fn, data, num_threads, flags, &l, s);
}

static void parallel_loop_run(void (*fn)(void *), void *data, unsigned num_threads, long start,
                              long end, long incr, struct xomp_sched s, unsigned flags)
{
    parallel_loop(fn, data, num_threads, start, end, incr, s, flags);
    fn(data);
    xomp_parallel_end();
}

/* ---- loops ---- */

XOMP_EXPORT bool GOMP_loop_static_start(long start_, long end, long incr, long chunk,
                                        long *istart, long *iend)
{
    return start(start_, end, incr, xomp_sched_make(XOMP_SCHED_STATIC, chunk_of(chunk)), false,
                 NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_dynamic_start(long start_, long end, long incr, long chunk,
                                         long *istart, long *iend)
{
    return start(start_, end, incr, xomp_sched_make(XOMP_SCHED_DYNAMIC, chunk_of(chunk)), false,
                 NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_guided_start(long start_, long end, long incr, long chunk,
                                        long *istart, long *iend)
{
    return start(start_, end, incr, xomp_sched_make(XOMP_SCHED_GUIDED, chunk_of(chunk)), false,
                 NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_nonmonotonic_dynamic_start(long start_, long end, long incr,
                                                      long chunk, long *istart, long *iend)
{
    return start(start_, end, incr, xomp_sched_make(XOMP_SCHED_DYNAMIC, chunk_of(chunk)), false,
                 NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_nonmonotonic_guided_start(long start_, long end, long incr,
                                                     long chunk, long *istart, long *iend)
{
    return start(start_, end, incr, xomp_sched_make(XOMP_SCHED_GUIDED, chunk_of(chunk)), false,
                 NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_runtime_start(long start_, long end, long incr, long *istart,
                                         long *iend)
{
    return start(start_, end, incr, xomp_sched_runtime(), false, NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_nonmonotonic_runtime_start(long start_, long end, long incr,
                                                      long *istart, long *iend)
{
    return start(start_, end, incr, xomp_sched_runtime(), false, NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_maybe_nonmonotonic_runtime_start(long start_, long end, long incr,
                                                            long *istart, long *iend)
{
    return start(start_, end, incr, xomp_sched_runtime(), false, NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_start(long start_, long end, long incr, long sched, long chunk,
                                 long *istart, long *iend, uintptr_t *reductions, void **mem)
{
    no_task_reductions(reductions);
    return start(start_, end, incr, xomp_sched_of_gomp(sched, chunk_of(chunk)), false, mem,
                 istart, iend);
}

XOMP_EXPORT bool GOMP_loop_static_next(long *istart, long *iend)
{
    return next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_dynamic_next(long *istart, long *iend)
{
    return next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_guided_next(long *istart, long *iend)
{
    return next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_runtime_next(long *istart, long *iend)
{
    return next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_nonmonotonic_dynamic_next(long *istart, long *iend)
{
    return next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_nonmonotonic_guided_next(long *istart, long *iend)
{
    return next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_nonmonotonic_runtime_next(long *istart, long *iend)
{
    return next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_maybe_nonmonotonic_runtime_next(long *istart, long *iend)
{
    return next(istart, iend);
}

/* ---- ordered loops ---- */

XOMP_EXPORT bool GOMP_loop_ordered_static_start(long start_, long end, long incr, long chunk,
                                                long *istart, long *iend)
{
    return start(start_, end, incr, xomp_sched_make(XOMP_SCHED_STATIC, chunk_of(chunk)), true,
                 NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_dynamic_start(long start_, long end, long incr, long chunk,
                                                 long *istart, long *iend)
{
    return start(start_, end, incr, xomp_sched_make(XOMP_SCHED_DYNAMIC, chunk_of(chunk)), true,
                 NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_guided_start(long start_, long end, long incr, long chunk,
                                                long *istart, long *iend)
{
    return start(start_, end, incr, xomp_sched_make(XOMP_SCHED_GUIDED, chunk_of(chunk)), true,
                 NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_runtime_start(long start_, long end, long incr, long *istart,
                                                 long *iend)
{
    return start(start_, end, incr, xomp_sched_runtime(), true, NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_start(long start_, long end, long incr, long sched,
                                         long chunk, long *istart, long *iend,
                                         uintptr_t *reductions, void **mem)
{
    no_task_reductions(reductions);
    return start(start_, end, incr, xomp_sched_of_gomp(sched, chunk_of(chunk)), true, mem,
                 istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_static_next(long *istart, long *iend)
{
    return next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_dynamic_next(long *istart, long *iend)
{
    return next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_guided_next(long *istart, long *iend)
{
    return next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_runtime_next(long *istart, long *iend)
{
    return next(istart, iend);
}

/* ---- doacross loops: iterate over 0 .. counts[0]-1 ---- */

XOMP_EXPORT bool GOMP_loop_doacross_static_start(unsigned ncounts, long *counts, long chunk,
                                                 long *istart, long *iend)
{
    return doacross_start(ncounts, counts, xomp_sched_make(XOMP_SCHED_STATIC, chunk_of(chunk)),
                          NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_doacross_dynamic_start(unsigned ncounts, long *counts, long chunk,
                                                  long *istart, long *iend)
{
    return doacross_start(ncounts, counts, xomp_sched_make(XOMP_SCHED_DYNAMIC, chunk_of(chunk)),
                          NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_doacross_guided_start(unsigned ncounts, long *counts, long chunk,
                                                 long *istart, long *iend)
{
    return doacross_start(ncounts, counts, xomp_sched_make(XOMP_SCHED_GUIDED, chunk_of(chunk)),
                          NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_doacross_runtime_start(unsigned ncounts, long *counts, long *istart,
                                                  long *iend)
{
    return doacross_start(ncounts, counts, xomp_sched_runtime(), NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_doacross_start(unsigned ncounts, long *counts, long sched, long chunk,
                                          long *istart, long *iend, uintptr_t *reductions,
                                          void **mem)
{
    no_task_reductions(reductions);
    return doacross_start(ncounts, counts, xomp_sched_of_gomp(sched, chunk_of(chunk)), mem,
                          istart, iend);
}

/* ---- combined parallel loops ---- */

XOMP_EXPORT void GOMP_parallel_loop_static_start(void (*fn)(void *), void *data,
                                                 unsigned num_threads, long start_, long end,
                                                 long incr, long chunk)
{
    parallel_loop(fn, data, num_threads, start_, end, incr,
                  xomp_sched_make(XOMP_SCHED_STATIC, chunk_of(chunk)), 0);
}

XOMP_EXPORT void GOMP_parallel_loop_dynamic_start(void (*fn)(void *), void *data,
                                                  unsigned num_threads, long start_, long end,
                                                  long incr, long chunk)
{
    parallel_loop(fn, data, num_threads, start_, end, incr,
                  xomp_sched_make(XOMP_SCHED_DYNAMIC, chunk_of(chunk)), 0);
}

XOMP_EXPORT void GOMP_parallel_loop_guided_start(void (*fn)(void *), void *data,
                                                 unsigned num_threads, long start_, long end,
                                                 long incr, long chunk)
{
    parallel_loop(fn, data, num_threads, start_, end, incr,
                  xomp_sched_make(XOMP_SCHED_GUIDED, chunk_of(chunk)), 0);
}

XOMP_EXPORT void GOMP_parallel_loop_runtime_start(void (*fn)(void *), void *data,
                                                  unsigned num_threads, long start_, long end,
                                                  long incr)
{
    parallel_loop(fn, data, num_threads, start_, end, incr, xomp_sched_runtime(), 0);
}

XOMP_EXPORT void GOMP_parallel_loop_static(void (*fn)(void *), void *data, unsigned num_threads,
                                           long start_, long end, long incr, long chunk,
                                           unsigned flags)
{
    parallel_loop_run(fn, data, num_threads, start_, end, incr,
                      xomp_sched_make(XOMP_SCHED_STATIC, chunk_of(chunk)), flags);
}

XOMP_EXPORT void GOMP_parallel_loop_dynamic(void (*fn)(void *), void *data, unsigned num_threads,
                                            long start_, long end, long incr, long chunk,
                                            unsigned flags)
{
    parallel_loop_run(fn, data, num_threads, start_, end, incr,
                      xomp_sched_make(XOMP_SCHED_DYNAMIC, chunk_of(chunk)), flags);
}

XOMP_EXPORT void GOMP_parallel_loop_guided(void (*fn)(void *), void *data, unsigned num_threads,
                                           long start_, long end, long incr, long chunk,
                                           unsigned flags)
{
    parallel_loop_run(fn, data, num_threads, start_, end, incr,
                      xomp_sched_make(XOMP_SCHED_GUIDED, chunk_of(chunk)), flags);
}

XOMP_EXPORT void GOMP_parallel_loop_runtime(void (*fn)(void *), void *data, unsigned num_threads,
                                            long start_, long end, long incr, unsigned flags)
{
    parallel_loop_run(fn, data, num_threads, start_, end, incr, xomp_sched_runtime(), flags);
}

XOMP_EXPORT void GOMP_parallel_loop_nonmonotonic_dynamic(void (*fn)(void *), void *data,
                                                         unsigned num_threads, long start_,
                                                         long end, long incr, long chunk,
                                                         unsigned flags)
{
    parallel_loop_run(fn, data, num_threads, start_, end, incr,
                      xomp_sched_make(XOMP_SCHED_DYNAMIC, chunk_of(chunk)), flags);
}

XOMP_EXPORT void GOMP_parallel_loop_nonmonotonic_guided(void (*fn)(void *), void *data,
                                                        unsigned num_threads, long start_,
                                                        long end, long incr, long chunk,
                                                        unsigned flags)
{
    parallel_loop_run(fn, data, num_threads, start_, end, incr,
                      xomp_sched_make(XOMP_SCHED_GUIDED, chunk_of(chunk)), flags);
}

XOMP_EXPORT void GOMP_parallel_loop_nonmonotonic_runtime(void (*fn)(void *), void *data,
                                                         unsigned num_threads, long start_,
                                                         long end, long incr, unsigned flags)
{
    parallel_loop_run(fn, data, num_threads, start_, end, incr, xomp_sched_runtime(), flags);
}

XOMP_EXPORT void GOMP_parallel_loop_maybe_nonmonotonic_runtime(void (*fn)(void *), void *data,
                                                               unsigned num_threads, long start_,
                                                               long end, long incr,
                                                               unsigned flags)
{
    parallel_loop_run(fn, data, num_threads, start_, end, incr, xomp_sched_runtime(), flags);
}

/* ---- the end of a loop ---- */

XOMP_EXPORT void GOMP_loop_end(void)
{
    xomp_loop_end(XOMP_LOOP_END_BARRIER);
}

XOMP_EXPORT void GOMP_loop_end_nowait(void)
{
    xomp_loop_end(XOMP_LOOP_END_NOWAIT);
}

XOMP_EXPORT bool GOMP_loop_end_cancel(void)
{
    return xomp_loop_end(XOMP_LOOP_END_CANCEL);
}
