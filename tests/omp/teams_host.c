/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The teams construct on the host: every team runs once, with its number;
 * the default team count (nteams-var, else 3 as libgomp); thread_limit
 * applies inside and is restored after; parallel regions inside a team see
 * its number; the teams ICV routines.
 *
 * GCC rejects most runtime calls lexically inside teams, so the bodies
 * call helpers.
 */
#include "xomp_test.h"

#define MAX_TEAMS 64

static int runs[MAX_TEAMS];
static int seen_num_teams[MAX_TEAMS];
static int seen_thread_limit[MAX_TEAMS];
static int inner_bad;

__attribute__((noinline)) static void record(void)
{
    int t = omp_get_team_num();
    if (t >= 0 && t < MAX_TEAMS) {
        __atomic_add_fetch(&runs[t], 1, __ATOMIC_RELAXED);
        seen_num_teams[t] = omp_get_num_teams();
        seen_thread_limit[t] = omp_get_thread_limit();
    }
    if (omp_get_level() != 0 || omp_in_parallel())
        __atomic_add_fetch(&inner_bad, 1, __ATOMIC_RELAXED);
}

__attribute__((noinline)) static void nested_parallel(void)
{
    int team = omp_get_team_num(), limit = omp_get_thread_limit();
#pragma omp parallel num_threads(4)
    {
        if (omp_get_team_num() != team || omp_get_num_teams() != 3 ||
            omp_get_num_threads() > limit)
            __atomic_add_fetch(&inner_bad, 1, __ATOMIC_RELAXED);
#pragma omp task
        {
            if (omp_get_team_num() != team)
                __atomic_add_fetch(&inner_bad, 1, __ATOMIC_RELAXED);
        }
    }
    __atomic_add_fetch(&runs[team], 1, __ATOMIC_RELAXED);
}

static void reset(void)
{
    memset(runs, 0, sizeof runs);
    memset(seen_num_teams, 0, sizeof seen_num_teams);
    memset(seen_thread_limit, 0, sizeof seen_thread_limit);
    inner_bad = 0;
}

static void check_runs(const char *what, int teams, int thread_limit)
{
    for (int t = 0; t < MAX_TEAMS; t++) {
        CHECK(runs[t] == (t < teams), "%s: team %d ran %d times", what, t, runs[t]);
        if (t < teams) {
            CHECK(seen_num_teams[t] == teams, "%s: team %d saw %d teams", what, t,
                  seen_num_teams[t]);
            if (thread_limit)
                CHECK(seen_thread_limit[t] == thread_limit, "%s: team %d thread_limit %d", what,
                      t, seen_thread_limit[t]);
        }
    }
    CHECK(inner_bad == 0, "%s: %d wrong observations inside", what, inner_bad);
}

int main(void)
{
    int outer_limit = omp_get_thread_limit();
    CHECK(omp_get_num_teams() == 1 && omp_get_team_num() == 0, "outside teams: %d/%d",
          omp_get_team_num(), omp_get_num_teams());

    reset();
#pragma omp teams num_teams(3) thread_limit(2)
    record();
    check_runs("num_teams(3) thread_limit(2)", 3, 2);
    CHECK(omp_get_thread_limit() == outer_limit, "thread_limit not restored: %d",
          omp_get_thread_limit());
    CHECK(omp_get_num_teams() == 1 && omp_get_team_num() == 0, "after teams: %d/%d",
          omp_get_team_num(), omp_get_num_teams());

    reset();
#pragma omp teams num_teams(17)
    record();
    check_runs("num_teams(17)", 17, outer_limit);

    /* Defaults: nteams-var 0 means 3 host teams (libgomp). */
    CHECK(omp_get_max_teams() == 0, "initial nteams-var %d", omp_get_max_teams());
    CHECK(omp_get_teams_thread_limit() == 0, "initial teams-thread-limit-var %d",
          omp_get_teams_thread_limit());
    reset();
#pragma omp teams
    record();
    check_runs("default teams", 3, 0);

    omp_set_num_teams(5);
    omp_set_teams_thread_limit(3);
    CHECK(omp_get_max_teams() == 5 && omp_get_teams_thread_limit() == 3, "set: %d %d",
          omp_get_max_teams(), omp_get_teams_thread_limit());
    reset();
#pragma omp teams
    record();
    check_runs("omp_set_num_teams(5), teams_thread_limit 3", 5, 3);
    omp_set_num_teams(-2); /* ignored */
    omp_set_teams_thread_limit(-1);
    CHECK(omp_get_max_teams() == 5 && omp_get_teams_thread_limit() == 3,
          "negative values changed the ICVs: %d %d", omp_get_max_teams(),
          omp_get_teams_thread_limit());
    /* Device-wide: a setter in one thread is seen by all. */
#pragma omp parallel num_threads(2)
    {
#pragma omp master
        omp_set_num_teams(6);
    }
    CHECK(omp_get_max_teams() == 6, "omp_set_num_teams in a thread: %d", omp_get_max_teams());
    omp_set_num_teams(0);
    omp_set_teams_thread_limit(0);

    reset();
#pragma omp teams num_teams(3) thread_limit(2)
    nested_parallel();
    for (int t = 0; t < 3; t++)
        CHECK(runs[t] == 1, "nested parallel: team %d ran %d times", t, runs[t]);
    CHECK(inner_bad == 0, "nested parallel: %d wrong observations", inner_bad);
    return test_result();
}
