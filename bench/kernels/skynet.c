/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * skynet: the common task-runtime stress benchmark.  A tree in which every
 * inner node spawns 10 child tasks and waits for them; the leaves (numbered
 * 0..LEAVES-1 from left to right) return their own number and every inner
 * node returns the sum of its children, so the root returns
 * LEAVES*(LEAVES-1)/2.  Leaves are tasks too and do no other work, so this
 * measures almost nothing but task creation, scheduling and taskwait.
 *
 * Task structure: each inner node creates 10 tasks (each writes its result
 * into its own slot of an array owned by the parent), then one taskwait.
 * The tasks are untied, like fib's.
 * With LEAVES = 10^L there are 10 + 100 + ... + 10^L = (10*LEAVES - 10)/9
 * tasks.
 *
 * Parameter: "LEAVES", a power of ten from 1 to 10^9.
 *
 * Classes (10^6 leaves, the customary size, takes only ~0.1 s under libgomp
 * with 2 threads, so small is 10^7):
 *   test   10^4 leaves (11,110 tasks)
 *   small  10^7 leaves (11,111,110 tasks)
 *   medium 10^8 leaves (111,111,110 tasks)
 *   large  10^9 leaves (1,111,111,110 tasks)
 *
 * Verification: the root sum must equal LEAVES*(LEAVES-1)/2.
 */
#include "../common/bench.h"

#include <stdio.h>
#include <stdlib.h>

#define SKYNET_FANOUT 10
#define SKYNET_MAX_LEAVES 1000000000ULL

static uint64_t sky_leaves;
static uint64_t sky_result;

/* The subtree whose leftmost leaf is `first` and which has `size` leaves. */
static uint64_t sky_serial(uint64_t first, uint64_t size)
{
    if (size == 1)
        return first;
    uint64_t step = size / SKYNET_FANOUT, total = 0;
    for (int i = 0; i < SKYNET_FANOUT; i++)
        total += sky_serial(first + (uint64_t)i * step, step);
    return total;
}

static uint64_t sky_task(uint64_t first, uint64_t size)
{
    if (size == 1)
        return first;
    uint64_t step = size / SKYNET_FANOUT;
    uint64_t part[SKYNET_FANOUT];
    for (int i = 0; i < SKYNET_FANOUT; i++) {
#pragma omp task untied firstprivate(i, first, step) shared(part)
        part[i] = sky_task(first + (uint64_t)i * step, step);
    }
#pragma omp taskwait
    uint64_t total = 0;
    for (int i = 0; i < SKYNET_FANOUT; i++)
        total += part[i];
    return total;
}

static int setup(const char *param)
{
    unsigned long long v;
    if (bench_parse_uints(param, &v, 1) != 1 || v < 1 || v > SKYNET_MAX_LEAVES) {
        fprintf(stderr, "skynet: LEAVES must be a power of ten from 1 to %llu\n",
                SKYNET_MAX_LEAVES);
        return -1;
    }
    uint64_t p = 1;
    while (p < v)
        p *= SKYNET_FANOUT;
    if (p != v) {
        fprintf(stderr, "skynet: LEAVES must be a power of ten\n");
        return -1;
    }
    sky_leaves = v;
    return 0;
}

static void run_parallel(void)
{
#pragma omp parallel
#pragma omp single
    sky_result = sky_task(0, sky_leaves);
}

static void run_serial(void)
{
    sky_result = sky_serial(0, sky_leaves);
}

static enum bench_verdict verify(void)
{
    uint64_t n = sky_leaves;
    uint64_t expected = n * (n - 1) / 2; /* exact: n <= 10^9 */
    if (sky_result != expected) {
        fprintf(stderr, "skynet(%llu): got %llu, expected %llu\n", (unsigned long long)n,
                (unsigned long long)sky_result, (unsigned long long)expected);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

/* Every node except the root is a task: 10 + 100 + ... + LEAVES. */
static uint64_t task_count(void)
{
    return (SKYNET_FANOUT * sky_leaves - SKYNET_FANOUT) / (SKYNET_FANOUT - 1);
}

static const struct bench_class classes[] = {
    {"test", "10000"},
    {"small", "10000000"},
    {"medium", "100000000"},
    {"large", "1000000000"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "skynet",
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
