/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Host teams: the sequential loop over teams, and the teams ICVs. */
#include "teams.h"

#include "../tool/ompt.h"
#include "config.h"
#include "thread.h"

#include <limits.h>
#include <stdatomic.h>

/* Lone values: no other data is published through them, so relaxed
 * accesses suffice (a setter's value is seen by later reads in the
 * variable's modification order). */
static _Atomic int nteams_var;
static _Atomic int teams_thread_limit_var;

int xomp_nteams(void)
{
    return atomic_load_explicit(&nteams_var, memory_order_relaxed);
}

void xomp_set_nteams(int n)
{
    atomic_store_explicit(&nteams_var, n, memory_order_relaxed);
}

int xomp_teams_thread_limit(void)
{
    return atomic_load_explicit(&teams_thread_limit_var, memory_order_relaxed);
}

void xomp_set_teams_thread_limit(int n)
{
    atomic_store_explicit(&teams_thread_limit_var, n, memory_order_relaxed);
}

static struct xomp_icv *current_icv(void)
{
    return &xomp_self()->task->icv;
}

int xomp_team_num(void)
{
    return (int)current_icv()->team_num;
}

int xomp_num_teams(void)
{
    uint32_t n = current_icv()->num_teams;
    return n ? (int)n : 1;
}

void xomp_teams_limit_threads(unsigned thread_limit)
{
    if (thread_limit)
        current_icv()->thread_limit = thread_limit > INT_MAX ? INT_MAX : thread_limit;
}

void xomp_teams_run(void (*fn)(void *), void *data, unsigned num_teams, unsigned thread_limit,
                    const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_icv *icv = &thr->task->icv;
    struct xomp_icv saved = *icv;
    if (!thread_limit)
        thread_limit = (unsigned)xomp_teams_thread_limit();
    xomp_teams_limit_threads(thread_limit);
    if (!num_teams) {
        int n = xomp_nteams();
        num_teams = n > 0 ? (unsigned)n : 3; /* libgomp's host default */
    }
    icv->num_teams = num_teams;
    XOMP_HOOK(xomp_ompt_league_begin(thr, num_teams, codeptr));
    for (unsigned t = 0; t < num_teams; t++) {
        icv->team_num = t;
        XOMP_HOOK(xomp_ompt_league_team_begin(thr, t));
        fn(data);
        XOMP_HOOK(xomp_ompt_league_team_end(thr, t));
    }
    XOMP_HOOK(xomp_ompt_league_end(thr));
    icv->team_num = saved.team_num;
    icv->num_teams = saved.num_teams;
    icv->thread_limit = saved.thread_limit;
}

bool xomp_teams_next(unsigned num_teams_low, unsigned thread_limit, bool first,
                     const void *codeptr)
{
    struct xomp_thread *thr = xomp_self();
    struct xomp_icv *icv = &thr->task->icv;
    if (first) {
        xomp_teams_limit_threads(thread_limit);
        icv->num_teams = num_teams_low ? num_teams_low : 1;
        icv->team_num = 0;
        XOMP_HOOK(xomp_ompt_league_begin(thr, icv->num_teams, codeptr);
                  xomp_ompt_league_team_begin(thr, 0));
        return true;
    }
    XOMP_HOOK(xomp_ompt_league_team_end(thr, icv->team_num));
    if (icv->team_num + 1 < icv->num_teams) {
        icv->team_num++;
        XOMP_HOOK(xomp_ompt_league_team_begin(thr, icv->team_num));
        return true;
    }
    XOMP_HOOK(xomp_ompt_league_end(thr));
    icv->team_num = 0;
    icv->num_teams = 0;
    return false;
}

void xomp_teams_env_init(void)
{
    unsigned long n = 0;
    if (xomp_env_uint("OMP_NUM_TEAMS", 1, INT_MAX, &n, "the default (3 teams on the host)"))
        xomp_set_nteams((int)n);
    n = 0;
    if (xomp_env_uint("OMP_TEAMS_THREAD_LIMIT", 1, INT_MAX, &n, "no limit"))
        xomp_set_teams_thread_limit((int)n);
}
