/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The watcher: the progress fallback of task homes (home.h).
 *
 * A member about to sleep that finds no task it may take, but some task it
 * is refused for its home, must not leave that task to members that may
 * all be blocked outside a scheduling point.  One such member per team
 * stays awake as the watcher (team->home_watcher); the others sleep.  The
 * watcher never sleeps while it watches (it yields), and every so many
 * polls it looks at the refused tasks again: if none is left it stops; if
 * none of them moved for a lapse period (XOMP_HOME_LAPSE_MS, at least a
 * spin and yield period) it lapses their homes and wakes every sleeper.
 * It hands the role over (waking a sleeper) when it leaves to run a task
 * or its wait ends while refused tasks remain.  States, races and the
 * argument: src/sched/README.md, "Homes and progress".
 */
#ifndef XOMP_WATCH_H
#define XOMP_WATCH_H

#include <stdbool.h>
#include <stdint.h>

struct xomp_home;
struct xomp_task;
struct xomp_taker;
struct xomp_thread;

/* Homes a look can note at once; more are noted by the next looks. */
#define XOMP_REFUSALS_HOMES 16

/* What one look everywhere was refused for homes: a signature of where
 * those tasks were (it changes when any of them moves), and their homes. */
struct xomp_refusals {
    uint64_t signature;
    unsigned places; /* queues whose next task (for this member) was refused */
    unsigned nhomes;
    struct xomp_home *homes[XOMP_REFUSALS_HOMES];
};

static inline void xomp_refusals_init(struct xomp_refusals *r)
{
    r->signature = 0;
    r->places = 0;
    r->nhomes = 0;
}

/* A queue `where` in state `state` (its indices, or its taken count) has
 * refused task(s) of home h next. */
void xomp_refusals_note(struct xomp_refusals *r, uint64_t where, uint64_t state,
                        struct xomp_home *h);

/* The sleep recheck found nothing to take but refusals `r` (r->places >
 * 0): true when the member must stay awake (it is, or becomes, the
 * watcher), false when it may sleep (another member watches). */
bool xomp_watch_refused(struct xomp_thread *thr, const struct xomp_refusals *r);

/* A watcher's poll found nothing to take: every so many polls, look at the
 * refused tasks again, lapse homes that did not move for the lapse
 * period, or stop watching when none is left. */
void xomp_watch_poll(struct xomp_thread *thr, struct xomp_taker *tk);

/* The watcher stops: it found a task to run, or its wait ended.  Hands the
 * role to a sleeper when refused tasks may remain. */
void xomp_watch_stop(struct xomp_thread *thr);

#endif
