/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Tasks that sleep in blocking system calls (usleep, nanosleep), which are
 * not task scheduling points: the thread running such a task is gone for
 * the time, and its queued tasks must run elsewhere.
 *
 * (a) A single creates 8 tasks that sleep 20 ms each (half usleep, half
 *     nanosleep) and 32 short tasks; every one must run once.
 * (b1) A single creates task S, then n-1 tasks that sleep in 1 ms steps
 *      until S has run (n: the team size).  With at most n-1 sleepers some
 *      thread is always free to run S; a thread that sleeps in one while S
 *      sits in its queue must not keep S from the others.
 * (b2) b1 with S created after the sleepers.
 * (b3) b1 with the creator waiting in taskwait.
 * With 1 thread (b) has no sleeper and just runs S.
 *
 * Only completion is checked, never timing: every task runs exactly once.
 * A hang fails through the watchdog.
 */
#include "xomp_test.h"
#include "progress.h"

static void nap(int k, long us)
{
    if (k & 1)
        usleep((useconds_t)us);
    else
        progress_sleep_us(us);
}

static void scenario_bounded(const char *phase, int rounds)
{
    if (!progress_phase(phase))
        return;
    enum { SLEEPERS = 8, SHORT = 32 };
    for (int r = 0; r < rounds; r++) {
        int slept[SLEEPERS] = {0}, ran[SHORT] = {0};
#pragma omp parallel shared(slept, ran)
#pragma omp single
        {
            for (int k = 0; k < SLEEPERS; k++) {
#pragma omp task firstprivate(k) shared(slept)
                {
                    nap(k, 20000);
                    __atomic_add_fetch(&slept[k], 1, __ATOMIC_RELAXED);
                }
                for (int j = k * SHORT / SLEEPERS; j < (k + 1) * SHORT / SLEEPERS; j++) {
#pragma omp task firstprivate(j) shared(ran)
                    __atomic_add_fetch(&ran[j], 1, __ATOMIC_RELAXED);
                }
            }
        }
        for (int k = 0; k < SLEEPERS; k++)
            CHECK(slept[k] == 1, "%s: round %d: sleeping task %d ran %d times", phase, r, k,
                  slept[k]);
        for (int j = 0; j < SHORT; j++)
            CHECK(ran[j] == 1, "%s: round %d: short task %d ran %d times", phase, r, j, ran[j]);
        progress_tick();
    }
}

/* order: 0: S first, 1: S last; with_taskwait: the creator waits. */
static void scenario_until(const char *phase, int s_last, int with_taskwait, int iters)
{
    if (!progress_phase(phase))
        return;
    int bad = 0, first_bad = -1;
    for (int it = 0; it < iters; it++) {
        int done = 0, woke = 0, sleepers = 0, early = 0;
#pragma omp parallel shared(done, woke, sleepers, early)
#pragma omp single
        {
            sleepers = omp_get_num_threads() - 1;
            for (int k = 0; k <= sleepers; k++) {
                if (k == (s_last ? sleepers : 0)) {
#pragma omp task shared(done)
                    __atomic_add_fetch(&done, 1, __ATOMIC_RELEASE);
                } else {
#pragma omp task firstprivate(k) shared(done, woke)
                    {
                        while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE))
                            nap(k, 1000);
                        __atomic_add_fetch(&woke, 1, __ATOMIC_RELAXED);
                    }
                }
            }
            if (with_taskwait) {
#pragma omp taskwait
                early = __atomic_load_n(&done, __ATOMIC_RELAXED) != 1 ||
                        __atomic_load_n(&woke, __ATOMIC_RELAXED) != sleepers;
            }
        }
        if (done != 1 || woke != sleepers || early) {
            if (bad++ == 0) {
                first_bad = it;
                fprintf(stderr, "%s: iteration %d: S ran %d times, %d of %d sleepers done%s\n",
                        phase, it, done, woke, sleepers,
                        early ? " (taskwait returned early)" : "");
            }
        }
        progress_tick();
    }
    CHECK(bad == 0, "%s: %d of %d regions went wrong (first: %d)", phase, bad, iters, first_bad);
}

int main(void)
{
    progress_start("sleep_tasks");
    scenario_bounded("a: 8 tasks sleep 20 ms while 32 short tasks run", progress_iters(3));
    scenario_until("b1: n-1 tasks sleep until task S, created before them, ran", 0, 0,
                   progress_iters(100));
    scenario_until("b2: b1 with S created after the sleepers", 1, 0, progress_iters(100));
    scenario_until("b3: b1 with the creator waiting in taskwait", 0, 1, progress_iters(100));
    return test_result();
}
