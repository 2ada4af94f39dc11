/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * triad: STREAM's triad, a[i] = b[i] + s * c[i] over N doubles, REPS times,
 * as a taskloop (one creator, the loop's implicit taskgroup between
 * repetitions) or as a worksharing loop (schedule(static), its barrier).
 * Memory-bound: three arrays of N doubles stream through each repetition,
 * and a runtime that sends the same block of iterations to the same core
 * (NUMA node) every time keeps the data where it was first touched.  The
 * arrays are first touched by the same form of loop (a parallel
 * initialisation), as a NUMA-aware program would.
 *
 * The result line's `tasks` counts loop executions (REPS), not tasks.
 * Verification: every a[i] equals b[i] + s * c[i] bitwise (each element is
 * one expression of the inputs, whatever the schedule).
 *
 * Parameter: "FORM,N,REPS", FORM taskloop or for.
 */
#include "../common/bench.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARMUP_REPS 12
static const double scalar = 3.0;

static int form;
static long n, reps;
static double *a, *b, *c;

static inline double b_of(long i)
{
    return (double)(i % 1000) * 0.5;
}

static inline double c_of(long i)
{
    return (double)(i % 777) * 0.25;
}

static inline void init_one(long i)
{
    a[i] = 0.0;
    b[i] = b_of(i);
    c[i] = c_of(i);
}

static inline void triad_one(long i)
{
    a[i] = b[i] + scalar * c[i];
}

BENCH_LOOP_FORMS(init_arrays, 0, n, init_one(i))
BENCH_LOOP_FORMS(triad, 0, n, triad_one(i))

static int setup(const char *param)
{
    if (bench_loop_size_reps(param, &form, &n, &reps, 1, (1ull << 32)))
        return -1;
    size_t bytes = ((size_t)n * sizeof(double) + 63) & ~(size_t)63;
    a = aligned_alloc(64, bytes);
    b = aligned_alloc(64, bytes);
    c = aligned_alloc(64, bytes);
    if (!a || !b || !c) {
        fprintf(stderr, "triad: out of memory\n");
        return -1;
    }
    return 0;
}

static void warm_up(void)
{
    init_arrays(form, 1); /* first touch in the kernel's form */
    triad(form, WARMUP_REPS);
}

static void run_parallel(void)
{
    memset(a, 0, (size_t)n * sizeof(double));
    triad(form, reps);
}

static void run_serial(void)
{
    for (long i = 0; i < n; i++)
        init_one(i);
    for (long r = 0; r < reps; r++)
        for (long i = 0; i < n; i++)
            triad_one(i);
}

static enum bench_verdict verify(void)
{
    long bad = 0, first = -1;
    for (long i = 0; i < n; i++) {
        double want = b_of(i) + scalar * c_of(i);
        if (memcmp(&a[i], &want, sizeof want) != 0 && bad++ == 0)
            first = i;
    }
    if (bad)
        fprintf(stderr, "triad: %ld elements wrong, first a[%ld] = %.17g\n", bad, first, a[first]);
    return bad ? BENCH_VERIFY_FAIL : BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return (uint64_t)reps; /* loop executions (see the top) */
}

static void teardown(void)
{
    free(a);
    free(b);
    free(c);
}

static const struct bench_class classes[] = {
    BENCH_LOOP_CLASS("test", "20000,5"),
    BENCH_LOOP_CLASS("small", "4000000,100"),
    BENCH_LOOP_CLASS("medium", "16000000,100"),
    BENCH_LOOP_CLASS("large", "64000000,100"),
    {NULL, NULL},
};

BENCH_DEFINE_MAIN("triad", classes)
