/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * producer: one producer, many sleepers.  Inside one parallel region a
 * single thread (`omp single`) creates N tasks, each of which sleeps D
 * microseconds (nanosleep) and marks itself done; the other threads wait
 * in the single's implicit barrier and must take the tasks from there.
 *
 * A sleeping task uses no CPU, so the ideal wall time is N x D / threads
 * (N / threads rounded up to whole tasks) whatever the number of cores (oversubscription included): every thread,
 * the producer too once it has queued everything, can sleep in a task at
 * the same moment.  The interesting number is the wall time against that
 * ideal; the kernel prints both, and their ratio, to stderr.  Time above
 * the ideal is the runtime's: how fast a waiting thread notices queued
 * work (spinning, or a wake-up from a sleep), and whether threads block
 * where they could run tasks.
 *
 * Verification: every task ran exactly once (one counter per task).
 *
 * Parameter: "N,D" (tasks, microseconds per task).
 */
#include "../common/bench.h"

#include <errno.h>
#include <omp.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long ntasks, delay_us;
static _Atomic unsigned char *ran; /* per task: how many times it ran */
static int threads_used;
static double measured_s; /* the run's own wall time, for the stderr note */

static int setup(const char *param)
{
    unsigned long long v[2];
    if (bench_parse_uints(param, v, 2) != 2 || v[0] < 1 || v[0] > 100000000ULL ||
        v[1] > 10000000ULL)
        return -1;
    ntasks = (long)v[0];
    delay_us = (long)v[1];
    ran = calloc((size_t)ntasks, sizeof *ran);
    if (!ran) {
        fprintf(stderr, "producer: out of memory\n");
        return -1;
    }
    return 0;
}

static void sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

static void body(long i)
{
    sleep_us(delay_us);
    /* relaxed: verify reads after the region (or the serial loop) ends;
     * atomic so that a task run twice at once is still counted twice. */
    atomic_fetch_add_explicit(&ran[i], 1, memory_order_relaxed);
}

static void reset(void)
{
    for (long i = 0; i < ntasks; i++)
        atomic_store_explicit(&ran[i], 0, memory_order_relaxed);
}

static void run_parallel(void)
{
    reset();
    threads_used = omp_get_max_threads();
    double t0 = bench_now();
#pragma omp parallel
    {
#pragma omp single
        for (long i = 0; i < ntasks; i++) {
#pragma omp task firstprivate(i)
            body(i);
        }
    }
    measured_s = bench_now() - t0;
}

static void run_serial(void)
{
    reset();
    threads_used = 1;
    double t0 = bench_now();
    for (long i = 0; i < ntasks; i++)
        body(i);
    measured_s = bench_now() - t0;
}

static enum bench_verdict verify(void)
{
    return bench_check_ran_once("producer", ran, ntasks);
}

static uint64_t task_count(void)
{
    return (uint64_t)ntasks;
}

static void teardown(void)
{
    free((void *)ran);
}

/* The measured time against the ideal, on stderr (the harness owns
 * stdout); verify runs untimed right after the run. */
static enum bench_verdict verify_and_report(void)
{
    double ideal = (double)((ntasks + threads_used - 1) / threads_used) * (double)delay_us * 1e-6;
    fprintf(stderr, "producer: %ld tasks of %ld us on %d thread(s): %.6f s, ideal %.6f s (%.2fx)\n",
            ntasks, delay_us, threads_used, measured_s, ideal,
            ideal > 0 ? measured_s / ideal : 0.0);
    return verify();
}

static const struct bench_class classes[] = {
    {"test", "64,2000"},
    {"small", "2000,2000"},
    {"medium", "10000,2000"},
    {"large", "40000,2000"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "producer",
    .classes = classes,
    .setup = setup,
    .run_parallel = run_parallel,
    .run_serial = run_serial,
    .verify = verify_and_report,
    .task_count = task_count,
    .teardown = teardown,
};

int main(int argc, char **argv)
{
    return bench_main(argc, argv, &kernel);
}
