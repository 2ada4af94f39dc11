/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Recursive tasks with taskwait: results, and exactly-once execution counted
 * per task (every created task runs once, before the taskwait returns). */
#include "xomp_test.h"

static long tasks_run;

static long fib(int n)
{
    if (n < 2)
        return n;
    long x, y;
#pragma omp task shared(x)
    {
        x = fib(n - 1);
        __atomic_add_fetch(&tasks_run, 1, __ATOMIC_RELAXED);
    }
#pragma omp task shared(y)
    {
        y = fib(n - 2);
        __atomic_add_fetch(&tasks_run, 1, __ATOMIC_RELAXED);
    }
#pragma omp taskwait
    return x + y;
}

static long fib_tasks(int n)
{
    return n < 2 ? 0 : 2 + fib_tasks(n - 1) + fib_tasks(n - 2);
}

int main(void)
{
    for (int n = 0; n <= 24; n += 3) {
        long result = -1;
        tasks_run = 0;
#pragma omp parallel
#pragma omp single
        result = fib(n);
        long a = 0, b = 1;
        for (int i = 0; i < n; i++) {
            long t = a + b;
            a = b;
            b = t;
        }
        CHECK(result == a, "fib(%d) = %ld, expected %ld", n, result, a);
        CHECK(tasks_run == fib_tasks(n), "fib(%d) ran %ld tasks, created %ld", n, tasks_run,
              fib_tasks(n));
    }
    /* Every thread creating tasks at once. */
    long total = 0;
#pragma omp parallel reduction(+ : total)
    {
        long r = fib(18);
        total += r;
    }
    CHECK(total == 2584L * omp_get_max_threads(), "parallel fib(18) sum %ld", total);
    return test_result();
}
