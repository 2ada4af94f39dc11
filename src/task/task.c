/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Explicit tasks: creation, placement, execution, completion, taskwait,
 * taskgroup.  The memory-lifetime and wake-up arguments are in
 * src/task/README.md.
 */
#include "task_core.h"

#include "../runtime/log.h"
#include "../runtime/thread.h"
#include "../sched/dlb.h"
#include "../sched/xqueue.h"
#include "task_alloc.h"

#include <stdlib.h>
#include <string.h>

void xomp_task_init_implicit(struct xomp_task *t, struct xomp_thread *owner,
                             struct xomp_task *parent, const struct xomp_icv *icv)
{
    t->fn = NULL;
    t->data = NULL;
    t->parent = parent;
    t->taskgroup = NULL;
    t->owner = owner;
    atomic_store_explicit(&t->child_state, 0, memory_order_relaxed);
    t->created_children = 0;
    t->local_done = 0;
    t->icv = *icv;
    t->flags = XOMP_TASK_IMPLICIT;
    t->size_class = 0;
    t->creator = 0;
    t->priority = 0;
    t->next = NULL;
}

/* ---- completion ---- */

/* The task's own body has finished: free it now, or leave that to its
 * last running child. */
static void task_release_self(struct xomp_thread *thr, struct xomp_task *t)
{
    /* Children that may still be running: those not completed here. */
    int64_t remote = (int64_t)(t->created_children - t->local_done);
    if (remote == 0) {
        /* Every child completed on this thread (or none existed): nobody
         * else holds a pointer to t. */
        xomp_task_free(&thr->cache, t);
        return;
    }
    /* acq_rel: acquire pairs with the remote children's RMWs (their last
     * accesses to t happened before); release orders our accesses before
     * the RMW of the child that will free t. */
    int64_t old = atomic_fetch_add_explicit(&t->child_state, XOMP_TASK_FINISHED + remote,
                                            memory_order_acq_rel);
    if (old == -remote) /* every remote child had completed */
        xomp_task_free(&thr->cache, t);
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
        /* seq_cst: publishes the completion (release) and orders it before
         * the load of waiter->sleeping (see xomp_wake_after_sc_rmw). */
        if (atomic_fetch_sub_explicit(&tg->pending, 1, memory_order_seq_cst) == 1)
            xomp_wake_after_sc_rmw(&waiter->waker);
    }
    /* Completed on the parent's own thread while the parent has not
     * finished: the parent is suspended beneath us on this very stack, so
     * it can read a plain counter when it resumes.  (relaxed: FINISHED is
     * only ever added by this thread, so we read our own write.) */
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
        xomp_task_free(&thr->cache, parent); /* parent finished; we were its last child */
    else if (old <= 0)
        xomp_wake_after_sc_rmw(&waiter->waker); /* parent running: maybe in taskwait */
}

/* Execute a task taken from a ring (or refused by a full ring). */
static void task_execute(struct xomp_thread *thr, struct xomp_task *t)
{
    struct xomp_task *prev = thr->task;
    struct xomp_worker *w = thr->worker;
    struct xomp_task *parent = t->parent;
    thr->stats.tasks_run++;
    if (t->creator == w->id)
        thr->stats.run_self++;
    else
        thr->stats.run_other++;
    t->owner = thr;
    thr->task = t;
    thr->depth++;
    t->fn(t->data);
    thr->depth--;
    thr->task = prev;

    struct xomp_taskgroup *tg = t->taskgroup;
    task_release_self(thr, t);
    task_notify(thr, parent, tg);
    if (w->team->barrier_kind == XOMP_BARRIER_CENTRAL)
        /* release: the barrier's acquire load of pending sees this task's
         * effects. */
        atomic_fetch_sub_explicit(&w->team->bar.central_pending, 1, memory_order_release);
    else
        w->finished++; /* thread-private; published by the barrier gather */
}

bool xomp_task_run_one(struct xomp_thread *thr)
{
    struct xomp_team *team = thr->team;
    if (!team)
        return false;
    struct xomp_worker *me = thr->worker;
    xomp_dlb_poll(team, me); /* give work away first if someone asked */
    struct xomp_task *t = xomp_xqueue_pop(team, me);
    if (!t) {
        xomp_dlb_idle(team, me); /* ask for work */
        return false;
    }
    task_execute(thr, t);
    return true;
}

/* ---- creation ---- */

static unsigned place_task(struct xomp_team *team, struct xomp_worker *me)
{
    if (__builtin_expect(me->dlb_redirect >= 0, 0))
        return (unsigned)me->dlb_redirect; /* redirect push (dlb.c) */
    if (xomp_cfg.placement == XOMP_PLACEMENT_LOCAL)
        return me->id;
    unsigned c = me->rr_next;
    me->rr_next = c + 1 == team->nthreads ? 0 : c + 1;
    return c;
}

static void task_submit(struct xomp_thread *thr, struct xomp_task *t)
{
    struct xomp_team *team = thr->team;
    struct xomp_worker *me = thr->worker;
    unsigned c = place_task(team, me);
    if (c == me->id) {
        if (xomp_self_push(team, me, t)) {
            thr->stats.pushed_own++;
            return;
        }
    } else {
        bool pushed = xomp_ring_push(team, me, c, t);
        if (__builtin_expect((int)c == me->dlb_redirect, 0))
            xomp_dlb_redirected(me, !pushed);
        if (pushed) {
            struct xomp_worker *cw = &team->workers[c];
            /* relaxed: advice only (see xomp_xqueue_pop); skip the store when
             * it would not change, to keep the line shared. */
            if (atomic_load_explicit(&cw->hint, memory_order_relaxed) != me->id)
                atomic_store_explicit(&cw->hint, me->id, memory_order_relaxed);
            xomp_wake_if_sleeping(&cw->thread->waker);
            thr->stats.pushed_other++;
            return;
        }
    }
    thr->stats.immediate++;
    /* The ring is full: run the task now instead of waiting for room. */
    task_execute(thr, t);
}

/* Copy an argument block.  GCC's blocks are usually 8-32 bytes: copy
 * those with a few loads and stores instead of a call. */
static inline void copy_args(void *dst, const void *src, size_t n)
{
    char *d = dst;
    const char *s = src;
    if (n > 32) {
        memcpy(d, s, n);
    } else if (n > 16) {
        uint64_t a[2], b[2];
        memcpy(a, s, 16);
        memcpy(b, s + n - 16, 16);
        memcpy(d, a, 16);
        memcpy(d + n - 16, b, 16);
    } else if (n >= 8) {
        uint64_t a, b;
        memcpy(&a, s, 8);
        memcpy(&b, s + n - 8, 8);
        memcpy(d, &a, 8);
        memcpy(d + n - 8, &b, 8);
    } else {
        for (size_t i = 0; i < n; i++)
            d[i] = s[i];
    }
}

/* Fill in a task's header (the block and its arguments are ready). */
static inline void task_init(struct xomp_task *t, struct xomp_task *parent, void (*fn)(void *),
                             void *args, unsigned flags, int priority)
{
    t->fn = fn;
    t->data = args;
    t->parent = parent;
    t->taskgroup = parent->taskgroup;
    atomic_init(&t->child_state, 0);
    t->created_children = 0;
    t->local_done = 0;
    t->icv = parent->icv;
    t->flags |= ((flags & GOMP_TASK_FLAG_FINAL) || (parent->flags & XOMP_TASK_FINAL)
                     ? XOMP_TASK_FINAL
                     : 0) |
                ((flags & GOMP_TASK_FLAG_UNTIED) ? XOMP_TASK_UNTIED : 0);
    t->priority = priority;
}

/* if(0), inside a final task, outside any team, or past the depth bound:
 * run the task on the spot.  It is not counted as a child: it completes
 * before the parent continues.  It still gets a block of its own, because
 * its deferred children may outlive this call. */
static void task_run_undeferred(struct xomp_thread *thr, struct xomp_task *parent,
                                void (*fn)(void *), void *data, void (*cpyfn)(void *, void *),
                                size_t arg_size, size_t arg_align, unsigned flags, int priority)
{
    void *args;
    struct xomp_task *t;
    if (!cpyfn) {
        /* No copy needed: the arguments live in the caller's frame until the
         * task has run. */
        t = xomp_task_alloc_small(&thr->cache);
        args = data;
    } else {
        t = xomp_task_alloc(&thr->cache, arg_size, arg_align, &args);
        cpyfn(args, data);
    }
    task_init(t, parent, fn, args, flags, priority);
    t->flags |= XOMP_TASK_UNDEFERRED;
    thr->stats.undeferred++;
    t->owner = thr;
    t->creator = (uint16_t)thr->team_id;
    thr->task = t;
    thr->depth++;
    fn(args);
    thr->depth--;
    thr->task = parent;
    task_release_self(thr, t);
}

void xomp_task_spawn(struct xomp_thread *thr, void (*fn)(void *), void *data,
                     void (*cpyfn)(void *, void *), size_t arg_size, size_t arg_align,
                     bool undeferred, unsigned flags, int priority)
{
    struct xomp_task *parent = thr->task;
    struct xomp_team *team = thr->team;
    /* Bounded stack: a frame this deep gets no deferred children, so it never
     * waits for any (see README). */
    if (__builtin_expect(undeferred || !team || (parent->flags & XOMP_TASK_FINAL) ||
                             thr->depth >= xomp_cfg.max_depth,
                         0)) {
        task_run_undeferred(thr, parent, fn, data, cpyfn, arg_size, arg_align, flags, priority);
        return;
    }

    void *args;
    struct xomp_task *t;
    if (__builtin_expect(!cpyfn && arg_align <= 8 &&
                             arg_size <= XOMP_TASK_SMALL_BLOCK - XOMP_TASK_ARGS_OFFSET,
                         1)) {
        t = xomp_task_alloc_small(&thr->cache);
        args = (char *)t + XOMP_TASK_ARGS_OFFSET;
        copy_args(args, data, arg_size);
    } else {
        t = xomp_task_alloc(&thr->cache, arg_size, arg_align, &args);
        if (cpyfn)
            cpyfn(args, data);
        else
            memcpy(args, data, arg_size);
    }
    task_init(t, parent, fn, args, flags, priority);

    struct xomp_worker *me = thr->worker;
    xomp_dlb_poll(team, me);
    t->creator = (uint16_t)me->id;
    parent->created_children++;
    thr->stats.tasks_created++;
    if (t->taskgroup)
        /* relaxed: the decrement happens after the task was popped, i.e.
         * after this increment in happens-before, hence in modification
         * order. */
        atomic_fetch_add_explicit(&t->taskgroup->pending, 1, memory_order_relaxed);
    if (team->barrier_kind == XOMP_BARRIER_CENTRAL)
        atomic_fetch_add_explicit(&team->bar.central_pending, 1, memory_order_relaxed);
    else
        me->spawned++; /* thread-private; published by the barrier gather */
    task_submit(thr, t);
}

/* ---- waiting ---- */

struct wait_ctx {
    struct xomp_thread *thr;
    _Atomic int64_t *word; /* child_state or taskgroup pending */
    int64_t target;        /* value of *word when done ... */
    const uint64_t *local; /* ... plus this (taskwait: children completed here) */
    bool help;              /* may run queued tasks while waiting */
};

static bool wait_done(const struct wait_ctx *c)
{
    /* acquire: pairs with the seq_cst RMWs of completing tasks, so their
     * effects are visible once we return. */
    int64_t target = c->target + (c->local ? (int64_t)*c->local : 0);
    return atomic_load_explicit(c->word, memory_order_acquire) == target;
}

static bool wait_recheck(void *arg)
{
    struct wait_ctx *c = arg;
    return wait_done(c) ||
           (c->help && xomp_xqueue_has_work(c->thr->team, c->thr->worker));
}

/* Run queued tasks (when allowed) until *word == target. */
static void wait_helping(struct wait_ctx *c)
{
    struct xomp_thread *thr = c->thr;
    struct xomp_idle idle;
    xomp_idle_init(&idle);
    while (!wait_done(c)) {
        if (c->help && xomp_task_run_one(thr)) {
            xomp_idle_init(&idle);
            continue;
        }
        xomp_idle_step(&thr->waker, &idle, wait_recheck, c);
    }
}

void xomp_taskwait(struct xomp_thread *thr)
{
    struct xomp_task *t = thr->task;
    if (t->created_children == t->local_done &&
        atomic_load_explicit(&t->child_state, memory_order_acquire) == 0)
        return; /* no child, or all completed here (acquire: see wait_done) */
    /* Done when local_done + (children completed elsewhere) == created. */
    struct wait_ctx c = {
        .thr = thr,
        .word = &t->child_state,
        .target = -(int64_t)t->created_children,
        .local = &t->local_done,
        .help = thr->team != NULL && thr->depth < xomp_cfg.max_depth,
    };
    wait_helping(&c);
}

void xomp_taskyield(struct xomp_thread *thr)
{
    if (thr->team && thr->depth < xomp_cfg.max_depth)
        xomp_task_run_one(thr);
}

void xomp_taskgroup_start(struct xomp_thread *thr)
{
    struct xomp_taskgroup *tg = malloc(sizeof *tg);
    if (!tg)
        xomp_fatal("out of memory allocating a taskgroup");
    atomic_init(&tg->pending, 0);
    tg->owner = thr;
    tg->prev = thr->task->taskgroup;
    thr->task->taskgroup = tg;
}

void xomp_taskgroup_end(struct xomp_thread *thr)
{
    struct xomp_task *t = thr->task;
    struct xomp_taskgroup *tg = t->taskgroup;
    if (!tg)
        xomp_fatal("GOMP_taskgroup_end without a matching GOMP_taskgroup_start");
    struct wait_ctx c = {
        .thr = thr,
        .word = &tg->pending,
        .target = 0,
        .help = thr->team != NULL && thr->depth < xomp_cfg.max_depth,
    };
    wait_helping(&c);
    t->taskgroup = tg->prev;
    free(tg);
}
