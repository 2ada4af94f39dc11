/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * micro-scale: what a team costs as it grows (2 to 2,048 threads, far
 * more than the machine's CPUs included), runtime-neutral.  The thread
 * count is OMP_NUM_THREADS (the driver's --threads); one test per run:
 *
 *   create    a new pthread runs one parallel region of P threads and
 *             exits: every runtime starts P - 1 threads for it (the
 *             harness's warm-up team belongs to the initial thread) and
 *             builds the team; 1 operation, the whole of it.
 *   barrier   one region whose threads pass N `omp barrier`s: the latency
 *             of one barrier.
 *   parallel  N regions of P threads, one after another, each with one
 *             barrier inside: the cost of starting and ending a region
 *             (the team is reused) plus one barrier.
 *   fib       fib(N) with a task per call (no cut-off), started by one
 *             thread of the team: the tasks' cost while P - 1 threads look
 *             for work (the `tasks` field counts the tasks, N's calls).
 *   regions   exactly N regions of P threads with B barriers inside each
 *             ("regions,N,B"; not divided by P): a program's phase loop,
 *             the shape of issue 16's target (200 regions x 3 barriers).
 *
 * For barrier and parallel the parameter is the work W: N = max(8, W / P)
 * operations, so that a run stays short although one operation costs more
 * with more threads (on a machine with fewer CPUs than threads, about P
 * context switches).  The driver divides the time by N (the `tasks`
 * field).  `xomp bench --scale` runs the sweep (tools/xomptools/scale.py).
 *
 * Verification: create and parallel: every region had P threads; barrier:
 * every 16th barrier each thread checks that its neighbour arrived there
 * and has not passed the next one; fib: the result.
 *
 * Parameter: "create", "barrier,W", "parallel,W", "fib,N" or "regions,N,B".
 */
#include "../common/bench.h"

#include <omp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

enum scale_test { SCALE_CREATE, SCALE_BARRIER, SCALE_PARALLEL, SCALE_FIB, SCALE_REGIONS };
static const char *const scale_tests[] = {"create", "barrier", "parallel", "fib", "regions", NULL};

static enum scale_test test;
static long work;        /* W, or fib's and regions' N */
static long inner = 1;   /* regions: barriers in each region */
static long long errors; /* verification failures of the last run */
static uint64_t ops;     /* operations the last run completed */

/* Per-thread progress through the barriers, one line each (malloc'd for
 * the team size: more than BENCH_MAX_THREADS threads are allowed here). */
struct arrival {
    _Alignas(64) _Atomic long value;
};
static struct arrival *arrived;

#define BARRIER_CHECK_EVERY 16

static int setup(const char *param)
{
    char name[16];
    int fields = sscanf(param, "%15[a-z],%ld,%ld", name, &work, &inner);
    int t = fields >= 1 ? bench_choice(name, scale_tests) : -1;
    int want = t == SCALE_CREATE ? 1 : t == SCALE_REGIONS ? 3 : 2;
    if (t < 0 || fields != want || (fields >= 2 && work < 1) || (fields == 3 && inner < 0) ||
        (t == SCALE_FIB && work > 40) || work > 1000000000L || inner > 1000000L)
        return -1;
    if (t != SCALE_REGIONS)
        inner = 1;
    test = (enum scale_test)t;
    return 0;
}

static long operations(int threads)
{
    long n = work / threads;
    return n > 8 ? n : 8;
}

static void *create_master(void *arg)
{
    int want = *(int *)arg;
    long bad = 0;
#pragma omp parallel num_threads(want)
    {
        if (omp_get_thread_num() == 0 && omp_get_num_threads() != want)
            bad++;
    }
    return (void *)(size_t)bad;
}

static void run_create(int threads)
{
    pthread_t t;
    void *bad = (void *)1;
    if (pthread_create(&t, NULL, create_master, &threads) == 0)
        pthread_join(t, &bad);
    errors = (long long)(size_t)bad;
    ops = 1;
}

static void run_barrier(int threads)
{
    long n = operations(threads), bad = 0;
    arrived = aligned_alloc(64, sizeof *arrived * (size_t)threads);
    if (!arrived) {
        errors = 1;
        return;
    }
    for (int i = 0; i < threads; i++)
        atomic_init(&arrived[i].value, 0);
#pragma omp parallel reduction(+ : bad)
    {
        int me = omp_get_thread_num(), size = omp_get_num_threads();
        int next = (me + 1) % size;
        bad += size != threads;
        for (long r = 0; r < n; r++) {
            int check = r % BARRIER_CHECK_EVERY == 0;
            /* relaxed: the barrier orders this store before the
             * neighbour's load after it. */
            if (check)
                atomic_store_explicit(&arrived[me].value, r + 1, memory_order_relaxed);
#pragma omp barrier
            /* The neighbour stored r + 1 before this barrier and cannot
             * store again before the next checked one. */
            if (check)
                bad += atomic_load_explicit(&arrived[next].value, memory_order_relaxed) != r + 1;
        }
    }
    free(arrived);
    errors = bad;
    ops = (uint64_t)n;
}

/* n regions, each with `barriers` barriers. */
static void run_regions(int threads, long n, long barriers)
{
    long bad = 0;
    for (long r = 0; r < n; r++) {
#pragma omp parallel
        {
            if (omp_get_thread_num() == 0 && omp_get_num_threads() != threads)
                bad++;
            for (long b = 0; b < barriers; b++) {
#pragma omp barrier
            }
        }
    }
    errors = bad;
    ops = (uint64_t)n;
}

static long fib_tasks(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a) firstprivate(n)
    a = fib_tasks(n - 1);
    b = fib_tasks(n - 2);
#pragma omp taskwait
    return a + b;
}

static long fib_plain(int n)
{
    return n < 2 ? n : fib_plain(n - 1) + fib_plain(n - 2);
}

/* Calls of fib(n): fib(n) = 1 + fib(n - 1) + fib(n - 2) calls. */
static uint64_t fib_calls(int n)
{
    uint64_t a = 1, b = 1; /* calls of fib(0), fib(1) */
    for (int i = 2; i <= n; i++) {
        uint64_t c = 1 + a + b;
        a = b;
        b = c;
    }
    return n < 1 ? 1 : b;
}

static void run_fib(void)
{
    long result = -1;
#pragma omp parallel
#pragma omp single
    result = fib_tasks((int)work);
    errors = result != fib_plain((int)work);
    ops = fib_calls((int)work) - 1; /* the first call is no task */
}

static void run_parallel(void)
{
    int threads = omp_get_max_threads();
    switch (test) {
    case SCALE_CREATE:
        run_create(threads);
        break;
    case SCALE_BARRIER:
        run_barrier(threads);
        break;
    case SCALE_PARALLEL:
        run_regions(threads, operations(threads), 1);
        break;
    case SCALE_REGIONS:
        run_regions(threads, work, inner);
        break;
    case SCALE_FIB:
        run_fib();
        break;
    }
}

/* No serial version: the driver runs none (kernels.py). */
static void run_serial(void)
{
    errors = 0;
    ops = 0;
}

static enum bench_verdict verify(void)
{
    static const char *const why[] = {
        [SCALE_CREATE] = "the region had fewer threads than requested",
        [SCALE_BARRIER] = "a thread passed a barrier before its neighbour arrived",
        [SCALE_PARALLEL] = "a region had fewer threads than requested",
        [SCALE_FIB] = "fib gave a wrong result",
        [SCALE_REGIONS] = "a region had fewer threads than requested",
    };
    if (errors) {
        fprintf(stderr, "micro-scale: %lld checks failed (%s)\n", errors, why[test]);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return ops;
}

static const struct bench_class classes[] = {
    {"test", "create"},          {"test", "barrier,64"},        {"test", "parallel,64"},
    {"test", "fib,12"},          {"test", "regions,8,3"},       {"small", "create"},
    {"small", "barrier,100000"}, {"small", "parallel,50000"},   {"small", "fib,22"},
    {"small", "regions,200,3"},  {"medium", "create"},          {"medium", "barrier,1000000"},
    {"medium", "parallel,500000"}, {"medium", "fib,26"},        {"medium", "regions,2000,3"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "micro-scale",
    .classes = classes,
    .setup = setup,
    .run_parallel = run_parallel,
    .run_serial = run_serial,
    .verify = verify,
    .task_count = task_count,
};

int main(int argc, char **argv)
{
    return bench_main(argc, argv, &kernel);
}
