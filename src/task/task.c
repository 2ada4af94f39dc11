/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Explicit tasks: creation, placement, execution, completion, taskwait,
 * taskgroup, detach.  The memory-lifetime and wake-up arguments are in
 * src/task/README.md.
 */
#include "task_core.h"

#include "../locality/replay.h"
#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "../sched/home.h"
#include "../sched/notify.h"
#include "../sched/sched.h"
#include "../tool/ompt.h"
#include "depend.h"
#include "event.h"
#include "spawn_fast.h"
#include "task_alloc.h"

#include <stdlib.h>
#include <string.h>

void xomp_task_init_implicit(struct xomp_task *t, struct xomp_thread *owner,
                             struct xomp_team *team, struct xomp_task *parent,
                             const struct xomp_icv *icv)
{
    /* Field by field, not memset: the block may be read speculatively
     * (sched/lineage.h), so parent, taskgroup and level are only written
     * with atomic stores (release: as in xomp_task_init). */
    t->fn = NULL;
    t->data = NULL;
    __atomic_store_n(&t->parent, parent, __ATOMIC_RELEASE);
    __atomic_store_n(&t->taskgroup, (struct xomp_taskgroup *)NULL, __ATOMIC_RELEASE);
    __atomic_store_n(&t->level, 0u, __ATOMIC_RELEASE);
    t->owner = owner;
    t->team = team;
    atomic_store_explicit(&t->child_state, 0, memory_order_relaxed);
    t->created_children = 0;
    t->local_done = 0;
    t->icv = *icv;
    t->flags = XOMP_TASK_IMPLICIT;
    t->deque_mark = 0;
    t->creator = 0;
    t->priority = 0;
    t->next = NULL;
    t->dep_recs = NULL;
    t->dep_table = NULL;
    t->ndeps = 0;
    atomic_store_explicit(&t->npred, 0, memory_order_relaxed);
    atomic_store_explicit(&t->detach_pending, 0, memory_order_relaxed);
    /* relaxed: as the other words walks read (replay.h). */
    atomic_store_explicit(&t->rp_path, 0, memory_order_relaxed);
    t->rp = 0;
}

/* ---- completion ---- */

static void task_free(struct xomp_thread *thr, struct xomp_task *t)
{
    if (__builtin_expect(t->dep_table != NULL, 0))
        xomp_dep_table_free(t->dep_table);
    xomp_task_free(&thr->cache, t);
}

/* The task completed: free it now, or leave that to its last running
 * child. */
static void task_release_self(struct xomp_thread *thr, struct xomp_task *t)
{
    /* Children that may still be running: those not completed here. */
    int64_t remote = (int64_t)(t->created_children - t->local_done);
    if (remote == 0) {
        /* Every child completed on this thread (or none existed): nobody
         * else holds a pointer to t. */
        task_free(thr, t);
        return;
    }
    /* In a recorded region, before FINISHED shows (replay.h). */
    if (__builtin_expect(t->rp != 0, 0))
        xomp_replay_materialize(thr, t);
    /* acq_rel: acquire pairs with the remote children's RMWs (their last
     * accesses to t happened before); release orders our accesses before
     * the RMW of the child that will free t. */
    int64_t old = atomic_fetch_add_explicit(&t->child_state, XOMP_TASK_FINISHED + remote,
                                            memory_order_acq_rel);
    if (old == -remote) /* every remote child had completed */
        task_free(thr, t);
}

/* Tell the parent and the taskgroup that a task completed.  The caller read
 * them from the task before it may have been freed. */
static void task_notify(struct xomp_thread *thr, struct xomp_task *parent,
                        struct xomp_taskgroup *tg)
{
    if (tg) {
        /* Read the waiter before the decrement: once pending reaches 0 the
         * waiter may free tg. */
        struct xomp_thread *waiter = tg->owner;
        if (__builtin_expect(tg->replay_scope, 0))
            xomp_replay_count_done(thr, tg); /* before: the closer reads it after */
        /* seq_cst: publishes the completion (release) and orders it before
         * the load of waiter->sleeping (see xomp_wake_after_sc_rmw). */
        if (atomic_fetch_sub_explicit(&tg->pending, 1, memory_order_seq_cst) == 1)
            xomp_wake_after_sc_rmw(&waiter->waker);
    }
    /* Completed on the parent's own thread while the parent has not
     * finished: the parent can only be running on this very thread (it is
     * tied), so a plain counter it reads later is enough.  (relaxed:
     * FINISHED is only ever added by this thread, so we read our own
     * write.) */
    if (parent->owner == thr &&
        atomic_load_explicit(&parent->child_state, memory_order_relaxed) < XOMP_TASK_FINISHED) {
        parent->local_done++;
        return;
    }
    /* After the RMW the parent may be freed by another child: read first. */
    struct xomp_thread *waiter = parent->owner;
    /* seq_cst RMW, as above; pairs with the acquire load in taskwait. */
    int64_t old = atomic_fetch_sub_explicit(&parent->child_state, 1, memory_order_seq_cst);
    if (old == XOMP_TASK_FINISHED + 1)
        task_free(thr, parent); /* parent finished; we were its last child */
    else if (old <= 0)
        xomp_wake_after_sc_rmw(&waiter->waker); /* parent running: maybe in taskwait */
}

/* task_release_self for a task that ran on this thread, with its usual
 * outcome inline: every child completed here (or none existed) and no
 * dependence table: nobody else holds a pointer to t. */
static inline __attribute__((always_inline)) void task_release_here(struct xomp_thread *thr,
                                                                    struct xomp_task *t)
{
    if (__builtin_expect(t->created_children == t->local_done && !t->dep_table, 1))
        xomp_task_free(&thr->cache, t);
    else
        task_release_self(thr, t);
}

/* Everything that follows a task's end (its body returned and, if it is
 * detachable, its event was fulfilled): release its dependants, free it or
 * hand that to its last child, tell its parent and taskgroup, count it for
 * the barrier. */
static void task_complete(struct xomp_thread *thr, struct xomp_task *t)
{
    struct xomp_task *parent = t->parent;
    struct xomp_taskgroup *tg = t->taskgroup;
    struct xomp_team *team = t->team;
    uint32_t flags = t->flags;
    if (flags & XOMP_TASK_HAS_DEPS)
        xomp_dep_complete(thr, t);
    task_release_self(thr, t);
    if (flags & XOMP_TASK_UNDEFERRED)
        return; /* not a counted child: it completed before its parent went on */
    task_notify(thr, parent, tg);
    if (flags & XOMP_TASK_DETACH) {
        /* May complete on any thread (omp_fulfill_event), long after every
         * member went idle in a barrier: count it in a team atomic, and
         * wake member 0, which can decide the barrier (its thread pointer
         * is read first: after the count the team may move on; thread
         * states are never freed). */
        struct xomp_thread *root = team->workers[0].thread;
        if (team->barrier_kind == XOMP_BARRIER_CENTRAL)
            atomic_fetch_sub_explicit(&team->bar.central_pending, 1, memory_order_seq_cst);
        else
            atomic_fetch_add_explicit(&team->bar.detached_finished, 1, memory_order_seq_cst);
        xomp_wake_after_sc_rmw(&root->waker);
    } else if (team->barrier_kind == XOMP_BARRIER_CENTRAL) {
        /* release: the barrier's acquire load of pending sees this task's
         * effects. */
        atomic_fetch_sub_explicit(&team->bar.central_pending, 1, memory_order_release);
    } else {
        thr->worker->finished++; /* thread-private; published by the barrier gather */
    }
}

/* Cancellation: a task of a cancelled region or taskgroup is discarded
 * (completed without running). */
static bool task_cancelled(const struct xomp_task *t)
{
    /* acquire: pair with the release stores of GOMP_cancel. */
    return atomic_load_explicit(&t->team->cancelled, memory_order_acquire) ||
           (t->taskgroup && atomic_load_explicit(&t->taskgroup->cancelled, memory_order_acquire));
}

/* OMPT: the body of `t` (run by this thread, suspending `prev`) returned.
 * A tool is told before anything else can see the completion (its
 * dependants, its parent's taskwait, the barrier), so that what it
 * records for the completion happens before theirs.  A detachable task
 * whose event is not fulfilled is reported detached first; if the
 * fulfilment comes before its counter is decremented, the task completes
 * here after all, reported as a late fulfilment.  Returns true when the
 * task stays detached (the caller then only returns; this function has
 * restored the thread). */
static bool task_end_hooked(struct xomp_thread *thr, struct xomp_task *t, struct xomp_task *prev,
                            bool discarded, int ompt_saved)
{
    bool detach = t->flags & XOMP_TASK_DETACH;
    /* acquire: pairs with the fulfiller's decrement (seq_cst). */
    if (!detach || atomic_load_explicit(&t->detach_pending, memory_order_acquire) == 1) {
        xomp_ompt_task_end(thr, t, discarded ? ompt_task_cancel : ompt_task_complete, prev,
                           ompt_saved);
        return false; /* the caller completes it */
    }
    xomp_ompt_task_end(thr, t, ompt_task_detach, prev, ompt_saved);
    thr->depth--;
    thr->task = prev;
    /* acq_rel: as in task_execute_general. */
    if (atomic_fetch_sub_explicit(&t->detach_pending, 1, memory_order_acq_rel) != 1)
        return true;
    xomp_ompt_task_fulfill(thr, t, true);
    task_complete(thr, t);
    return true;
}

/* Run a task's body on this thread, then complete it (or, for a
 * detachable task whose event is not fulfilled yet, leave that to
 * omp_fulfill_event). */
static void task_execute_general(struct xomp_thread *thr, struct xomp_task *t)
{
    struct xomp_task *prev = thr->task;
    thr->stats.tasks_run++;
    if (thr->worker) {
        xomp_sched_count_run(&thr->stats, thr->worker, t->creator);
        if (t->rp && (t->creator != thr->worker->id || (t->flags & XOMP_TASK_REPLAYED)))
            xomp_replay_task_begin(thr, t);
        xomp_sched_mark(t, thr->worker);
    }
    t->owner = thr;
    thr->task = t;
    thr->depth++;
    /* The runtime's own tasks (a taskloop's share) run even when cancelled:
     * their work was counted in advance (src/locality/ilan.c). */
    bool discarded = xomp_cfg.cancellation && task_cancelled(t) && !(t->flags & XOMP_TASK_RUNTIME);
    /* A discarded task never begins: a tool is only told it is cancelled
     * (task_end_hooked). */
    int ompt_saved = thr->ompt.state;
    uint64_t began = (t->flags & XOMP_TASK_HOMED) ? xomp_home_task_starts(t) : 0;
    XOMP_HOOK(XOMP_PROF_TASK_BEGIN_HOOKED(thr, t);
              if (!discarded) ompt_saved =
                  xomp_ompt_task_begin(thr, prev, t, __builtin_dwarf_cfa()));
    if (!discarded)
        t->fn(t->data);
    /* Its body made every child it will make (before a detached task's
     * early return below). */
    if (t->flags & XOMP_TASK_REPLAYED)
        xomp_replay_task_end(thr, t);
    if (XOMP_HOOKS_ON()) {
        XOMP_PROF_TASK_END_HOOKED(thr);
        if (task_end_hooked(thr, t, prev, discarded, ompt_saved))
            return; /* detached: omp_fulfill_event completes it */
    }
    thr->depth--;
    thr->task = prev;
    if (t->flags & XOMP_TASK_HOMED)
        xomp_home_task_ran(thr, t, began);
    /* acq_rel: whichever of the body's end and the fulfilment comes second
     * completes the task and sees the other's effects. */
    if ((t->flags & XOMP_TASK_DETACH) &&
        atomic_fetch_sub_explicit(&t->detach_pending, 1, memory_order_acq_rel) != 1)
        return;
    task_complete(thr, t);
}

/* A task that did not run where it was created: which kind of member took
 * it, and the record of a steal point (noinline: the cold side of
 * task_execute_on). */
static __attribute__((noinline)) void task_moved(struct xomp_thread *thr, struct xomp_worker *w,
                                                 struct xomp_task *t)
{
    xomp_sched_count_run(&thr->stats, w, t->creator);
    if (t->rp)
        xomp_replay_task_begin(thr, t);
}

/* The common case: no dependences, no detach, no home, plain tasks (so no
 * events are recorded: task_execute_general records TASK).  The
 * completion steps are those of task_complete, with the usual outcome
 * inline: no child of the task is still running elsewhere (so it is freed
 * here), no taskgroup, and the parent is suspended beneath it on this
 * thread (so completion is a plain count, local_done). */
static inline __attribute__((always_inline)) void task_execute_on(struct xomp_thread *thr,
                                                                  struct xomp_worker *w,
                                                                  struct xomp_task *prev,
                                                                  struct xomp_task *t)
{
    if (__builtin_expect((t->flags & (XOMP_TASK_DETACH | XOMP_TASK_HAS_DEPS | XOMP_TASK_HOMED |
                                      XOMP_TASK_REPLAYED)) ||
                             !xomp_cfg.plain_tasks,
                         0)) {
        task_execute_general(thr, t);
        return;
    }
    thr->stats.tasks_run++;
    if (__builtin_expect(t->creator == w->id, 1))
        thr->stats.run_self++;
    else
        task_moved(thr, w, t);
    xomp_sched_mark(t, w);
    t->owner = thr;
    thr->task = t;
    thr->depth++;
    t->fn(t->data);
    thr->depth--;
    thr->task = prev;

    struct xomp_task *parent = t->parent;
    struct xomp_taskgroup *tg = t->taskgroup;
    task_release_here(thr, t);
    /* relaxed: as in task_notify. */
    if (__builtin_expect(!tg && parent->owner == thr &&
                             atomic_load_explicit(&parent->child_state, memory_order_relaxed) <
                                 XOMP_TASK_FINISHED,
                         1))
        parent->local_done++;
    else
        task_notify(thr, parent, tg);
    w->finished++; /* thread-private; published by the barrier gather */
}

/* Run task t on this thread, a member of its team (w = thr->worker,
 * prev = thr->task: the callers know them, which saves the compiler
 * registers on the hottest loop). */
static inline __attribute__((always_inline)) void task_execute(struct xomp_thread *thr,
                                                               struct xomp_task *t)
{
    task_execute_on(thr, thr->worker, thr->task, t);
}

/* ---- scheduling ---- */

/* noinline: the task fast path tail-calls it and stays frameless. */
__attribute__((noinline)) void xomp_task_submit(struct xomp_thread *thr, struct xomp_task *t)
{
    if (xomp_sched_push_new(thr, t))
        return;
    /* Our deque holds XOMP_QUEUE_SIZE tasks already: run this one now
     * (the seed's immediate execution), so that memory stays bounded.
     * Idle members can take the queued ones meanwhile. */
    thr->stats.immediate++;
    task_execute(thr, t);
}

void xomp_task_submit_homed(struct xomp_thread *thr, struct xomp_task *t,
                            struct xomp_task *anchor, unsigned *unannounced)
{
    uintptr_t home = xomp_task_home_word(t); /* t may run elsewhere once pushed */
    if (xomp_sched_push_homed(thr, t)) {
        ++*unannounced;
        return;
    }
    /* Our deque is full: the queued ones must be known before this one
     * runs (it may block), then it runs now. */
    xomp_sched_announce_homed(thr, home, anchor, *unannounced);
    *unannounced = 0;
    thr->stats.immediate++;
    task_execute(thr, t);
}

void xomp_task_ready(struct xomp_thread *thr, struct xomp_task *t)
{
    xomp_sched_push_ready(thr, t);
}

struct xomp_task *xomp_task_take_one(struct xomp_thread *thr, const struct xomp_sched_wait *w)
{
    return thr->team ? xomp_sched_next(thr, w) : NULL;
}

bool xomp_task_run_one(struct xomp_thread *thr, const struct xomp_sched_wait *w)
{
    struct xomp_task *t = xomp_task_take_one(thr, w);
    if (!t)
        return false;
    task_execute(thr, t);
    return true;
}

void xomp_task_run_taken(struct xomp_thread *thr, struct xomp_task *t)
{
    task_execute(thr, t);
}

bool xomp_task_has_work(struct xomp_thread *thr, const struct xomp_sched_wait *w)
{
    return xomp_sched_has_work(thr, w);
}

/* ---- waiting ---- */

struct wait_ctx {
    struct xomp_thread *thr;
    bool (*done)(void *);
    void *arg;
    const struct xomp_sched_wait *w; /* NULL: may not run tasks */
};

static bool wait_recheck(void *arg)
{
    struct wait_ctx *c = arg;
    return c->done(c->arg) || (c->w && xomp_task_has_work(c->thr, c->w));
}

/* The current task waits until done(arg) (a taskwait, a taskgroup's end
 * when `tg` is set, an undeferred task's dependences or event), running
 * queued tasks meanwhile -- only its descendants (task scheduling
 * constraint 2; an untied task is held to it too, as libgomp does), and
 * none at the stack-depth bound. */
static void wait_until(struct xomp_thread *thr, bool (*done)(void *), void *arg,
                       struct xomp_taskgroup *tg)
{
    struct xomp_task *t = thr->task;
    struct xomp_sched_wait w = {.constraint = t, .taskgroup = tg, .floor = t->deque_mark};
    bool help = thr->team != NULL && thr->depth < xomp_cfg.max_depth;
    struct wait_ctx c = {.thr = thr, .done = done, .arg = arg, .w = help ? &w : NULL};
    const struct xomp_sched_wait *outer = thr->wait;
    if (help)
        thr->wait = &w;
    struct xomp_idle idle;
    xomp_idle_begin(&idle, &thr->waker, &thr->spin, help ? XOMP_SLEEP_TASKS : XOMP_SLEEP_PLAIN);
    if (help) /* a publisher with descendants of t may wake us */
        xomp_idle_count_in(&idle, &thr->team->sleepers, t);
    while (!done(arg)) {
        if (help && xomp_task_run_one(thr, &w)) {
            xomp_idle_reset(&idle);
            continue;
        }
        XOMP_PROF_IDLE(thr);
        xomp_idle_step(&idle, wait_recheck, &c);
    }
    xomp_idle_end(&idle);
    if (help)
        xomp_sched_wait_over(thr);
    thr->wait = outer;
}

/* Every child of t completed: those completed here (local_done) and those
 * completed elsewhere (-child_state). */
static bool children_done(void *arg)
{
    struct xomp_task *t = arg;
    /* acquire: pairs with the seq_cst RMWs of completing children, so their
     * effects are visible once we return. */
    return atomic_load_explicit(&t->child_state, memory_order_acquire) ==
           (int64_t)t->local_done - (int64_t)t->created_children;
}

void xomp_taskwait_plain(struct xomp_thread *thr)
{
    struct xomp_task *t = thr->task;
    /* Nothing to wait for (every child ran at once in a team of one, or
     * was already run by other members). */
    if (children_done(t))
        goto done;
    struct xomp_team *team = thr->team;
    if (team && thr->depth < xomp_cfg.max_depth) {
        /* Fast path: our queued descendants are the newest tasks of our
         * deque, above t's mark (usually the children just created): run
         * them straight from it, while no task with a priority waits. */
        struct xomp_worker *me = thr->worker;
        struct xomp_task *child;
        /* relaxed: a hint (sched/pools.h). */
        while (!atomic_load_explicit(&team->pools.prio_count, memory_order_relaxed) &&
               (child = xomp_deque_pop(&me->deque, t->deque_mark)))
            task_execute_on(thr, me, t, child);
    }
    if (!children_done(t))
        wait_until(thr, children_done, t, NULL);
done:
    if (t->dep_table) {
        /* No child is left that could touch the dependence records. */
        xomp_dep_table_free(t->dep_table);
        t->dep_table = NULL;
    }
}

void xomp_taskwait_hooked(struct xomp_thread *thr, const void *codeptr)
{
    XOMP_PROF_BEGIN_HOOKED(thr, XOMP_EV_TASKWAIT, 0, 0);
    int saved =
        xomp_ompt_sync_begin(thr, ompt_sync_region_taskwait, codeptr, __builtin_dwarf_cfa());
    xomp_taskwait_plain(thr);
    xomp_ompt_sync_end(thr, ompt_sync_region_taskwait, codeptr, saved);
    XOMP_PROF_END_HOOKED(thr, XOMP_EV_TASKWAIT);
}

void xomp_taskyield(struct xomp_thread *thr)
{
    if (!thr->team || thr->depth >= xomp_cfg.max_depth)
        return;
    /* Run one task the constraint allows, if any (the yielding task is
     * suspended: only its descendants may start here). */
    struct xomp_task *t = thr->task;
    struct xomp_sched_wait w = {.constraint = t, .taskgroup = NULL, .floor = t->deque_mark};
    const struct xomp_sched_wait *outer = thr->wait;
    thr->wait = &w;
    /* OMPT: the task it runs suspends this one by a yield. */
    XOMP_HOOK(thr->ompt.switch_status = ompt_task_yield);
    xomp_task_run_one(thr, &w);
    xomp_sched_wait_over(thr);
    XOMP_HOOK(thr->ompt.switch_status = ompt_task_switch);
    thr->wait = outer;
}

/* Taskgroup blocks are type-stable (sched/lineage.h reads them
 * speculatively): a thread keeps the ones it ended for its next
 * taskgroups, and never gives them back to the system. */
struct xomp_taskgroup *xomp_taskgroup_new(struct xomp_thread *thr)
{
    struct xomp_taskgroup *tg = thr->taskgroup_cache;
    if (tg) {
        thr->taskgroup_cache = tg->cache_next;
    } else {
        tg = aligned_alloc(64, (sizeof *tg + 63) & ~(size_t)63);
        if (!tg)
            xomp_fatal("out of memory allocating a taskgroup");
    }
    atomic_store_explicit(&tg->pending, 0, memory_order_relaxed);
    atomic_store_explicit(&tg->cancelled, false, memory_order_relaxed);
    tg->owner = thr;
    tg->opener = NULL;
    /* release: as the task fields of xomp_task_init (sched/lineage.h). */
    __atomic_store_n(&tg->prev, (struct xomp_taskgroup *)NULL, __ATOMIC_RELEASE);
    tg->workshare = false;
    tg->reductions = NULL;
    tg->replay_scope = false;
    tg->abi_reductions = NULL;
    tg->cache_next = NULL;
    return tg;
}

void xomp_taskgroup_delete(struct xomp_thread *thr, struct xomp_taskgroup *tg)
{
    tg->cache_next = thr->taskgroup_cache;
    thr->taskgroup_cache = tg;
}

void xomp_taskgroup_start(struct xomp_thread *thr, const void *codeptr)
{
    struct xomp_task *t = thr->task;
    struct xomp_taskgroup *tg = xomp_taskgroup_new(thr);
    struct xomp_taskgroup *prev = t->taskgroup;
    /* release, both: as in xomp_taskgroup_new. */
    __atomic_store_n(&tg->prev, prev, __ATOMIC_RELEASE);
    tg->opener = t;
    tg->reductions = prev ? prev->reductions : NULL;
    __atomic_store_n(&t->taskgroup, tg, __ATOMIC_RELEASE);
    XOMP_HOOK(xomp_ompt_taskgroup_begin(thr, codeptr));
}

void xomp_taskgroup_construct(struct xomp_thread *thr, const void *codeptr)
{
    xomp_taskgroup_start(thr, codeptr);
    /* A recorded region?  Keyed by the construct's code address. */
    if (xomp_replay_wanted(thr))
        xomp_replay_taskgroup_begin(thr, thr->task->taskgroup, (uintptr_t)codeptr);
}

static bool taskgroup_done(void *arg)
{
    struct xomp_taskgroup *tg = arg;
    /* acquire: pairs with the seq_cst decrements of completing tasks. */
    return atomic_load_explicit(&tg->pending, memory_order_acquire) == 0;
}

void xomp_taskgroup_end(struct xomp_thread *thr, const void *codeptr)
{
    struct xomp_task *t = thr->task;
    struct xomp_taskgroup *tg = t->taskgroup;
    /* The innermost taskgroup may be one the task was created in (it is
     * counted there: waiting for it would wait for itself). */
    if (!tg || tg->opener != t) {
        /* libgomp returns without a word; one line, then the same. */
        static _Atomic bool warned;
        if (!atomic_exchange_explicit(&warned, true, memory_order_relaxed))
            xomp_warn("GOMP_taskgroup_end without a matching GOMP_taskgroup_start; ignored");
        return;
    }
    int ompt_saved = 0;
    XOMP_HOOK(XOMP_PROF_BEGIN_HOOKED(thr, XOMP_EV_TASKGROUP, 0, 0);
              ompt_saved = xomp_ompt_sync_begin(thr, ompt_sync_region_taskgroup, codeptr,
                                                __builtin_dwarf_cfa()));
    if (__builtin_expect(tg->replay_scope, 0))
        xomp_replay_taskgroup_waits(thr, tg);
    if (!taskgroup_done(tg))
        wait_until(thr, taskgroup_done, tg, tg);
    if (__builtin_expect(tg->replay_scope, 0))
        xomp_replay_taskgroup_end(thr, tg);
    XOMP_HOOK(XOMP_PROF_END_HOOKED(thr, XOMP_EV_TASKGROUP);
              xomp_ompt_sync_end(thr, ompt_sync_region_taskgroup, codeptr, ompt_saved));
    /* release: as in xomp_taskgroup_start. */
    __atomic_store_n(&t->taskgroup, tg->prev, __ATOMIC_RELEASE);
    xomp_taskgroup_delete(thr, tg);
}

bool xomp_taskgroup_cancelled(const struct xomp_task *t)
{
    const struct xomp_taskgroup *tg = t->taskgroup;
    if (!tg)
        return false;
    /* A worksharing reduction's taskgroup stands for the enclosing one. */
    if (tg->workshare && tg->prev)
        tg = tg->prev;
    /* acquire: pairs with the release store of xomp_taskgroup_cancel. */
    return atomic_load_explicit(&tg->cancelled, memory_order_acquire);
}

void xomp_taskgroup_cancel(struct xomp_task *t)
{
    struct xomp_taskgroup *tg = t->taskgroup;
    if (!tg)
        return;
    if (tg->workshare && tg->prev)
        tg = tg->prev;
    /* release: tasks of the group that have not started see it (they are
     * discarded) and so do its cancellation points. */
    atomic_store_explicit(&tg->cancelled, true, memory_order_release);
}

/* ---- creation ---- */

static bool npred_zero(void *arg)
{
    struct xomp_task *t = arg;
    /* acquire: pairs with the predecessors' acq_rel decrements. */
    return atomic_load_explicit(&t->npred, memory_order_acquire) == 0;
}

static bool detach_fulfilled(void *arg)
{
    struct xomp_task *t = arg;
    /* acquire: pairs with omp_fulfill_event's acq_rel decrement. */
    return atomic_load_explicit(&t->detach_pending, memory_order_acquire) == 0;
}

/* A team of one runs every new task at once, as LLVM libomp does in a
 * serialized team: its only thread would run the task at its next
 * scheduling point anyway, and the program cannot tell the difference
 * (the task region may start at once at the task's own creation point).
 * Running it now, on the creator's copy of its arguments, saves the copy,
 * the queue, and the counting as a child (it completes before its creator
 * goes on: undeferred).  Not for tasks with dependences (a team of one
 * runs them now only when no earlier sibling is pending, see below) nor
 * for detachable ones (their creator would wait for the fulfilment).
 * noinline: the spawn fast path tail-calls it and stays frameless. */
static inline __attribute__((always_inline)) void run_solo(struct xomp_thread *thr,
                                                           struct xomp_task *t,
                                                           void (*fn)(void *), void *data,
                                                           unsigned flags)
{
    struct xomp_task *parent = thr->task;
    xomp_task_init(t, thr->team, parent, fn, data, flags, 0);
    t->rp = 0; /* a team of one records nothing (replay.h) */
    t->flags |= XOMP_TASK_UNDEFERRED;
    t->owner = thr;
    t->creator = (uint16_t)thr->team_id;
    xomp_sched_mark(t, thr->worker);
    thr->stats.undeferred++;
    thr->task = t;
    thr->depth++;
    fn(data);
    thr->depth--;
    thr->task = parent;
    task_release_here(thr, t);
}

/* Run an undeferred task that needs nothing but running: no dependences,
 * no event, no copy of its arguments, no hooks on, and no steal tree
 * recorded or replayed around it (its creator's rp is 0; the caller
 * checked all that).  It takes a child index, counted as completed here,
 * as task_launch gives an undeferred task (replay.h: nothing keeps this
 * header).  Its header `t` is a stack frame's or a cache block's; the
 * caller frees what it must (xomp_task_run_now). */
static inline __attribute__((always_inline)) void run_undeferred(struct xomp_thread *thr,
                                                                 struct xomp_task *t,
                                                                 void (*fn)(void *), void *data,
                                                                 unsigned flags, int priority)
{
    struct xomp_task *parent = thr->task;
    xomp_task_init(t, thr->team, parent, fn, data, flags, priority);
    t->flags |= XOMP_TASK_UNDEFERRED;
    t->owner = thr;
    t->creator = (uint16_t)thr->team_id;
    t->deque_mark = 0;
    t->next = NULL;
    t->dep_recs = NULL;
    t->ndeps = 0;
    atomic_init(&t->npred, 0);
    atomic_init(&t->detach_pending, 0);
    uint64_t count = ++parent->created_children;
    parent->local_done++;
    (void)xomp_replay_spawn_init(parent, t, count);
    if (thr->worker)
        xomp_sched_mark(t, thr->worker);
    thr->stats.undeferred++;
    thr->task = t;
    thr->depth++;
    fn(data);
    thr->depth--;
    thr->task = parent;
}

/* An undeferred task that can have no deferred child: its header lives in
 * this frame instead of a cache block.  The caller checked
 * xomp_task_may_run_here: the thread is at the depth bound (every task the
 * body creates runs undeferred too, and its waits run no queued task), in
 * a final task (every descendant is included) or outside any team
 * (nothing is queued at all), and the task needs nothing but running
 * (run_undeferred).  The profiler and tools see such tasks through the
 * general path, with a block: the run here reports no events.  So no
 * queued task has this header among its ancestors, no waiter publishes it
 * as the task it waits in, and no child outlives it: nothing reads it
 * after this frame is gone, speculatively or not (sched/lineage.h needs
 * type-stable blocks only for headers that can be reached that way).  A
 * chain of 100,000 such tasks thus holds no task memory besides its stack
 * frames (docs/memory.md).  xomp_task_run_here is noinline: a frame of its
 * own, popped before the caller goes on. */
static inline __attribute__((always_inline)) void run_here(struct xomp_thread *thr,
                                                           struct xomp_task *t,
                                                           void (*fn)(void *), void *data,
                                                           unsigned flags, int priority)
{
    t->size_class = 0;
    run_undeferred(thr, t, fn, data, flags, priority);
    /* Its children all ran undeferred: none is left. */
    if (t->dep_table)
        xomp_dep_table_free(t->dep_table);
}

__attribute__((noinline)) void xomp_task_run_here(struct xomp_thread *thr, void (*fn)(void *),
                                                  void *data, unsigned flags, int priority)
{
    struct xomp_task t;
    run_here(thr, &t, fn, data, flags, priority);
}

void xomp_task_run_here_at(struct xomp_thread *thr, struct xomp_task *t, void (*fn)(void *),
                           void *data, unsigned flags, int priority)
{
    run_here(thr, t, fn, data, flags, priority);
}

/* An undeferred task that may get deferred children (in a team, above the
 * depth bound, not final): its header in a cache block, which its last
 * child frees if any outlives it (task_release_self).  The same work as
 * task_launch's for such a task in 40% of the instructions (an if(0) task
 * from GOMP_task: about 150, libgomp's 90). */
__attribute__((noinline)) void xomp_task_run_now(struct xomp_thread *thr, void (*fn)(void *),
                                                 void *data, unsigned flags, int priority)
{
    if (xomp_task_may_run_here(thr, flags)) {
        xomp_task_run_here(thr, fn, data, flags, priority);
        return;
    }
    struct xomp_task *t = xomp_task_alloc_small(&thr->cache);
    run_undeferred(thr, t, fn, data, flags, priority);
    task_release_here(thr, t);
}

__attribute__((noinline)) void xomp_task_run_solo(struct xomp_thread *thr, struct xomp_task *t,
                                                  void (*fn)(void *), void *data, unsigned flags)
{
    thr->cache.free[0] = t->next;
    thr->cache.count[0]--;
    run_solo(thr, t, fn, data, flags);
}

__attribute__((noinline)) void xomp_task_run_solo_prepared(struct xomp_thread *thr,
                                                           struct xomp_task *t,
                                                           void (*fn)(void *), void *data,
                                                           unsigned flags)
{
    run_solo(thr, t, fn, data, flags);
}

/* Pending children per team member above which a new task with
 * dependences runs undeferred (dep_backlog_full).  libgomp's bound is 64
 * (team-wide); 256 was the fastest of 64, 256 and 1024 on blocked Cholesky
 * (160 blocks of 16) at 2 threads (docs/loops.md). */
#define XOMP_DEP_BACKLOG_PER_THREAD 256

/* Does the parent have so many children pending (created, not completed)
 * that a new one with dependences should run undeferred instead of
 * joining them?  A single creator of a dependence graph (blocked Cholesky)
 * would otherwise create the whole graph before most of it can run: every
 * task and record in memory at once (320 MB for 700k tasks instead of
 * 120).  Running it undeferred makes the creator wait for its
 * predecessors, running ready tasks meanwhile, as libgomp does.  Per
 * parent, so no counter is shared by the team.  Never after a detachable
 * child: its fulfilment may come from a sibling not created yet. */
static bool dep_backlog_full(const struct xomp_thread *thr, const struct xomp_task *parent)
{
    if (parent->flags & XOMP_TASK_DETACHED_CHILD)
        return false;
    /* relaxed: a heuristic; a stale value only moves the moment we start
     * or stop throttling. */
    int64_t remote_done = -atomic_load_explicit(&parent->child_state, memory_order_relaxed);
    uint64_t pending = parent->created_children - parent->local_done - (uint64_t)remote_done;
    return pending > (uint64_t)XOMP_DEP_BACKLOG_PER_THREAD * thr->team->nthreads;
}

/* A new task's arguments: copied by the program's copy function or byte by
 * byte, then adjusted (a taskloop's range). */
static void copy_args(void *args, void *data, void (*cpyfn)(void *, void *), size_t arg_size,
                      const struct xomp_args_fixup *fixup)
{
    if (cpyfn)
        cpyfn(args, data);
    else
        memcpy(args, data, arg_size);
    if (fixup)
        fixup->apply(args, fixup->ctx);
}


/* A new task in block `t`, its arguments ready at `args`: run it now
 * (waiting for its dependences first) or count it and schedule it (when
 * its dependences are met).  `has_deps`: `depend` is to be registered;
 * `depend_clause`: the task has one (told to a tool even where its
 * dependences need no registering); codeptr: the construct's code address
 * (OMPT). */
static void empty_task(void *data);

static void task_launch(struct xomp_thread *thr, struct xomp_task *t, void (*fn)(void *),
                        void *args, bool run_now, bool has_deps, bool depend_clause,
                        unsigned flags, int priority, void **depend, const void *codeptr)
{
    struct xomp_task *parent = thr->task;
    xomp_task_init(t, thr->team, parent, fn, args, flags, priority);
    t->creator = (uint16_t)thr->team_id;
    if (flags & GOMP_TASK_FLAG_DETACH) {
        parent->flags |= XOMP_TASK_DETACHED_CHILD;
        t->flags |= XOMP_TASK_DETACH;
        atomic_init(&t->detach_pending, 2);
    }
    /* taskwait depend(...) waits as for an undeferred empty task: a tool
     * sees it as the taskwait's stand-in task. */
    if (fn == empty_task && run_now && depend_clause)
        t->flags |= XOMP_TASK_TASKWAIT;

    if (run_now) {
        t->flags |= XOMP_TASK_UNDEFERRED;
        thr->stats.undeferred++;
        t->owner = thr;
        /* It takes a child index like a deferred child, counted as one
         * that completed here (children_done and the frees balance), so
         * that its own children have paths of their own (replay.h). */
        uint64_t count = ++parent->created_children;
        parent->local_done++;
        if (xomp_replay_spawn_init(parent, t, count))
            xomp_replay_note(thr, t);
        XOMP_HOOK(xomp_ompt_task_create(thr, parent, t, depend_clause, codeptr);
                  if (depend_clause) xomp_dep_report(thr, t, depend));
        if (has_deps) {
            /* Wait for the siblings it depends on, running tasks meanwhile. */
            t->flags |= XOMP_TASK_WAITED;
            if (!xomp_dep_register(thr, parent, t, depend))
                wait_until(thr, npred_zero, t, NULL);
        }
        if (thr->worker)
            xomp_sched_mark(t, thr->worker);
        if (XOMP_HOOKS_ON() && (t->flags & XOMP_TASK_TASKWAIT)) {
            xomp_ompt_taskwait_task_done(thr, t);
            task_complete(thr, t);
            return;
        }
        thr->task = t;
        thr->depth++;
        int ompt_saved = 0;
        XOMP_HOOK(XOMP_PROF_TASK_BEGIN_HOOKED(thr, t);
                  ompt_saved = xomp_ompt_task_begin(thr, parent, t, __builtin_dwarf_cfa()));
        fn(args);
        bool detached = (t->flags & XOMP_TASK_DETACH) &&
                        /* acquire: as in task_end_hooked. */
                        atomic_load_explicit(&t->detach_pending, memory_order_acquire) != 1;
        XOMP_HOOK(XOMP_PROF_TASK_END_HOOKED(thr);
                  xomp_ompt_task_end(thr, t, detached ? ompt_task_detach : ompt_task_complete,
                                     parent, ompt_saved));
        thr->depth--;
        thr->task = parent;
        if ((t->flags & XOMP_TASK_DETACH) &&
            atomic_fetch_sub_explicit(&t->detach_pending, 1, memory_order_acq_rel) != 1) {
            wait_until(thr, detach_fulfilled, t, NULL); /* the encountering task waits */
            detached = true;
        }
        /* The fulfilment of an undeferred task is reported here, where it
         * completes (its fulfiller must not touch it after its decrement). */
        XOMP_HOOK(if (detached) xomp_ompt_task_fulfill(thr, t, true));
        task_complete(thr, t);
        return;
    }

    xomp_task_count_child(thr, parent, t);
    XOMP_HOOK(xomp_ompt_task_create(thr, parent, t, depend_clause, codeptr);
              if (depend_clause) xomp_dep_report(thr, t, depend));
    if (__builtin_expect(xomp_replay_spawn_init(parent, t, parent->created_children), 0)) {
        if (has_deps || t->priority > 0) {
            xomp_replay_note(thr, t); /* placed by its dependences or priority */
        } else {
            xomp_replay_submit(thr, t);
            return;
        }
    }
    if (has_deps && !xomp_dep_register(thr, parent, t, depend))
        return; /* its last predecessor will schedule it */
    xomp_task_submit(thr, t);
}

/* Should a task with dependences created by `parent` run now?  Sets
 * *has_deps to whether its dependences must be registered. */
static bool deps_run_now(struct xomp_thread *thr, struct xomp_task *parent, bool run_now,
                         unsigned flags, bool *has_deps)
{
    if (*has_deps && thr->team->nthreads == 1 && !(flags & GOMP_TASK_FLAG_DETACH) &&
        children_done(parent)) {
        /* A team of one, and every earlier child has completed: nothing
         * this task could depend on is pending, and only this thread could
         * run it.  Run it now without recording its dependences (a later
         * sibling finds nothing to wait for either way): a graph of
         * dependent tasks then runs in creation order with no table, no
         * queue and no pile of waiting tasks.  Not for detached tasks,
         * whose completion may wait for a later task's fulfill. */
        *has_deps = false;
        return true;
    }
    if (*has_deps && !run_now && !(flags & GOMP_TASK_FLAG_DETACH) &&
        dep_backlog_full(thr, parent))
        return true; /* wait for its predecessors, running tasks meanwhile */
    return run_now;
}

/* The general path: dependences, detach, undeferred tasks, large or
 * copied arguments, arguments adjusted after the copy (taskloop). */
static void task_spawn_general(struct xomp_thread *thr, void (*fn)(void *), void *data,
                               void (*cpyfn)(void *, void *), size_t arg_size, size_t arg_align,
                               bool run_now, unsigned flags, int priority, void **depend,
                               void **detach, const struct xomp_args_fixup *fixup,
                               const void *codeptr)
{
    struct xomp_task *parent = thr->task;
    bool depend_clause = (flags & GOMP_TASK_FLAG_DEPEND) && depend;
    bool has_deps = depend_clause && thr->team;
    run_now = deps_run_now(thr, parent, run_now, flags, &has_deps);
    if (run_now && !has_deps && !cpyfn && !fixup && !XOMP_HOOKS_ON() &&
        !(flags & GOMP_TASK_FLAG_DETACH) && !parent->rp) {
        xomp_task_run_now(thr, fn, data, flags, priority);
        return;
    }
    void *args;
    struct xomp_task *t;
    if (run_now && !cpyfn && !(flags & GOMP_TASK_FLAG_DETACH) && !fixup) {
        /* No copy needed: the arguments live in the caller's frame until the
         * task has run. */
        t = xomp_task_alloc_small(&thr->cache);
        args = data;
    } else {
        t = xomp_task_alloc(&thr->cache, arg_size, arg_align, &args);
    }
    if (flags & GOMP_TASK_FLAG_DETACH) {
        /* The event handle names a slot of the event table (event.h);
         * GCC also expects it at the start of the argument block. */
        void *event = (void *)xomp_event_new(&thr->events, t);
        *detach = event;
        if (data)
            *(void **)data = event;
    }
    if (args != data)
        copy_args(args, data, cpyfn, arg_size, fixup);
    else if (fixup)
        fixup->apply(args, fixup->ctx);
    task_launch(thr, t, fn, args, run_now, has_deps, depend_clause, flags, priority, depend,
                codeptr);
}

/* A team of one runs a new task at its creation (run_solo's comment),
 * except one with dependences or an event (see run_solo) or a priority: a
 * program that creates tasks of several priorities expects them to run
 * highest first at its next scheduling point, as libgomp runs them. */
static inline bool solo_runs_now(const struct xomp_team *team, unsigned flags, int priority)
{
    return team->run_tasks_now && priority == 0 &&
           !(flags & (GOMP_TASK_FLAG_DEPEND | GOMP_TASK_FLAG_DETACH));
}

void xomp_task_spawn_fixed(struct xomp_thread *thr, void (*fn)(void *), void *data,
                           void (*cpyfn)(void *, void *), size_t arg_size, size_t arg_align,
                           bool undeferred, unsigned flags, int priority,
                           const struct xomp_args_fixup *fixup, const void *codeptr)
{
    struct xomp_task *parent = thr->task;
    bool run_now = undeferred || !thr->team || solo_runs_now(thr->team, 0, priority) ||
                   (parent->flags & XOMP_TASK_FINAL) || thr->depth >= xomp_cfg.max_depth;
    task_spawn_general(thr, fn, data, cpyfn, arg_size, arg_align, run_now,
                       flags & ~(GOMP_TASK_FLAG_DEPEND | GOMP_TASK_FLAG_DETACH), priority, NULL,
                       NULL, fixup, codeptr);
}

void xomp_task_spawn(struct xomp_thread *thr, void (*fn)(void *), void *data,
                     void (*cpyfn)(void *, void *), size_t arg_size, size_t arg_align,
                     bool undeferred, unsigned flags, int priority, void **depend, void **detach,
                     const void *codeptr)
{
    struct xomp_task *parent = thr->task;
    struct xomp_team *team = thr->team;
    if (__builtin_expect(xomp_cfg.cancellation, 0) && team &&
        (atomic_load_explicit(&team->cancelled, memory_order_acquire) ||
         xomp_taskgroup_cancelled(parent)))
        return; /* a cancelled region or taskgroup starts no new task */
    /* Run now: if(0), inside a final task, outside any team, in a team of
     * one (solo_runs_now), or too deep (bounded stack: a frame this deep
     * gets no deferred children, so it never waits for any, see README). */
    bool run_now = undeferred || !team || (parent->flags & XOMP_TASK_FINAL) ||
                   thr->depth >= xomp_cfg.max_depth ||
                   solo_runs_now(team, flags, priority);
    if (__builtin_expect(run_now || cpyfn || arg_align > 8 ||
                             arg_size > XOMP_TASK_SMALL_BLOCK - XOMP_TASK_ARGS_OFFSET ||
                             (flags & (GOMP_TASK_FLAG_DEPEND | GOMP_TASK_FLAG_DETACH)) ||
                             XOMP_HOOKS_ON(),
                         0)) {
        task_spawn_general(thr, fn, data, cpyfn, arg_size, arg_align, run_now, flags, priority,
                           depend, detach, NULL, codeptr);
        return;
    }

    /* The common case: a deferred task with a small argument block. */
    struct xomp_worker *me = thr->worker;
    struct xomp_task *t = xomp_task_alloc_small(&thr->cache);
    void *args = (char *)t + XOMP_TASK_ARGS_OFFSET;
    xomp_copy_args(args, data, arg_size);
    xomp_task_init(t, thr->team, parent, fn, args, flags, priority);
    t->creator = (uint16_t)me->id;
    xomp_task_count_child(thr, parent, t);
    if (__builtin_expect(xomp_replay_spawn_init(parent, t, parent->created_children), 0)) {
        xomp_replay_submit(thr, t); /* donated, or queued (a priority: queued) */
        return;
    }
    xomp_task_submit(thr, t);
}

void xomp_task_spawn_prepared(struct xomp_thread *thr, struct xomp_task *t, void (*fn)(void *),
                              void *data, bool undeferred, unsigned flags, int priority,
                              void **depend, const void *codeptr)
{
    struct xomp_task *parent = thr->task;
    struct xomp_team *team = thr->team;
    if (__builtin_expect(xomp_cfg.cancellation, 0) && team &&
        (atomic_load_explicit(&team->cancelled, memory_order_acquire) ||
         xomp_taskgroup_cancelled(parent))) {
        /* A cancelled region or taskgroup starts no new task. */
        t->data = data; /* the heap arguments xomp_task_free_slow frees */
        xomp_task_free(&thr->cache, t);
        return;
    }
    /* As in xomp_task_spawn. */
    bool run_now = undeferred || !team || (parent->flags & XOMP_TASK_FINAL) ||
                   thr->depth >= xomp_cfg.max_depth ||
                   solo_runs_now(team, flags, priority);
    bool depend_clause = (flags & GOMP_TASK_FLAG_DEPEND) && depend;
    bool has_deps = depend_clause && team;
    run_now = deps_run_now(thr, parent, run_now, flags, &has_deps);
    task_launch(thr, t, fn, data, run_now, has_deps, depend_clause, flags, priority, depend,
                codeptr);
}

void xomp_task_begin_inline(struct xomp_thread *thr, struct xomp_task *t, void (*fn)(void *),
                            void *data, unsigned flags, const void *codeptr)
{
    struct xomp_task *parent = thr->task;
    xomp_task_init(t, thr->team, parent, fn, data, flags, 0);
    t->creator = (uint16_t)thr->team_id;
    t->flags |= XOMP_TASK_UNDEFERRED;
    if (flags & GOMP_TASK_FLAG_DETACH) {
        parent->flags |= XOMP_TASK_DETACHED_CHILD;
        t->flags |= XOMP_TASK_DETACH;
        atomic_init(&t->detach_pending, 2);
    }
    thr->stats.undeferred++;
    t->owner = thr;
    XOMP_HOOK(xomp_ompt_task_create(thr, parent, t, false, codeptr));
    if (thr->worker)
        xomp_sched_mark(t, thr->worker);
    thr->task = t;
    thr->depth++;
    /* The state the begin replaces is the encountering task's working
     * state, the one xomp_task_end_inline finds again (no place to keep
     * it between the two calls). */
    /* The program calls the body after this returns: its exit frame is
     * the entry point's, the encountering task's enter_frame. */
    XOMP_HOOK(XOMP_PROF_TASK_BEGIN_HOOKED(thr, t);
              (void)xomp_ompt_task_begin(thr, parent, t, parent->frame.enter_frame.ptr));
}

void xomp_task_end_inline(struct xomp_thread *thr, struct xomp_task *t)
{
    if (thr->task != t)
        xomp_fatal("the end of an undeferred task that is not the current task");
    struct xomp_task *parent = t->parent;
    bool detached = (t->flags & XOMP_TASK_DETACH) &&
                    /* acquire: as in task_end_hooked. */
                    atomic_load_explicit(&t->detach_pending, memory_order_acquire) != 1;
    XOMP_HOOK(XOMP_PROF_TASK_END_HOOKED(thr);
              xomp_ompt_task_end(thr, t, detached ? ompt_task_detach : ompt_task_complete,
                                 parent, thr->ompt.state));
    thr->depth--;
    thr->task = parent;
    if ((t->flags & XOMP_TASK_DETACH) &&
        atomic_fetch_sub_explicit(&t->detach_pending, 1, memory_order_acq_rel) != 1) {
        wait_until(thr, detach_fulfilled, t, NULL); /* the encountering task waits */
        detached = true;
    }
    /* As in task_launch: the fulfilment is reported where it completes. */
    XOMP_HOOK(if (detached) xomp_ompt_task_fulfill(thr, t, true));
    task_complete(thr, t);
}

void xomp_task_discard(struct xomp_thread *thr, struct xomp_task *t, void *data)
{
    t->data = data; /* the heap arguments xomp_task_free_slow frees */
    xomp_task_free(&thr->cache, t);
}

void xomp_task_proto_capture(struct xomp_thread *thr, struct xomp_task_proto *p,
                             unsigned gomp_flags, const void *codeptr)
{
    struct xomp_task *parent = thr->task;
    p->team = thr->team;
    p->parent = parent;
    p->taskgroup = parent->taskgroup;
    p->level = parent->level + 1;
    /* As xomp_task_init: a final task's descendants are final too. */
    p->flags = (gomp_flags & (GOMP_TASK_FLAG_UNTIED | GOMP_TASK_FLAG_FINAL)) |
               (parent->flags & XOMP_TASK_FINAL);
    p->icv = parent->icv;
    p->codeptr = codeptr;
}

void xomp_task_count_ahead(struct xomp_thread *thr, uint64_t count)
{
    struct xomp_task *parent = thr->task;
    struct xomp_team *team = thr->team;
    parent->created_children += count;
    if (parent->taskgroup)
        /* relaxed: as in xomp_task_count_child (every decrement follows the
         * increment in happens-before: the tasks are made after this). */
        atomic_fetch_add_explicit(&parent->taskgroup->pending, (int64_t)count,
                                  memory_order_relaxed);
    if (team->barrier_kind == XOMP_BARRIER_CENTRAL)
        atomic_fetch_add_explicit(&team->bar.central_pending, count, memory_order_relaxed);
    else
        thr->worker->spawned += count; /* thread-private; published by the barrier gather */
}

struct xomp_task *xomp_task_make(struct xomp_thread *thr, const struct xomp_task_proto *p,
                                 void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                                 size_t arg_size, size_t arg_align,
                                 const struct xomp_args_fixup *fixup)
{
    void *args;
    struct xomp_task *t = xomp_task_alloc(&thr->cache, arg_size, arg_align, &args);
    copy_args(args, data, cpyfn, arg_size, fixup);
    xomp_task_make_prepared(thr, p, t, fn, args);
    return t;
}

void xomp_task_make_prepared(struct xomp_thread *thr, const struct xomp_task_proto *p,
                             struct xomp_task *t, void (*fn)(void *), void *args)
{
    t->fn = fn;
    t->data = args;
    /* release, all three: as in xomp_task_init (sched/lineage.h). */
    __atomic_store_n(&t->parent, p->parent, __ATOMIC_RELEASE);
    __atomic_store_n(&t->taskgroup, p->taskgroup, __ATOMIC_RELEASE);
    __atomic_store_n(&t->level, p->level, __ATOMIC_RELEASE);
    t->team = p->team;
    /* relaxed: as in xomp_task_init. */
    atomic_store_explicit(&t->child_state, 0, memory_order_relaxed);
    t->created_children = 0;
    t->local_done = 0;
    t->icv = p->icv;
    t->flags = p->flags;
    t->priority = 0;
    t->dep_table = NULL;
    t->creator = (uint16_t)thr->team_id;
    /* Made for another task: no path of its own, outside any recorded
     * region (replay.h). */
    atomic_store_explicit(&t->rp_path, 0, memory_order_relaxed);
    t->rp = 0;
    thr->stats.tasks_created++;
    XOMP_HOOK(xomp_ompt_task_create(thr, p->parent, t, false, p->codeptr));
}

static void empty_task(void *data)
{
    (void)data;
}

void xomp_task_wait_depend(struct xomp_thread *thr, void **depend, const void *codeptr)
{
    int ompt_saved = 0;
    XOMP_HOOK(XOMP_PROF_BEGIN_HOOKED(thr, XOMP_EV_TASKWAIT, 0, 0);
              ompt_saved = xomp_ompt_sync_begin(thr, ompt_sync_region_taskwait, codeptr,
                                                __builtin_dwarf_cfa()));
    /* Outside a team every task ran undeferred: nothing to wait for. */
    if (thr->team)
        xomp_task_spawn(thr, empty_task, NULL, NULL, 0, 1, true, GOMP_TASK_FLAG_DEPEND, 0, depend,
                        NULL, codeptr);
    XOMP_HOOK(xomp_ompt_sync_end(thr, ompt_sync_region_taskwait, codeptr, ompt_saved);
              XOMP_PROF_END_HOOKED(thr, XOMP_EV_TASKWAIT));
}

void xomp_task_fulfill(struct xomp_thread *thr, uintptr_t event)
{
    /* Exactly one fulfilment of a live event gets its task (event.h);
     * libgomp's message for everything else. */
    struct xomp_task *t = xomp_event_claim(&thr->events, event);
    if (!t)
        xomp_fatal("omp_fulfill_event: %p event is invalid or has already been fulfilled!",
                   (void *)event);
    /* An undeferred task's encountering thread waits for the count to
     * reach 0 and then completes and frees the task at once: read what we
     * need before our decrement, never after.  (Thread states are never
     * freed.) */
    bool undeferred = t->flags & XOMP_TASK_UNDEFERRED;
    /* (A deferred task's owner is written when it starts, maybe on
     * another thread right now: read it only for an undeferred task, whose
     * encountering thread set it before running the body that gave the
     * event away.) */
    struct xomp_thread *encountering = undeferred ? t->owner : NULL;
    /* OMPT: a fulfilment before the body's end, told while the task
     * cannot complete (it needs our decrement).  A body that ends at this
     * moment may report itself detached in between (task_end_hooked). */
    XOMP_HOOK(/* acquire: pairs with the body end's decrement. */
              if (atomic_load_explicit(&t->detach_pending, memory_order_acquire) == 2)
                  xomp_ompt_task_fulfill(thr, t, false));
    /* seq_cst: the one that reaches 0 completes and sees the other's
     * effects (acquire and release), and for an undeferred task the
     * decrement is the event of the sleep protocol (xomp_wake_after_sc_rmw). */
    int32_t left = atomic_fetch_sub_explicit(&t->detach_pending, 1, memory_order_seq_cst) - 1;
    if (left > 0)
        return; /* the body is still running: its end completes the task */
    if (undeferred) {
        /* Its encountering thread waits in wait_until(detach_fulfilled);
         * t may be gone already (it reports the late fulfilment). */
        xomp_wake_after_sc_rmw(&encountering->waker);
        return;
    }
    XOMP_HOOK(xomp_ompt_task_fulfill(thr, t, true));
    task_complete(thr, t);
}
