/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "notify.h"

#include "../runtime/thread.h"

#include "home.h"
#include "lineage.h"

/* A publisher looks for a constrained sleeper to wake at one publication
 * in this many (a power of two). */
#define CONSTRAINED_WAKE_EVERY 16u

/* Any kind of sleeper (claim's `kind` argument). */
#define OFFER_ANY 0u

/* Claim sleeper v's wake-up if it is offered as `kind` (and, for a
 * constrained sleeper, if `anchor` descends from the task it waits in;
 * OFFER_ANY: whatever it is offered as, without that test);
 * then count it out and wake it.  Claiming means two publishers never
 * both wake it, and the sleeper, when it wakes for its own reasons, knows
 * it was counted out already. */
static bool claim(struct xomp_thread *thr, struct xomp_team *team, struct xomp_waker *vw,
                  uint32_t kind, struct xomp_task *anchor)
{
    /* relaxed, all: the claim only decides who counts the sleeper out; the
     * wake itself (xomp_wake) is safe at any time, and the sleeper
     * re-checks everything when it wakes. */
    uint32_t offered = atomic_load_explicit(&vw->offer, memory_order_relaxed);
    if (kind == OFFER_ANY && offered)
        kind = offered;
    if (offered != kind)
        return false;
    if (kind == XOMP_OFFER_CONSTRAINED && anchor) {
        /* A stale waiting_in (the sleeper woke and moved on) only makes
         * a useless wake or a missed one: speed, not progress. */
        /* acquire: pairs with the sleeper's release store (wait.c), so
         * that the task block we read was initialized before. */
        struct xomp_task *w = atomic_load_explicit(&vw->waiting_in, memory_order_acquire);
        if (!w || (anchor != w && !xomp_task_descends(anchor, w)))
            return false;
    }
    uint32_t expected = kind;
    if (!atomic_compare_exchange_strong_explicit(&vw->offer, &expected, 0, memory_order_relaxed,
                                                 memory_order_relaxed))
        return false;
    atomic_fetch_sub_explicit(&team->sleepers,
                              kind == XOMP_OFFER_FREE ? XOMP_SLEEPERS_FREE
                                                      : XOMP_SLEEPERS_CONSTRAINED,
                              memory_order_relaxed);
    thr->stats.wakes++;
    xomp_wake(vw);
    return true;
}

/* Wake one sleeping member of `kind` (scanning from the one after us)
 * that home word `home` admits (0: anyone). */
static bool wake_one_admitted(struct xomp_thread *thr, struct xomp_team *team, uint32_t kind,
                              struct xomp_task *anchor, uintptr_t home)
{
    unsigned n = team->nthreads, me = thr->team == team ? thr->team_id : 0;
    for (unsigned i = 1; i <= n; i++) {
        unsigned v = me + i < n ? me + i : me + i - n;
        struct xomp_thread *vt = team->workers[v].thread;
        if (vt != thr && xomp_home_admits(home, team->member_map[v].node, v) &&
            claim(thr, team, &vt->waker, kind, anchor))
            return true;
    }
    return false;
}

static void wake_one(struct xomp_thread *thr, struct xomp_team *team, uint32_t kind,
                     struct xomp_task *anchor)
{
    wake_one_admitted(thr, team, kind, anchor, 0);
}

bool xomp_notify_wake_any(struct xomp_thread *thr, struct xomp_team *team)
{
    return wake_one_admitted(thr, team, OFFER_ANY, NULL, 0);
}

void xomp_notify_wake_all(struct xomp_thread *thr, struct xomp_team *team)
{
    unsigned n = team->nthreads;
    for (unsigned v = 0; v < n; v++) {
        struct xomp_thread *vt = team->workers[v].thread;
        if (vt != thr)
            claim(thr, team, &vt->waker, OFFER_ANY, NULL);
    }
}

void xomp_notify_homed(struct xomp_thread *thr, struct xomp_team *team, uintptr_t home,
                       struct xomp_task *anchor, unsigned count)
{
    /* seq_cst fence: the publication before the loads below, against the
     * watcher's store of home_watcher = 0 and its fence before it looks
     * again (watch.c). */
    atomic_thread_fence(memory_order_seq_cst);
    /* relaxed, both: ordered by the fence. */
    uint64_t sleepers = atomic_load_explicit(&team->sleepers, memory_order_relaxed);
    if (sleepers & XOMP_SLEEPERS_QUIET)
        /* The phase is quiet no more, as in xomp_notify_wake: the RMW
         * counts every sleeper that saw QUIET and so did not look in the
         * deques ("Quiet phases").  acq_rel: as there. */
        sleepers = atomic_fetch_and_explicit(&team->sleepers, ~XOMP_SLEEPERS_QUIET,
                                             memory_order_acq_rel);
    sleepers &= ~XOMP_SLEEPERS_QUIET;
    if (!sleepers)
        return;
    unsigned woken = 0;
    while (woken < count && (sleepers & (XOMP_SLEEPERS_CONSTRAINED - 1)) &&
           wake_one_admitted(thr, team, XOMP_OFFER_FREE, NULL, home))
        woken++;
    while (woken < count && sleepers >= XOMP_SLEEPERS_CONSTRAINED && anchor &&
           wake_one_admitted(thr, team, XOMP_OFFER_CONSTRAINED, anchor, home))
        woken++;
    if (!woken && !atomic_load_explicit(&team->home_watcher, memory_order_relaxed))
        xomp_notify_wake_any(thr, team);
}

struct xomp_notify_targets xomp_notify_targets_of(struct xomp_thread *thr,
                                                  const struct xomp_task *t)
{
    struct xomp_thread *po = t->parent ? t->parent->owner : NULL;
    struct xomp_taskgroup *tg = t->taskgroup;
    struct xomp_thread *go = tg ? tg->owner : NULL;
    return (struct xomp_notify_targets){po && po != thr ? &po->waker : NULL,
                                        go && go != thr ? &go->waker : NULL};
}

void xomp_notify_wake(struct xomp_thread *thr, struct xomp_team *team, struct xomp_task *anchor,
                      struct xomp_waker *parent_owner, struct xomp_waker *tg_owner)
{
    /* acquire: pairs with the sleepers' release RMW (wait.c), so that the
     * offer of a sleeper this value counts is visible to claim(). */
    uint64_t sleepers = atomic_load_explicit(&team->sleepers, memory_order_acquire);
    if (sleepers & XOMP_SLEEPERS_QUIET)
        /* The first task published since the barrier released: the phase
         * is quiet no more.  The RMW reads the latest count: a sleeper
         * that saw QUIET after its announcement (and so did not look in
         * the deques, or skipped the process-wide barrier) is counted in
         * it (src/sched/README.md, "Quiet phases").  acq_rel: acquire as
         * the load above; release, so that a sleeper whose RMW reads ours
         * sees our task. */
        sleepers = atomic_fetch_and_explicit(&team->sleepers, ~XOMP_SLEEPERS_QUIET,
                                             memory_order_acq_rel);
    sleepers &= ~XOMP_SLEEPERS_QUIET;
    if (sleepers & (XOMP_SLEEPERS_CONSTRAINED - 1)) {
        wake_one(thr, team, XOMP_OFFER_FREE, NULL);
    } else if (sleepers && anchor && ++thr->constrained_wake_tries % CONSTRAINED_WAKE_EVERY == 0) {
        /* Only every so many publications: the look walks parent chains,
         * and a constrained sleeper's progress never depends on it. */
        wake_one(thr, team, XOMP_OFFER_CONSTRAINED, anchor);
    }
    if (xomp_notify_sleeps(parent_owner)) {
        thr->stats.wakes++;
        xomp_wake(parent_owner);
    }
    if (tg_owner != parent_owner && xomp_notify_sleeps(tg_owner)) {
        thr->stats.wakes++;
        xomp_wake(tg_owner);
    }
}
