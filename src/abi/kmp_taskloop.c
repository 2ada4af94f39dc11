/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The taskloop construct of the LLVM ABI (__kmpc_taskloop,
 * __kmpc_taskloop_5).  The compiler allocates one task -- the pattern --
 * whose descriptor goes on with the loop's bounds (lb, ub: where the
 * given pointers point), fills in its privates and shareds, and hands it
 * over with the schedule.  xomp splits the iterations into tasks as its
 * GOMP_taskloop does (same counts for the same clauses), each a copy of
 * the pattern (the whole block: descriptor, privates, shareds) with its
 * own bounds, passed through the compiler's task_dup (firstprivate
 * copies, the lastprivate flag of the task that runs the last
 * iteration), then scheduled like any task.  The pattern itself never
 * runs; its destructors do.  The compiler wraps the loop in a taskgroup
 * itself unless `nogroup` says xomp should.
 */
#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "../task/task_alloc.h"
#include "../task/task_core.h"
#include "../tool/ompt.h"
#include "kmp.h"

#include <string.h>

/* schedule: none, grainsize(g) or num_tasks(n); modifier 1: strict. */
enum { SCHED_DEFAULT = 0, SCHED_GRAINSIZE = 1, SCHED_NUM_TASKS = 2 };

typedef void (*kmp_task_dup)(kmp_task *dst, kmp_task *src, kmp_int32 lastpriv);

/* How the iterations are split: `ntasks` tasks, the first `big` of them
 * with `per + 1` iterations, the others with `per` -- or, for a strict
 * grainsize, `per` each and the last one the rest. */
struct split {
    uint64_t ntasks, per, big;
    uint64_t last_count; /* strict grainsize: the last task's iterations */
};

static struct split split_of(uint64_t n, int sched, uint64_t param, int strict,
                             unsigned nthreads)
{
    struct split s = {0};
    if (n == 0)
        return s;
    if (sched == SCHED_GRAINSIZE && strict) {
        uint64_t g = param ? param : 1;
        s.ntasks = n / g + (n % g != 0);
        s.per = g;
        s.last_count = n % g ? n % g : g;
        return s;
    }
    if (sched == SCHED_GRAINSIZE) {
        uint64_t g = param ? param : 1;
        s.ntasks = n / g ? n / g : 1; /* every task has at least g iterations */
    } else if (sched == SCHED_NUM_TASKS) {
        s.ntasks = param ? param : 1;
    } else {
        s.ntasks = nthreads; /* GOMP_taskloop's default: one task per thread */
    }
    if (s.ntasks > n)
        s.ntasks = n;
    s.per = n / s.ntasks;
    s.big = n % s.ntasks;
    return s;
}

static uint64_t task_count(const struct split *s, uint64_t k)
{
    if (s->last_count)
        return k + 1 == s->ntasks ? s->last_count : s->per;
    return s->per + (k < s->big);
}

static void taskloop(kmp_task *pattern, int if_val, kmp_uint64 *lb, kmp_uint64 *ub, kmp_int64 st,
                     int nogroup, int sched, kmp_uint64 param, int strict, void *task_dup,
                     const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_task *pt = xomp_kmp_task_of(pattern);
    uint32_t kmp_flags = pt->flags; /* the compiler's, until scheduled (kmp_task.c) */
    size_t size = pt->args_size;
    size_t lb_offset = (size_t)((char *)lb - (char *)pattern);
    size_t ub_offset = (size_t)((char *)ub - (char *)pattern);
    if (lb_offset + sizeof *lb > size || ub_offset + sizeof *ub > size)
        xomp_fatal("__kmpc_taskloop: the bounds are not in the task's block");
    ptrdiff_t shareds_offset = pattern->shareds ? (char *)pattern->shareds - (char *)pattern : 0;

    /* Iterations, in unsigned 64-bit arithmetic (the bounds of a signed
     * loop are stored sign-extended, so their differences are exact). */
    uint64_t lower = *lb, upper = *ub, n;
    if (st > 0)
        n = (upper - lower) / (uint64_t)st + 1;
    else if (st < 0)
        n = (lower - upper) / (0 - (uint64_t)st) + 1;
    else
        xomp_fatal("__kmpc_taskloop: a loop with a zero step");
    /* (The compiler calls this only when the loop runs at least once; a
     * count that wraps to 0 is the empty loop.) */

    XOMP_HOOK(xomp_ompt_work(thr, ompt_work_taskloop, ompt_scope_begin, n, codeptr));
    if (!nogroup)
        xomp_taskgroup_start(thr, codeptr);
    struct split s = split_of(n, sched, param, strict, thr->team ? thr->team->nthreads : 1);
    uint64_t first = lower;
    for (uint64_t k = 0; k < s.ntasks; k++) {
        uint64_t count = task_count(&s, k);
        kmp_task *kt = xomp_kmp_task_new(thr, (kmp_int32)kmp_flags, size, 0, pattern->routine);
        memcpy(kt, pattern, size);
        if (shareds_offset)
            kt->shareds = (char *)kt + shareds_offset;
        uint64_t last = first + (count - 1) * (uint64_t)st;
        memcpy((char *)kt + lb_offset, &first, sizeof first);
        memcpy((char *)kt + ub_offset, &last, sizeof last);
        if (task_dup)
            ((kmp_task_dup)task_dup)(kt, pattern, k + 1 == s.ntasks);
        xomp_kmp_task_submit(thr, kt, NULL, !if_val, codeptr);
        first = last + (uint64_t)st;
    }
    if (kmp_flags & KMP_TASK_DESTRUCTORS)
        pattern->data1.destructors(thr->gtid, pattern);
    xomp_task_discard(thr, pt, (char *)pattern - XOMP_TASK_ARGS_OFFSET);
    if (!nogroup)
        xomp_taskgroup_end(thr, codeptr);
    XOMP_HOOK(xomp_ompt_work(thr, ompt_work_taskloop, ompt_scope_end, n, codeptr));
}

XOMP_EXPORT void __kmpc_taskloop(kmp_ident *loc, int gtid, kmp_task *task, int if_val,
                                 kmp_uint64 *lb, kmp_uint64 *ub, kmp_int64 st, int nogroup,
                                 int sched, kmp_uint64 grainsize, void *task_dup)
{
    XOMP_ENTRY(
        taskloop(task, if_val, lb, ub, st, nogroup, sched, grainsize, 0, task_dup, XOMP_CODEPTR()));
}

XOMP_EXPORT void __kmpc_taskloop_5(kmp_ident *loc, int gtid, kmp_task *task, int if_val,
                                   kmp_uint64 *lb, kmp_uint64 *ub, kmp_int64 st, int nogroup,
                                   int sched, kmp_uint64 grainsize, int modifier, void *task_dup)
{
    XOMP_ENTRY(taskloop(task, if_val, lb, ub, st, nogroup, sched, grainsize, modifier, task_dup,
                        XOMP_CODEPTR()));
}
