/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * thread-limit-var bounds the threads of a contention group, also when
 * several threads of a team open nested parallel regions at the same
 * moment: an atomic count of the threads running region code never
 * exceeds OMP_THREAD_LIMIT, and the nested teams together take exactly the
 * room the limit leaves (none is lost to a reservation never given back).
 * Every thread stays in its innermost region until the limit is reached,
 * so that all forks of a round overlap.  Two and three levels, many
 * rounds.  `teams thread_limit` bounds each
 * team's group the same way.  Each thread of the program (a pthread) is
 * the initial thread of its own contention group, as in libgomp: two of
 * them get a full team each at the same time.  The test re-executes itself
 * with OMP_THREAD_LIMIT=6.
 */
#include "xomp_test.h"

#include <pthread.h>
#include <sched.h>

#define LIMIT 6
#define ROUNDS 200

/* Threads currently running region code, and the most seen at once. */
static int inside, peak;

static void enter(int *count, int *most)
{
    int now = __atomic_add_fetch(count, 1, __ATOMIC_SEQ_CST);
    int seen = __atomic_load_n(most, __ATOMIC_RELAXED);
    while (now > seen &&
           !__atomic_compare_exchange_n(most, &seen, now, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
}

static void leave(int *count)
{
    __atomic_sub_fetch(count, 1, __ATOMIC_SEQ_CST);
}

/* Wait until *count is at least `want` (or 5 s passed: then the checks
 * fail instead of the test hanging). */
static void hold(const int *count, int want)
{
    double give_up = omp_get_wtime() + 5;
    while (__atomic_load_n(count, __ATOMIC_SEQ_CST) < want && omp_get_wtime() < give_up)
        sched_yield();
}

/* Every thread of a round, in its innermost region, waits here until
 * `want` threads are in (*count) and all of them have seen it (*seen), so
 * that all overlap: no team ends and gives its room back before the last
 * fork of the round, and none leaves while another still waits (a team of
 * one has no barrier to keep it). */
static void all_in(const int *count, int *seen, int want)
{
    hold(count, want);
    __atomic_add_fetch(seen, 1, __ATOMIC_SEQ_CST);
    hold(seen, want);
}

/* Three threads each fork a nested team of 4 at once: 3 + 3 * 3 threads
 * asked, exactly LIMIT granted in all. */
static void two_levels(void)
{
    for (int round = 0; round < ROUNDS; round++) {
        int outer = 0, inner[3] = {0, 0, 0}, forked = 0, seen = 0;
        peak = 0;
#pragma omp parallel num_threads(3) shared(outer, inner, forked, seen)
        {
            enter(&inside, &peak);
            int me = omp_get_thread_num();
#pragma omp single
            outer = omp_get_num_threads();
            /* the barrier of single: the three fork together */
#pragma omp parallel num_threads(4)
            {
                if (omp_get_thread_num() != 0)
                    enter(&inside, &peak);
                else {
                    inner[me] = omp_get_num_threads();
                    __atomic_add_fetch(&forked, 1, __ATOMIC_SEQ_CST);
                }
                hold(&forked, omp_get_team_size(1));
                all_in(&inside, &seen, LIMIT);
                if (omp_get_thread_num() != 0)
                    leave(&inside);
            }
            leave(&inside);
        }
        int total = outer;
        for (int i = 0; i < outer; i++) {
            CHECK(inner[i] >= 1, "round %d: nested team %d has %d threads", round, i, inner[i]);
            total += inner[i] - 1;
        }
        CHECK(outer == 3, "round %d: the outer team has %d threads", round, outer);
        CHECK(total == LIMIT, "round %d: the teams hold %d threads (outer %d, nested %d %d %d)",
              round, total, outer, inner[0], inner[1], inner[2]);
        CHECK(peak == LIMIT, "round %d: %d threads ran region code at once under a limit of %d",
              round, peak, LIMIT);
    }
}

/* Two threads, each forking two nested levels: 2 + 2 * (1 + 2 * 2) asked. */
static void three_levels(void)
{
    for (int round = 0; round < ROUNDS / 2; round++) {
        int total = 0, forked2 = 0, members2 = 0, forked3 = 0, seen = 0;
        peak = 0;
#pragma omp parallel num_threads(2) shared(total, forked2, members2, forked3, seen)
        {
            enter(&inside, &peak);
#pragma omp atomic
            total++;
#pragma omp barrier
#pragma omp parallel num_threads(2)
            {
                if (omp_get_thread_num() != 0) {
                    enter(&inside, &peak);
#pragma omp atomic
                    total++;
                } else {
                    /* the level-3 forks to wait for, then this fork */
                    __atomic_add_fetch(&members2, omp_get_num_threads(), __ATOMIC_SEQ_CST);
                    __atomic_add_fetch(&forked2, 1, __ATOMIC_SEQ_CST);
                }
#pragma omp parallel num_threads(3)
                {
                    if (omp_get_thread_num() != 0) {
                        enter(&inside, &peak);
#pragma omp atomic
                        total++;
                    } else {
                        __atomic_add_fetch(&forked3, 1, __ATOMIC_SEQ_CST);
                    }
                    hold(&forked2, omp_get_team_size(1));
                    hold(&forked3, __atomic_load_n(&members2, __ATOMIC_SEQ_CST));
                    all_in(&inside, &seen, LIMIT);
                    if (omp_get_thread_num() != 0)
                        leave(&inside);
                }
                if (omp_get_thread_num() != 0)
                    leave(&inside);
            }
            leave(&inside);
        }
        CHECK(total == LIMIT, "round %d: three levels hold %d threads", round, total);
        CHECK(peak == LIMIT, "round %d: %d threads ran region code at once under a limit of %d",
              round, peak, LIMIT);
    }
}

/* Every reservation was given back: a new region gets the whole limit,
 * and nothing more is left for a nested one. */
static void nothing_leaked(void)
{
    int n = 0, nested = 0;
#pragma omp parallel num_threads(LIMIT + 2) shared(n, nested)
    {
#pragma omp single
        n = omp_get_num_threads();
        if (omp_get_thread_num() == 0) {
#pragma omp parallel num_threads(2)
#pragma omp single
            nested = omp_get_num_threads();
        }
    }
    CHECK(n == LIMIT, "a region asking for %d threads got %d (limit %d)", LIMIT + 2, n, LIMIT);
    CHECK(nested == 1, "a nested region in a full group got %d threads", nested);
}

/* teams thread_limit(3): the limit of each team's contention group; two
 * threads of a team fork nested teams of 2 at once. */
static void teams_limit(void)
{
    enum { TEAMS = 2, TEAM_LIMIT = 3 };
    for (int round = 0; round < ROUNDS / 4; round++) {
        int team_inside[TEAMS] = {0}, team_peak[TEAMS] = {0}, team_total[TEAMS] = {0};
        int forked[TEAMS] = {0}, seen[TEAMS] = {0};
        int limits[TEAMS] = {0};
#pragma omp teams num_teams(TEAMS) thread_limit(TEAM_LIMIT)
        {
            int t = omp_get_team_num();
#pragma omp parallel num_threads(2)
            {
                enter(&team_inside[t], &team_peak[t]);
                __atomic_add_fetch(&team_total[t], 1, __ATOMIC_RELAXED);
                if (omp_get_thread_num() == 0)
                    limits[t] = omp_get_thread_limit();
#pragma omp barrier
#pragma omp parallel num_threads(2)
                {
                    if (omp_get_thread_num() != 0) {
                        enter(&team_inside[t], &team_peak[t]);
                        __atomic_add_fetch(&team_total[t], 1, __ATOMIC_RELAXED);
                    } else {
                        __atomic_add_fetch(&forked[t], 1, __ATOMIC_SEQ_CST);
                    }
                    hold(&forked[t], omp_get_team_size(1));
                    all_in(&team_inside[t], &seen[t], TEAM_LIMIT);
                    if (omp_get_thread_num() != 0)
                        leave(&team_inside[t]);
                }
                leave(&team_inside[t]);
            }
        }
        for (int t = 0; t < TEAMS; t++) {
            CHECK(limits[t] == TEAM_LIMIT, "team %d: thread limit %d", t, limits[t]);
            CHECK(team_total[t] == TEAM_LIMIT, "round %d team %d: %d threads in all", round, t,
                  team_total[t]);
            CHECK(team_peak[t] == TEAM_LIMIT, "round %d team %d: %d threads at once, limit %d",
                  round, t, team_peak[t], TEAM_LIMIT);
        }
    }
    CHECK(omp_get_thread_limit() == LIMIT, "after teams: thread limit %d", omp_get_thread_limit());
}

/* Each pthread is the initial thread of its own contention group. */
static pthread_barrier_t both;
static int pthread_team[2];

static void *pthread_body(void *arg)
{
    int id = (int)(intptr_t)arg;
    pthread_barrier_wait(&both);
#pragma omp parallel num_threads(LIMIT)
    {
#pragma omp single
        pthread_team[id] = omp_get_num_threads();
    }
    return NULL;
}

static void pthread_groups(void)
{
    for (int round = 0; round < 10; round++) {
        pthread_t t[2];
        pthread_barrier_init(&both, NULL, 2);
        for (int i = 0; i < 2; i++)
            pthread_create(&t[i], NULL, pthread_body, (void *)(intptr_t)i);
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
        pthread_barrier_destroy(&both);
        CHECK(pthread_team[0] == LIMIT && pthread_team[1] == LIMIT,
              "round %d: two initial threads got teams of %d and %d (limit %d each)", round,
              pthread_team[0], pthread_team[1], LIMIT);
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    if (!getenv("XOMP_TEST_THREAD_LIMIT_EXEC")) {
        char limit[16];
        snprintf(limit, sizeof limit, "%d", LIMIT);
        return test_exec_again(argv, "XOMP_TEST_THREAD_LIMIT_EXEC", "OMP_THREAD_LIMIT", limit);
    }
    CHECK(omp_get_thread_limit() == LIMIT, "OMP_THREAD_LIMIT=%d read as %d", LIMIT,
          omp_get_thread_limit());
    omp_set_dynamic(0);
    omp_set_max_active_levels(3);
    two_levels();
    three_levels();
    nothing_leaked();
    teams_limit();
    nothing_leaked();
    pthread_groups();
    return test_result();
}
