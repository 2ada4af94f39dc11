/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * contend: a loop where fewer threads are faster.  Each iteration reads one
 * byte of an input stream and adds one to a bin of a small histogram
 * shared by every thread (eight 64-bit bins on one cache line, atomic adds):
 * every add by a second thread takes the line away from the first, so the
 * coherence traffic between cores, not the work, sets the time, and the
 * loop runs fastest on one core (on a NUMA machine, inside one node).  The
 * interference ILAN's moldability search is meant to find: a taskloop
 * that the runtime gives to fewer threads than the team has.
 *
 * As a taskloop (one creator, the loop's taskgroup between repetitions) or
 * a worksharing loop (schedule(static)).  The result line's `tasks` counts
 * loop executions.  Verification: the histogram equals REPS times the
 * serial count, bin by bin.
 *
 * Parameter: "FORM,N,REPS", FORM taskloop or for.
 */
#include "../common/bench.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARMUP_REPS 12
#define BINS 8

static int form;
static long n, reps;
static unsigned char *input;
static _Alignas(64) uint64_t hist[BINS];

static inline void count_one(long i)
{
    __atomic_fetch_add(&hist[input[i] % BINS], 1, __ATOMIC_RELAXED);
}

BENCH_LOOP_FORMS(contend, 0, n, count_one(i))

static int setup(const char *param)
{
    if (bench_loop_size_reps(param, &form, &n, &reps, 1, (1ull << 34)))
        return -1;
    input = malloc((size_t)n);
    if (!input) {
        fprintf(stderr, "contend: out of memory\n");
        return -1;
    }
    uint64_t state = 42;
    for (long i = 0; i < n; i++)
        input[i] = (unsigned char)(bench_rand_next(&state) >> 56);
    return 0;
}

static void warm_up(void)
{
    contend(form, WARMUP_REPS);
}

static void run_parallel(void)
{
    memset(hist, 0, sizeof hist);
    contend(form, reps);
}

static void run_serial(void)
{
    memset(hist, 0, sizeof hist);
    for (long rep = 0; rep < reps; rep++)
        for (long i = 0; i < n; i++)
            count_one(i);
}

static enum bench_verdict verify(void)
{
    uint64_t want[BINS] = {0};
    for (long i = 0; i < n; i++)
        want[input[i] % BINS] += (uint64_t)reps;
    for (int k = 0; k < BINS; k++)
        if (hist[k] != want[k]) {
            fprintf(stderr, "contend: bin %d holds %llu, expected %llu\n", k,
                    (unsigned long long)hist[k], (unsigned long long)want[k]);
            return BENCH_VERIFY_FAIL;
        }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return (uint64_t)reps;
}

static void teardown(void)
{
    free(input);
}

static const struct bench_class classes[] = {
    BENCH_LOOP_CLASS("test", "20000,5"),
    BENCH_LOOP_CLASS("small", "2000000,40"),
    BENCH_LOOP_CLASS("medium", "8000000,40"),
    BENCH_LOOP_CLASS("large", "32000000,40"),
    {NULL, NULL},
};

BENCH_DEFINE_MAIN("contend", classes)
