/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * One producer, coarse tasks, every other thread idle in a barrier.
 *
 * (a) A single creates 64 tasks that sleep 2 ms each; the other threads
 *     wait in the single's barrier.  Every task must run once.  With 2 or
 *     more threads the idle ones should take some: the round is repeated
 *     (up to 10 times) until tasks ran on at least 2 threads, and the test
 *     fails only if every round ran all 64 on one thread (the specification
 *     does not promise it, but 10 rounds of 128 ms of sleeping tasks on one
 *     thread while the others idle in a barrier is a scheduler that does
 *     not balance).
 * (b) With 2 or more threads: a single creates 64 tasks that sleep 200 us,
 *     then waits outside any scheduling point (sleeping in 1 ms steps)
 *     until all of them have run: the idle threads in the barrier must take
 *     every one from the busy producer (which may only have run some at
 *     their creation, a task scheduling point).  With 1 thread the producer
 *     just goes on to the barrier.
 * No timing is asserted.  A hang fails through the watchdog.
 */
#include "xomp_test.h"
#include "progress.h"

enum { TASKS = 64, MAX_ROUNDS = 10 };

static int runs[TASKS], where[TASKS];

static void reset(void)
{
    for (int k = 0; k < TASKS; k++)
        runs[k] = 0, where[k] = -1;
}

static int check_runs(const char *phase, int round)
{
    int ok = 1;
    for (int k = 0; k < TASKS; k++) {
        CHECK(runs[k] == 1, "%s: round %d: task %d ran %d times", phase, round, k, runs[k]);
        ok &= runs[k] == 1;
    }
    return ok;
}

static void scenario_barrier(const char *phase)
{
    if (!progress_phase(phase))
        return;
    int size = 1, threads_used = 0, round;
    for (round = 0; round < MAX_ROUNDS; round++) {
        reset();
#pragma omp parallel shared(size)
#pragma omp single
        {
            size = omp_get_num_threads();
            for (int k = 0; k < TASKS; k++) {
#pragma omp task firstprivate(k)
                {
                    where[k] = omp_get_thread_num();
                    progress_sleep_us(2000);
                    __atomic_add_fetch(&runs[k], 1, __ATOMIC_RELAXED);
                }
            }
        }
        progress_tick();
        if (!check_runs(phase, round))
            return;
        threads_used = 0;
        for (int k = 0; k < TASKS; k++) {
            int seen = 0;
            for (int j = 0; j < k; j++)
                seen |= where[j] == where[k];
            threads_used += !seen;
        }
        if (size == 1 || threads_used >= 2)
            break;
    }
    CHECK(size == 1 || threads_used >= 2,
          "%s: in each of %d rounds one thread ran all %d sleeping tasks while %d threads were "
          "idle in the barrier",
          phase, MAX_ROUNDS, TASKS, size - 1);
}

static void scenario_busy_producer(const char *phase, int rounds)
{
    if (!progress_phase(phase))
        return;
    for (int round = 0; round < rounds; round++) {
        reset();
        int done = 0, by_producer = 0, size = 1;
#pragma omp parallel shared(done, by_producer, size)
#pragma omp single
        {
            size = omp_get_num_threads();
            int me = omp_get_thread_num();
            for (int k = 0; k < TASKS; k++) {
#pragma omp task firstprivate(k) shared(done, by_producer)
                {
                    where[k] = omp_get_thread_num();
                    if (where[k] == me)
                        __atomic_add_fetch(&by_producer, 1, __ATOMIC_RELAXED);
                    progress_sleep_us(200);
                    __atomic_add_fetch(&runs[k], 1, __ATOMIC_RELAXED);
                    __atomic_add_fetch(&done, 1, __ATOMIC_RELEASE);
                }
            }
            if (size >= 2) {
                /* Busy outside any scheduling point until the others ran
                 * every task. */
                while (__atomic_load_n(&done, __ATOMIC_ACQUIRE) < TASKS)
                    progress_sleep_us(1000);
            }
        }
        progress_tick();
        check_runs(phase, round);
        if (getenv("XOMP_TEST_VERBOSE"))
            fprintf(stderr, "%s: round %d: %d of %d tasks ran on the producer (at creation)\n",
                    phase, round, by_producer, TASKS);
    }
}

int main(void)
{
    progress_start("coarse_producer");
    scenario_barrier("a: one producer, 64 tasks of 2 ms, the others idle in the barrier");
    scenario_busy_producer("b: the producer sleeps (no scheduling point) until the idle threads "
                           "ran its 64 tasks",
                           progress_iters(10));
    return test_result();
}
