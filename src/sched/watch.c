/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The watcher (watch.h).  Its states and the argument that no task stays
 * reachable only through blocked members: src/sched/README.md, "Homes and
 * progress".
 */
#include "watch.h"

#include "../runtime/thread.h"
#include "notify.h"
#include "pools.h"
#include "steal.h"

/* A watcher looks at the refused tasks again at one poll in this many (a
 * look reads every member's queues). */
#define WATCH_POLLS 64u
/* The yield phase of a wait (runtime/wait.c): the lapse period is never
 * shorter than a full spin and yield period. */
#define YIELD_PHASE_NS 20000u

void xomp_refusals_note(struct xomp_refusals *r, uint64_t where, uint64_t state,
                        struct xomp_home *h)
{
    r->places++;
    /* FNV-style mixing; the looks visit the queues in the same order, so
     * equal states give equal signatures. */
    r->signature = (r->signature ^ (where * UINT64_C(0x9e3779b97f4a7c15) + state)) *
                   UINT64_C(0x100000001b3);
    for (unsigned i = 0; i < r->nhomes; i++)
        if (r->homes[i] == h)
            return;
    if (r->nhomes < XOMP_REFUSALS_HOMES)
        r->homes[r->nhomes++] = h;
}

/* A home's tasks may run this many times its patience without moving. */
#define PATIENCE_FACTOR 4u

/* How long refused tasks must stay where they are before the watcher
 * lapses their homes: at least XOMP_HOME_LAPSE_MS, a spin and yield
 * period (an idle admitted member takes them within it), and a few times
 * the longest task of each home (home.h).  The spin is the budgets'
 * start (xomp_spin_start_ns), not their cap: an admitted member spinning
 * longer looks at the queues all along, and an endless spin
 * (OMP_WAIT_POLICY=active) must not make the lapse endless -- the watcher
 * exists for admitted members that are blocked, whatever they would
 * spin. */
static uint64_t lapse_period_ns(const struct xomp_refusals *r)
{
    uint64_t period = xomp_spin_start_ns() + YIELD_PHASE_NS;
    if (xomp_cfg.home_lapse_ns > period)
        period = xomp_cfg.home_lapse_ns;
    for (unsigned i = 0; i < r->nhomes; i++) {
        /* relaxed: advice (home.h). */
        uint64_t p = atomic_load_explicit(&r->homes[i]->patience_ns, memory_order_relaxed);
        if (p < UINT64_MAX / 4 / PATIENCE_FACTOR && p * PATIENCE_FACTOR > period)
            period = p * PATIENCE_FACTOR;
    }
    return period;
}

static void start_watching(struct xomp_thread *thr, const struct xomp_refusals *r)
{
    struct xomp_worker *me = thr->worker;
    me->watching = true;
    me->watch_polls = 0;
    me->watch_signature = r->signature;
    me->watch_since_ns = me->watch_seen_ns = xomp_now_ns();
    thr->spin.keep_awake = true;
    thr->stats.home_watches++;
}

static bool take_role(struct xomp_thread *thr)
{
    struct xomp_team *team = thr->team;
    uint32_t expected = 0;
    /* relaxed: the word only decides who watches; the sleep recheck that
     * calls us follows the heavy fence, the watcher's release a fence
     * (README, "Homes and progress"). */
    return atomic_load_explicit(&team->home_watcher, memory_order_relaxed) == 0 &&
           atomic_compare_exchange_strong_explicit(&team->home_watcher, &expected,
                                                   thr->worker->id + 1, memory_order_relaxed,
                                                   memory_order_relaxed);
}

/* Give the role up: home_watcher = 0, then a fence (it pairs with the
 * fence of xomp_notify_homed: either a publisher of a homed task sees 0
 * and wakes a sleeper itself, or what we read after the fence shows its
 * task). */
static void drop_role(struct xomp_thread *thr)
{
    struct xomp_worker *me = thr->worker;
    me->watching = false;
    thr->spin.keep_awake = false;
    /* relaxed: ordered by the fence. */
    atomic_store_explicit(&thr->team->home_watcher, 0, memory_order_relaxed);
    atomic_thread_fence(memory_order_seq_cst);
}

bool xomp_watch_refused(struct xomp_thread *thr, const struct xomp_refusals *r)
{
    if (thr->worker->watching)
        return true;
    if (!take_role(thr))
        return false; /* another member watches: sleep */
    start_watching(thr, r);
    return true;
}

/* Everything the watcher may take or is refused (the pools, every other
 * member's inbox and deque): true when it found a task it may take. */
static bool look(struct xomp_thread *thr, struct xomp_taker *tk, struct xomp_refusals *r)
{
    struct xomp_worker *me = thr->worker;
    xomp_refusals_init(r);
    return xomp_inbox_have(&me->inbox, tk, r, me->id) ||
           xomp_pools_have(&thr->team->pools, tk, r) || xomp_steal_look_everywhere(thr, tk, r);
}

void xomp_watch_poll(struct xomp_thread *thr, struct xomp_taker *tk)
{
    struct xomp_worker *me = thr->worker;
    if (++me->watch_polls % WATCH_POLLS)
        return;
    struct xomp_refusals r;
    if (look(thr, tk, &r))
        return; /* the next poll takes it (and hands the role over) */
    uint64_t now = xomp_now_ns();
    if (!r.places) {
        /* Nothing refused is left.  Watch on for a spin budget (homed
         * tasks come in runs, a taskloop after a taskloop: a watcher that
         * slept would be woken for each); then stop, and look once more
         * after the fence, for a homed task whose publisher still saw us. */
        if (now - me->watch_seen_ns < thr->spin.budget_ns)
            return;
        drop_role(thr);
        if ((look(thr, tk, &r) || r.places) && take_role(thr))
            start_watching(thr, &r);
        return;
    }
    me->watch_seen_ns = now;
    if (r.signature != me->watch_signature) {
        me->watch_signature = r.signature; /* they moved: their members are taking them */
        me->watch_since_ns = now;
        return;
    }
    if (now - me->watch_since_ns < lapse_period_ns(&r))
        return;
    /* Nothing moved for a whole lapse period: their members may all be
     * blocked.  Lift the restriction and wake everybody. */
    for (unsigned i = 0; i < r.nhomes; i++) {
        /* relaxed: ordered before the sleepers' loads by the fence below,
         * and read by thieves as a hint (home.h). */
        atomic_store_explicit(&r.homes[i]->lapsed, 1, memory_order_relaxed);
        thr->stats.home_lapses++;
    }
    /* seq_cst fence: the lapses before our loads of the sleep words
     * (sleepers issue the heavy fence before their recheck). */
    atomic_thread_fence(memory_order_seq_cst);
    xomp_notify_wake_all(thr, thr->team);
    me->watch_since_ns = now;
}

void xomp_watch_stop(struct xomp_thread *thr)
{
    drop_role(thr);
    /* relaxed: ordered by drop_role's fence.  Members asleep may rely on
     * us for tasks refused to them: one of them wakes and looks (and
     * watches, if they are still there). */
    if (atomic_load_explicit(&thr->team->sleepers, memory_order_relaxed))
        xomp_notify_wake_any(thr, thr->team);
}
