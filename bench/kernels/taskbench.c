/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * taskbench: EPCC-style task overhead.  Creates NTASKS tasks whose body
 * spins for DELAY nanoseconds, either all from one thread (`single`: one
 * creator inside a single construct, the others execute) or from every
 * thread (`all`: each creates NTASKS/threads), then waits for them.  The
 * driver's core-ns per task minus DELAY is the runtime's cost per task.
 *
 * These are EPCC taskbench's MASTER TASK and PARALLEL TASK tests (Bull,
 * Reid, McDonnell: "A microbenchmark suite for OpenMP tasks", IWOMP 2012),
 * with their task bodies of 0, 10, 100 and 1000 ns.
 *
 * Parameter: "MODE,DELAY_NS,NTASKS" with MODE single or all.
 * The delay loop is calibrated at setup (untimed).
 *
 * Every class is a sweep over the eight (MODE, DELAY_NS) pairs.  The task
 * counts of `small` make each point run about 1-2 s under libgomp with 2
 * threads (measured on the 2-core development machine; libgomp runs the
 * tasks of `all` mostly undeferred, hence their larger counts); medium and
 * large are 5x and 25x small; test makes 20,000 tasks per point.
 */
#include "../common/bench.h"

#include <omp.h>
#include <stdio.h>

static int all_threads;
static long delay_ns;
static long ntasks;
static long delay_iterations;
static long long executed;

static int setup(const char *param)
{
    char mode[16];
    if (sscanf(param, "%15[a-z],%ld,%ld", mode, &delay_ns, &ntasks) != 3 || delay_ns < 0 ||
        delay_ns > 100000000 || ntasks < 1 || ntasks > 100000000000L)
        return -1;
    static const char *const modes[] = {"single", "all", NULL};
    all_threads = bench_choice(mode, modes);
    if (all_threads < 0)
        return -1;
    delay_iterations = bench_delay_iterations(delay_ns);
    return 0;
}

static void body(void)
{
    bench_delay(delay_iterations);
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
        bench_delay(delay_iterations);
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
    {"test", "single,10,20000"},
    {"test", "single,100,20000"},
    {"test", "single,1000,20000"},
    {"test", "all,0,20000"},
    {"test", "all,10,20000"},
    {"test", "all,100,20000"},
    {"test", "all,1000,20000"},
    {"small", "single,0,6000000"},
    {"small", "single,10,6000000"},
    {"small", "single,100,4000000"},
    {"small", "single,1000,2000000"},
    {"small", "all,0,100000000"},
    {"small", "all,10,40000000"},
    {"small", "all,100,8000000"},
    {"small", "all,1000,2000000"},
    {"medium", "single,0,30000000"},
    {"medium", "single,10,30000000"},
    {"medium", "single,100,20000000"},
    {"medium", "single,1000,10000000"},
    {"medium", "all,0,500000000"},
    {"medium", "all,10,200000000"},
    {"medium", "all,100,40000000"},
    {"medium", "all,1000,10000000"},
    {"large", "single,0,150000000"},
    {"large", "single,10,150000000"},
    {"large", "single,100,100000000"},
    {"large", "single,1000,50000000"},
    {"large", "all,0,2500000000"},
    {"large", "all,10,1000000000"},
    {"large", "all,100,200000000"},
    {"large", "all,1000,50000000"},
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
