/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Loops and tasks together:
 *  - explicit tasks, created by one thread of a parallel region, each run
 *    a `parallel for` (a nested team, or a team of one when nesting is
 *    inactive) while the other threads of the region execute tasks;
 *  - loop bodies that create tasks and wait for them (taskwait inside a
 *    dynamic chunk), and tasks left to the loop's closing barrier;
 *  - a nowait loop followed by tasks: threads that finish the loop early
 *    run tasks while others are still in it;
 *  - a task and a taskwait inside ordered regions and inside doacross
 *    iterations: the task may be queued on a thread that is waiting for
 *    its turn, which must run it rather than deadlock.
 * Every iteration and every task runs exactly once.
 */
#include "xomp_test.h"

#define TASKS 40
#define N 300

static int loop_hits[TASKS][N];
static int task_hits[N];

int main(void)
{
    for (int levels = 1; levels <= 2; levels++) {
        omp_set_max_active_levels(levels);
#pragma omp parallel
#pragma omp single
        for (int t = 0; t < TASKS; t++) {
#pragma omp task firstprivate(t)
            {
#pragma omp parallel for schedule(dynamic, 7) num_threads(2)
                for (long i = 0; i < N; i++)
                    __atomic_add_fetch(&loop_hits[t][i], 1, __ATOMIC_RELAXED);
            }
        }
        long wrong = 0;
        for (int t = 0; t < TASKS; t++)
            for (long i = 0; i < N; i++) {
                wrong += loop_hits[t][i] != 1;
                loop_hits[t][i] = 0;
            }
        CHECK(wrong == 0, "parallel for inside tasks (max-active-levels %d): %ld iterations not "
                          "run once", levels, wrong);
    }

    /* Tasks created in loop bodies: waited for in the chunk, or by the
     * loop's barrier. */
    int waited_ok = 0;
#pragma omp parallel reduction(+ : waited_ok)
    {
#pragma omp for schedule(dynamic, 4)
        for (long i = 0; i < N; i++) {
            int done = 0;
#pragma omp task shared(done) firstprivate(i)
            {
                __atomic_add_fetch(&task_hits[i], 1, __ATOMIC_RELAXED);
                done = 1;
            }
#pragma omp taskwait
            waited_ok += done;
#pragma omp task firstprivate(i)
            __atomic_add_fetch(&task_hits[i], 1, __ATOMIC_RELAXED);
        }
        /* The loop's barrier completed every task created in it. */
        long missing = 0;
        for (long i = 0; i < N; i++)
            missing += __atomic_load_n(&task_hits[i], __ATOMIC_RELAXED) != 2;
        if (missing)
            waited_ok -= 1000000;
    }
    long wrong = 0;
    for (long i = 0; i < N; i++) {
        wrong += task_hits[i] != 2;
        task_hits[i] = 0;
    }
    CHECK(wrong == 0 && waited_ok == N,
          "tasks in loop bodies: %ld iterations' tasks not run twice, %d taskwaits saw their "
          "task done (expected %d; negative: tasks still missing after the loop's barrier)",
          wrong, waited_ok, N);

    /* A nowait loop, then tasks: early threads run tasks while others
     * are still in the loop. */
#pragma omp parallel
    {
#pragma omp for schedule(guided) nowait
        for (long i = 0; i < N; i++) {
#pragma omp task firstprivate(i)
            __atomic_add_fetch(&task_hits[i], 1, __ATOMIC_RELAXED);
        }
#pragma omp for schedule(dynamic) nowait
        for (long i = 0; i < N; i++)
            __atomic_add_fetch(&loop_hits[0][i], 1, __ATOMIC_RELAXED);
    }
    wrong = 0;
    for (long i = 0; i < N; i++)
        wrong += task_hits[i] != 1 || loop_hits[0][i] != 1;
    CHECK(wrong == 0, "nowait loops with tasks: %ld iterations or tasks not run once", wrong);

    /* Tasks waited for inside ordered regions and doacross iterations. */
    long ordered_sum = 0, doacross_sum = 0;
#pragma omp parallel
    {
#pragma omp for ordered schedule(static, 1)
        for (long i = 0; i < N; i++) {
#pragma omp ordered
            {
                long r = 0;
#pragma omp task shared(r) firstprivate(i)
                r = i;
#pragma omp taskwait
                ordered_sum += r;
            }
        }
#pragma omp for ordered(1) schedule(dynamic)
        for (long i = 0; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
            {
                long r = 0;
#pragma omp task shared(r) firstprivate(i)
                r = i;
#pragma omp taskwait
                __atomic_add_fetch(&doacross_sum, r, __ATOMIC_RELAXED);
            }
#pragma omp ordered depend(source)
        }
    }
    CHECK(ordered_sum == (long)N * (N - 1) / 2 && doacross_sum == (long)N * (N - 1) / 2,
          "tasks waited for in ordered regions / doacross iterations: sums %ld and %ld, "
          "expected %ld",
          ordered_sum, doacross_sum, (long)N * (N - 1) / 2);
    return test_result();
}
