/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Task publication: after a task becomes visible in a queue, wake whoever
 * must learn of it if they sleep.  Three kinds of sleeper can need a task:
 *
 *   - a member asleep in a barrier (free to run any task): the publisher
 *     wakes one of them when the team's sleepers word counts one and no
 *     member woken that way is still looking (the waking token), claiming
 *     its wake-up (its waker's `offer`) so that each sleeper is woken
 *     once; the woken member wakes the next when it finds work
 *     (src/sched/README.md, "Wake chaining");
 *   - failing that, a member asleep in a taskwait (or another wait under
 *     the tied-task constraint) whose waiting task the publisher's running
 *     task descends from, so that it can take the new work (for speed
 *     only: its progress never depends on this wake);
 *   - the thread of the task's parent, asleep in a wait that may run the
 *     task (taskwait, taskgroup end, ...): woken when the publisher is
 *     another thread;
 *   - the thread that waits for the end of the task's taskgroup: likewise.
 *
 * The publisher does not fence (a task spawn must stay cheap): it orders
 * its publishing store before its loads of the sleep flags with a compiler
 * barrier, and sleepers issue a process-wide memory barrier before their
 * recheck (wait.h, xomp_heavy_fence).  Either the sleeper's recheck sees
 * the task, or the publisher sees the sleeper.  The argument is in
 * src/sched/README.md ("Task publication").
 */
#ifndef XOMP_NOTIFY_H
#define XOMP_NOTIFY_H

#include "../runtime/team.h"
#include "../runtime/wait.h"

#include <stdatomic.h>

struct xomp_thread;

/* A task was just published by `thr` in `team`.  parent_owner and
 * tg_owner are the wakers of the threads running its parent and owning
 * its taskgroup, when they are not `thr` (else NULL), and `anchor` a task
 * the published one descends from that stays alive during the call (the
 * publisher's own running task, when it published a child; else NULL):
 * all read before the task was published, for afterwards it may already
 * have run, and its parent and taskgroup been freed. */
void xomp_notify_wake(struct xomp_thread *thr, struct xomp_team *team, struct xomp_task *anchor,
                      struct xomp_waker *parent_owner, struct xomp_waker *tg_owner);

/* parent_owner and tg_owner of a task `thr` is about to publish. */
struct xomp_notify_targets {
    struct xomp_waker *parent_owner, *tg_owner;
};
struct xomp_notify_targets xomp_notify_targets_of(struct xomp_thread *thr,
                                                  const struct xomp_task *t);

/* `count` tasks with the same home (home.h), whose home word was `home`
 * before they were published: wake up to `count` sleepers the home admits
 * (barrier sleepers, else constrained ones that `anchor` descends from);
 * if there is none and no member watches (watch.h), any sleeper, which
 * will watch.  A real fence orders the publications before the loads (the
 * watcher's release pairs with it; sleepers issue the heavy fence anyway).
 * `anchor` must stay alive during the call (the creator's task of a
 * taskloop). */
void xomp_notify_homed(struct xomp_thread *thr, struct xomp_team *team, uintptr_t home,
                       struct xomp_task *anchor, unsigned count);

/* The waking token (src/sched/README.md, "Wake chaining"): its holder
 * `thr` (a member woken with it that found work or whose wait ends, or a
 * publisher that just took it) wakes the next free sleeper with it, or,
 * when none sleeps, gives it up. */
void xomp_notify_pass_token(struct xomp_thread *thr, struct xomp_team *team);

/* Wake one sleeper of the team, of either kind (the watcher's hand-over),
 * or every sleeper (a lapse).  Returns whether one was woken. */
bool xomp_notify_wake_any(struct xomp_thread *thr, struct xomp_team *team);
void xomp_notify_wake_all(struct xomp_thread *thr, struct xomp_team *team);

static inline bool xomp_notify_sleeps(const struct xomp_waker *w)
{
    /* relaxed: ordered after the publishing store by the fence pair
     * (above). */
    return w && atomic_load_explicit(&w->sleeping, memory_order_relaxed);
}

static inline void xomp_notify_published(struct xomp_thread *thr, struct xomp_team *team,
                                         struct xomp_task *anchor,
                                         struct xomp_waker *parent_owner,
                                         struct xomp_waker *tg_owner)
{
    xomp_publish_fence();
    /* relaxed: as in xomp_notify_sleeps. */
    if (__builtin_expect(atomic_load_explicit(&team->sleepers, memory_order_relaxed) != 0, 0) ||
        __builtin_expect(xomp_notify_sleeps(parent_owner) || xomp_notify_sleeps(tg_owner), 0))
        xomp_notify_wake(thr, team, anchor, parent_owner, tg_owner);
}

#endif
