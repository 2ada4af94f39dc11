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
#include "../locality/ilan.h"
#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "../task/task_alloc.h"
#include "../task/task_core.h"
#include "../tool/ompt.h"
#include "kmp.h"

#include <stdlib.h>
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

/* What a copy of the pattern needs: the block's layout and the
 * compiler's task_dup. */
struct pattern {
    kmp_task *kt;
    uint32_t kmp_flags; /* the compiler's, until scheduled (kmp_task.c) */
    size_t size, lb_offset, ub_offset;
    ptrdiff_t shareds_offset;
    kmp_task_dup task_dup;
};

/* A copy of the pattern that runs iterations first..last (the loop's
 * words), through task_dup (`last_task`: it runs the loop's last
 * iteration). */
static kmp_task *pattern_copy(struct xomp_thread *thr, const struct pattern *p, uint64_t first,
                              uint64_t last, bool last_task)
{
    kmp_task *kt = xomp_kmp_task_new(thr, (kmp_int32)p->kmp_flags, p->size, 0, p->kt->routine);
    memcpy(kt, p->kt, p->size);
    if (p->shareds_offset)
        kt->shareds = (char *)kt + p->shareds_offset;
    memcpy((char *)kt + p->lb_offset, &first, sizeof first);
    memcpy((char *)kt + p->ub_offset, &last, sizeof last);
    if (p->task_dup)
        p->task_dup(kt, p->kt, last_task);
    return kt;
}

/* The pattern's end: its destructors, and its block. */
static void pattern_release(struct xomp_thread *thr, const struct pattern *p)
{
    if (p->kmp_flags & KMP_TASK_DESTRUCTORS)
        p->kt->data1.destructors(thr->gtid, p->kt);
    xomp_task_discard(thr, xomp_kmp_task_of(p->kt), (char *)p->kt - XOMP_TASK_ARGS_OFFSET);
}

/* ---- placed by ILAN (XOMP_TASKLOOP=ilan, locality/ilan.h) ---- */

/* The tasks ILAN's makers ask for: copies of the pattern, which lives
 * until the last of them is done (the compiler's code does not wait for
 * them: it passes nogroup and wraps the loop in a taskgroup itself). */
struct ilan_source {
    struct xomp_taskloop_source source;
    struct pattern pattern;
    uint64_t ntasks;
    kmp_int64 st;
};

static struct xomp_task *ilan_make(struct xomp_thread *thr, const struct xomp_task_proto *proto,
                                   void *ctx, uint64_t i, uint64_t start, uint64_t end)
{
    struct ilan_source *s = ctx;
    /* [start, end) -> the inclusive bounds the compiler's code reads. */
    kmp_task *kt = pattern_copy(thr, &s->pattern, start, end - (uint64_t)s->st, i + 1 == s->ntasks);
    struct xomp_task *t = xomp_kmp_task_of(kt);
    xomp_task_make_prepared(thr, proto, t, xomp_kmp_task_fn(s->pattern.kmp_flags),
                            xomp_kmp_task_data(kt));
    return t;
}

static void ilan_release(struct xomp_thread *thr, void *ctx)
{
    struct ilan_source *s = ctx;
    pattern_release(thr, &s->pattern);
    free(s);
}

/* ILAN's view of a split: task i starts at start + i * task_step while i
 * <= nfirst + 1, each later one nfirst_step further (ilan.h). */
static struct xomp_taskloop_split ilan_split(const struct split *s, uint64_t lower, kmp_int64 st,
                                             uint64_t n)
{
    struct xomp_taskloop_split r = {.start = lower, .num_tasks = s->ntasks, .trip = n};
    if (s->last_count) { /* strict grainsize: the last task has the rest */
        uint64_t first = s->ntasks == 1 ? s->last_count : s->per;
        r.task_step = first * (uint64_t)st;
        r.iters_first = first;
        r.nfirst = s->ntasks - (s->ntasks > 1 ? 2 : 1);
        r.nfirst_step = s->last_count * (uint64_t)st;
        r.iters_rest = s->last_count;
    } else if (s->big) { /* the first `big` tasks have one more */
        r.task_step = (s->per + 1) * (uint64_t)st;
        r.iters_first = s->per + 1;
        r.nfirst = s->big - 1;
        r.nfirst_step = s->per * (uint64_t)st;
        r.iters_rest = s->per;
    } else {
        r.task_step = r.nfirst_step = s->per * (uint64_t)st;
        r.iters_first = r.iters_rest = s->per;
        r.nfirst = s->ntasks;
    }
    return r;
}

/* Hand the loop to ILAN; false when it did not take it (the pattern is
 * still ours then). */
static bool ilan_taskloop(struct xomp_thread *thr, const struct pattern *p, const struct split *s,
                          uint64_t lower, kmp_int64 st, uint64_t n, unsigned gomp_flags,
                          bool group, const void *codeptr)
{
    struct ilan_source *src = malloc(sizeof *src);
    if (!src)
        xomp_fatal("out of memory for an ILAN taskloop");
    src->source.make = ilan_make;
    src->source.release = ilan_release;
    src->source.ctx = src;
    atomic_init(&src->source.makers, 0);
    src->pattern = *p;
    src->ntasks = s->ntasks;
    src->st = st;
    struct xomp_taskloop_call call = {
        .fn = (void (*)(void *))(void *)p->kt->routine, /* names the loop */
        .flags = gomp_flags,
        .group = group,
        .split = ilan_split(s, lower, st, n),
        .codeptr = codeptr,
        .source = &src->source,
    };
    struct xomp_ilan_run *run = xomp_ilan_start(thr, &call);
    if (!run) {
        free(src);
        return false;
    }
    if (group) {
        xomp_taskgroup_end(thr, codeptr);
        xomp_ilan_end(thr, run);
    }
    /* (nogroup: the run is not ours any more once its tasks completed.) */
    return true;
}

/* ---- the construct ---- */

static void taskloop(kmp_task *pattern, int if_val, kmp_uint64 *lb, kmp_uint64 *ub, kmp_int64 st,
                     int nogroup, int sched, kmp_uint64 param, int strict, void *task_dup,
                     const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_task *pt = xomp_kmp_task_of(pattern);
    struct pattern p = {
        .kt = pattern,
        .kmp_flags = pt->flags,
        .size = pt->args_size,
        .lb_offset = (size_t)((char *)lb - (char *)pattern),
        .ub_offset = (size_t)((char *)ub - (char *)pattern),
        .shareds_offset = pattern->shareds ? (char *)pattern->shareds - (char *)pattern : 0,
        .task_dup = (kmp_task_dup)task_dup,
    };
    if (p.lb_offset + sizeof *lb > p.size || p.ub_offset + sizeof *ub > p.size)
        xomp_fatal("__kmpc_taskloop: the bounds are not in the task's block");

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
    /* ILAN places the loop as it places GOMP_taskloop's, with as many
     * tasks by default (task/taskloop.c). */
    int priority = (p.kmp_flags & KMP_TASK_PRIORITY) ? pattern->data2.priority : 0;
    unsigned gomp_flags = (~p.kmp_flags & KMP_TASK_TIED) | (p.kmp_flags & KMP_TASK_FINAL) |
                          (if_val ? GOMP_TASK_FLAG_IF : 0) | (nogroup ? GOMP_TASK_FLAG_NOGROUP : 0);
    bool ilan = xomp_ilan_applies(thr, gomp_flags, priority, NULL);
    unsigned nthreads = thr->team ? thr->team->nthreads : 1;
    struct split s = split_of(n, sched, param, strict,
                              ilan ? nthreads * XOMP_ILAN_TASKS_PER_THREAD : nthreads);
    if (ilan && s.ntasks > 0 && s.ntasks <= UINT32_MAX &&
        ilan_taskloop(thr, &p, &s, lower, st, n, gomp_flags, !nogroup, codeptr)) {
        XOMP_HOOK(xomp_ompt_work(thr, ompt_work_taskloop, ompt_scope_end, n, codeptr));
        return;
    }
    uint64_t first = lower;
    for (uint64_t k = 0; k < s.ntasks; k++) {
        uint64_t count = task_count(&s, k);
        uint64_t last = first + (count - 1) * (uint64_t)st;
        kmp_task *kt = pattern_copy(thr, &p, first, last, k + 1 == s.ntasks);
        xomp_kmp_task_submit(thr, kt, NULL, !if_val, codeptr);
        first = last + (uint64_t)st;
    }
    pattern_release(thr, &p);
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
