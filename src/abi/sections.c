/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The sections and scope constructs.  Sections are a loop over the section
 * numbers 1 .. count handed out one at a time (dynamic, chunk 1); 0 means
 * no section is left for the caller.
 */
#include "../runtime/log.h"
#include "../runtime/loop.h"
#include "../runtime/loop_fast.h"
#include "../runtime/team.h"
#include "abi.h"

/* Monotonic: GCC's lastprivate(conditional:) on sections relies on
 * each member getting its sections in increasing order. */
static const struct xomp_sched one_at_a_time = {
    .kind = XOMP_SCHED_DYNAMIC, .monotonic = true, .chunk = 1};

static void sections_loop(struct xomp_loop *l, unsigned count)
{
    xomp_loop_of_long(l, 1, (long)count + 1, 1);
}


static unsigned sections_start(unsigned count, uintptr_t *reductions, void **mem,
                               const void *codeptr)
{
    struct xomp_loop l;
    sections_loop(&l, count);
    struct xomp_loop_args a = {.loop = &l,
                               .sched = one_at_a_time,
                               .mem = mem,
                               .reductions = reductions,
                               .sections = true,
                               .codeptr = codeptr};
    uint64_t s, e;
    return xomp_loop_start(&a, &s, &e) ? (unsigned)s : 0;
}

static void parallel_sections(void (*fn)(void *), void *data, unsigned num_threads,
                              unsigned count, unsigned flags, const void *codeptr,
                              bool runtime_invokes)
{
    struct xomp_loop l;
    sections_loop(&l, count);
    xomp_parallel_loop_start(fn, data, num_threads, flags, &l, one_at_a_time, true, codeptr,
                             runtime_invokes);
}

XOMP_EXPORT unsigned GOMP_sections_start(unsigned count)
{
    return sections_start(count, NULL, NULL, XOMP_CODEPTR());
}

XOMP_EXPORT unsigned GOMP_sections2_start(unsigned count, uintptr_t *reductions, void **mem)
{
    return sections_start(count, reductions, mem, XOMP_CODEPTR());
}

XOMP_EXPORT unsigned GOMP_sections_next(void)
{
    uint64_t s, e;
    return xomp_loop_next_inline(&s, &e) ? (unsigned)s : 0;
}

XOMP_EXPORT void GOMP_parallel_sections_start(void (*fn)(void *), void *data,
                                              unsigned num_threads, unsigned count)
{
    XOMP_ENTRY_OPEN();
    parallel_sections(fn, data, num_threads, count, 0, XOMP_CODEPTR(), false);
}

XOMP_EXPORT void GOMP_parallel_sections(void (*fn)(void *), void *data, unsigned num_threads,
                                        unsigned count, unsigned flags)
{
    XOMP_ENTRY(({
        parallel_sections(fn, data, num_threads, count, flags, XOMP_CODEPTR(), true);
        fn(data);
        xomp_parallel_end();
    }));
}

XOMP_EXPORT void GOMP_sections_end(void)
{
    XOMP_ENTRY(xomp_loop_end(XOMP_LOOP_END_BARRIER, XOMP_CODEPTR()));
}

XOMP_EXPORT void GOMP_sections_end_nowait(void)
{
    xomp_loop_end(XOMP_LOOP_END_NOWAIT, XOMP_CODEPTR());
}

XOMP_EXPORT bool GOMP_sections_end_cancel(void)
{
    XOMP_ENTRY_RETURN(bool, xomp_loop_end(XOMP_LOOP_END_CANCEL, XOMP_CODEPTR()));
}

/* The compiler calls this only for a scope with task reductions; it ends
 * the scope with GOMP_barrier and GOMP_workshare_task_reduction_unregister.
 * A scope without them needs nothing from the runtime. */
XOMP_EXPORT void GOMP_scope_start(uintptr_t *reductions)
{
    xomp_scope_start(reductions, XOMP_CODEPTR());
}
