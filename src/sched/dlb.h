/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Dynamic load balancing by lock-less messages (the seed's request/round
 * cells): an idle member (thief) writes a request into a victim's request
 * cell; the victim, at its next scheduling point, sends it work through the
 * ring it owns as producer into the thief (or, for `wait`, through the
 * thief's stolen cell), and advances its round, which answers the request.
 * No lock, no read-modify-write; a request that is overwritten or stale
 * only costs time, never a task.
 *
 * Strategies (XOMP_DLB):
 *   none       no messages (tasks stay where placement put them);
 *   ws         NA-WS: the victim moves up to XOMP_DLB_STEAL of its queued
 *              tasks (oldest first) into the thief's ring;
 *   rp         NA-RP: the victim's next XOMP_DLB_STEAL new tasks go to the
 *              thief's ring instead of its own deque;
 *   wait       X-OpenMP wait-based stealing: the thief waits (bounded,
 *              adaptive) for one task handed over in its stolen cell;
 *   waitfree1, X-OpenMP wait-free stealing: the thief does not wait; the
 *   waitfree2  victim sends 1 (2) tasks into the thief's ring, the new task
 *              first when it is creating one.
 * Victims are chosen at random, in the thief's NUMA node with probability
 * XOMP_DLB_PLOCAL (topo/numa.h).  Protocol, states and the argument that no
 * task is lost: src/sched/README.md ("Load balancing").
 */
#ifndef XOMP_DLB_H
#define XOMP_DLB_H

#include "../prof/stats.h"
#include "../runtime/config.h"
#include "../runtime/team.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct xomp_thread;

#define XOMP_DLB_ROUND_BITS 40
#define XOMP_DLB_ROUND_MASK ((UINT64_C(1) << XOMP_DLB_ROUND_BITS) - 1)

/* Rounds are 40-bit serial numbers: they advance modulo 2^40 and skip 0,
 * which a request cell holds when it has no request.  The round after
 * `round`: */
static inline uint64_t xomp_dlb_round_next(uint64_t round)
{
    uint64_t next = (round + 1) & XOMP_DLB_ROUND_MASK;
    return next ? next : 1;
}

/* Rounds are ordered only when less than 2^39 apart (serial-number
 * arithmetic): `a` is after `b` when (a - b) mod 2^40 lies in (0, 2^39).
 * Why every comparison sees rounds that close, and what a misjudged one
 * costs when it does not (only time): src/sched/README.md, "Rounds". */
static inline bool xomp_dlb_round_after(uint64_t a, uint64_t b)
{
    uint64_t ahead = (a - b) & XOMP_DLB_ROUND_MASK;
    return ahead != 0 && ahead < (UINT64_C(1) << (XOMP_DLB_ROUND_BITS - 1));
}

/* Where a victim serves a request: having just queued a new task (a
 * wait-free victim then sends its newest task), or taking one to run. */
enum xomp_dlb_site { XOMP_DLB_AT_SPAWN, XOMP_DLB_AT_POP };

/* The victim side, called at scheduling points: serve a valid request. */
void xomp_dlb_serve(struct xomp_team *team, struct xomp_worker *me, enum xomp_dlb_site site);

/* Cheap check first: only a request carrying the member's current round is
 * valid (relaxed: xomp_dlb_serve reads it again with acquire before acting
 * on it). */
static inline void xomp_dlb_poll(struct xomp_team *team, struct xomp_worker *me,
                                 enum xomp_dlb_site site)
{
    uint64_t req = atomic_load_explicit(&me->dlb.request, memory_order_relaxed);
    if (__builtin_expect((req & XOMP_DLB_ROUND_MASK) == me->dlb_round, 0))
        xomp_dlb_serve(team, me, site);
}

/* A member sleeps in a wait that runs tasks while we queue work in our own
 * deque: wake one, so that it asks us for some (a sleeping thief sends no
 * requests).  Best effort: a sleeper counted in after the check stays
 * asleep, and the work is run by us, by the next offer's wake-up, or by the
 * sleeper when its nap runs out (below). */
void xomp_dlb_wake_thief(struct xomp_team *team, struct xomp_worker *me);

static inline void xomp_dlb_offer(struct xomp_team *team, struct xomp_worker *me)
{
    /* relaxed: advice only (see above). */
    if (__builtin_expect(atomic_load_explicit(&team->idle_sleepers, memory_order_relaxed) != 0, 0))
        xomp_dlb_wake_thief(team, me);
}

/* After queuing a new task in our own deque (the spawn fast path): serve a
 * request, then offer work to a sleeper.  Both checks stay inline (a load
 * and a branch each, as xomp_dlb_poll and xomp_dlb_offer); the rare work is
 * one out-of-line call, so the caller can tail-call it and needs no stack
 * frame for it. */
void xomp_dlb_after_queue_slow(struct xomp_team *team, struct xomp_worker *me);

static inline void xomp_dlb_after_queue(struct xomp_team *team, struct xomp_worker *me)
{
    /* relaxed: as in xomp_dlb_poll and xomp_dlb_offer. */
    uint64_t req = atomic_load_explicit(&me->dlb.request, memory_order_relaxed);
    if (__builtin_expect((req & XOMP_DLB_ROUND_MASK) == me->dlb_round, 0) ||
        __builtin_expect(atomic_load_explicit(&team->idle_sleepers, memory_order_relaxed) != 0, 0))
        xomp_dlb_after_queue_slow(team, me);
}

/* A thief asks for work only while awake; woken by victims that have work
 * to spare only when one of its requests was served, or by a creator's
 * offer, it also wakes by itself: an idle member of a balancing team sleeps
 * at most this long at first (growing to 32 times as long while nothing
 * happens), so that work created by a member nobody asked is found even
 * when no offer reached it.  0: sleep until woken. */
#define XOMP_DLB_NAP_NS 100000u

static inline uint64_t xomp_dlb_nap_ns(const struct xomp_team *team)
{
    return xomp_cfg.dlb != XOMP_DLB_NONE && team->nthreads > 1 ? XOMP_DLB_NAP_NS : 0;
}

/* The member found a task to run: serve requests, and a later idle spell
 * asks for work at once. */
static inline void xomp_dlb_busy(struct xomp_team *team, struct xomp_worker *me)
{
    me->dlb_countdown = 0;
    xomp_dlb_poll(team, me, XOMP_DLB_AT_POP);
}

/* Redirect push (rp): send the new task `t` to the thief being
 * served.  Returns false, ending the redirect, when the thief's ring is
 * full; the caller then places the task as usual. */
bool xomp_dlb_redirect(struct xomp_team *team, struct xomp_worker *me, struct xomp_task *t);

/* The thief side, called by a member that found no task: answer requests,
 * and ask for work now and then.  Returns a task handed over to it at once
 * (wait), or NULL. */
struct xomp_task *xomp_dlb_idle(struct xomp_team *team, struct xomp_worker *me);

/* wait: the task a victim handed over in our stolen cell, or NULL. */
struct xomp_task *xomp_dlb_take_stolen(struct xomp_worker *me);

static inline struct xomp_task *xomp_dlb_stolen(struct xomp_worker *me)
{
    /* relaxed: a hint; xomp_dlb_take_stolen reads it with acquire. */
    if (__builtin_expect(atomic_load_explicit(&me->dlb.stolen, memory_order_relaxed) != NULL, 0))
        return xomp_dlb_take_stolen(me);
    return NULL;
}

/* Something for an idle member to do: a task in its stolen cell, or (wait)
 * another member's request to answer.  Part of the sleep recheck. */
bool xomp_dlb_has_work(struct xomp_worker *me);

/* A new worker: its rounds start at XOMP_DLB_ROUND_START (1 by default;
 * tests start them just below the wrap), the first region's begin moving
 * it there. */
void xomp_dlb_init(struct xomp_worker *w);
/* Region start: the master maps members to NUMA nodes (every region). */
void xomp_dlb_plan(struct xomp_team *team);
/* Member start: its node, fresh cells for the region. */
void xomp_dlb_begin(struct xomp_team *team, struct xomp_worker *me);

/* Count a task run by member `w`: by its creator, by another member of the
 * creator's node, or by a member of another node. */
static inline void xomp_dlb_count_run(struct xomp_stats *st, const struct xomp_worker *w,
                                      unsigned creator)
{
    if (__builtin_expect(creator == w->id, 1))
        st->run_self++;
    else if (w->team->member_map[creator].node == w->map.node)
        st->run_local++;
    else
        st->run_remote++;
}

#endif
