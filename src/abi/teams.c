/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* The teams construct on the host and the teams routines (OpenMP 5.1,
 * 3.4).  The machinery is in runtime/teams.c. */
#include <omp.h>

#include "../runtime/log.h"
#include "../runtime/teams.h"
#include "abi.h"

XOMP_EXPORT void GOMP_teams_reg(void (*fn)(void *), void *data, unsigned num_teams,
                                unsigned thread_limit, unsigned flags)
{
    (void)flags;
    XOMP_ENTRY(xomp_teams_run(fn, data, num_teams, thread_limit, XOMP_CODEPTR()));
}

/* A teams construct inside a target region: the body runs in a loop while
 * this returns true. */
XOMP_EXPORT bool GOMP_teams4(unsigned num_teams_low, unsigned num_teams_high,
                             unsigned thread_limit, bool first)
{
    (void)num_teams_high; /* on the host the lower bound is enough */
    return xomp_teams_next(num_teams_low, thread_limit, first, XOMP_CODEPTR());
}

/* The GCC 4.x-8 form inside a target region: one team. */
XOMP_EXPORT void GOMP_teams(unsigned num_teams, unsigned thread_limit)
{
    (void)num_teams;
    xomp_teams_limit_threads(thread_limit);
}

XOMP_EXPORT int omp_get_num_teams(void)
{
    return xomp_num_teams();
}

XOMP_EXPORT int omp_get_team_num(void)
{
    return xomp_team_num();
}

XOMP_EXPORT void omp_set_num_teams(int num_teams)
{
    if (num_teams < 0) {
        xomp_warn("omp_set_num_teams(%d): the number of teams must be non-negative; ignored",
                  num_teams);
        return;
    }
    xomp_set_nteams(num_teams);
}

XOMP_EXPORT int omp_get_max_teams(void)
{
    return xomp_nteams();
}

XOMP_EXPORT void omp_set_teams_thread_limit(int thread_limit)
{
    if (thread_limit < 0) {
        xomp_warn("omp_set_teams_thread_limit(%d): the limit must be non-negative; ignored",
                  thread_limit);
        return;
    }
    xomp_set_teams_thread_limit(thread_limit);
}

XOMP_EXPORT int omp_get_teams_thread_limit(void)
{
    return xomp_teams_thread_limit();
}
