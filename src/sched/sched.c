/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Putting and taking tasks (sched.h).  The argument that every queued task
 * can be taken by a member that is not blocked is in src/sched/README.md
 * ("Progress").
 */
#include "sched.h"

#include "../runtime/thread.h"
#include "notify.h"
#include "steal.h"

/* Victims one look at xomp_sched_next tries (beyond the last one that had
 * work); the idle loop looks again at its next poll, so that a poll stays
 * short (a barrier's waiter notices its release the sooner). */
#define STEAL_VICTIMS_PER_LOOK 1

/* May `t` go into thr's own deque?  Its entries above the mark of any
 * task on thr's stack must be that task's descendants (the floor of a
 * later wait relies on it), so only descendants of the task running here
 * go in -- or anything while the thread sits in a barrier with no task
 * above its implicit task (the barrier runs everything that existed when
 * it released, and what is left when it ends goes below the implicit
 * task's new mark: barrier.c). */
static bool fits_own_deque(struct xomp_thread *thr, const struct xomp_task *t)
{
    struct xomp_task *cur = thr->task;
    if (t->parent == cur)
        return true;
    if ((cur->flags & XOMP_TASK_IMPLICIT) && thr->wait && !thr->wait->constraint)
        return true;
    /* Exact: t is ours (not queued yet). */
    return xomp_task_descends(t, cur);
}

void xomp_sched_put_common(struct xomp_thread *thr, struct xomp_task *t)
{
    struct xomp_notify_targets to = xomp_notify_targets_of(thr, t);
    struct xomp_team *team = t->team;
    xomp_pools_put_common(&team->pools, t);
    xomp_notify_published(thr, team, NULL, to.parent_owner, to.tg_owner);
}

static void put_prio(struct xomp_thread *thr, struct xomp_task *t)
{
    struct xomp_notify_targets to = xomp_notify_targets_of(thr, t);
    struct xomp_team *team = t->team;
    xomp_pools_put_prio(&team->pools, t, t->priority);
    xomp_notify_published(thr, team, NULL, to.parent_owner, to.tg_owner);
}

bool xomp_sched_push_new(struct xomp_thread *thr, struct xomp_task *t)
{
    if (t->priority > 0) {
        put_prio(thr, t);
        return true;
    }
    struct xomp_worker *me = thr->worker;
    struct xomp_notify_targets to = xomp_notify_targets_of(thr, t);
    /* Fewer of a large task (task_alloc.h); at least 2, so that idle
     * members still find one to take. */
    unsigned shift = xomp_task_queue_shift(t);
    int64_t large_cap = (int64_t)(xomp_cfg.queue_size >> shift);
    if (shift && xomp_deque_holds(&me->deque, large_cap > 2 ? large_cap : 2))
        return false;
    if (!xomp_deque_push_bounded(&me->deque, t) &&
        !(xomp_deque_make_room(&me->deque, xomp_cfg.queue_size) &&
          xomp_deque_push_bounded(&me->deque, t)))
        return false;
    xomp_notify_published(thr, thr->team, thr->task, to.parent_owner, to.tg_owner);
    return true;
}

void xomp_sched_push_ready(struct xomp_thread *thr, struct xomp_task *t)
{
    if (thr->team != t->team || !thr->worker) {
        xomp_sched_push_foreign(t);
        return;
    }
    if (t->priority > 0) {
        put_prio(thr, t);
        return;
    }
    if (!fits_own_deque(thr, t)) {
        xomp_sched_put_common(thr, t);
        return;
    }
    struct xomp_notify_targets to = xomp_notify_targets_of(thr, t);
    xomp_deque_push(&thr->worker->deque, t);
    xomp_notify_published(thr, thr->team, NULL, to.parent_owner, to.tg_owner);
}

void xomp_sched_give_back(struct xomp_thread *thr, struct xomp_task *t)
{
    uintptr_t home = xomp_task_home_word(t);
    if (!home) {
        xomp_sched_push_ready(thr, t);
        return;
    }
    /* A homed task that admitted us: our deque, as a thief's extra steals
     * (steal.c), and the homed announcement (its home may exclude the
     * members a plain one would wake). */
    xomp_deque_push(&thr->worker->deque, t);
    xomp_notify_homed(thr, thr->team, home, NULL, 1);
}

void xomp_sched_push_foreign(struct xomp_task *t)
{
    struct xomp_thread *thr = xomp_self();
    if (t->priority > 0)
        put_prio(thr, t);
    else
        xomp_sched_put_common(thr, t);
}

bool xomp_sched_push_homed(struct xomp_thread *thr, struct xomp_task *t)
{
    struct xomp_deque *d = &thr->worker->deque;
    return xomp_deque_push_bounded(d, t) ||
           (xomp_deque_make_room(d, xomp_cfg.queue_size) && xomp_deque_push_bounded(d, t));
}

void xomp_sched_announce_homed(struct xomp_thread *thr, uintptr_t home, struct xomp_task *anchor,
                               unsigned count)
{
    if (count)
        xomp_notify_homed(thr, thr->team, home, anchor, count);
}

void xomp_sched_give(struct xomp_thread *thr, struct xomp_task *t, unsigned v,
                     struct xomp_task *anchor)
{
    struct xomp_team *team = thr->team;
    uintptr_t home = xomp_task_home_word(t);
    xomp_inbox_put(&team->workers[v].inbox, t);
    if (home) {
        xomp_notify_homed(thr, team, home, anchor, 1);
    } else {
        /* Not homed: whoever sleeps may take it. */
        xomp_publish_fence();
        if (atomic_load_explicit(&team->sleepers, memory_order_relaxed))
            xomp_notify_wake(thr, team, anchor, NULL, NULL);
    }
}

void xomp_sched_wait_over(struct xomp_thread *thr)
{
    if (__builtin_expect(thr->worker && thr->worker->watching, 0))
        xomp_watch_stop(thr);
    /* Woken with the waking token and the wait ended before we found
     * work: the publishers that saw the token woke nobody, so the next
     * sleeper looks in our place (README, "Wake chaining"). */
    if (__builtin_expect(thr->spin.waking, 0))
        xomp_notify_pass_token(thr, thr->team);
}

/* A task found for a watcher: it hands the role over before running it. */
static inline struct xomp_task *found(struct xomp_worker *me, struct xomp_thread *thr,
                                      struct xomp_task *t)
{
    if (__builtin_expect(me->watching, 0))
        xomp_watch_stop(thr);
    return t;
}

/* A task found elsewhere than in our own deque: a member woken with the
 * waking token wakes the next sleeper with it before it runs the task
 * (which may block: README, "Wake chaining").  A holder's own deque is
 * empty (it was asleep in a barrier, where nobody pushes to it), so the
 * owner's pop, the fast path, needs no check. */
static inline struct xomp_task *found_elsewhere(struct xomp_worker *me, struct xomp_thread *thr,
                                                struct xomp_task *t)
{
    if (__builtin_expect(thr->spin.waking, 0))
        xomp_notify_pass_token(thr, thr->team);
    return found(me, thr, t);
}

struct xomp_task *xomp_sched_next(struct xomp_thread *thr, const struct xomp_sched_wait *w)
{
    struct xomp_team *team = thr->team;
    struct xomp_worker *me = thr->worker;
    struct xomp_task *t;
    struct xomp_taker tk = {w, me->map.node, (uint16_t)me->id, false, 0};
    /* relaxed, both counts: hints (pools.h). */
    if (__builtin_expect(atomic_load_explicit(&team->pools.prio_count, memory_order_relaxed) != 0,
                         0) &&
        (t = xomp_pools_take_prio(&team->pools, &tk)))
        return found_elsewhere(me, thr, t);
    if ((t = xomp_deque_pop(&me->deque, w->floor)))
        return found(me, thr, t);
    if (__builtin_expect(xomp_inbox_nonempty(&me->inbox), 0) &&
        (t = xomp_inbox_take(&me->inbox, &tk)))
        return found_elsewhere(me, thr, t);
    if (__builtin_expect(atomic_load_explicit(&team->pools.common_count, memory_order_relaxed) != 0,
                         0) &&
        (t = xomp_pools_take_common(&team->pools, &tk)))
        return found_elsewhere(me, thr, t);
    /* No task went into any deque since the team barrier released (README,
     * "Quiet phases"): no victim has one, so a poll skips the look and its
     * fence (a barrier's waiter notices its release the sooner).  It sees
     * the first publisher's clear at a later poll.  relaxed: a hint; a
     * sleeper relies on xomp_sched_has_work's look instead. */
    if (!(atomic_load_explicit(&team->sleepers, memory_order_relaxed) & XOMP_SLEEPERS_QUIET) &&
        (t = xomp_steal(thr, &tk, STEAL_VICTIMS_PER_LOOK)))
        return found_elsewhere(me, thr, t);
    if (__builtin_expect(me->watching, 0))
        xomp_watch_poll(thr, &tk);
    return NULL;
}

bool xomp_sched_has_work(struct xomp_thread *thr, const struct xomp_sched_wait *w)
{
    struct xomp_team *team = thr->team;
    struct xomp_worker *me = thr->worker;
    struct xomp_deque *own = &me->deque;
    /* acquire: thieves' CAS on top (their reads of our slots came before);
     * relaxed bottom: ours. */
    int64_t top = atomic_load_explicit(&own->top, memory_order_acquire);
    int64_t bottom = atomic_load_explicit(&own->bottom, memory_order_relaxed);
    if (bottom > (top > w->floor ? top : w->floor))
        return true;
    struct xomp_taker tk = {w, me->map.node, (uint16_t)me->id, false, 0};
    struct xomp_refusals r;
    xomp_refusals_init(&r);
    if (xomp_inbox_have(&me->inbox, &tk, &r, me->id) || xomp_pools_have(&team->pools, &tk, &r))
        return true;
    /* No task went into any deque since the barrier released: nothing to
     * look for there.  Read after our announcement and the fence; whoever
     * publishes first clears the bit with an RMW that counts us (README,
     * "Quiet phases").  acquire: pairs with that RMW's release. */
    if (atomic_load_explicit(&team->sleepers, memory_order_acquire) & XOMP_SLEEPERS_QUIET)
        return false;
    if (xomp_steal_look_everywhere(thr, &tk, &r))
        return true;
    /* Only tasks refused for their homes: stay awake if we are (or become)
     * the watcher (watch.h). */
    return r.places && xomp_watch_refused(thr, &r);
}

void xomp_sched_team_init(struct xomp_team *team)
{
    atomic_init(&team->sleepers, XOMP_SLEEPERS_QUIET); /* no task yet */
    xomp_pools_init(&team->pools);
}

void xomp_sched_team_destroy(struct xomp_team *team)
{
    xomp_pools_destroy(&team->pools);
}

void xomp_sched_plan(struct xomp_team *team)
{
    xomp_steal_plan(team);
}

void xomp_sched_member_begin(struct xomp_team *team, struct xomp_worker *me)
{
    xomp_steal_member_begin(team, me);
}
