/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * User spin loops (an atomic load in a loop: no task scheduling point).
 *
 * (a1) After a barrier, thread 1 spin-waits on a flag that thread 0 sets
 *      once its n children are done (task + taskwait); the other threads
 *      go on to the region's closing barrier.  On odd iterations the
 *      spinner first passes a taskyield with nothing to do (an idle thread
 *      asking for work).
 * (a2) The same with every thread but 0 spinning.
 * (b1) A single creates task A, which spins on a flag, then task B, which
 *      sets it (B queued after A, by the same creator); the creator goes
 *      on to the barrier.  With 2 or more threads B must run while A spins.
 * (b2) b1 with the creator waiting in taskwait.
 * (b3) b1 with B created before A (a creator that runs its newest task
 *      first must not keep B from the others while it spins in A).
 * With 1 thread (a) has no spinner and (b) is skipped (B could only run
 * after A).  A runtime that hands thread 0's child to the spinning thread
 * (or leaves B where only the spinning thread takes it) hangs; the watchdog
 * fails the test.  Checks: every task runs exactly once, thread 0's before
 * its taskwait returns; each spinner sees the flag.
 */
#include "xomp_test.h"
#include "progress.h"

static void scenario_after_barrier(const char *phase, int all_spin, int iters)
{
    if (!progress_phase(phase))
        return;
    int bad = 0, first_bad = -1;
    for (int it = 0; it < iters; it++) {
        int ran = 0, missing = -1, tasks = 0, flag = 0, spun = 0, spinners = 0;
#pragma omp parallel shared(ran, missing, tasks, flag, spun, spinners)
        {
            int me = omp_get_thread_num(), n = omp_get_num_threads();
#pragma omp barrier
            if (me == 0) {
                tasks = n;
                spinners = all_spin ? n - 1 : (n > 1);
                for (int k = 0; k < tasks; k++) {
#pragma omp task shared(ran)
                    __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
                }
#pragma omp taskwait
                missing = tasks - __atomic_load_n(&ran, __ATOMIC_RELAXED);
                __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
            } else if (me == 1 || all_spin) {
                if (it & 1) {
#pragma omp taskyield
                }
                while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE))
                    progress_relax();
                __atomic_add_fetch(&spun, 1, __ATOMIC_RELAXED);
            }
        }
        if (ran != tasks || missing != 0 || spun != spinners) {
            if (bad++ == 0) {
                first_bad = it;
                fprintf(stderr, "%s: iteration %d: %d of %d tasks ran, %d not done at taskwait, "
                                "%d of %d spinners saw the flag\n",
                        phase, it, ran, tasks, missing, spun, spinners);
            }
        }
        progress_tick();
    }
    CHECK(bad == 0, "%s: %d of %d regions went wrong (first: %d)", phase, bad, iters, first_bad);
}

static void scenario_later_task(const char *phase, int setter_first, int with_taskwait,
                                int iters)
{
    if (!progress_phase(phase))
        return;
    int bad = 0, first_bad = -1;
    for (int it = 0; it < iters; it++) {
        int flag = 0, ran_a = 0, ran_b = 0, early = 0;
#pragma omp parallel shared(flag, ran_a, ran_b, early)
#pragma omp single
        {
            for (int k = 0; k < 2; k++) {
                if (k == setter_first) { /* the spinner: created second iff setter_first */
#pragma omp task shared(flag, ran_a)
                    {
                        while (!__atomic_load_n(&flag, __ATOMIC_ACQUIRE))
                            progress_relax();
                        __atomic_add_fetch(&ran_a, 1, __ATOMIC_RELAXED);
                    }
                } else {
#pragma omp task shared(flag, ran_b)
                    {
                        __atomic_add_fetch(&ran_b, 1, __ATOMIC_RELAXED);
                        __atomic_store_n(&flag, 1, __ATOMIC_RELEASE);
                    }
                }
            }
            if (with_taskwait) {
#pragma omp taskwait
                early = __atomic_load_n(&ran_a, __ATOMIC_RELAXED) != 1 ||
                        __atomic_load_n(&ran_b, __ATOMIC_RELAXED) != 1;
            }
        }
        if (ran_a != 1 || ran_b != 1 || early) {
            if (bad++ == 0) {
                first_bad = it;
                fprintf(stderr, "%s: iteration %d: spinner ran %d times, setter %d times%s\n",
                        phase, it, ran_a, ran_b, early ? " (taskwait returned early)" : "");
            }
        }
        progress_tick();
    }
    CHECK(bad == 0, "%s: %d of %d regions went wrong (first: %d)", phase, bad, iters, first_bad);
}

int main(void)
{
    progress_start("spin_flag");
    int n = progress_team_size();
    scenario_after_barrier("a1: after a barrier thread 1 spins on a flag set after thread 0's "
                           "taskwait", 0, progress_iters(2000));
    scenario_after_barrier("a2: a1 with every other thread spinning", 1, progress_iters(2000));
    if (n >= 2) {
        scenario_later_task("b1: a task spins on a flag set by a task created after it", 0, 0,
                            progress_iters(2000));
        scenario_later_task("b2: b1, the creator waits in taskwait", 0, 1, progress_iters(2000));
        scenario_later_task("b3: b1 with the setting task created before the spinning one", 1,
                            0, progress_iters(2000));
    } else {
        fprintf(stderr, "spin_flag: 1 thread: skipping the spinning task cases\n");
    }
    return test_result();
}
