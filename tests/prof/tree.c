/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * A known task tree for the profiler's tests (check_profile.py runs it).
 *
 *   region 1: one thread builds a binary tree of depth DEPTH (2^(DEPTH+1)-2
 *             tasks, taskwait at every node); each leaf spins for a fixed
 *             wall time scaled by the team size, so the region lasts about
 *             SECONDS whatever the thread count (if the load is balanced);
 *             then a taskgroup of GROUP tasks and one if(0) task.
 *   region 2: every member creates PER_THREAD tasks, finished by the
 *             region's end barrier.
 *
 * It prints what a profile of it must show, one `key=value` per line:
 * expected_created, expected_undeferred, threads, regions_s (the two
 * regions' wall time measured here with omp_get_wtime, from just before
 * each region to just after it).
 *
 * Usage: tree MODE [SECONDS [DIR]], SECONDS default 0.3.  MODE "tree": the
 * above; "reset": a warm-up region with tasks, then xomp_profile_reset(),
 * then the above (the profile must show only the above); "dump": the above,
 * then xomp_profile_dump(DIR).
 */
#include "xomp_test.h"

#include <stdint.h>

/* The extension API: resolved at run time from xomp (the program links
 * against the system libgomp, which does not have it). */
#pragma weak xomp_profile_dump
#pragma weak xomp_profile_reset
int xomp_profile_dump(const char *dir);
void xomp_profile_reset(void);

#define DEPTH 9
#define GROUP 16
#define PER_THREAD 8

static double leaf_s;
static long leaves_run;

static void spin_for(double seconds)
{
    double end = omp_get_wtime() + seconds;
    while (omp_get_wtime() < end)
        ;
}

static void tree(int depth)
{
    if (depth == 0) {
        spin_for(leaf_s);
        __atomic_add_fetch(&leaves_run, 1, __ATOMIC_RELAXED);
        return;
    }
#pragma omp task firstprivate(depth)
    tree(depth - 1);
#pragma omp task firstprivate(depth)
    tree(depth - 1);
#pragma omp taskwait
}

static long tree_tasks(int depth)
{
    return (2L << depth) - 2;
}

static void warm_up(void)
{
#pragma omp parallel
    for (int i = 0; i < 100; i++) {
#pragma omp task
        spin_for(1e-6);
    }
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "tree";
    double seconds = argc > 2 ? atof(argv[2]) : 0.3;
    const char *dir = argc > 3 ? argv[3] : NULL;
    if (!strcmp(mode, "reset")) {
        warm_up();
        CHECK(xomp_profile_reset != NULL, "xomp_profile_reset is not defined");
        if (xomp_profile_reset)
            xomp_profile_reset();
    }

    int threads = omp_get_max_threads();
    leaf_s = seconds * threads / (double)(1L << DEPTH);
    int group_done = 0, undeferred_done = 0, team = 0;
    double t0 = omp_get_wtime();
#pragma omp parallel shared(group_done, undeferred_done, team)
#pragma omp single
    {
        team = omp_get_num_threads();
        tree(DEPTH);
#pragma omp taskgroup
        for (int i = 0; i < GROUP; i++) {
#pragma omp task
            __atomic_add_fetch(&group_done, 1, __ATOMIC_RELAXED);
        }
#pragma omp task if (0)
        undeferred_done = 1;
    }
    double t1 = omp_get_wtime();
    int region2_run = 0;
    double t2 = omp_get_wtime();
#pragma omp parallel shared(region2_run)
    for (int i = 0; i < PER_THREAD; i++) {
#pragma omp task
        __atomic_add_fetch(&region2_run, 1, __ATOMIC_RELAXED);
    }
    double t3 = omp_get_wtime();

    CHECK(team == threads, "team of %d threads, expected %d", team, threads);
    CHECK(leaves_run == 1L << DEPTH, "%ld leaves ran, expected %ld", leaves_run, 1L << DEPTH);
    CHECK(group_done == GROUP, "%d taskgroup tasks ran, expected %d", group_done, GROUP);
    CHECK(undeferred_done == 1, "the if(0) task did not run");
    CHECK(region2_run == PER_THREAD * threads, "region 2 ran %d tasks, expected %d",
          region2_run, PER_THREAD * threads);

    if (!strcmp(mode, "dump")) {
        CHECK(dir && xomp_profile_dump != NULL, "no DIR, or xomp_profile_dump is not defined");
        if (dir && xomp_profile_dump)
            CHECK(xomp_profile_dump(dir) == 0, "xomp_profile_dump(%s) failed", dir);
    }
    printf("expected_created=%ld\n", tree_tasks(DEPTH) + GROUP + (long)PER_THREAD * threads);
    printf("expected_undeferred=1\n");
    printf("threads=%d\n", threads);
    printf("regions_s=%.9f\n", (t1 - t0) + (t3 - t2));
    return test_result();
}
