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

/* Copy an argument block.  The caller has just written it field by field
 * (GCC stores each firstprivate and shared pointer into a stack struct),
 * so a wide load that spans two of those stores, or a store and padding,
 * cannot take its data from the store buffer and stalls until they reach
 * the cache (~15 cycles on x86).  Copying 4 bytes at a time matches the
 * usual field sizes (int, pointers, doubles are multiples of 4), so every
 * load forwards from one store. */
static inline void xomp_copy_args(void *dst, const void *src, size_t n)
{
    uint32_t *d = dst;
    const uint32_t *s = src;
    switch (n) {
    case 8:
        __builtin_memcpy(d, s, 4);
        __builtin_memcpy(d + 1, s + 1, 4);
        return;
    case 12:
        for (int i = 0; i < 3; i++)
            __builtin_memcpy(d + i, s + i, 4);
        return;
    case 16:
        for (int i = 0; i < 4; i++)
            __builtin_memcpy(d + i, s + i, 4);
        return;
    case 24:
        for (int i = 0; i < 6; i++)
            __builtin_memcpy(d + i, s + i, 4);
        return;
    default:
        if (n <= 64 && (n & 3) == 0) {
            for (size_t i = 0; i < n / 4; i++)
                __builtin_memcpy(d + i, s + i, 4);
        } else {
            memcpy(dst, src, n);
        }
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
    t->flags = ((flags & GOMP_TASK_FLAG_FINAL) || (parent->flags & XOMP_TASK_FINAL)
                    ? XOMP_TASK_FINAL
                    : 0) |
               ((flags & GOMP_TASK_FLAG_UNTIED) ? XOMP_TASK_UNTIED : 0);
    if (priority)
        t->priority = priority;
    t->dep_table = NULL;
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
    xomp_dlb_poll(team, me, XOMP_DLB_AT_SPAWN); /* someone idle asked us for work */
    struct xomp_task *t = xomp_task_alloc_small(&thr->cache);
    void *args = (char *)t + XOMP_TASK_ARGS_OFFSET;
    xomp_copy_args(args, data, arg_size);
    xomp_task_init(t, team, parent, fn, args, flags, 0);
    t->creator = (uint16_t)me->id;
    xomp_task_count_child(thr, parent, t);
    /* Own deque, the common case with local placement. */
    if (xomp_cfg.placement == XOMP_PLACEMENT_LOCAL && me->dlb_redirect < 0 &&
        xomp_self_push(team, me, t))
        return true;
    xomp_task_submit(thr, t);
    return true;
}

#endif
