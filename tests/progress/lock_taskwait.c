/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * A lock held across task + taskwait while the other threads block on it.
 *
 * (a) Thread 0 holds an omp_lock, creates tasks and waits for them
 *     (taskwait); every other thread first passes a taskyield with nothing
 *     to do (an idle thread asking for work), then blocks in omp_set_lock.
 *     On odd iterations thread 0 creates its tasks only once the others
 *     are about to block, on even ones at once.
 * (b) The lock is held across a barrier: thread 0 takes it, creates tasks
 *     that the barrier completes (the others are idle there), then after
 *     the barrier creates more tasks and waits for them while the others
 *     block in omp_set_lock.
 * (c), (d): (a) and (b) with a nestable lock that thread 0 holds twice.
 *
 * Thread 0's children can only be run by thread 0 (the others are blocked
 * outside any task scheduling point), so a runtime that hands one of them
 * to an idle thread which then blocks in omp_set_lock hangs (the watchdog
 * fails the test).  Checks: every task runs exactly once, before its
 * taskwait returns; every other thread passes the lock once per region.
 */
#include "xomp_test.h"
#include "progress.h"

enum { SIMPLE, NEST };

static omp_lock_t lock;
static omp_nest_lock_t nest;

static void take(int kind)
{
    if (kind == NEST)
        omp_set_nest_lock(&nest);
    else
        omp_set_lock(&lock);
}

static void give(int kind)
{
    if (kind == NEST)
        omp_unset_nest_lock(&nest);
    else
        omp_unset_lock(&lock);
}

/* across_barrier: variant (b)/(d), else (a)/(c). */
static void scenario(const char *phase, int kind, int across_barrier, int iters)
{
    if (!progress_phase(phase))
        return;
    int bad_runs = 0, bad_wait = 0, bad_passes = 0, first_bad = -1;
    for (int it = 0; it < iters; it++) {
        int ran = 0, ran_before = 0, passes = 0, arrived = 0, tasks = 0, missing = 0;
        int nthreads = 1;
#pragma omp parallel shared(ran, ran_before, passes, arrived, tasks, missing, nthreads)
        {
            int me = omp_get_thread_num(), n = omp_get_num_threads();
            if (me == 0) {
                nthreads = n;
                tasks = n + 1;
                take(kind);
                if (kind == NEST)
                    take(kind); /* held twice: a nestable lock's count */
                if (across_barrier) {
                    for (int k = 0; k < tasks; k++) {
#pragma omp task shared(ran_before)
                        __atomic_add_fetch(&ran_before, 1, __ATOMIC_RELAXED);
                    }
                }
            }
#pragma omp barrier
            if (me == 0) {
                if (!across_barrier && (it & 1)) {
                    while (__atomic_load_n(&arrived, __ATOMIC_ACQUIRE) < n - 1)
                        progress_relax();
                }
                for (int k = 0; k < tasks; k++) {
#pragma omp task shared(ran)
                    __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
                }
#pragma omp taskwait
                missing = tasks - __atomic_load_n(&ran, __ATOMIC_RELAXED);
                if (kind == NEST)
                    give(kind);
                give(kind);
            } else {
                if (!across_barrier) {
#pragma omp taskyield
                }
                __atomic_add_fetch(&arrived, 1, __ATOMIC_RELEASE);
                take(kind);
                passes++;
                give(kind);
            }
        }
        int bad = 0;
        if (ran != tasks || (across_barrier && ran_before != tasks)) {
            bad_runs++;
            bad = 1;
        }
        if (missing != 0) {
            bad_wait++;
            bad = 1;
        }
        if (passes != nthreads - 1) {
            bad_passes++;
            bad = 1;
        }
        if (bad && first_bad < 0) {
            first_bad = it;
            fprintf(stderr, "%s: iteration %d: %d of %d tasks ran (%d of %d before the barrier), "
                            "%d not done at taskwait, %d of %d lock passes\n",
                    phase, it, ran, tasks, ran_before, across_barrier ? tasks : 0, missing,
                    passes, nthreads - 1);
        }
        progress_tick();
    }
    CHECK(bad_runs == 0, "%s: %d of %d regions ran a task other than once (first: %d)", phase,
          bad_runs, iters, first_bad);
    CHECK(bad_wait == 0, "%s: in %d of %d regions taskwait returned before its children ran",
          phase, bad_wait, iters);
    CHECK(bad_passes == 0, "%s: in %d of %d regions a thread did not pass the lock once", phase,
          bad_passes, iters);
}

int main(void)
{
    progress_start("lock_taskwait");
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);
    int iters = progress_iters(1500);
    scenario("a: omp_lock across task+taskwait, others taskyield then omp_set_lock", SIMPLE, 0,
             iters);
    scenario("b: omp_lock across a barrier and task+taskwait", SIMPLE, 1, iters);
    scenario("c: nest lock across task+taskwait, others taskyield then omp_set_nest_lock", NEST,
             0, iters);
    scenario("d: nest lock across a barrier and task+taskwait", NEST, 1, iters);
    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    return test_result();
}
