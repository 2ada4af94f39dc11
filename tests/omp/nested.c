/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Nested parallel regions, against expected values at every level:
 * omp_get_level, omp_get_active_level, omp_get_ancestor_thread_num(l),
 * omp_get_team_size(l), omp_get_num_threads/thread_num, omp_in_parallel:
 *  - two active levels enabled by OMP_MAX_ACTIVE_LEVELS=2 (the program
 *    re-executes itself with it set), inner num_threads(3);
 *  - max-active-levels 1: the inner region is serialized (team of 1,
 *    level 2, active level 1);
 *  - an inactive outer region (if(0)) around an active inner one;
 *  - three levels deep; nthreads-var set per thread for its nested region;
 *  - tasks inside the inner teams see the inner team's values.
 */
#include "xomp_test.h"

#include <unistd.h>

static int bad;
#define EXPECT(cond)                                                                             \
    do {                                                                                         \
        if (!(cond)) {                                                                           \
            fprintf(stderr, "line %d: %s\n", __LINE__, #cond);                                   \
            __atomic_add_fetch(&bad, 1, __ATOMIC_RELAXED);                                       \
        }                                                                                        \
    } while (0)

static int hits2[2][3], hits3[2][2][2], task_runs;

int main(int argc, char **argv)
{
    (void)argc;
    /* Run again with OMP_MAX_ACTIVE_LEVELS=2 in the environment (the
     * runtime reads it at start-up). */
    if (!getenv("XOMP_TEST_NESTED_EXEC"))
        return test_exec_again(argv, "XOMP_TEST_NESTED_EXEC", "OMP_MAX_ACTIVE_LEVELS", "2");
    CHECK(omp_get_max_active_levels() == 2, "OMP_MAX_ACTIVE_LEVELS=2 gave %d",
          omp_get_max_active_levels());
    CHECK(omp_get_level() == 0 && omp_get_active_level() == 0 && !omp_in_parallel() &&
              omp_get_ancestor_thread_num(0) == 0 && omp_get_team_size(0) == 1 &&
              omp_get_ancestor_thread_num(1) == -1 && omp_get_team_size(1) == -1,
          "values outside any region");

    /* Two active levels. */
#pragma omp parallel num_threads(2)
    {
        int o = omp_get_thread_num();
        EXPECT(omp_get_num_threads() == 2);
        EXPECT(omp_get_level() == 1 && omp_get_active_level() == 1 && omp_in_parallel());
        EXPECT(omp_get_ancestor_thread_num(1) == o && omp_get_team_size(1) == 2);
        EXPECT(omp_get_ancestor_thread_num(2) == -1 && omp_get_team_size(2) == -1);
#pragma omp parallel num_threads(3)
        {
            int i = omp_get_thread_num();
            __atomic_add_fetch(&hits2[o][i], 1, __ATOMIC_RELAXED);
            EXPECT(omp_get_num_threads() == 3);
            EXPECT(omp_get_level() == 2 && omp_get_active_level() == 2 && omp_in_parallel());
            EXPECT(omp_get_ancestor_thread_num(0) == 0 && omp_get_team_size(0) == 1);
            EXPECT(omp_get_ancestor_thread_num(1) == o && omp_get_team_size(1) == 2);
            EXPECT(omp_get_ancestor_thread_num(2) == i && omp_get_team_size(2) == 3);
            EXPECT(omp_get_ancestor_thread_num(3) == -1 && omp_get_team_size(3) == -1);
            EXPECT(omp_get_ancestor_thread_num(-1) == -1 && omp_get_team_size(-1) == -1);
            /* tasks of the inner team */
            for (int k = 0; k < 10; k++) {
#pragma omp task firstprivate(o)
                {
                    __atomic_add_fetch(&task_runs, 1, __ATOMIC_RELAXED);
                    EXPECT(omp_get_level() == 2 && omp_get_active_level() == 2);
                    EXPECT(omp_get_ancestor_thread_num(1) == o && omp_get_team_size(2) == 3);
                    EXPECT(omp_get_num_threads() == 3 && omp_in_parallel());
                }
            }
#pragma omp taskwait
        }
        /* back in the outer team */
        EXPECT(omp_get_level() == 1 && omp_get_num_threads() == 2 && omp_get_thread_num() == o);
    }
    for (int o = 0; o < 2; o++)
        for (int i = 0; i < 3; i++)
            CHECK(hits2[o][i] == 1, "inner thread %d of outer thread %d ran %d times", i, o,
                  hits2[o][i]);
    CHECK(task_runs == 2 * 3 * 10, "inner-team tasks ran %d times, expected 60", task_runs);
    CHECK(bad == 0, "%d wrong values with two active levels", bad);
    bad = 0;

    /* max-active-levels 1: the inner region is serialized. */
    omp_set_max_active_levels(1);
    CHECK(omp_get_max_active_levels() == 1, "omp_set_max_active_levels(1) gave %d",
          omp_get_max_active_levels());
    int inner_runs = 0;
#pragma omp parallel num_threads(2) shared(inner_runs)
    {
        int o = omp_get_thread_num();
#pragma omp parallel num_threads(3) shared(inner_runs)
        {
            __atomic_add_fetch(&inner_runs, 1, __ATOMIC_RELAXED);
            EXPECT(omp_get_num_threads() == 1 && omp_get_thread_num() == 0);
            EXPECT(omp_get_level() == 2 && omp_get_active_level() == 1 && omp_in_parallel());
            EXPECT(omp_get_ancestor_thread_num(1) == o && omp_get_team_size(1) == 2);
            EXPECT(omp_get_ancestor_thread_num(2) == 0 && omp_get_team_size(2) == 1);
        }
    }
    CHECK(inner_runs == 2, "serialized inner regions ran %d times, expected 2", inner_runs);
    CHECK(bad == 0, "%d wrong values with one active level", bad);
    bad = 0;

    /* An inactive outer region around an active inner one. */
    omp_set_max_active_levels(2);
    inner_runs = 0;
#pragma omp parallel if (0) num_threads(4) shared(inner_runs)
    {
        EXPECT(omp_get_num_threads() == 1 && omp_get_level() == 1);
        EXPECT(omp_get_active_level() == 0 && !omp_in_parallel());
#pragma omp parallel num_threads(2) shared(inner_runs)
        {
            __atomic_add_fetch(&inner_runs, 1, __ATOMIC_RELAXED);
            EXPECT(omp_get_num_threads() == 2 && omp_get_level() == 2);
            EXPECT(omp_get_active_level() == 1 && omp_in_parallel());
            EXPECT(omp_get_team_size(1) == 1 && omp_get_ancestor_thread_num(1) == 0);
            EXPECT(omp_get_team_size(2) == 2 &&
                   omp_get_ancestor_thread_num(2) == omp_get_thread_num());
        }
    }
    CHECK(inner_runs == 2, "active inner region of an inactive one ran %d times", inner_runs);
    CHECK(bad == 0, "%d wrong values with an inactive outer region", bad);
    bad = 0;

    /* Per-thread nthreads-var for the nested region. */
    int sizes[2] = {0, 0};
#pragma omp parallel num_threads(2) shared(sizes)
    {
        int o = omp_get_thread_num();
        omp_set_num_threads(o + 2);
#pragma omp barrier
        EXPECT(omp_get_max_threads() == o + 2);
#pragma omp parallel
        {
#pragma omp master
            sizes[o] = omp_get_num_threads();
        }
    }
    CHECK(sizes[0] == 2 && sizes[1] == 3, "per-thread omp_set_num_threads gave inner teams "
          "of %d and %d, expected 2 and 3", sizes[0], sizes[1]);
    CHECK(bad == 0, "%d wrong per-thread nthreads values", bad);
    bad = 0;

    /* Three levels. */
    omp_set_max_active_levels(3);
#pragma omp parallel num_threads(2)
    {
        int a = omp_get_thread_num();
#pragma omp parallel num_threads(2)
        {
            int b = omp_get_thread_num();
#pragma omp parallel num_threads(2)
            {
                int c = omp_get_thread_num();
                __atomic_add_fetch(&hits3[a][b][c], 1, __ATOMIC_RELAXED);
                EXPECT(omp_get_level() == 3 && omp_get_active_level() == 3);
                EXPECT(omp_get_ancestor_thread_num(1) == a && omp_get_ancestor_thread_num(2) == b &&
                       omp_get_ancestor_thread_num(3) == c);
                EXPECT(omp_get_team_size(1) == 2 && omp_get_team_size(2) == 2 &&
                       omp_get_team_size(3) == 2 && omp_get_team_size(4) == -1);
#pragma omp task firstprivate(a, b)
                EXPECT(omp_get_level() == 3 && omp_get_ancestor_thread_num(1) == a &&
                       omp_get_ancestor_thread_num(2) == b);
            }
            EXPECT(omp_get_level() == 2 && omp_get_thread_num() == b);
        }
    }
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            for (int c = 0; c < 2; c++)
                CHECK(hits3[a][b][c] == 1, "level-3 thread (%d,%d,%d) ran %d times", a, b, c,
                      hits3[a][b][c]);
    CHECK(bad == 0, "%d wrong values three levels deep", bad);
    return test_result();
}
