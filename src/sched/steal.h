/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Stealing: an idle member takes the oldest task of another member's deque
 * itself, without the owner's help (so a busy or blocked owner never holds
 * work back).  Victims are drawn at random, in the thief's NUMA node with
 * probability XOMP_DLB_PLOCAL (topo/numa.h, XOMP_TOPOLOGY).  A thief under
 * the tied-task constraint takes only tasks it may run (constraint.h);
 * when one lies beneath others in a deque it can uncover it, moving the
 * ones above to the team's common queue (pools.h).
 */
#ifndef XOMP_STEAL_H
#define XOMP_STEAL_H

#include "constraint.h"
#include "watch.h"

#include <stdbool.h>

struct xomp_thread;
struct xomp_team;
struct xomp_worker;

/* Try up to `victims` victims (the last one that had work first): a task
 * given to the victim that the taker may take, or the oldest task of its
 * deque if the taker may take it; returns a task taken, or NULL. */
struct xomp_task *xomp_steal(struct xomp_thread *thr, struct xomp_taker *tk, unsigned victims);

/* Does any other member's inbox or deque hold a task the taker may take?
 * For a constrained taker, a task it may take beneath others is uncovered
 * (README, "Progress").  The next tasks refused for their homes are noted
 * in r (may be NULL).  Exhaustive: for the sleep recheck and the
 * watcher. */
bool xomp_steal_look_everywhere(struct xomp_thread *thr, struct xomp_taker *tk,
                                struct xomp_refusals *r);

/* The NUMA map (region start) and a member's steal state (member start). */
void xomp_steal_plan(struct xomp_team *team);
void xomp_steal_member_begin(struct xomp_team *team, struct xomp_worker *me);

#endif
