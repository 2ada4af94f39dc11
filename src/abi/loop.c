/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * GOMP_loop_* and GOMP_parallel_loop_* entry points (long iteration
 * variables): translate the ABI into runtime/loop.h, nothing more.
 *
 * The compiler's code calls a *_start, then the matching *_next until it
 * returns false, then GOMP_loop_end*; the *_next entry points all do the
 * same (the construct remembers its schedule).  The nonmonotonic dynamic
 * variants let members claim chunks out of order (loop_steal.c).
 */
#include "../runtime/log.h"
#include "../runtime/loop.h"
#include "../runtime/loop_fast.h"
#include "../runtime/team.h"
#include "abi.h"

/* A chunk of zero or less means "none given". */
static uint64_t chunk_of(long chunk)
{
    return chunk > 0 ? (uint64_t)chunk : 0;
}

/* A schedule(kind, chunk) clause. */
static struct xomp_sched clause(uint32_t kind, long chunk)
{
    return xomp_sched_make(kind, chunk_of(chunk));
}

/* A schedule(nonmonotonic: kind, chunk) clause. */
static struct xomp_sched nonmonotonic(uint32_t kind, long chunk)
{
    return xomp_sched_with_monotonic(clause(kind, chunk), false);
}

/* The chunk's values come back as uint64_t and are converted to long. */
static bool copy_out(bool got, const uint64_t *s, const uint64_t *e, long *istart, long *iend)
{
    if (got && istart) {
        *istart = (long)*s;
        *iend = (long)*e;
    }
    return got;
}

static bool long_start(const void *codeptr, long start, long end, long incr, struct xomp_sched s, bool ordered,
                       uintptr_t *reductions, void **mem, long *istart, long *iend)
{
    struct xomp_loop l;
    xomp_loop_of_long(&l, start, end, incr);
    struct xomp_loop_args a = {.loop = &l, .sched = s, .ordered = ordered, .mem = mem,
                              .reductions = reductions, .codeptr = codeptr};
    uint64_t vs = 0, ve = 0;
    return copy_out(xomp_loop_start(&a, istart ? &vs : NULL, &ve), &vs, &ve, istart, iend);
}

static bool long_next(long *istart, long *iend)
{
    uint64_t vs = 0, ve = 0;
    return copy_out(xomp_loop_next_inline(&vs, &ve), &vs, &ve, istart, iend);
}

static bool long_doacross_start(const void *codeptr, unsigned ncounts, const long *counts, struct xomp_sched s,
                                uintptr_t *reductions, void **mem, long *istart, long *iend)
{
    if (ncounts > XOMP_DOACROSS_MAX_DIMS)
        xomp_fatal("ordered(%u) loop: more than %d dimensions are not supported", ncounts,
                   XOMP_DOACROSS_MAX_DIMS);
    uint64_t dims[ncounts ? ncounts : 1];
    for (unsigned i = 0; i < ncounts; i++)
        dims[i] = counts[i] > 0 ? (uint64_t)counts[i] : 0;
    struct xomp_loop l;
    xomp_loop_of_long(&l, 0, ncounts ? (long)dims[0] : 0, 1);
    struct xomp_loop_args a = {.loop = &l, .sched = s, .ndims = ncounts, .dims = dims, .mem = mem,
                              .reductions = reductions, .codeptr = codeptr};
    uint64_t vs = 0, ve = 0;
    return copy_out(xomp_loop_start(&a, istart ? &vs : NULL, &ve), &vs, &ve, istart, iend);
}

static void parallel_loop_begin(const void *codeptr, bool runtime_invokes, void (*fn)(void *),
                                void *data, unsigned num_threads, long start, long end, long incr,
                                struct xomp_sched s, unsigned flags)
{
    struct xomp_loop l;
    xomp_loop_of_long(&l, start, end, incr);
    xomp_parallel_loop_start(fn, data, num_threads, flags, &l, s, false, codeptr,
                             runtime_invokes);
}

/* The legacy split form: the program runs fn for the master. */
static void parallel_loop(const void *codeptr, void (*fn)(void *), void *data,
                          unsigned num_threads, long start, long end, long incr,
                          struct xomp_sched s, unsigned flags)
{
    XOMP_ENTRY_OPEN(); /* (inlined into the entry point: its frame) */
    parallel_loop_begin(codeptr, false, fn, data, num_threads, start, end, incr, s, flags);
}

static void parallel_loop_run(const void *codeptr, void (*fn)(void *), void *data,
                              unsigned num_threads, long start, long end, long incr,
                              struct xomp_sched s, unsigned flags)
{
    XOMP_ENTRY(({
        parallel_loop_begin(codeptr, true, fn, data, num_threads, start, end, incr, s, flags);
        fn(data);
        xomp_parallel_end();
    }));
}

/* ---- loops ---- */

XOMP_EXPORT bool GOMP_loop_static_start(long start, long end, long incr, long chunk,
                                        long *istart, long *iend)
{
    return long_start(XOMP_CODEPTR(), start, end, incr, clause(XOMP_SCHED_STATIC, chunk), false, NULL, NULL, istart,
                      iend);
}

XOMP_EXPORT bool GOMP_loop_dynamic_start(long start, long end, long incr, long chunk,
                                         long *istart, long *iend)
{
    return long_start(XOMP_CODEPTR(), start, end, incr, clause(XOMP_SCHED_DYNAMIC, chunk), false, NULL, NULL,
                      istart, iend);
}

XOMP_EXPORT bool GOMP_loop_guided_start(long start, long end, long incr, long chunk,
                                        long *istart, long *iend)
{
    return long_start(XOMP_CODEPTR(), start, end, incr, clause(XOMP_SCHED_GUIDED, chunk), false, NULL, NULL, istart,
                      iend);
}

XOMP_EXPORT bool GOMP_loop_nonmonotonic_dynamic_start(long start, long end, long incr,
                                                      long chunk, long *istart, long *iend)
{
    return long_start(XOMP_CODEPTR(), start, end, incr, nonmonotonic(XOMP_SCHED_DYNAMIC, chunk), false, NULL, NULL,
                      istart, iend);
}

XOMP_EXPORT bool GOMP_loop_nonmonotonic_guided_start(long start, long end, long incr,
                                                     long chunk, long *istart, long *iend)
{
    return long_start(XOMP_CODEPTR(), start, end, incr, nonmonotonic(XOMP_SCHED_GUIDED, chunk), false, NULL, NULL,
                      istart, iend);
}

XOMP_EXPORT bool GOMP_loop_runtime_start(long start, long end, long incr, long *istart,
                                         long *iend)
{
    return long_start(XOMP_CODEPTR(), start, end, incr, xomp_sched_runtime_modified(true), false, NULL, NULL,
                      istart, iend);
}

XOMP_EXPORT bool GOMP_loop_nonmonotonic_runtime_start(long start, long end, long incr,
                                                      long *istart, long *iend)
{
    return long_start(XOMP_CODEPTR(), start, end, incr, xomp_sched_runtime_modified(false), false, NULL, NULL,
                      istart, iend);
}

XOMP_EXPORT bool GOMP_loop_maybe_nonmonotonic_runtime_start(long start, long end, long incr,
                                                            long *istart, long *iend)
{
    return long_start(XOMP_CODEPTR(), start, end, incr, xomp_sched_runtime(), false, NULL, NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_start(long start, long end, long incr, long sched, long chunk,
                                 long *istart, long *iend, uintptr_t *reductions, void **mem)
{
    return long_start(XOMP_CODEPTR(), start, end, incr, xomp_sched_of_gomp(sched, chunk_of(chunk)), false,
                      reductions, mem, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_static_next(long *istart, long *iend)
{
    return long_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_dynamic_next(long *istart, long *iend)
{
    return long_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_guided_next(long *istart, long *iend)
{
    return long_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_runtime_next(long *istart, long *iend)
{
    return long_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_nonmonotonic_dynamic_next(long *istart, long *iend)
{
    return long_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_nonmonotonic_guided_next(long *istart, long *iend)
{
    return long_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_nonmonotonic_runtime_next(long *istart, long *iend)
{
    return long_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_maybe_nonmonotonic_runtime_next(long *istart, long *iend)
{
    return long_next(istart, iend);
}

/* ---- ordered loops ---- */

XOMP_EXPORT bool GOMP_loop_ordered_static_start(long start, long end, long incr, long chunk,
                                                long *istart, long *iend)
{
    return long_start(XOMP_CODEPTR(), start, end, incr, clause(XOMP_SCHED_STATIC, chunk), true, NULL, NULL,
                      istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_dynamic_start(long start, long end, long incr, long chunk,
                                                 long *istart, long *iend)
{
    return long_start(XOMP_CODEPTR(), start, end, incr, clause(XOMP_SCHED_DYNAMIC, chunk), true, NULL, NULL, istart,
                      iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_guided_start(long start, long end, long incr, long chunk,
                                                long *istart, long *iend)
{
    return long_start(XOMP_CODEPTR(), start, end, incr, clause(XOMP_SCHED_GUIDED, chunk), true, NULL, NULL,
                      istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_runtime_start(long start, long end, long incr, long *istart,
                                                 long *iend)
{
    return long_start(XOMP_CODEPTR(), start, end, incr, xomp_sched_runtime(), true, NULL, NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_start(long start, long end, long incr, long sched,
                                         long chunk, long *istart, long *iend,
                                         uintptr_t *reductions, void **mem)
{
    return long_start(XOMP_CODEPTR(), start, end, incr, xomp_sched_of_gomp(sched, chunk_of(chunk)), true,
                      reductions, mem, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_static_next(long *istart, long *iend)
{
    return long_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_dynamic_next(long *istart, long *iend)
{
    return long_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_guided_next(long *istart, long *iend)
{
    return long_next(istart, iend);
}

XOMP_EXPORT bool GOMP_loop_ordered_runtime_next(long *istart, long *iend)
{
    return long_next(istart, iend);
}

/* ---- doacross loops: iterate over 0 .. counts[0]-1 ---- */

XOMP_EXPORT bool GOMP_loop_doacross_static_start(unsigned ncounts, long *counts, long chunk,
                                                 long *istart, long *iend)
{
    return long_doacross_start(XOMP_CODEPTR(), ncounts, counts, clause(XOMP_SCHED_STATIC, chunk), NULL, NULL,
                               istart, iend);
}

XOMP_EXPORT bool GOMP_loop_doacross_dynamic_start(unsigned ncounts, long *counts, long chunk,
                                                  long *istart, long *iend)
{
    return long_doacross_start(XOMP_CODEPTR(), ncounts, counts, clause(XOMP_SCHED_DYNAMIC, chunk), NULL, NULL,
                               istart, iend);
}

XOMP_EXPORT bool GOMP_loop_doacross_guided_start(unsigned ncounts, long *counts, long chunk,
                                                 long *istart, long *iend)
{
    return long_doacross_start(XOMP_CODEPTR(), ncounts, counts, clause(XOMP_SCHED_GUIDED, chunk), NULL, NULL,
                               istart, iend);
}

XOMP_EXPORT bool GOMP_loop_doacross_runtime_start(unsigned ncounts, long *counts, long *istart,
                                                  long *iend)
{
    return long_doacross_start(XOMP_CODEPTR(), ncounts, counts, xomp_sched_runtime(), NULL, NULL, istart, iend);
}

XOMP_EXPORT bool GOMP_loop_doacross_start(unsigned ncounts, long *counts, long sched, long chunk,
                                          long *istart, long *iend, uintptr_t *reductions,
                                          void **mem)
{
    return long_doacross_start(XOMP_CODEPTR(), ncounts, counts, xomp_sched_of_gomp(sched, chunk_of(chunk)),
                               reductions, mem, istart, iend);
}

/* ---- combined parallel loops ---- */

XOMP_EXPORT void GOMP_parallel_loop_static_start(void (*fn)(void *), void *data,
                                                 unsigned num_threads, long start, long end,
                                                 long incr, long chunk)
{
    parallel_loop(XOMP_CODEPTR(), fn, data, num_threads, start, end, incr, clause(XOMP_SCHED_STATIC, chunk), 0);
}

XOMP_EXPORT void GOMP_parallel_loop_dynamic_start(void (*fn)(void *), void *data,
                                                  unsigned num_threads, long start, long end,
                                                  long incr, long chunk)
{
    parallel_loop(XOMP_CODEPTR(), fn, data, num_threads, start, end, incr, clause(XOMP_SCHED_DYNAMIC, chunk), 0);
}

XOMP_EXPORT void GOMP_parallel_loop_guided_start(void (*fn)(void *), void *data,
                                                 unsigned num_threads, long start, long end,
                                                 long incr, long chunk)
{
    parallel_loop(XOMP_CODEPTR(), fn, data, num_threads, start, end, incr, clause(XOMP_SCHED_GUIDED, chunk), 0);
}

XOMP_EXPORT void GOMP_parallel_loop_runtime_start(void (*fn)(void *), void *data,
                                                  unsigned num_threads, long start, long end,
                                                  long incr)
{
    parallel_loop(XOMP_CODEPTR(), fn, data, num_threads, start, end, incr, xomp_sched_runtime_modified(true), 0);
}

XOMP_EXPORT void GOMP_parallel_loop_static(void (*fn)(void *), void *data, unsigned num_threads,
                                           long start, long end, long incr, long chunk,
                                           unsigned flags)
{
    parallel_loop_run(XOMP_CODEPTR(), fn, data, num_threads, start, end, incr, clause(XOMP_SCHED_STATIC, chunk),
                      flags);
}

XOMP_EXPORT void GOMP_parallel_loop_dynamic(void (*fn)(void *), void *data, unsigned num_threads,
                                            long start, long end, long incr, long chunk,
                                            unsigned flags)
{
    parallel_loop_run(XOMP_CODEPTR(), fn, data, num_threads, start, end, incr, clause(XOMP_SCHED_DYNAMIC, chunk),
                      flags);
}

XOMP_EXPORT void GOMP_parallel_loop_guided(void (*fn)(void *), void *data, unsigned num_threads,
                                           long start, long end, long incr, long chunk,
                                           unsigned flags)
{
    parallel_loop_run(XOMP_CODEPTR(), fn, data, num_threads, start, end, incr, clause(XOMP_SCHED_GUIDED, chunk),
                      flags);
}

XOMP_EXPORT void GOMP_parallel_loop_runtime(void (*fn)(void *), void *data, unsigned num_threads,
                                            long start, long end, long incr, unsigned flags)
{
    parallel_loop_run(XOMP_CODEPTR(), fn, data, num_threads, start, end, incr, xomp_sched_runtime_modified(true),
                      flags);
}

XOMP_EXPORT void GOMP_parallel_loop_nonmonotonic_dynamic(void (*fn)(void *), void *data,
                                                         unsigned num_threads, long start,
                                                         long end, long incr, long chunk,
                                                         unsigned flags)
{
    parallel_loop_run(XOMP_CODEPTR(), fn, data, num_threads, start, end, incr, nonmonotonic(XOMP_SCHED_DYNAMIC, chunk),
                      flags);
}

XOMP_EXPORT void GOMP_parallel_loop_nonmonotonic_guided(void (*fn)(void *), void *data,
                                                        unsigned num_threads, long start,
                                                        long end, long incr, long chunk,
                                                        unsigned flags)
{
    parallel_loop_run(XOMP_CODEPTR(), fn, data, num_threads, start, end, incr, nonmonotonic(XOMP_SCHED_GUIDED, chunk),
                      flags);
}

XOMP_EXPORT void GOMP_parallel_loop_nonmonotonic_runtime(void (*fn)(void *), void *data,
                                                         unsigned num_threads, long start,
                                                         long end, long incr, unsigned flags)
{
    parallel_loop_run(XOMP_CODEPTR(), fn, data, num_threads, start, end, incr, xomp_sched_runtime_modified(false),
                      flags);
}

XOMP_EXPORT void GOMP_parallel_loop_maybe_nonmonotonic_runtime(void (*fn)(void *), void *data,
                                                               unsigned num_threads, long start,
                                                               long end, long incr,
                                                               unsigned flags)
{
    parallel_loop_run(XOMP_CODEPTR(), fn, data, num_threads, start, end, incr, xomp_sched_runtime(), flags);
}

/* ---- the end of a loop ---- */

XOMP_EXPORT void GOMP_loop_end(void)
{
    XOMP_ENTRY(xomp_loop_end(XOMP_LOOP_END_BARRIER, XOMP_CODEPTR()));
}

XOMP_EXPORT void GOMP_loop_end_nowait(void)
{
    xomp_loop_end(XOMP_LOOP_END_NOWAIT, XOMP_CODEPTR());
}

XOMP_EXPORT bool GOMP_loop_end_cancel(void)
{
    XOMP_ENTRY_RETURN(bool, xomp_loop_end(XOMP_LOOP_END_CANCEL, XOMP_CODEPTR()));
}
