/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Threads that come and go: 1,000 short-lived pthreads (300 in sanitizer
 * builds), one after another, each run three parallel regions of 4 threads
 * (a reduction, a barrier, tasks) and exit -- a server whose thread pool
 * recycles its threads.  Each pthread is the master of its own team; when
 * it exits, its team's threads must go back to the pool or away.
 *
 * Checked: every region's result; at the end, at most 4 + 2 threads (the
 * initial thread, the 3 pool threads one team needs, 2 spare: libgomp ends
 * with 1); and the resident memory did not grow with the number of
 * pthreads (a team and 3 threads kept per pthread cost some 20 KB each,
 * 20 MB here; allowed: 2 MB past the state after the first 100 pthreads).
 * The memory check is left out under the sanitizers, whose own bookkeeping
 * (ASan's quarantine of freed memory) grows by design.
 */
#include "xomp_test.h"
#include "proc_status.h"

#include <pthread.h>

#define TEAM 4
#define REGIONS 3
#define WARM_UP 100

#if XOMP_TEST_SANITIZED
#define PTHREADS 300
#else
#define PTHREADS 1000
#endif

static long failures;

static void *one_pthread(void *arg)
{
    long seed = (long)(size_t)arg;
    for (int r = 0; r < REGIONS; r++) {
        long sum = 0, tasks = 0, size = 0;
#pragma omp parallel num_threads(TEAM) reduction(+ : sum, tasks)
        {
            sum += omp_get_thread_num() + seed;
#pragma omp barrier
#pragma omp single
            size = omp_get_num_threads();
#pragma omp for
            for (int i = 0; i < 8; i++) {
#pragma omp task shared(tasks)
                __atomic_add_fetch(&tasks, 1, __ATOMIC_RELAXED);
            }
        }
        long want = TEAM * (TEAM - 1) / 2 + TEAM * seed;
        if (size != TEAM || sum != want || tasks != 8)
            __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

static void run_pthreads(int from, int to)
{
    for (int i = from; i < to; i++) {
        pthread_t t;
        int err = pthread_create(&t, NULL, one_pthread, (void *)(size_t)i);
        CHECK(err == 0, "pthread_create: %s", strerror(err));
        if (err)
            return;
        pthread_join(t, NULL);
    }
}

int main(void)
{
    omp_set_dynamic(0);
    run_pthreads(0, WARM_UP);
    long warm_threads = proc_threads_settle(TEAM + 2, 10);
    long warm_rss = proc_rss_kb();
    run_pthreads(WARM_UP, PTHREADS);
    long threads = proc_threads_settle(TEAM + 2, 10);
    long rss = proc_rss_kb();
    fprintf(stderr, "pthread_churn: %d pthreads: %ld threads left (%ld after %d), RSS %ld kB "
                    "(%ld kB after %d)\n",
            PTHREADS, threads, warm_threads, WARM_UP, rss, warm_rss, WARM_UP);
    CHECK(failures == 0, "%ld regions gave wrong results", failures);
    CHECK(threads <= TEAM + 2, "%ld threads left after %d pthreads exited (at most %d)", threads,
          PTHREADS, TEAM + 2);
    if (!XOMP_TEST_SANITIZED)
        CHECK(rss - warm_rss <= 2048, "resident memory grew by %ld kB from pthread %d to %d",
              rss - warm_rss, WARM_UP, PTHREADS);
    return test_result();
}
