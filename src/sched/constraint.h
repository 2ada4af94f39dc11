/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * What a waiting member may run: the wait descriptor and its test (task
 * scheduling constraint 2 of OpenMP 5.2, README "The tied-task
 * constraint").
 */
#ifndef XOMP_CONSTRAINT_H
#define XOMP_CONSTRAINT_H

#include "home.h"
#include "lineage.h"

#include <stdbool.h>
#include <stdint.h>

struct xomp_sched_wait {
    /* The innermost suspended tied task: only its descendants may start
     * on this thread.  NULL: any task (a barrier). */
    struct xomp_task *constraint;
    /* The taskgroup being ended (its tasks are descendants of
     * `constraint` even when their parent chain cannot be checked), or
     * NULL. */
    struct xomp_taskgroup *taskgroup;
    /* Own deque: only indices from here up hold descendants of
     * `constraint` (its bottom when that task began on this thread). */
    int64_t floor;
};

/* A barrier's descriptor: anything goes. */
#define XOMP_SCHED_ANY ((struct xomp_sched_wait){NULL, NULL, INT64_MIN})

/* May a member waiting under `w` start task x?  x must stay queued during
 * the call for a "yes" to be exact (lineage.h); the callers prove it (a
 * successful steal, or the pool's lock). */
static inline bool xomp_sched_may_run(const struct xomp_task *x, const struct xomp_sched_wait *w)
{
    if (!w->constraint)
        return true;
    return xomp_lineage_parent(x) == w->constraint ||
           (w->taskgroup && xomp_task_in_taskgroup(x, w->taskgroup)) ||
           xomp_task_descends(x, w->constraint);
}

/* A member looking for a task: what it may run (its wait), and who it is
 * (for the tasks' homes, home.h). */
struct xomp_taker {
    const struct xomp_sched_wait *w;
    uint16_t node;   /* its NUMA node in the team's map */
    uint16_t member; /* its member number */
    /* Out: some task was refused for its home (whatever the wait allows:
     * the watcher watches for the whole team, README "Homes and
     * progress"). */
    bool refused_home;
    /* The team's deque home word (home.h: applies to a task without a
     * home that sits in another member's deque), or 0; the stealing code
     * fills it in (steal.c). */
    uintptr_t deque_home;
};

/* May the taker start task x, whose home word is `word`: does the home
 * admit it (and is it x's turn, for an ordered home), and may it run x
 * under its wait?  Exact for a task that stays queued during the call, as
 * xomp_sched_may_run. */
static inline bool xomp_sched_may_take_homed(const struct xomp_task *x, uintptr_t word,
                                             struct xomp_taker *tk)
{
    if (!xomp_home_admits(word, tk->node, tk->member) ||
        !xomp_home_order_admits(x, word, tk->member, tk->w->constraint != NULL)) {
        tk->refused_home = true;
        return false;
    }
    return xomp_sched_may_run(x, tk->w);
}

/* A task of a pool or an inbox: its own home applies. */
static inline bool xomp_sched_may_take(const struct xomp_task *x, struct xomp_taker *tk)
{
    return xomp_sched_may_take_homed(x, xomp_task_home_word(x), tk);
}

/* The home word that applies to task x in another member's deque. */
static inline uintptr_t xomp_sched_deque_home_word(const struct xomp_task *x,
                                                   const struct xomp_taker *tk)
{
    uintptr_t word = xomp_task_home_word(x);
    return word ? word : tk->deque_home;
}

/* A task in another member's deque: its home, or the team's deque home. */
static inline bool xomp_sched_may_steal(const struct xomp_task *x, struct xomp_taker *tk)
{
    return xomp_sched_may_take_homed(x, xomp_sched_deque_home_word(x, tk), tk);
}

#endif
