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

#include "../locality/replay.h"
#include "../runtime/thread.h"
#include "../sched/notify.h"
#include "../sched/sched.h"
#include "task_alloc.h"
#include "task_core.h"

#include <string.h>

/* Largest argument block the fast path copies (xomp_copy_words). */
#define XOMP_FAST_ARGS_MAX 60
_Static_assert(XOMP_TASK_ARGS_OFFSET + XOMP_FAST_ARGS_MAX <= XOMP_TASK_SMALL_BLOCK,
               "the fast path's arguments must fit in a small block after the task header");

/* Copy n bytes, n a multiple of 4 and at most XOMP_FAST_ARGS_MAX.
 * The caller has just written the block field by field
 * (GCC stores each firstprivate and shared pointer into a stack struct),
 * so a wide load that spans two of those stores, or a store and padding,
 * cannot take its data from the store buffer and stalls until they reach
 * the cache (~15 cycles on x86).  Copying 4 bytes at a time matches the
 * usual field sizes (int, pointers, doubles are multiples of 4), so every
 * load forwards from one store. */
static inline void xomp_copy_words(void *dst, const void *src, size_t n)
{
    uint32_t *d = dst;
    const uint32_t *s = src;
#define XOMP_COPY_WORD(i)                                                                      \
    case i + 1:                                                                                \
        __builtin_memcpy(d + i, s + i, 4);                                                     \
        __attribute__((fallthrough))
    switch (n / 4) { /* words 14 down to 0 */
        XOMP_COPY_WORD(14);
        XOMP_COPY_WORD(13);
        XOMP_COPY_WORD(12);
        XOMP_COPY_WORD(11);
        XOMP_COPY_WORD(10);
        XOMP_COPY_WORD(9);
        XOMP_COPY_WORD(8);
        XOMP_COPY_WORD(7);
        XOMP_COPY_WORD(6);
        XOMP_COPY_WORD(5);
        XOMP_COPY_WORD(4);
        XOMP_COPY_WORD(3);
        XOMP_COPY_WORD(2);
        XOMP_COPY_WORD(1);
        XOMP_COPY_WORD(0);
    default:
        return;
    }
#undef XOMP_COPY_WORD
}

/* Copy an argument block of any size. */
static inline void xomp_copy_args(void *dst, const void *src, size_t n)
{
    if ((n & 3) == 0 && n <= XOMP_FAST_ARGS_MAX)
        xomp_copy_words(dst, src, n);
    else
        memcpy(dst, src, n);
}

/* Fill in a task's header (the block and its arguments are ready). */
static inline void xomp_task_init(struct xomp_task *t, struct xomp_team *team,
                                  struct xomp_task *parent, void (*fn)(void *), void *args,
                                  unsigned flags, int priority)
{
    _Static_assert(XOMP_TASK_UNTIED == GOMP_TASK_FLAG_UNTIED &&
                       XOMP_TASK_FINAL == GOMP_TASK_FLAG_FINAL,
                   "task flag bits differ from GOMP_task's");
    t->fn = fn;
    t->data = args;
    /* release, all three: other threads read them speculatively, and a
     * read of a reused block must imply that the task whose parent this
     * block was had completed (sched/lineage.h). */
    __atomic_store_n(&t->parent, parent, __ATOMIC_RELEASE);
    __atomic_store_n(&t->taskgroup, parent->taskgroup, __ATOMIC_RELEASE);
    __atomic_store_n(&t->level, parent->level + 1, __ATOMIC_RELEASE);
    t->team = team;
    /* relaxed: read by others only through the lineage checks, validated
     * as described there. */
    atomic_store_explicit(&t->child_state, 0, memory_order_relaxed);
    t->created_children = 0;
    t->local_done = 0;
    t->icv = parent->icv;
    /* A final task's descendants are final too. */
    t->flags = (flags & (GOMP_TASK_FLAG_UNTIED | GOMP_TASK_FLAG_FINAL)) |
               (parent->flags & XOMP_TASK_FINAL);
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

/* Are GOMP_task's arguments those of the fast path?  A deferred task with
 * a trivially copied argument block of at most XOMP_FAST_ARGS_MAX bytes, a
 * multiple of 4, aligned to at most 8, without dependences, detach or
 * priority.  The tests are folded into one branch. */
static inline bool xomp_task_args_usual(void (*cpyfn)(void *, void *), size_t arg_size,
                                        size_t arg_align, bool if_clause, unsigned flags)
{
    _Static_assert(XOMP_FAST_ARGS_MAX == 0x3c, "the size mask below assumes 60 bytes");
    uintptr_t unusual = (arg_size & ~(size_t)0x3c) | (arg_align & ~(size_t)0xf) |
                        (uintptr_t)cpyfn | !if_clause |
                        (flags & (GOMP_TASK_FLAG_DEPEND | GOMP_TASK_FLAG_DETACH |
                                  GOMP_TASK_FLAG_PRIORITY));
    return __builtin_expect(!unusual, 1);
}

/* Does the thread allow the fast path?  It must be in a team, below the
 * depth bound, not in a final task nor one whose children the replay of a
 * steal tree looks at, and tasks must be plain (config.h). */
static inline bool xomp_task_thread_usual(const struct xomp_thread *thr)
{
    return __builtin_expect(thr->team &&
                                !(thr->task->flags & (XOMP_TASK_FINAL | XOMP_TASK_RP_LOOK)) &&
                                thr->depth < xomp_cfg.max_depth && xomp_cfg.plain_tasks,
                            1);
}

/* May a task that runs undeferred now keep its header in a stack frame
 * (xomp_task_run_here, task.c)?  Only where it cannot get a deferred
 * child: at the depth bound, in a final task (its descendants are final
 * and included too) or outside any team; not a detachable task (its event
 * names the header), nor in a region whose steal tree is recorded or
 * replayed (the replay keeps headers, replay.h). */
static inline bool xomp_task_may_run_here(const struct xomp_thread *thr, unsigned flags)
{
    return !(flags & GOMP_TASK_FLAG_DETACH) && !thr->task->rp &&
           (!thr->team || (thr->task->flags & XOMP_TASK_FINAL) ||
            thr->depth >= xomp_cfg.max_depth);
}

/* Place a task on the fast path: block `t`, already taken from the
 * thread's small-block cache, holds its arguments at `args` (both tests
 * above held: the replay of a steal tree need not look at it, replay.h).
 * Every call left on this path is in tail position, so that the caller
 * needs no stack frame in the common case. */
static inline void xomp_task_publish_fast(struct xomp_thread *thr, struct xomp_task *t,
                                          void (*fn)(void *), void *args, unsigned flags)
{
    struct xomp_task *parent = thr->task;
    struct xomp_team *team = thr->team;
    struct xomp_worker *me = thr->worker;
    xomp_task_init(t, team, parent, fn, args, flags, 0);
    t->creator = (uint16_t)me->id;
    /* xomp_task_count_child for plain tasks. */
    xomp_replay_spawn_init(parent, t, ++parent->created_children);
    thr->stats.tasks_created++;
    if (parent->taskgroup) /* t's taskgroup */
        /* relaxed: as in xomp_task_count_child. */
        atomic_fetch_add_explicit(&parent->taskgroup->pending, 1, memory_order_relaxed);
    me->spawned++; /* thread-private; published by the barrier gather */
    /* Own deque, if it has room (else xomp_task_submit makes more, up to
     * XOMP_QUEUE_SIZE tasks, or runs the task now).  The
     * thread waiting for the taskgroup's end, when it is not us, is read
     * before the push: afterwards the task may already be done and the
     * taskgroup gone. */
    struct xomp_taskgroup *tg = parent->taskgroup;
    struct xomp_waker *tg_owner =
        __builtin_expect(tg && tg->owner != thr, 0) ? &tg->owner->waker : NULL;
    if (__builtin_expect(xomp_deque_push_bounded(&me->deque, t), 1)) {
        xomp_notify_published(thr, team, parent, NULL, tg_owner);
        return;
    }
    xomp_task_submit(thr, t);
}

/* Create and place a task on the fast path, in a block `t` the caller took
 * from the head of the thread's small-block cache (both tests above held):
 * take it off the list, copy the arguments in, publish it. */
static inline void xomp_task_spawn_fast(struct xomp_thread *thr, struct xomp_task *t,
                                        void (*fn)(void *), void *data, size_t arg_size,
                                        unsigned flags)
{
    thr->cache.free[0] = t->next;
    thr->cache.count[0]--;
    void *args = (char *)t + XOMP_TASK_ARGS_OFFSET;
    xomp_copy_words(args, data, arg_size);
    xomp_task_publish_fast(thr, t, fn, args, flags);
}

#endif
