/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Tasks and threads that block in pthread primitives (outside any OpenMP
 * task scheduling point).
 *
 * (a) mutex: thread 0 runs a task H at once (if(0)); H locks a pthread
 *     mutex, creates n children and waits for them (taskwait).  The other
 *     threads pass a taskyield with nothing to do, then block in
 *     pthread_mutex_lock on H's mutex.  H's children can only run on
 *     thread 0.  On odd iterations H creates them only once the others are
 *     about to block.
 * (b) condition variable: a single creates task A, which waits on a
 *     condition variable, then task B, which signals it (B is queued after
 *     A).  With 2 or more threads B must run while A waits.  The creator
 *     goes on to the barrier (b1), or waits in taskwait (b2); (b3): B is
 *     created before A (a creator that runs its newest task first must not
 *     keep B from the others while it waits in A).  Skipped with 1 thread
 *     (B could only run after A).
 * (c) pthread barrier: a single creates n tasks (n: the team size) that
 *     meet at a pthread_barrier of n, so every thread must run one of them
 *     at the same time.  The creator goes on to the barrier (c1), or waits
 *     in taskwait (c2).
 *
 * Checks: every task runs exactly once; in (c) the n tasks ran on n
 * different threads.  A hang fails through the watchdog.
 */
#include "xomp_test.h"
#include "progress.h"

static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;

static void scenario_mutex(const char *phase, int iters)
{
    if (!progress_phase(phase))
        return;
    int bad = 0, first_bad = -1;
    for (int it = 0; it < iters; it++) {
        int ran = 0, missing = -1, tasks = 0, held = 0, arrived = 0, passes = 0, n = 1;
#pragma omp parallel shared(ran, missing, tasks, held, arrived, passes, n)
        {
            int me = omp_get_thread_num();
            if (me == 0) {
                n = omp_get_num_threads();
                tasks = n;
#pragma omp task if (0) shared(ran, missing, tasks, held, arrived, n)
                {
                    pthread_mutex_lock(&mutex);
                    __atomic_store_n(&held, 1, __ATOMIC_RELEASE);
                    if (it & 1) {
                        while (__atomic_load_n(&arrived, __ATOMIC_ACQUIRE) < n - 1)
                            progress_relax();
                    }
                    for (int k = 0; k < tasks; k++) {
#pragma omp task shared(ran)
                        __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
                    }
#pragma omp taskwait
                    missing = tasks - __atomic_load_n(&ran, __ATOMIC_RELAXED);
                    pthread_mutex_unlock(&mutex);
                }
            } else {
#pragma omp taskyield
                while (!__atomic_load_n(&held, __ATOMIC_ACQUIRE))
                    progress_relax();
                __atomic_add_fetch(&arrived, 1, __ATOMIC_RELEASE);
                pthread_mutex_lock(&mutex);
                passes++;
                pthread_mutex_unlock(&mutex);
            }
        }
        if (ran != tasks || missing != 0 || passes != n - 1) {
            if (bad++ == 0) {
                first_bad = it;
                fprintf(stderr, "%s: iteration %d: %d of %d tasks ran, %d not done at taskwait, "
                                "%d of %d mutex passes\n",
                        phase, it, ran, tasks, missing, passes, n - 1);
            }
        }
        progress_tick();
    }
    CHECK(bad == 0, "%s: %d of %d regions went wrong (first: %d)", phase, bad, iters, first_bad);
}

static pthread_mutex_t cond_mutex = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond = PTHREAD_COND_INITIALIZER;

static void scenario_cond(const char *phase, int signaller_first, int with_taskwait, int iters)
{
    if (!progress_phase(phase))
        return;
    int bad = 0, first_bad = -1;
    for (int it = 0; it < iters; it++) {
        int signalled = 0, ran_a = 0, ran_b = 0;
#pragma omp parallel shared(signalled, ran_a, ran_b)
#pragma omp single
        {
            for (int k = 0; k < 2; k++) {
                if (k == signaller_first) { /* the waiter: created second iff signaller_first */
#pragma omp task shared(signalled, ran_a)
                    {
                        pthread_mutex_lock(&cond_mutex);
                        while (!__atomic_load_n(&signalled, __ATOMIC_RELAXED))
                            pthread_cond_wait(&cond, &cond_mutex);
                        pthread_mutex_unlock(&cond_mutex);
                        __atomic_add_fetch(&ran_a, 1, __ATOMIC_RELAXED);
                    }
                } else {
#pragma omp task shared(signalled, ran_b)
                    {
                        pthread_mutex_lock(&cond_mutex);
                        __atomic_store_n(&signalled, 1, __ATOMIC_RELAXED);
                        pthread_cond_broadcast(&cond);
                        pthread_mutex_unlock(&cond_mutex);
                        __atomic_add_fetch(&ran_b, 1, __ATOMIC_RELAXED);
                    }
                }
            }
            if (with_taskwait) {
#pragma omp taskwait
                if (ran_a != 1 || ran_b != 1)
                    ran_a = -100; /* reported below */
            }
        }
        if (ran_a != 1 || ran_b != 1) {
            if (bad++ == 0) {
                first_bad = it;
                fprintf(stderr, "%s: iteration %d: waiter ran %d times, signaller %d times%s\n",
                        phase, it, ran_a < 0 ? ran_a + 100 : ran_a, ran_b,
                        ran_a < 0 ? " (taskwait returned early)" : "");
            }
        }
        progress_tick();
    }
    CHECK(bad == 0, "%s: %d of %d regions went wrong (first: %d)", phase, bad, iters, first_bad);
}

static pthread_barrier_t pbar;

static void scenario_barrier(const char *phase, int n, int with_taskwait, int iters)
{
    if (!progress_phase(phase))
        return;
    int bad = 0, first_bad = -1;
    int *who = malloc(sizeof(int) * (size_t)n);
    for (int it = 0; it < iters; it++) {
        int ran = 0, size = 0, early = 0;
        for (int k = 0; k < n; k++)
            who[k] = -1;
#pragma omp parallel shared(ran, size, early)
#pragma omp single
        {
            size = omp_get_num_threads();
            if (size == n) {
                for (int k = 0; k < n; k++) {
#pragma omp task firstprivate(k) shared(ran)
                    {
                        who[k] = omp_get_thread_num();
                        pthread_barrier_wait(&pbar);
                        __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
                    }
                }
                if (with_taskwait) {
#pragma omp taskwait
                    early = n - __atomic_load_n(&ran, __ATOMIC_RELAXED);
                }
            }
        }
        int distinct = 1;
        for (int a = 0; a < n && size == n; a++)
            for (int b = a + 1; b < n; b++)
                if (who[a] == who[b] || who[a] < 0)
                    distinct = 0;
        if (size != n || ran != n || early != 0 || !distinct) {
            if (bad++ == 0) {
                first_bad = it;
                fprintf(stderr, "%s: iteration %d: team of %d (expected %d), %d of %d tasks ran, "
                                "%d not done at taskwait, tasks on distinct threads: %s\n",
                        phase, it, size, n, ran, n, early, distinct ? "yes" : "no");
            }
        }
        progress_tick();
    }
    free(who);
    CHECK(bad == 0, "%s: %d of %d regions went wrong (first: %d)", phase, bad, iters, first_bad);
}

int main(void)
{
    progress_start("pthread_block");
    int n = progress_team_size();
    scenario_mutex("a: task holds a pthread mutex across taskwait, others block on it",
                   progress_iters(1500));
    if (n >= 2) {
        scenario_cond("b1: task waits on a condition signalled by a task queued after it",
                      0, 0, progress_iters(1000));
        scenario_cond("b2: b1, the creator waits in taskwait", 0, 1, progress_iters(1000));
        scenario_cond("b3: b1 with the signalling task queued before the waiting one", 1, 0,
                      progress_iters(1000));
    } else {
        fprintf(stderr, "pthread_block: 1 thread: skipping the condition variable cases\n");
    }
    pthread_barrier_init(&pbar, NULL, (unsigned)n);
    scenario_barrier("c1: n tasks meet at a pthread barrier of n in a team of n", n, 0,
                     progress_iters(500));
    scenario_barrier("c2: c1, the creator waits in taskwait", n, 1, progress_iters(500));
    pthread_barrier_destroy(&pbar);
    return test_result();
}
