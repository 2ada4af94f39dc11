/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* GOMP_task, taskwait, taskyield and taskgroup entry points. */
#include <omp.h>

#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "../task/spawn_fast.h"
#include "../task/task_core.h"
#include "abi.h"

/* GOMP_task's last three arguments, which only the general path reads,
 * its return address (OMPT's codeptr_ra) and its canonical frame address
 * (the encountering task's enter_frame while a tool is attached). */
struct task_extra_args {
    void ***depend;
    int *priority;
    void **detach;
    const void *codeptr;
    void *cfa;
};

/* A size and a power-of-two alignment that GOMP_task can copy. */
static inline bool task_args_block_valid(long arg_size, long arg_align)
{
    return arg_size >= 0 && arg_align >= 0 && !(arg_align & (arg_align - 1));
}

/* if(0) and nothing else: no copy, no dependences, no event, a valid
 * argument block (the general path diagnoses others).  A priority does not
 * matter to a task that runs at once. */
static inline bool task_args_undeferred_plain(void (*cpyfn)(void *, void *), long arg_size,
                                              long arg_align, bool if_clause, unsigned flags)
{
    return !if_clause && !cpyfn && task_args_block_valid(arg_size, arg_align) &&
           !(flags & (GOMP_TASK_FLAG_DEPEND | GOMP_TASK_FLAG_DETACH));
}

/* Every task the fast path does not take (noinline: GOMP_task's fast path
 * then needs no stack frame).  The TASK_CREATE event is recorded here and
 * in task_spawn_usual_slow: with XOMP_PROFILE=events every task comes this
 * way (config.h, plain_tasks). */
static __attribute__((noinline)) void task_spawn_general(void (*fn)(void *), void *data,
                                                         void (*cpyfn)(void *, void *),
                                                         long arg_size, long arg_align,
                                                         bool if_clause, unsigned flags,
                                                         const struct task_extra_args *extra)
{
    void **depend = *extra->depend;
    int priority = *extra->priority;
    void *detach = *extra->detach;
    if (!(flags & GOMP_TASK_FLAG_PRIORITY) || priority < 0)
        priority = 0;
    else if ((unsigned)priority > xomp_cfg.max_task_priority)
        priority = (int)xomp_cfg.max_task_priority;
    if (!task_args_block_valid(arg_size, arg_align))
        xomp_fatal("GOMP_task: invalid argument block (size %ld, alignment %ld)", arg_size,
                   arg_align);
    struct xomp_thread *thr = xomp_self();
    struct xomp_task *entered = NULL;
    XOMP_HOOK(entered = xomp_ompt_enter_runtime(extra->cfa));
    XOMP_PROF_BEGIN(thr, XOMP_EV_TASK_CREATE, 0, 0);
    xomp_task_spawn(thr, fn, data, cpyfn, (size_t)arg_size, (size_t)arg_align, !if_clause, flags,
                    priority, depend, (void **)detach, extra->codeptr);
    XOMP_PROF_END(thr, XOMP_EV_TASK_CREATE);
    XOMP_HOOK(xomp_ompt_leave_runtime(entered));
}

/* Every task the fast path does not take: an if(0) task that needs
 * nothing told or checked (no hooks, no cancellation: plain_tasks) outside
 * any recorded or replayed steal tree runs at once on its arguments in
 * place (xomp_task_run_now); the others take the general path.  noinline
 * and frameless: both calls are tail calls. */
static __attribute__((noinline)) void task_spawn_unusual(void (*fn)(void *), void *data,
                                                         void (*cpyfn)(void *, void *),
                                                         long arg_size, long arg_align,
                                                         bool if_clause, unsigned flags,
                                                         const struct task_extra_args *extra)
{
    struct xomp_thread *thr = xomp_tls;
    if (task_args_undeferred_plain(cpyfn, arg_size, arg_align, if_clause, flags) && thr &&
        xomp_cfg.plain_tasks && !thr->task->rp) {
        xomp_task_run_now(thr, fn, data, flags, 0);
        return;
    }
    task_spawn_general(fn, data, cpyfn, arg_size, arg_align, if_clause, flags, extra);
}

/* A task with usual arguments in an unusual place (outside a team, in a
 * final task, too deep, with cancellation on or events recorded) or with an
 * empty cache. */
static __attribute__((noinline)) void task_spawn_usual_slow(void (*fn)(void *), void *data,
                                                            size_t arg_size, unsigned flags,
                                                            const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    if (xomp_cfg.plain_tasks && xomp_task_may_run_here(thr, flags)) {
        /* (Not plain: xomp_task_spawn checks for cancellation and records
         * the creation.)  A tail call: this frame is gone while the task
         * runs. */
        xomp_task_run_here(thr, fn, data, flags, 0);
        return;
    }
    /* GOMP_task calls task_spawn_usual, which tail-calls this function:
     * its frame is right below GOMP_task's (passing GOMP_task's own would
     * cost its fast path an instruction). */
    XOMP_ENTRY(({
        XOMP_PROF_BEGIN(thr, XOMP_EV_TASK_CREATE, 0, 0);
        xomp_task_spawn(thr, fn, data, NULL, arg_size, 8, false, flags, 0, NULL, NULL, codeptr);
        XOMP_PROF_END(thr, XOMP_EV_TASK_CREATE);
    }));
}

/* A usual task queued in the creator's deque (noinline: the deque and
 * the wake-up check need registers that the team-of-one path must not
 * pay a stack frame for). */
static __attribute__((noinline)) void task_spawn_queued(struct xomp_thread *thr,
                                                        struct xomp_task *t, void (*fn)(void *),
                                                        void *data, size_t arg_size,
                                                        unsigned flags)
{
    xomp_task_spawn_fast(thr, t, fn, data, arg_size, flags);
}

/* The hot path: a task with usual arguments (noinline and with few
 * arguments, so that it needs no stack frame: every call it makes is a
 * tail call).  codeptr is only read on the slow path (OMPT turns the fast
 * one off). */
static __attribute__((noinline)) void task_spawn_usual(void (*fn)(void *), void *data,
                                                       size_t arg_size, unsigned flags,
                                                       const void *codeptr)
{
    struct xomp_thread *thr = xomp_tls;
    struct xomp_task *t;
    if (__builtin_expect(thr && xomp_task_thread_usual(thr) &&
                             (t = thr->cache.free[0]) != NULL,
                         1)) {
        if (thr->team->run_tasks_now)
            xomp_task_run_solo(thr, t, fn, data, flags);
        else
            task_spawn_queued(thr, t, fn, data, arg_size, flags);
        return;
    }
    task_spawn_usual_slow(fn, data, arg_size, flags, codeptr);
}

XOMP_EXPORT void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                           long arg_size, long arg_align, bool if_clause, unsigned flags,
                           void **depend, int priority, void *detach)
{
    /* (size_t) casts: a negative size or alignment is unusual, and
     * diagnosed on the general path. */
    if (xomp_task_args_usual(cpyfn, (size_t)arg_size, (size_t)arg_align, if_clause, flags)) {
        task_spawn_usual(fn, data, (size_t)arg_size, flags, XOMP_CODEPTR());
        return;
    }
    /* The last three arguments are passed by address: passed by value,
     * GCC loads them from the stack on entry, on the fast path too. */
    task_spawn_unusual(fn, data, cpyfn, arg_size, arg_align, if_clause, flags,
                       &(struct task_extra_args){&depend, &priority, &detach, XOMP_CODEPTR(),
                                                 __builtin_dwarf_cfa()});
}

XOMP_EXPORT void GOMP_taskwait_depend(void **depend)
{
    XOMP_ENTRY(xomp_task_wait_depend(xomp_self(), depend, XOMP_CODEPTR()));
}

XOMP_EXPORT void omp_fulfill_event(omp_event_handle_t event)
{
    xomp_task_fulfill(xomp_self(), (uintptr_t)event);
}

XOMP_EXPORT void GOMP_taskwait(void)
{
    struct xomp_thread *thr = xomp_self();
    /* The return address is read only on the hooked path (read before the
     * test, it costs a saved register on the plain one).  The hooked path
     * is inlined or tail-called: its event site takes this frame for the
     * task's enter_frame. */
    if (XOMP_HOOKS_ON()) {
        xomp_taskwait_hooked(thr, XOMP_CODEPTR());
        return;
    }
    xomp_taskwait_plain(thr);
}

XOMP_EXPORT void GOMP_taskyield(void)
{
    XOMP_ENTRY(xomp_taskyield(xomp_self()));
}

XOMP_EXPORT void GOMP_taskgroup_start(void)
{
    xomp_taskgroup_construct(xomp_self(), XOMP_CODEPTR());
}

XOMP_EXPORT void GOMP_taskgroup_end(void)
{
    XOMP_ENTRY(xomp_taskgroup_end(xomp_self(), XOMP_CODEPTR()));
}
