/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Creating, running and waiting for explicit tasks. */
#ifndef XOMP_TASK_CORE_H
#define XOMP_TASK_CORE_H

#include "task.h"

#include <stdbool.h>
#include <stddef.h>

struct xomp_thread;

/* GOMP_task's flags argument (gomp-constants.h). */
#define GOMP_TASK_FLAG_UNTIED (1u << 0)
#define GOMP_TASK_FLAG_FINAL (1u << 1)
#define GOMP_TASK_FLAG_MERGEABLE (1u << 2)
#define GOMP_TASK_FLAG_DEPEND (1u << 3)
#define GOMP_TASK_FLAG_PRIORITY (1u << 4)
#define GOMP_TASK_FLAG_UP (1u << 8)
#define GOMP_TASK_FLAG_GRAINSIZE (1u << 9)
#define GOMP_TASK_FLAG_IF (1u << 10)
#define GOMP_TASK_FLAG_NOGROUP (1u << 11)
#define GOMP_TASK_FLAG_REDUCTION (1u << 12)
#define GOMP_TASK_FLAG_DETACH (1u << 13)

#define GOMP_TASK_FLAG_STRICT (1u << 14)

/* Create a task running fn on a copy of the arguments (cpyfn or memcpy of
 * arg_size bytes from data).  Deferred into a ring unless `undeferred` or
 * the encountering context forces it to run now.  depend (GCC's array) and
 * detach (where to store the event handle) as in GOMP_task. */
void xomp_task_spawn(struct xomp_thread *thr, void (*fn)(void *), void *data,
                     void (*cpyfn)(void *, void *), size_t arg_size, size_t arg_align,
                     bool undeferred, unsigned flags, int priority, void **depend, void **detach,
                     const void *codeptr);

/* Adjusts a task's copied argument block before the task is scheduled
 * (taskloop writes each task's iteration range there). */
struct xomp_args_fixup {
    void (*apply)(void *args, void *ctx);
    void *ctx;
};

/* xomp_task_spawn without dependences or detach, with a fixup. */
void xomp_task_spawn_fixed(struct xomp_thread *thr, void (*fn)(void *), void *data,
                           void (*cpyfn)(void *, void *), size_t arg_size, size_t arg_align,
                           bool undeferred, unsigned flags, int priority,
                           const struct xomp_args_fixup *fixup, const void *codeptr);

/* Tasks created on behalf of another task (a taskloop's tasks, made by the
 * member that takes its NUMA node's share: src/locality/ilan.c): what
 * they inherit from their parent at the construct.  The parent's thread
 * counts them in advance (xomp_task_count_ahead), so that they are its
 * children and its taskgroup's tasks like any other, whoever makes them. */
struct xomp_task_proto {
    struct xomp_team *team;
    struct xomp_task *parent;
    struct xomp_taskgroup *taskgroup;
    uint32_t level;
    uint32_t flags; /* task flags, as xomp_task_init computes them */
    struct xomp_icv icv;
    const void *codeptr; /* OMPT: the construct's return address */
};

/* The calling thread's current task, as parent of tasks with GOMP_task
 * flags `gomp_flags`, made by the construct at `codeptr`. */
void xomp_task_proto_capture(struct xomp_thread *thr, struct xomp_task_proto *p,
                             unsigned gomp_flags, const void *codeptr);

/* The calling thread's current task will have `count` more deferred
 * children, in its current taskgroup, made by any member of its team:
 * count them now (its child count, the taskgroup's, the barrier's). */
void xomp_task_count_ahead(struct xomp_thread *thr, uint64_t count);

/* A task of `p` running fn on a copy of the arguments (cpyfn or memcpy of
 * arg_size bytes from data), adjusted by fixup: made, not counted (see
 * above) and not queued; an OMPT tool is told of its creation. */
struct xomp_task *xomp_task_make(struct xomp_thread *thr, const struct xomp_task_proto *p,
                                 void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                                 size_t arg_size, size_t arg_align,
                                 const struct xomp_args_fixup *fixup);

/* The same for a block `t` whose arguments were written in place
 * (xomp_task_alloc_inplace; `args`: their base). */
void xomp_task_make_prepared(struct xomp_thread *thr, const struct xomp_task_proto *p,
                             struct xomp_task *t, void (*fn)(void *), void *args);

/* Queue a counted task with a home that admits the calling member in its
 * deque, or run it at once when the deque is full (xomp_task_submit).
 * Tasks of one home are announced in runs (sched.h): *unannounced counts
 * the ones queued since the last announcement, made here before a task
 * runs at once; the caller announces the rest when its run ends.
 * `anchor`: a task they descend from that stays alive meanwhile. */
void xomp_task_submit_homed(struct xomp_thread *thr, struct xomp_task *t,
                            struct xomp_task *anchor, unsigned *unannounced);

struct xomp_sched_wait;

/* Run one queued task the calling member may run under `w`, if any. */
bool xomp_task_run_one(struct xomp_thread *thr, const struct xomp_sched_wait *w);

/* A team of one runs a new task at once: xomp_task_spawn's choice, for a
 * task with usual arguments in block `t`, the head of the thread's
 * small-block cache (the spawn fast path's caller took it). */
void xomp_task_run_solo(struct xomp_thread *thr, struct xomp_task *t, void (*fn)(void *),
                        void *data, unsigned flags);

/* The same, for a block `t` the caller took off the small-block cache
 * itself and whose arguments `data` are already in place. */
void xomp_task_run_solo_prepared(struct xomp_thread *thr, struct xomp_task *t,
                                 void (*fn)(void *), void *data, unsigned flags);

/* A task whose arguments were written in place (xomp_task_alloc_inplace,
 * `data` their base): xomp_task_spawn without the allocation and the copy.
 * flags as GOMP_task's (GOMP_TASK_FLAG_DETACH: its event handle came from
 * __kmpc_task_allow_completion_event). */
void xomp_task_spawn_prepared(struct xomp_thread *thr, struct xomp_task *t, void (*fn)(void *),
                              void *data, bool undeferred, unsigned flags, int priority,
                              void **depend, const void *codeptr);

/* An undeferred task whose body the caller runs itself, between these two
 * calls, on its own stack (the LLVM ABI's if(0) tasks): begin makes `t`
 * the current task, end completes it (after its event, if detachable). */
void xomp_task_begin_inline(struct xomp_thread *thr, struct xomp_task *t, void (*fn)(void *),
                            void *data, unsigned flags, const void *codeptr);
void xomp_task_end_inline(struct xomp_thread *thr, struct xomp_task *t);

/* Free a prepared task that will never run (a taskloop's pattern). */
void xomp_task_discard(struct xomp_thread *thr, struct xomp_task *t, void *data);

/* Run an undeferred task with its header in this frame (the caller checked
 * xomp_task_may_run_here, spawn_fast.h; no dependences, arguments used in
 * place). */
void xomp_task_run_here(struct xomp_thread *thr, void (*fn)(void *), void *data, unsigned flags,
                        int priority);

/* The same with the header at `t`, in a frame of the caller's that stays
 * until this returns (the LLVM ABI moves a task descriptor there, next to
 * its header: abi/kmp_task.c). */
void xomp_task_run_here_at(struct xomp_thread *thr, struct xomp_task *t, void (*fn)(void *),
                           void *data, unsigned flags, int priority);

/* Run an undeferred task that needs nothing but running: no dependences,
 * no event, its arguments used in place, no hooks on, no steal tree
 * recorded or replayed (the creator's rp is 0).  Its header goes in a
 * stack frame where xomp_task_may_run_here allows, else in a block. */
void xomp_task_run_now(struct xomp_thread *thr, void (*fn)(void *), void *data, unsigned flags,
                       int priority);

/* Place a new counted task (or run it at once when its ring is full). */
void xomp_task_submit(struct xomp_thread *thr, struct xomp_task *t);

/* The two halves of xomp_task_run_one, for a wait that must look again
 * between them (a barrier: a task taken while it was being released
 * belongs after it, and goes back, xomp_sched_give_back): a task it may
 * run, taken out of its queue, or NULL; then run it. */
struct xomp_task *xomp_task_take_one(struct xomp_thread *thr, const struct xomp_sched_wait *w);
void xomp_task_run_taken(struct xomp_thread *thr, struct xomp_task *t);

/* Does the calling member have a task it could run under `w`?  (The
 * sleep recheck: looks everywhere, sched.h.) */
bool xomp_task_has_work(struct xomp_thread *thr, const struct xomp_sched_wait *w);

/* A task's dependences are met: schedule it (depend.c). */
void xomp_task_ready(struct xomp_thread *thr, struct xomp_task *t);

/* taskwait depend(...): wait, as for an undeferred task with an empty body
 * and these dependences, for exactly the sibling tasks they name. */
void xomp_task_wait_depend(struct xomp_thread *thr, void **depend, const void *codeptr);

/* omp_fulfill_event (the handle as GOMP_task gave it). */
void xomp_task_fulfill(struct xomp_thread *thr, uintptr_t event);

/* Cancellation of the innermost taskgroup of task t (abi/cancel.c). */
bool xomp_taskgroup_cancelled(const struct xomp_task *t);
void xomp_taskgroup_cancel(struct xomp_task *t);

/* taskwait: without events, and with the profiler's TASKWAIT and OMPT's
 * taskwait region (codeptr: the construct's code address, src/tool). */
void xomp_taskwait_plain(struct xomp_thread *thr);
void xomp_taskwait_hooked(struct xomp_thread *thr, const void *codeptr);
static inline void xomp_taskwait(struct xomp_thread *thr, const void *codeptr)
{
    if (XOMP_HOOKS_ON())
        xomp_taskwait_hooked(thr, codeptr);
    else
        xomp_taskwait_plain(thr);
}
void xomp_taskyield(struct xomp_thread *thr);
void xomp_taskgroup_start(struct xomp_thread *thr, const void *codeptr);
/* The taskgroup construct of either ABI (codeptr: its code address):
 * xomp_taskgroup_start, and a scope the replay of a steal tree records or
 * replays when asked to (locality/replay.h). */
void xomp_taskgroup_construct(struct xomp_thread *thr, const void *codeptr);
/* A taskgroup block, owned by `thr`, and its return (type-stable: kept
 * in the thread's cache, never freed). */
struct xomp_taskgroup *xomp_taskgroup_new(struct xomp_thread *thr);
void xomp_taskgroup_delete(struct xomp_thread *thr, struct xomp_taskgroup *tg);
void xomp_taskgroup_end(struct xomp_thread *thr, const void *codeptr);

/* Initialize `t` as the implicit task of a team member (or the initial
 * task of a thread outside any team). */
void xomp_task_init_implicit(struct xomp_task *t, struct xomp_thread *owner,
                             struct xomp_team *team, struct xomp_task *parent,
                             const struct xomp_icv *icv);

#endif
