/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * A member of a team enters a nested parallel region and blocks there on
 * something that its outer team's tasks provide.
 *
 * Thread 0 of the outer team creates n tasks (n: the outer team size) and
 * waits for them (taskwait).  Meanwhile thread 1 (a1, b1) or every other
 * thread (a2, b2) passes a taskyield with nothing to do (on odd iterations), then
 * enters a nested parallel region of 2 threads whose primary thread
 * spin-waits until all of thread 0's tasks have run, and then creates 2
 * tasks of the inner team.  Thread 0's tasks can only run on thread 0: the
 * others are inside nested regions, which never run the outer team's
 * tasks.  (a): max-active-levels 1 (the nested region is inactive: a team
 * of 1); (b): max-active-levels 2 (an active nested team of 2).
 *
 * Checks: every outer and inner task runs exactly once, thread 0's before
 * its taskwait returns; every nested region saw the outer tasks done.
 * A hang fails through the watchdog.
 */
#include "xomp_test.h"
#include "progress.h"

static void scenario(const char *phase, int all_nest, int levels, int iters)
{
    if (!progress_phase(phase))
        return;
    omp_set_max_active_levels(levels);
    int bad = 0, first_bad = -1;
    for (int it = 0; it < iters; it++) {
        int ran = 0, missing = -1, tasks = 0, nesters = 0, nested_done = 0, inner_ran = 0;
        int inner_expected = 0;
#pragma omp parallel shared(ran, missing, tasks, nesters, nested_done, inner_ran, inner_expected)
        {
            int me = omp_get_thread_num(), n = omp_get_num_threads();
            if (me == 0) {
                tasks = n;
                nesters = all_nest ? n - 1 : (n > 1);
                for (int k = 0; k < tasks; k++) {
#pragma omp task shared(ran)
                    __atomic_add_fetch(&ran, 1, __ATOMIC_RELEASE);
                }
#pragma omp taskwait
                missing = tasks - __atomic_load_n(&ran, __ATOMIC_RELAXED);
            } else if (me == 1 || all_nest) {
                if (it & 1) {
#pragma omp taskyield
                }
#pragma omp parallel num_threads(2) shared(ran, nested_done, inner_ran, inner_expected, n)
                {
#pragma omp master
                    {
                        while (__atomic_load_n(&ran, __ATOMIC_ACQUIRE) < n)
                            progress_relax();
                        __atomic_add_fetch(&nested_done, 1, __ATOMIC_RELAXED);
                        __atomic_add_fetch(&inner_expected, 2, __ATOMIC_RELAXED);
                        for (int k = 0; k < 2; k++) {
#pragma omp task shared(inner_ran)
                            __atomic_add_fetch(&inner_ran, 1, __ATOMIC_RELAXED);
                        }
                    }
                }
            }
        }
        if (ran != tasks || missing != 0 || nested_done != nesters || inner_ran != inner_expected) {
            if (bad++ == 0) {
                first_bad = it;
                fprintf(stderr, "%s: iteration %d: %d of %d outer tasks ran, %d not done at "
                                "taskwait, %d of %d nested regions done, "
                                "%d of %d inner tasks ran\n",
                        phase, it, ran, tasks, missing, nested_done, nesters, inner_ran,
                        inner_expected);
            }
        }
        progress_tick();
    }
    CHECK(bad == 0, "%s: %d of %d regions went wrong (first: %d)", phase, bad, iters, first_bad);
}

int main(void)
{
    progress_start("nested_block");
    int iters = progress_iters(1000);
    scenario("a1: thread 1 blocks in an inactive nested region on outer tasks", 0, 1, iters);
    scenario("a2: a1 with every other thread in a nested region", 1, 1, iters);
    scenario("b1: thread 1 blocks in an active nested region on outer tasks", 0, 2, iters);
    scenario("b2: b1 with every other thread in a nested region", 1, 2, iters);
    return test_result();
}
