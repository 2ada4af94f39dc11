/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Undeferred tasks and what outlives them:
 *  - an if(0) task whose deferred children are still queued or running on
 *    other threads when it ends (nothing waits for them but the barrier);
 *  - an if(0) task that waits for its own children (taskwait), and a
 *    taskgroup around if(0) tasks that must wait for their children too;
 *  - included tasks of a final task, nested several levels, each waiting
 *    for its children (all included), and one that opens a parallel region
 *    whose members create deferred tasks;
 *  - an if(0) task at every level of a recursion with deferred siblings.
 * Every task counts its runs: each must have run exactly once, and each
 * wait must find what it waits for done.
 */
#include "xomp_test.h"

#include <stdbool.h>
#include <time.h>

#define ROUNDS 400
#define KIDS 4

static int kid_runs[ROUNDS][KIDS];

/* A little work, long enough that other threads take some of the
 * children before their creator's if(0) task ends. */
static void spin_a_little(unsigned seed)
{
    unsigned x = seed;
    for (int i = 0; i < 2000; i++) {
        x = x * 2654435761u + 1;
        __asm__ volatile("" : "+r"(x));
    }
}

static void outliving_children(void)
{
    memset(kid_runs, 0, sizeof kid_runs);
#pragma omp parallel
#pragma omp single
    for (int r = 0; r < ROUNDS; r++) {
#pragma omp task if (0) firstprivate(r)
        for (int k = 0; k < KIDS; k++) {
#pragma omp task firstprivate(r, k)
            {
                spin_a_little((unsigned)(r * KIDS + k));
                __atomic_add_fetch(&kid_runs[r][k], 1, __ATOMIC_RELAXED);
            }
        }
    }
    /* The region's barrier waited for every child. */
    int bad = 0;
    for (int r = 0; r < ROUNDS; r++)
        for (int k = 0; k < KIDS; k++)
            bad += kid_runs[r][k] != 1;
    CHECK(bad == 0, "children of if(0) tasks: %d did not run exactly once", bad);
}

static void waits_in_undeferred(void)
{
    int taskwait_late = 0, taskgroup_late = 0;
#pragma omp parallel shared(taskwait_late, taskgroup_late)
#pragma omp single
    for (int r = 0; r < ROUNDS; r++) {
        int done = 0;
#pragma omp task if (0) shared(done, taskwait_late)
        {
            for (int k = 0; k < KIDS; k++) {
#pragma omp task shared(done) firstprivate(k)
                {
                    spin_a_little((unsigned)k);
                    __atomic_add_fetch(&done, 1, __ATOMIC_RELAXED);
                }
            }
#pragma omp taskwait
            if (__atomic_load_n(&done, __ATOMIC_RELAXED) != KIDS)
                taskwait_late++;
        }
        int grouped = 0;
#pragma omp taskgroup
        {
            for (int k = 0; k < 2; k++) {
#pragma omp task if (0) shared(grouped)
                for (int j = 0; j < KIDS; j++) {
#pragma omp task shared(grouped) firstprivate(j)
                    {
                        spin_a_little((unsigned)j);
                        __atomic_add_fetch(&grouped, 1, __ATOMIC_RELAXED);
                    }
                }
            }
        }
        if (__atomic_load_n(&grouped, __ATOMIC_RELAXED) != 2 * KIDS)
            taskgroup_late++;
    }
    CHECK(taskwait_late == 0, "taskwait in an if(0) task returned early %d times", taskwait_late);
    CHECK(taskgroup_late == 0, "taskgroup around if(0) tasks ended early %d times", taskgroup_late);
}

/* Included tasks, `depth` levels below a final task: each creates two and
 * waits for them; returns how many ran (all must be final). */
static long included(int depth, int *not_final)
{
    if (!omp_in_final())
        __atomic_add_fetch(not_final, 1, __ATOMIC_RELAXED);
    if (depth == 0)
        return 1;
    long a = 0, b = 0;
#pragma omp task shared(a, not_final)
    a = included(depth - 1, not_final);
#pragma omp task shared(b, not_final)
    b = included(depth - 1, not_final);
#pragma omp taskwait
    return 1 + a + b;
}

static void final_tasks(void)
{
    long counts[64] = {0};
    int not_final = 0, inner_runs = 0;
#pragma omp parallel shared(counts, not_final, inner_runs)
#pragma omp single
    {
        for (int i = 0; i < 64; i++) {
#pragma omp task final(1) firstprivate(i) shared(counts, not_final, inner_runs)
            {
                counts[i] = included(6, &not_final);
                if (i % 16 == 0) {
                    /* An included task that opens a parallel region: its
                     * members' tasks are deferred again. */
#pragma omp task shared(inner_runs)
                    {
#pragma omp parallel num_threads(2) shared(inner_runs)
                        for (int k = 0; k < 8; k++) {
#pragma omp task shared(inner_runs)
                            __atomic_add_fetch(&inner_runs, 1, __ATOMIC_RELAXED);
                        }
                    }
                }
            }
        }
    }
    for (int i = 0; i < 64; i++)
        CHECK(counts[i] == 127, "final task %d: %ld included tasks ran (expected 127)", i,
              counts[i]);
    CHECK(not_final == 0, "%d included tasks were not final", not_final);
    /* 4 included tasks open a region; each of its members (1 or 2, as the
     * thread limit allows) creates 8 tasks. */
    CHECK(inner_runs >= 4 * 8 && inner_runs <= 4 * 16 && inner_runs % 8 == 0,
          "tasks of the regions inside included tasks: %d ran", inner_runs);
}

static long mixed(int n)
{
    if (n < 2)
        return n;
    long a = 0, b = 0;
#pragma omp task shared(a)
    a = mixed(n - 1);
#pragma omp task if (0) shared(b)
    b = mixed(n - 2);
#pragma omp taskwait
    return a + b;
}

int main(void)
{
    outliving_children();
    waits_in_undeferred();
    final_tasks();
    long f = 0;
#pragma omp parallel shared(f)
#pragma omp single
    f = mixed(20);
    CHECK(f == 6765, "fib(20) with if(0) halves: %ld", f);
    return test_result();
}
