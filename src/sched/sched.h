/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Where queued tasks live and how a member gets one: the scheduler's
 * interface to the task layer and the barrier.
 *
 * Every queued task of a team is in exactly one of:
 *   - a member's deque (deque.h): tasks it created, or made ready by
 *     completing their predecessor, or stole in a batch; the owner takes
 *     its newest, any other member steals its oldest;
 *   - the team's priority queue: tasks with a priority above 0, taken
 *     highest priority first by whoever looks (pools.c);
 *   - the team's orphans: tasks a waiting member took out of another
 *     member's deque to reach a task it needs beneath them (steal.c);
 *   - the team's inbox: tasks made ready by a thread that is not a member
 *     (an omp_fulfill_event from outside the team), until a member moves
 *     them into its deque;
 *   - a member's inbox: tasks given to that member (xomp_sched_give: the
 *     share of a NUMA node of an ILAN taskloop).
 * Each of these can be taken by any member that is not blocked, whoever
 * put the task there and whatever its owner is doing: that is the progress
 * rule (src/sched/README.md, "Progress").  Placement is the creator's own
 * deque, or the inbox of a member it chose; moving work is the thieves'
 * job.  A task may carry a home (home.h): then only the members it admits
 * take it, until the watcher lapses the home (watch.h).
 *
 * A member takes tasks under a wait descriptor: a barrier may run any task
 * of the team; a wait inside a tied task W (taskwait, taskgroup end,
 * taskyield, a dependence or detach wait) only W's descendants (task
 * scheduling constraint 2).
 */
#ifndef XOMP_SCHED_H
#define XOMP_SCHED_H

#include "../prof/stats.h"
#include "../runtime/team.h"
#include "constraint.h"
#include "deque.h"
#include "watch.h"

#include <stdbool.h>
#include <stdint.h>

struct xomp_thread;

/* ---- putting tasks ---- */

/* Queue a new task of the calling member (its creator): in its own deque,
 * or the priority queue when t->priority is above 0.  Returns false when
 * the deque already holds XOMP_QUEUE_SIZE tasks: the caller runs the task
 * at once (the seed's immediate execution; memory stays bounded). */
bool xomp_sched_push_new(struct xomp_thread *thr, struct xomp_task *t);

/* Queue a task made ready by its last predecessor (never refused: running
 * it at once could recurse down a chain of dependants). */
void xomp_sched_push_ready(struct xomp_thread *thr, struct xomp_task *t);

/* A thread outside t's team made it ready (omp_fulfill_event). */
void xomp_sched_push_foreign(struct xomp_task *t);

/* Queue t in the team's common queue (a task that fits in no deque). */
void xomp_sched_put_common(struct xomp_thread *thr, struct xomp_task *t);

/* Queue a new task with a home (home.h) that admits the calling member,
 * in its own deque, without waking anybody yet; false when the deque holds
 * XOMP_QUEUE_SIZE tasks (the caller runs it at once, as
 * xomp_sched_push_new).  A run of such pushes ends with
 * xomp_sched_announce_homed, before the caller runs anything else (a task
 * it runs may block: the queued ones must be known by then). */
bool xomp_sched_push_homed(struct xomp_thread *thr, struct xomp_task *t);

/* The last `count` tasks pushed with xomp_sched_push_homed, of home word
 * `home`, are queued: wake whom they need (notify.h).  `anchor`: a task
 * they descend from that stays alive during the call (their parent). */
void xomp_sched_announce_homed(struct xomp_thread *thr, uintptr_t home, struct xomp_task *anchor,
                               unsigned count);

/* Give a new task to member v of the calling member's team: v's inbox,
 * where v looks first and every member t's home admits may take it too.
 * `anchor` as above. */
void xomp_sched_give(struct xomp_thread *thr, struct xomp_task *t, unsigned v,
                     struct xomp_task *anchor);

/* ---- taking tasks ---- */

/* A task the calling member may run under `w`, taken out of its queue, or
 * NULL.  Cheap checks first: own deque, priority queue, orphans, inbox,
 * then a few steal attempts. */
struct xomp_task *xomp_sched_next(struct xomp_thread *thr, const struct xomp_sched_wait *w);

/* A task xomp_sched_next returned that the caller will not run after all
 * (a barrier found itself released meanwhile, barrier.c): queued again in
 * the caller's deque (or where xomp_sched_push_ready puts it), announced
 * as a new task. */
void xomp_sched_give_back(struct xomp_thread *thr, struct xomp_task *t);

/* Before sleeping (the recheck of the sleep protocol): is there anything
 * at all the member may run under `w`?  Looks everywhere, deeper than
 * xomp_sched_next; for a constrained waiter, a task it may run that lies
 * beneath others in a deque is uncovered (the ones above go to the
 * orphans), so that it can be stolen next. */
bool xomp_sched_has_work(struct xomp_thread *thr, const struct xomp_sched_wait *w);

/* A wait of the calling member that may run tasks ends (a barrier,
 * taskwait, taskgroup end, ...): if it watched tasks refused for their
 * homes, it hands that over (watch.h). */
void xomp_sched_wait_over(struct xomp_thread *thr);

/* Count a task run by member `w`: by its creator, by another member of the
 * creator's NUMA node, or by a member of another node (prof/stats.h). */
static inline void xomp_sched_count_run(struct xomp_stats *st, const struct xomp_worker *w,
                                        unsigned creator)
{
    if (__builtin_expect(creator == w->id, 1))
        st->run_self++;
    else if (w->team->member_map[creator].node == w->map.node)
        st->run_local++;
    else
        st->run_remote++;
}

/* A task begins on member w's thread: from here up, w's deque holds its
 * descendants while it runs (relaxed: our own deque's bottom). */
static inline void xomp_sched_mark(struct xomp_task *t, struct xomp_worker *w)
{
    t->deque_mark = atomic_load_explicit(&w->deque.bottom, memory_order_relaxed);
}

/* ---- team life ---- */

/* A team object's queues (xomp_team_create / destroy). */
void xomp_sched_team_init(struct xomp_team *team);
void xomp_sched_team_destroy(struct xomp_team *team);
/* Region start, by the master: the NUMA map of the members. */
void xomp_sched_plan(struct xomp_team *team);
/* Member start: its place in the map, its steal state. */
void xomp_sched_member_begin(struct xomp_team *team, struct xomp_worker *me);

#endif
