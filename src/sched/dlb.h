/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Dynamic load balancing by lock-less messages (the seed's request/round
 * cells): an idle member (thief) writes a request into a victim's request
 * cell; the victim, at its next scheduling point, sends it work through the
 * ring it owns as producer into the thief, and advances its round, which
 * invalidates the request.  No lock, no read-modify-write; a request that
 * is overwritten or stale only costs time, never a task.
 *
 * Strategies (XOMP_DLB):
 *   none  no messages (tasks stay where placement put them);
 *   ws    work stealing: the victim moves up to XOMP_DLB_STEAL of its
 *         oldest own tasks into the thief's ring;
 *   rp    redirect push: the victim's next XOMP_DLB_STEAL new tasks go to
 *         the thief's ring instead of its own stack.
 * Protocol, states and argument: src/sched/README.md ("Load balancing").
 */
#ifndef XOMP_DLB_H
#define XOMP_DLB_H

#include "../runtime/team.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct xomp_thread;

#define XOMP_DLB_ROUND_BITS 40
#define XOMP_DLB_ROUND_MASK ((UINT64_C(1) << XOMP_DLB_ROUND_BITS) - 1)

/* The victim side, called at scheduling points: serve a valid request. */
void xomp_dlb_serve(struct xomp_team *team, struct xomp_worker *me);

/* Cheap check first: only a request carrying the member's current round is
 * valid (relaxed: a request carries no data; what the victim then sends
 * travels through a ring with release/acquire). */
static inline void xomp_dlb_poll(struct xomp_team *team, struct xomp_worker *me)
{
    uint64_t req = atomic_load_explicit(&me->dlb.request, memory_order_relaxed);
    if (__builtin_expect((req & XOMP_DLB_ROUND_MASK) == me->dlb_round, 0))
        xomp_dlb_serve(team, me);
}

/* A member sleeps in a wait that runs tasks while we queue work in our own
 * deque: wake one, so that it asks us for some (a sleeping thief sends no
 * requests).  Best effort: a sleeper counted in after the check stays
 * asleep, and the work is run by us or by the next offer's wake-up. */
void xomp_dlb_wake_thief(struct xomp_team *team, struct xomp_worker *me);

static inline void xomp_dlb_offer(struct xomp_team *team, struct xomp_worker *me)
{
    /* relaxed: advice only (see above). */
    if (__builtin_expect(atomic_load_explicit(&team->idle_sleepers, memory_order_relaxed) != 0, 0))
        xomp_dlb_wake_thief(team, me);
}

/* Redirect push: a task went to the thief (or its ring was full). */
void xomp_dlb_redirected(struct xomp_worker *me, bool ring_full);

/* The thief side, called by an idle member: send requests now and then. */
void xomp_dlb_idle(struct xomp_team *team, struct xomp_worker *me);

/* Member start: reset the member's cells for a new region. */
void xomp_dlb_begin(struct xomp_team *team, struct xomp_worker *me);

#endif
