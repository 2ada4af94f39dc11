/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Lock-less load balancing by request/round messages (see dlb.h and
 * src/sched/README.md, "Load balancing").
 */
#include "dlb.h"

#include "../runtime/thread.h"
#include "../topo/numa.h"
#include "xqueue.h"

/* Publish the member's new round: every request written before carries an
 * older round and is thereby answered (refused or served). */
static void advance_round(struct xomp_worker *me)
{
    me->dlb_round++;
    /* relaxed: thieves only compare rounds; nothing is published with it. */
    atomic_store_explicit(&me->dlb.round, me->dlb_round, memory_order_relaxed);
}

void xomp_dlb_begin(struct xomp_team *team, struct xomp_worker *me)
{
    (void)team;
    me->dlb_redirect = -1;
    me->dlb_redirect_left = 0;
    me->dlb_countdown = 0;
    if (!me->dlb_random)
        me->dlb_random = 0x9e3779b97f4a7c15ULL * (me->id + 1);
    /* Rounds only grow, also across regions: a request from an earlier
     * region carries an older round and is never mistaken for a new one. */
    advance_round(me);
}

/* Work stealing: move up to XOMP_DLB_STEAL of our oldest own tasks into the
 * thief's ring.  Our own deque is ours alone, so taking from its far end
 * needs no synchronization; the ring [thief][me] has us as its only
 * producer.  Returns how many moved. */
static unsigned give_oldest(struct xomp_team *team, struct xomp_worker *me, unsigned thief)
{
    struct xomp_stats *st = &me->thread->stats;
    unsigned moved = 0;
    while (moved < xomp_cfg.dlb_steal) {
        struct xomp_task *t = xomp_self_take_oldest(team, me);
        if (!t) {
            if (!moved)
                st->req_src_empty++;
            break;
        }
        if (!xomp_ring_push(team, me, thief, t)) {
            xomp_self_untake(team, me, t); /* the thief's ring is full */
            st->req_target_full++;
            break;
        }
        moved++;
    }
    if (moved)
        st->req_with_steal++;
    st->tasks_stolen += moved;
    if (moved && xomp_numa_multi && xomp_members_cross_nodes(team, me->id, thief))
        st->stolen_other_node += moved;
    return moved;
}

void xomp_dlb_serve(struct xomp_team *team, struct xomp_worker *me)
{
    if (me->dlb_redirect >= 0)
        return; /* still redirecting for the previous request */
    me->thread->stats.req_handled++;
    uint64_t req = atomic_load_explicit(&me->dlb.request, memory_order_relaxed);
    unsigned thief = (unsigned)(req >> XOMP_DLB_ROUND_BITS);
    if (thief >= team->nthreads || thief == me->id) {
        advance_round(me); /* not a member of this region: refuse */
        return;
    }
    if (xomp_cfg.dlb == XOMP_DLB_RP) {
        /* Our next tasks go to the thief (place_task); the round advances
         * when they have gone (xomp_dlb_redirected). */
        me->dlb_redirect = (int)thief;
        me->dlb_redirect_left = xomp_cfg.dlb_steal;
        me->thread->stats.req_with_steal++;
        XOMP_PROF_INSTANT(me->thread, XOMP_EV_STEAL_SERVE, thief,
                          XOMP_EV_SERVE_REDIRECT | xomp_cfg.dlb_steal);
        return;
    }
    unsigned moved = give_oldest(team, me, thief);
    XOMP_PROF_INSTANT(me->thread, XOMP_EV_STEAL_SERVE, thief, moved);
    if (moved)
        xomp_wake_if_sleeping(&team->workers[thief].thread->waker);
    advance_round(me); /* served, or refused for lack of tasks */
}

void xomp_dlb_redirected(struct xomp_worker *me, bool ring_full)
{
    struct xomp_stats *st = &me->thread->stats;
    if (ring_full) {
        st->req_target_full++;
    } else {
        st->tasks_stolen++;
        if (xomp_numa_multi &&
            xomp_members_cross_nodes(me->team, me->id, (unsigned)me->dlb_redirect))
            st->stolen_other_node++;
    }
    if (ring_full || --me->dlb_redirect_left == 0) {
        me->dlb_redirect = -1;
        advance_round(me);
    }
}

void xomp_dlb_wake_thief(struct xomp_team *team, struct xomp_worker *me)
{
    unsigned n = team->nthreads;
    if (xomp_cfg.dlb == XOMP_DLB_NONE)
        return;
    for (unsigned i = 1; i < n; i++) {
        unsigned v = me->id + i < n ? me->id + i : me->id + i - n;
        struct xomp_waker *vw = &team->workers[v].thread->waker;
        /* Claim the sleeper's wake-up (one creator per sleep, so creators
         * that keep spawning do not each pay a futex call while it gets
         * up) and count it out.  relaxed: advice (wait.c); waking a thread
         * that is not asleep any more only costs it a recheck. */
        uint32_t one = 1;
        if (atomic_load_explicit(&vw->offer, memory_order_relaxed) &&
            atomic_compare_exchange_strong_explicit(&vw->offer, &one, 0, memory_order_relaxed,
                                                    memory_order_relaxed)) {
            atomic_fetch_sub_explicit(&team->idle_sleepers, 1, memory_order_relaxed);
            xomp_wake(vw);
            return;
        }
    }
}

void xomp_dlb_idle(struct xomp_team *team, struct xomp_worker *me)
{
    unsigned n = team->nthreads;
    if (xomp_cfg.dlb == XOMP_DLB_NONE || n == 1)
        return;
    if (me->dlb_countdown) {
        me->dlb_countdown--;
        return;
    }
    me->dlb_countdown = xomp_cfg.dlb_interval;
    for (unsigned k = 0; k < xomp_cfg.dlb_victims; k++) {
        /* xorshift64: a different victim each time, never ourselves. */
        uint64_t x = me->dlb_random;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        me->dlb_random = x;
        unsigned v = (unsigned)(x % (n - 1));
        if (v >= me->id)
            v++;
        struct xomp_worker *vw = &team->workers[v];
        /* relaxed: a request carries no data.  Write only when the victim
         * holds no valid request (its cell's round is behind its round);
         * racing thieves overwrite each other and the loser retries after
         * its interval. */
        uint64_t round = atomic_load_explicit(&vw->dlb.round, memory_order_relaxed);
        uint64_t req = atomic_load_explicit(&vw->dlb.request, memory_order_relaxed);
        if ((req & XOMP_DLB_ROUND_MASK) < round) {
            atomic_store_explicit(&vw->dlb.request,
                                  round | ((uint64_t)me->id << XOMP_DLB_ROUND_BITS),
                                  memory_order_relaxed);
            me->thread->stats.req_sent++;
            XOMP_PROF_INSTANT(me->thread, XOMP_EV_STEAL_REQUEST, v, 0);
        }
    }
}
