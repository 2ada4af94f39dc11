/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The reduction clause of the LLVM ABI: __kmpc_reduce[_nowait] tells each
 * member how to combine its private copies into the shared variables, and
 * __kmpc_end_reduce[_nowait] ends that.  The compiler emits every method
 * and switches on the value returned:
 *   1  the caller combines its copies into the shared variables itself,
 *      then calls the end entry (xomp holds the reduction's lock around
 *      that when other members may combine at the same time);
 *   2  the caller combines with atomic operations (only offered when the
 *      location has KMP_IDENT_ATOMIC_REDUCE); the blocking form then calls
 *      __kmpc_end_reduce, the nowait form nothing;
 *   0  nothing to do (xomp never returns it).
 * The method depends only on the team size and the location's flags, so
 * the end entries work it out again instead of remembering it.  The
 * blocking form's end is the construct's barrier.
 *
 * A tool is told the reduction (ompt_callback_reduction, begin and end)
 * where the runtime hands the combining to the member (methods 1 and 3,
 * the end after the lock is released), as LLVM libomp does; the atomic
 * method has no end call in its nowait form and is not reported.
 */
#include "../runtime/mutex.h"
#include "../runtime/thread.h"
#include "../sched/barrier.h"
#include "../tool/ompt.h"
#include "kmp.h"

enum reduce_method {
    REDUCE_ALONE = 1,    /* a team of one: combine, no lock */
    REDUCE_ATOMIC = 2,   /* the compiler's atomic variant */
    REDUCE_CRITICAL = 3, /* combine under the reduction's lock, returns 1 */
};

static enum reduce_method method_of(const struct xomp_thread *thr, const kmp_ident *loc)
{
    if (!thr->team || thr->team->nthreads == 1)
        return REDUCE_ALONE;
    if (loc && (loc->flags & KMP_IDENT_ATOMIC_REDUCE))
        return REDUCE_ATOMIC;
    return REDUCE_CRITICAL;
}

/* Reductions whose location gives no lock share this one. */
static _Atomic uint32_t unnamed_reduction_lock;

static _Atomic uint32_t *reduction_lock(kmp_critical_name *lck)
{
    return lck ? (_Atomic uint32_t *)(void *)lck : &unnamed_reduction_lock;
}

static kmp_int32 reduce_begin(const kmp_ident *loc, kmp_critical_name *lck, const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    enum reduce_method m = method_of(thr, loc);
    if (m == REDUCE_ATOMIC)
        return 2;
    XOMP_HOOK(xomp_ompt_reduction(thr, ompt_scope_begin, codeptr));
    if (m == REDUCE_CRITICAL)
        xomp_mutex_lock(reduction_lock(lck));
    return 1;
}

XOMP_EXPORT kmp_int32 __kmpc_reduce_nowait(kmp_ident *loc, kmp_int32 gtid, kmp_int32 num_vars,
                                           size_t reduce_size, void *reduce_data,
                                           void (*reduce_func)(void *lhs, void *rhs),
                                           kmp_critical_name *lck)
{
    return reduce_begin(loc, lck, XOMP_CODEPTR());
}

/* The member has combined its copies (not after the atomic method). */
static void reduce_end(struct xomp_thread *thr, const kmp_ident *loc, kmp_critical_name *lck,
                       const void *codeptr)
{
    enum reduce_method m = method_of(thr, loc);
    if (m == REDUCE_CRITICAL)
        xomp_mutex_unlock(reduction_lock(lck));
    XOMP_HOOK(if (m != REDUCE_ATOMIC) xomp_ompt_reduction(thr, ompt_scope_end, codeptr));
}

XOMP_EXPORT void __kmpc_end_reduce_nowait(kmp_ident *loc, kmp_int32 gtid, kmp_critical_name *lck)
{
    reduce_end(xomp_self(), loc, lck, XOMP_CODEPTR());
}

/* The blocking form begins as the nowait one; its end differs. */
XOMP_EXPORT kmp_int32 __kmpc_reduce(kmp_ident *loc, kmp_int32 gtid, kmp_int32 num_vars,
                                    size_t reduce_size, void *reduce_data,
                                    void (*reduce_func)(void *lhs, void *rhs),
                                    kmp_critical_name *lck)
    __attribute__((alias("__kmpc_reduce_nowait")));

XOMP_EXPORT void __kmpc_end_reduce(kmp_ident *loc, kmp_int32 gtid, kmp_critical_name *lck)
{
    struct xomp_thread *thr = xomp_self();
    const void *codeptr = XOMP_CODEPTR();
    reduce_end(thr, loc, lck, codeptr);
    if (thr->team) /* the construct's barrier */
        XOMP_ENTRY(xomp_barrier_wait(thr, ompt_sync_region_barrier_implicit_workshare, codeptr));
}
