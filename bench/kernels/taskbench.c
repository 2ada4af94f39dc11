/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * taskbench: EPCC-style task overhead.  Creates NTASKS tasks whose body
 * spins for DELAY nanoseconds, either all from one thread (`single`: one
 * creator inside a single construct, the others execute) or from every
 * thread (`all`: each creates NTASKS/threads), then waits for them.  The
 * driver's core-ns per task minus DELAY is the runtime's cost per task.
 *
 * Parameter: "MODE,DELAY_NS,NTASKS" with MODE single or all.
 * The delay loop is calibrated at setup (untimed).
 */
#include "../common/bench.h"

#include <omp.h>
#include <stdio.h>
#include <string.h>

static int all_threads;
static long delay_ns;
static long ntasks;
static double iterations_per_ns;
static long delay_iterations;
static long long executed;

/* A loop the compiler cannot remove or shorten. */
static void delay(long iterations)
{
    for (long i = 0; i < iterations; i++)
        __asm__ __volatile__("" : : "r"(i) : "memory");
}

static void calibrate(void)
{
    long n = 1000000;
    for (;;) {
        double t0 = bench_now();
        delay(n);
        double dt = bench_now() - t0;
        if (dt > 0.02) {
            iterations_per_ns = (double)n / (dt * 1e9);
            break;
        }
        n *= 4;
    }
    delay_iterations = (long)(iterations_per_ns * (double)delay_ns + 0.5);
}

static int setup(const char *param)
{
    char mode[16];
    if (sscanf(param, "%15[a-z],%ld,%ld", mode, &delay_ns, &ntasks) != 3 || delay_ns < 0 ||
        delay_ns > 100000000 || ntasks < 1 || ntasks > 1000000000L)
        return -1;
    if (!strcmp(mode, "single"))
        all_threads = 0;
    else if (!strcmp(mode, "all"))
        all_threads = 1;
    else
        return -1;
    calibrate();
    return 0;
}

static void body(void)
{
    delay(delay_iterations);
    /* Only this thread writes its slot: a plain increment. */
    bench_task_counters[omp_get_thread_num()].value++;
}

static void run_parallel(void)
{
    bench_counters_reset();
#pragma omp parallel
    {
        if (all_threads) {
            int n = omp_get_num_threads(), me = omp_get_thread_num();
            long mine = ntasks / n + (me < ntasks % n ? 1 : 0);
            for (long i = 0; i < mine; i++) {
#pragma omp task
                body();
            }
        } else {
#pragma omp single
            for (long i = 0; i < ntasks; i++) {
#pragma omp task
                body();
            }
        }
    }
    executed = (long long)bench_counters_sum();
}

static void run_serial(void)
{
    for (long i = 0; i < ntasks; i++)
        delay(delay_iterations);
    executed = ntasks;
}

static enum bench_verdict verify(void)
{
    if (executed != ntasks) {
        fprintf(stderr, "taskbench: %lld task bodies ran, %ld tasks were created\n", executed,
                ntasks);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return (uint64_t)ntasks;
}

static const struct bench_class classes[] = {
    {"test", "single,0,20000"},
    {"small", "single,0,4000000"},
    {"medium", "all,100,10000000"},
    {"large", "all,1000,10000000"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "taskbench",
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
