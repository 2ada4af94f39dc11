/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The taskloop construct: split the iteration space [start, end) by step
 * into tasks, as libgomp does (same number of tasks and the same iterations
 * per task, so programs see the same distribution), write each task's
 * [start, end) into the first two words of its argument block, and wrap it
 * all in a taskgroup unless `nogroup`.  Generated twice: for `long` and for
 * `unsigned long long` (GOMP_taskloop_ull, with GOMP_TASK_FLAG_UP giving the
 * direction).
 *
 * With XOMP_TASKLOOP=ilan the same tasks (the same iterations each) are
 * placed by ILAN (src/locality/ilan.h), which also picks the task count
 * when the taskloop names none.
 */
#include "taskloop.h"

#include "../locality/ilan.h"
#include "../runtime/thread.h"
#include "../tool/ompt.h"
#include "reduction.h"
#include "task_core.h"

struct range_ctx_long {
    long start, end;
};
struct range_ctx_ull {
    unsigned long long start, end;
};

static void set_range_long(void *args, void *ctx)
{
    struct range_ctx_long *r = ctx;
    ((long *)args)[0] = r->start;
    ((long *)args)[1] = r->end;
}

static void set_range_ull(void *args, void *ctx)
{
    struct range_ctx_ull *r = ctx;
    ((unsigned long long *)args)[0] = r->start;
    ((unsigned long long *)args)[1] = r->end;
}

/* The layout GCC gives the argument block of a taskloop with reductions:
 * the two range words, then the reduction descriptor. */
#define DEFINE_TASKLOOP(NAME, TYPE, UTYPE, IS_LONG, RANGE, SET_RANGE)                           \
    void NAME(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,     \
              long arg_align, unsigned flags, unsigned long num_tasks, int priority, TYPE start, \
              TYPE end, TYPE step, const void *codeptr)                                       \
    {                                                                                          \
        struct xomp_thread *thr = xomp_self();                                                 \
        struct xomp_team *team = thr->team;                                                    \
        struct reduction_head {                                                                \
            TYPE t1, t2;                                                                       \
            uintptr_t *ptr;                                                                    \
        };                                                                                     \
        UTYPE n;                                                                               \
        bool cancelled = xomp_cfg.cancellation && team &&                                      \
                         atomic_load_explicit(&team->cancelled, memory_order_acquire);         \
        /* Iteration count, or an early return for an empty loop. */                           \
        if (IS_LONG) {                                                                         \
            TYPE s = step;                                                                     \
            if (step > 0) {                                                                    \
                if (start >= end)                                                              \
                    cancelled = true;                                                          \
                s--;                                                                           \
            } else {                                                                           \
                if (start <= end)                                                              \
                    cancelled = true;                                                          \
                s++;                                                                           \
            }                                                                                  \
            n = cancelled ? 0 : (UTYPE)((end - start + s) / step);                             \
        } else if (flags & GOMP_TASK_FLAG_UP) {                                                \
            if (start >= end)                                                                  \
                cancelled = true;                                                              \
            n = cancelled ? 0 : (end - start + step - 1) / step;                               \
        } else {                                                                               \
            if (start <= end)                                                                  \
                cancelled = true;                                                              \
            n = cancelled ? 0 : (start - end - step - 1) / -step;                              \
        }                                                                                      \
        XOMP_HOOK(xomp_ompt_work(thr, ompt_work_taskloop, ompt_scope_begin, (uint64_t)n,       \
                                 codeptr));                                                    \
        if (cancelled) {                                                                       \
            XOMP_HOOK(xomp_ompt_work(thr, ompt_work_taskloop, ompt_scope_end, 0, codeptr));    \
            /* Tell the caller no reduction was registered. */                                \
            if ((flags & (GOMP_TASK_FLAG_NOGROUP | GOMP_TASK_FLAG_REDUCTION)) ==               \
                GOMP_TASK_FLAG_REDUCTION)                                                      \
                ((struct reduction_head *)data)->ptr[2] = 0;                                   \
            return;                                                                            \
        }                                                                                      \
        /* Iterations per task: task_step (ia iterations) for the first       \
         * nfirst + 1 tasks, then nfirst_step (ib) (libgomp's split, kept for  \
         * identical results). */                                              \
        TYPE task_step = step, nfirst_step = step;                                             \
        UTYPE ia = 1, ib = 1;                                                                  \
        unsigned long nfirst = (unsigned long)n;                                               \
        bool ilan = xomp_ilan_applies(thr, flags, priority, cpyfn);                            \
        if (flags & GOMP_TASK_FLAG_GRAINSIZE) {                                                \
            unsigned long grain = num_tasks ? num_tasks : 1;                                   \
            UTYPE ndiv = n / grain;                                                            \
            num_tasks = (unsigned long)ndiv;                                                   \
            if ((UTYPE)num_tasks != ndiv)                                                      \
                num_tasks = ~0UL;                                                              \
            if ((flags & GOMP_TASK_FLAG_STRICT) && num_tasks != ~0UL) {                        \
                UTYPE mod = n % grain;                                                         \
                task_step = (TYPE)grain * step;                                                \
                ia = ib = grain;                                                               \
                if (mod) {                                                                     \
                    num_tasks++;                                                               \
                    nfirst_step = (TYPE)mod * step;                                            \
                    ib = mod;                                                                  \
                    if (num_tasks == 1) {                                                      \
                        task_step = nfirst_step;                                               \
                        ia = mod;                                                              \
                    } else {                                                                   \
                        nfirst = num_tasks - 2;                                                \
                    }                                                                          \
                }                                                                              \
            } else if (num_tasks <= 1) {                                                       \
                num_tasks = 1;                                                                 \
                task_step = end - start;                                                       \
                ia = ib = n;                                                                   \
            } else if (num_tasks >= grain && num_tasks != ~0UL) {                              \
                UTYPE mul = (UTYPE)num_tasks * grain;                                          \
                task_step = (TYPE)grain * step;                                                \
                ia = ib = grain;                                                               \
                if (mul != n) {                                                                \
                    nfirst_step = task_step;                                                   \
                    task_step += step;                                                         \
                    ia = grain + 1;                                                            \
                    nfirst = (unsigned long)(n - mul - 1);                                     \
                }                                                                              \
            } else {                                                                           \
                UTYPE div = n / num_tasks, mod = n % num_tasks;                                \
                task_step = (TYPE)div * step;                                                  \
                ia = ib = div;                                                                 \
                if (mod) {                                                                     \
                    nfirst_step = task_step;                                                   \
                    task_step += step;                                                         \
                    ia = div + 1;                                                              \
                    nfirst = (unsigned long)(mod - 1);                                         \
                }                                                                              \
            }                                                                                  \
        } else {                                                                               \
            if (num_tasks == 0)                                                                \
                num_tasks = !team ? 1                                                          \
                            : ilan ? team->nthreads * XOMP_ILAN_TASKS_PER_THREAD               \
                                   : team->nthreads;                                           \
            if (num_tasks >= n) {                                                              \
                num_tasks = (unsigned long)n;                                                  \
            } else {                                                                           \
                UTYPE div = n / num_tasks, mod = n % num_tasks;                                \
                task_step = (TYPE)div * step;                                                  \
                ia = ib = div;                                                                 \
                if (mod) {                                                                     \
                    nfirst_step = task_step;                                                   \
                    task_step += step;                                                         \
                    ia = div + 1;                                                              \
                    nfirst = (unsigned long)(mod - 1);                                         \
                }                                                                              \
            }                                                                                  \
        }                                                                                      \
        bool group = !(flags & GOMP_TASK_FLAG_NOGROUP);                                        \
        if (!group) {                                                                          \
            if (xomp_cfg.cancellation && xomp_taskgroup_cancelled(thr->task))                  \
                return;                                                                        \
        } else {                                                                               \
            xomp_taskgroup_start(thr, codeptr);                                                \
            if (flags & GOMP_TASK_FLAG_REDUCTION)                                              \
                xomp_taskgroup_reduction_register(thr, ((struct reduction_head *)data)->ptr); \
        }                                                                                      \
        if (priority < 0)                                                                      \
            priority = 0;                                                                      \
        else if ((unsigned)priority > xomp_cfg.max_task_priority)                              \
            priority = (int)xomp_cfg.max_task_priority;                                        \
        bool undeferred = !(flags & GOMP_TASK_FLAG_IF);                                        \
        unsigned task_flags = flags & (GOMP_TASK_FLAG_UNTIED | GOMP_TASK_FLAG_FINAL |          \
                                       GOMP_TASK_FLAG_MERGEABLE | GOMP_TASK_FLAG_PRIORITY);    \
        if (ilan && num_tasks != ~0UL) {                                                       \
            struct xomp_taskloop_call call = {                                                 \
                fn, data, cpyfn, (size_t)arg_size, (size_t)arg_align, task_flags, group,       \
                {(uint64_t)start, (uint64_t)task_step, (uint64_t)nfirst_step, nfirst,          \
                 num_tasks, (uint64_t)ia, (uint64_t)ib, (uint64_t)n}, codeptr, NULL};          \
            struct xomp_ilan_run *run = xomp_ilan_start(thr, &call);                           \
            if (run) {                                                                         \
                if (group) { /* (nogroup: the run may be released already) */                  \
                    xomp_taskgroup_end(thr, codeptr);                                          \
                    xomp_ilan_end(thr, run);                                                   \
                }                                                                              \
                XOMP_HOOK(xomp_ompt_work(thr, ompt_work_taskloop, ompt_scope_end, (uint64_t)n, \
                                         codeptr));                                            \
                return;                                                                        \
            }                                                                                  \
        }                                                                                      \
        RANGE r;                                                                               \
        struct xomp_args_fixup fixup = {SET_RANGE, &r};                                        \
        for (unsigned long i = 0; i < num_tasks; i++) {                                        \
            r.start = start;                                                                   \
            start += task_step;                                                                \
            r.end = start;                                                                     \
            if (i == nfirst)                                                                   \
                task_step = nfirst_step;                                                       \
            XOMP_PROF_BEGIN(thr, XOMP_EV_TASK_CREATE, 0, 0);                                   \
            xomp_task_spawn_fixed(thr, fn, data, cpyfn, (size_t)arg_size, (size_t)arg_align,   \
                                  undeferred, task_flags, priority, &fixup, codeptr);          \
            XOMP_PROF_END(thr, XOMP_EV_TASK_CREATE);                                           \
        }                                                                                      \
        if (group)                                                                             \
            xomp_taskgroup_end(thr, codeptr);                                                  \
        XOMP_HOOK(xomp_ompt_work(thr, ompt_work_taskloop, ompt_scope_end, (uint64_t)n, codeptr)); \
    }

DEFINE_TASKLOOP(xomp_taskloop_long, long, unsigned long, 1, struct range_ctx_long, set_range_long)
DEFINE_TASKLOOP(xomp_taskloop_ull, unsigned long long, unsigned long long, 0,
                struct range_ctx_ull, set_range_ull)
