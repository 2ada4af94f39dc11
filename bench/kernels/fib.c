/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * fib: the naive doubly recursive Fibonacci, with BOTS's task structure: each
 * call above the cutoff spawns two tasks (shared result slots) and waits for
 * them with taskwait.  With no cutoff every call is a task, which makes this
 * the purest measure of per-task cost.
 *
 * Parameter: "N" or "N,CUTOFF" (calls with n < CUTOFF run serially).
 */
#include "../common/bench.h"

#include <stdio.h>

static int fib_n;
static int fib_cutoff;
static uint64_t fib_result;

static uint64_t fib_serial(int n)
{
    return n < 2 ? (uint64_t)n : fib_serial(n - 1) + fib_serial(n - 2);
}

static uint64_t fib_task(int n)
{
    if (n < 2)
        return (uint64_t)n;
    if (n < fib_cutoff)
        return fib_serial(n);
    uint64_t x, y;
#pragma omp task untied shared(x) firstprivate(n)
    x = fib_task(n - 1);
#pragma omp task untied shared(y) firstprivate(n)
    y = fib_task(n - 2);
#pragma omp taskwait
    return x + y;
}

static int setup(const char *param)
{
    fib_cutoff = 0;
    int got = sscanf(param, "%d,%d", &fib_n, &fib_cutoff);
    return (got >= 1 && fib_n >= 0 && fib_n <= 90 && fib_cutoff >= 0) ? 0 : -1;
}

static void run_parallel(void)
{
#pragma omp parallel
#pragma omp single
    fib_result = fib_task(fib_n);
}

static void run_serial(void)
{
    fib_result = fib_serial(fib_n);
}

static enum bench_verdict verify(void)
{
    /* Iterative reference: exact for every n this kernel accepts. */
    uint64_t a = 0, b = 1;
    for (int i = 0; i < fib_n; i++) {
        uint64_t t = a + b;
        a = b;
        b = t;
    }
    if (a != fib_result) {
        fprintf(stderr, "fib(%d): got %llu, expected %llu\n", fib_n,
                (unsigned long long)fib_result, (unsigned long long)a);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

/* Tasks created by fib_task(n): t(n) = 2 + t(n-1) + t(n-2) above the cutoff. */
static uint64_t tasks_below(int n)
{
    if (n < 2 || n < fib_cutoff)
        return 0;
    uint64_t a = 0, b = 0; /* t(n-2), t(n-1) */
    int start = fib_cutoff > 2 ? fib_cutoff : 2;
    /* t(k) = 0 for k < start; iterate upwards. */
    for (int k = start; k <= n; k++) {
        uint64_t t = 2 + b + a;
        a = b;
        b = t;
    }
    return b;
}

static uint64_t task_count(void)
{
    return tasks_below(fib_n);
}

static const struct bench_class classes[] = {
    {"test", "20"}, {"small", "32"}, {"medium", "40"}, {"large", "42"}, {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "fib",
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
