/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The hot path of task creation, inlined into GOMP_task: a deferred task
 * with a small, trivially copied argument block, no dependences, no detach,
 * no cancellation.  Everything else takes xomp_task_spawn (task.c).
 * The steps and their argument are those of task.c; this file only keeps
 * the common case free of calls and branches it does not need.
 */
#ifndef XOMP_SPAWN_FAST_H
#define XOMP_SPAWN_FAST_H

#include "../runtime/thread.h"
#include "../sched/dlb.h"
#include "../sched/xqueue.h"
#include "task_alloc.h"
#include "task_core.h"

#include <string.h>

/* Copy an argument block.  GCC's blocks are usually 8-32 bytes: copy
 * those with a few loads and stores instead of a call. */
static inline void xomp_copy_args(void *dst, const void *src, size_t n)
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
static inline void xomp_task_init(struct xomp_task *t, struct xomp_team *team,
                                  struct xomp_task *parent, void (*fn)(void *), void *args,
                                  unsigned flags, int priority)
{
    t->fn = fn;
    t->data = args;
    t->parent = parent;
    t->taskgroup = parent->taskgroup;
    t->team = team;
    atomic_init(&t->child_state, 0);
    t->created_children = 0;
    t->local_done = 0;
    t->icv = parent->icv;
    t->flags |= ((flags & GOMP_TASK_FLAG_FINAL) || (parent->flags & XOMP_TASK_FINAL)
                     ? XOMP_TASK_FINAL
                     : 0) |
                ((flags & GOMP_TASK_FLAG_UNTIED) ? XOMP_TASK_UNTIED : 0);
    t->priority = priority;
    t->dep_recs = NULL;
    t->dep_table = NULL;
    t->ndeps = 0;
}

/* Count a deferred task as a child of its parent, in its taskgroup and for
 * the barrier. */
static inline void xomp_task_count_child(struct xomp_thread *thr, struct xomp_task *parent,
                                         struct xomp_task *t)
{
    struct xomp_team *team = thr->team;
    parent->created_children++;
    thr->stats.tasks_created++;
    if (t->taskgroup)
        /* relaxed: the decrement happens after the task was scheduled,
         * i.e. after this increment in happens-before, hence in
         * modification order. */
        atomic_fetch_add_explicit(&t->taskgroup->pending, 1, memory_order_relaxed);
    if (team->barrier_kind == XOMP_BARRIER_CENTRAL)
        atomic_fetch_add_explicit(&team->bar.central_pending, 1, memory_order_relaxed);
    else
        thr->worker->spawned++; /* thread-private; published by the barrier gather */
}

/* Returns false when the fast path does not apply. */
static inline bool xomp_task_spawn_fast(struct xomp_thread *thr, void (*fn)(void *), void *data,
                                        void (*cpyfn)(void *, void *), size_t arg_size,
                                        size_t arg_align, bool if_clause, unsigned flags)
{
    struct xomp_task *parent = thr->task;
    struct xomp_team *team = thr->team;
    if (__builtin_expect(!if_clause || cpyfn || arg_align > 8 ||
                             arg_size > XOMP_TASK_SMALL_BLOCK - XOMP_TASK_ARGS_OFFSET ||
                             (flags & (GOMP_TASK_FLAG_DEPEND | GOMP_TASK_FLAG_DETACH |
                                       GOMP_TASK_FLAG_PRIORITY)) ||
                             !team || (parent->flags & XOMP_TASK_FINAL) ||
                             thr->depth >= xomp_cfg.max_depth || xomp_cfg.cancellation,
                         0))
        return false;
    struct xomp_worker *me = thr->worker;
    xomp_dlb_poll(team, me); /* someone idle asked us for work */
    struct xomp_task *t = xomp_task_alloc_small(&thr->cache);
    void *args = (char *)t + XOMP_TASK_ARGS_OFFSET;
    xomp_copy_args(args, data, arg_size);
    xomp_task_init(t, team, parent, fn, args, flags, 0);
    t->creator = (uint16_t)me->id;
    xomp_task_count_child(thr, parent, t);
    /* Own deque, the common case with local placement. */
    if (xomp_cfg.placement == XOMP_PLACEMENT_LOCAL && me->dlb_redirect < 0 &&
        xomp_self_push(team, me, t)) {
        thr->stats.pushed_own++;
        return true;
    }
    xomp_task_submit(thr, t);
    return true;
}

#endif
