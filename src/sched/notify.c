/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "notify.h"

#include "../runtime/thread.h"

#include "home.h"
#include "lineage.h"

#include <sched.h>

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
 * it was counted out already.  With `token` (a free sleeper only) the
 * claim hands it the team's waking token too (its offer becomes
 * XOMP_OFFER_TOKEN, which it reads when it wakes). */
static bool claim(struct xomp_thread *thr, struct xomp_team *team, struct xomp_waker *vw,
                  uint32_t kind, struct xomp_task *anchor, bool token)
{
    /* relaxed: a filter; the CAS below decides. */
    uint32_t offered = atomic_load_explicit(&vw->offer, memory_order_relaxed);
    if (kind == OFFER_ANY) {
        /* Not asleep (0: claiming it would count out a sleeper that was
         * never counted in, a borrow into WAKING and QUIET), or claimed
         * already (with the token or not). */
        if (offered != XOMP_OFFER_FREE && offered != XOMP_OFFER_CONSTRAINED)
            return false;
        kind = offered;
    }
    if (offered != kind)
        return false; /* none, another kind, or claimed with the token */
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
    /* acquire on success: pairs with the sleeper's release store of its
     * offer, made after its increment of the sleepers word (wait.c), so
     * that our decrement below comes after that increment in the word's
     * modification order.  The wake itself (xomp_wake) is safe at any
     * time, and the sleeper re-checks everything when it wakes. */
    if (!atomic_compare_exchange_strong_explicit(&vw->offer, &expected,
                                                 token ? XOMP_OFFER_TOKEN : 0u,
                                                 memory_order_acquire, memory_order_relaxed))
        return false;
    /* relaxed: the count is only read to decide whether to look for a
     * sleeper; the RMWs on the word are totally ordered. */
    atomic_fetch_sub_explicit(&team->sleepers,
                              kind == XOMP_OFFER_FREE ? XOMP_SLEEPERS_FREE
                                                      : XOMP_SLEEPERS_CONSTRAINED,
                              memory_order_relaxed);
    thr->stats.wakes++;
    xomp_wake(vw);
    return true;
}

/* Wake one sleeping member of `kind` (scanning from the one after us)
 * that home word `home` admits (0: anyone), handing it the waking token
 * with `token`. */
static bool wake_one_admitted(struct xomp_thread *thr, struct xomp_team *team, uint32_t kind,
                              struct xomp_task *anchor, uintptr_t home, bool token)
{
    unsigned n = team->nthreads, me = thr->team == team ? thr->team_id : 0;
    for (unsigned i = 1; i <= n; i++) {
        unsigned v = me + i < n ? me + i : me + i - n;
        struct xomp_thread *vt = team->workers[v].thread;
        if (vt != thr && xomp_home_admits(home, team->member_map[v].node, v) &&
            claim(thr, team, &vt->waker, kind, anchor, token))
            return true;
    }
    return false;
}

static void wake_one(struct xomp_thread *thr, struct xomp_team *team, uint32_t kind,
                     struct xomp_task *anchor)
{
    wake_one_admitted(thr, team, kind, anchor, 0, false);
}

/* ---- the waking token (src/sched/README.md, "Wake chaining") ---- */

/* Passes between two tries of the hand-over before yielding the CPU (a
 * sleeper counted in but not offered yet may have lost its CPU). */
#define PASS_SPINS_PER_YIELD 16u

void xomp_notify_pass_token(struct xomp_thread *thr, struct xomp_team *team)
{
    thr->spin.waking = false;
    for (unsigned tries = 1;; tries++) {
        /* relaxed: the CAS below decides; the claim's acquire CAS orders
         * what the scan needs. */
        uint64_t s = atomic_load_explicit(&team->sleepers, memory_order_relaxed);
        /* Nobody asleep in a barrier: give the token up.  acq_rel: the
         * RMW orders itself among the announcements in the word's
         * modification order (a sleeper counted in after it looks
         * everywhere itself before sleeping); release, acquire: the
         * publishers' reads of the word (xomp_notify_wake) see the token
         * gone together with what we did before.  A failed CAS reads the
         * latest value (relaxed). */
        while (!(s & XOMP_SLEEPERS_FREE_MASK))
            if (atomic_compare_exchange_weak_explicit(&team->sleepers, &s,
                                                      s - XOMP_SLEEPERS_WAKING,
                                                      memory_order_acq_rel, memory_order_relaxed))
                return;
        if (wake_one_admitted(thr, team, XOMP_OFFER_FREE, NULL, 0, true))
            return; /* the sleeper we claimed holds it now */
        /* Counted in, not offered yet (wait.c), or claimed by someone whose
         * decrement is on its way: look again. */
        if (tries % PASS_SPINS_PER_YIELD == 0)
            sched_yield();
        else
            xomp_cpu_relax();
    }
}

/* A publisher saw free sleepers and no token (`seen`): take the token and
 * wake one of them with it, unless someone else took it first. */
static void start_chain(struct xomp_thread *thr, struct xomp_team *team, uint64_t seen)
{
    /* acq_rel: acquire, the offers of the sleepers counted (as the load in
     * xomp_notify_wake); release, for the holder's hand-over that reads it.
     * A failed CAS reads the latest value, our new decision. */
    while (!atomic_compare_exchange_weak_explicit(&team->sleepers, &seen,
                                                  seen | XOMP_SLEEPERS_WAKING,
                                                  memory_order_acq_rel, memory_order_acquire))
        if (!(seen & XOMP_SLEEPERS_FREE_MASK) || (seen & XOMP_SLEEPERS_WAKING))
            return; /* nobody to wake, or a woken member is looking */
    xomp_notify_pass_token(thr, team);
}

bool xomp_notify_wake_any(struct xomp_thread *thr, struct xomp_team *team)
{
    return wake_one_admitted(thr, team, OFFER_ANY, NULL, 0, false);
}

void xomp_notify_wake_all(struct xomp_thread *thr, struct xomp_team *team)
{
    unsigned n = team->nthreads;
    for (unsigned v = 0; v < n; v++) {
        struct xomp_thread *vt = team->workers[v].thread;
        if (vt != thr)
            claim(thr, team, &vt->waker, OFFER_ANY, NULL, false);
    }
}

/* The first task published since the barrier released: the phase is
 * quiet no more.  Returns the value the clearing RMW read, QUIET off: the
 * latest count, in which a sleeper that saw QUIET after its announcement
 * (and so did not look in the deques, or skipped the process-wide
 * barrier) is counted (src/sched/README.md, "Quiet phases"). */
static uint64_t end_quiet_phase(struct xomp_team *team)
{
    /* acq_rel: acquire, pairs with the sleepers' announcing RMWs (their
     * waiting_in); release, so that a sleeper whose RMW reads ours sees
     * our task. */
    uint64_t s = atomic_fetch_and_explicit(&team->sleepers, ~XOMP_SLEEPERS_QUIET,
                                           memory_order_acq_rel);
    /* seq_cst fence: a sleeper that saw QUIET after its seq_cst fence
     * offered itself before that fence (wait.c), and its fence precedes
     * this one: the scans that follow see its offer. */
    atomic_thread_fence(memory_order_seq_cst);
    return s & ~XOMP_SLEEPERS_QUIET;
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
        sleepers = end_quiet_phase(team);
    if (!(sleepers & (XOMP_SLEEPERS_FREE_MASK | XOMP_SLEEPERS_CONSTRAINED_MASK)))
        return;
    /* Homed tasks wake their admitted sleepers directly, token or not:
     * only those may take them. */
    unsigned woken = 0;
    while (woken < count && (sleepers & XOMP_SLEEPERS_FREE_MASK) &&
           wake_one_admitted(thr, team, XOMP_OFFER_FREE, NULL, home, false))
        woken++;
    while (woken < count && (sleepers & XOMP_SLEEPERS_CONSTRAINED_MASK) && anchor &&
           wake_one_admitted(thr, team, XOMP_OFFER_CONSTRAINED, anchor, home, false))
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
        sleepers = end_quiet_phase(team);
    if (sleepers & XOMP_SLEEPERS_FREE_MASK) {
        /* One woken member looks at a time; it wakes the next when it
         * finds work (src/sched/README.md, "Wake chaining"). */
        if (!(sleepers & XOMP_SLEEPERS_WAKING))
            start_chain(thr, team, sleepers);
    } else if ((sleepers & XOMP_SLEEPERS_CONSTRAINED_MASK) && anchor &&
               ++thr->constrained_wake_tries % CONSTRAINED_WAKE_EVERY == 0) {
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
