/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * schedbench: EPCC schedbench-style loop scheduling overhead.  REPS parallel
 * loops of ITERS iterations, each iteration a delay of DELAY nanoseconds,
 * with schedule(KIND, CHUNK) chosen at run time (omp_set_schedule and
 * schedule(runtime), so one binary covers static, dynamic and guided).  The
 * reported "tasks" are the chunks handed out (ITERS/CHUNK per loop, as the
 * schedule defines them for static and dynamic; guided reports the same
 * nominal count), so the driver's core-ns per task is the cost per chunk.
 *
 * Parameter: "KIND,CHUNK,ITERS,REPS,DELAY_NS" with KIND static, dynamic or
 * guided.
 */
#include "../common/bench.h"

#include <omp.h>
#include <stdio.h>

static omp_sched_t kind;
static int chunk;
static long iters, reps, delay_ns, delay_iterations;
static long long executed;

static int setup(const char *param)
{
    char k[16];
    if (sscanf(param, "%15[a-z],%d,%ld,%ld,%ld", k, &chunk, &iters, &reps, &delay_ns) != 5 ||
        chunk < 1 || iters < 1 || iters > 1000000000L || reps < 1 || reps > 1000000 ||
        delay_ns < 0 || delay_ns > 100000000)
        return -1;
    static const char *const kinds[] = {"static", "dynamic", "guided", NULL};
    static const omp_sched_t kind_of[] = {omp_sched_static, omp_sched_dynamic, omp_sched_guided};
    int i = bench_choice(k, kinds);
    if (i < 0)
        return -1;
    kind = kind_of[i];
    delay_iterations = bench_delay_iterations(delay_ns);
    return 0;
}

static void run_parallel(void)
{
    bench_counters_reset();
    /* Set before the region: the implicit tasks inherit run-sched-var. */
    omp_set_schedule(kind, chunk);
#pragma omp parallel
    {
        long mine = 0;
        for (long r = 0; r < reps; r++) {
#pragma omp for schedule(runtime)
            for (long i = 0; i < iters; i++) {
                bench_delay(delay_iterations);
                mine++;
            }
        }
        bench_task_counters[omp_get_thread_num()].value = (uint64_t)mine;
    }
    executed = (long long)bench_counters_sum();
}

static void run_serial(void)
{
    for (long r = 0; r < reps; r++)
        for (long i = 0; i < iters; i++)
            bench_delay(delay_iterations);
    executed = (long long)reps * iters;
}

static enum bench_verdict verify(void)
{
    if (executed != (long long)reps * iters) {
        fprintf(stderr, "schedbench: %lld iterations ran, expected %lld\n", executed,
                (long long)reps * iters);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return (uint64_t)reps * (uint64_t)((iters + chunk - 1) / chunk);
}

static const struct bench_class classes[] = {
    {"test", "dynamic,1,10000,10,0"},
    {"small", "dynamic,1,100000,400,10"},
    {"medium", "dynamic,1,1000000,100,10"},
    {"large", "guided,1,1000000,1000,10"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "schedbench",
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
