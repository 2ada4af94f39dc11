/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * heat: the 2-D Jacobi (heat) stencil of bench/common/jacobi.h over many
 * sweeps, as a taskloop over the rows per sweep (one creator; the
 * taskloop's taskgroup separates the sweeps) or as a worksharing loop
 * (schedule(static), its barrier).  The stencil reads its neighbours'
 * rows, so a runtime that gives each core (NUMA node) the same rows at
 * every sweep keeps them in its caches and memory; one that scatters them
 * moves the grid around.  The grids are first touched by the same form of
 * loop, as a NUMA-aware program would.
 *
 * The result line's `tasks` counts sweeps.  Verification: bitwise equal to
 * a serial run from the same start.
 *
 * Parameter: "FORM,N,SWEEPS", FORM taskloop or for, 3 <= N <= 16384.
 */
#include "../common/bench.h"
#include "../common/jacobi.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARMUP_SWEEPS 12

static int form;
static long n, sweeps;
static double *grid[2];
static const double *result;

static void start_row(long i)
{
    jacobi_initial_row(grid[0], n, i);
    jacobi_initial_row(grid[1], n, i); /* both alike: the boundary is right in either */
}

BENCH_LOOP_FORMS(start_grids, 0, n, start_row(i))
BENCH_LOOP_FORMS(sweep, 1, n - 1, heat2d_update_row(grid[rep % 2], grid[(rep + 1) % 2], n, i))

/* Start, then `count` sweeps, in the kernel's form (the grids first
 * touched by the same form of loop). */
static void start_and_sweep(long count)
{
    start_grids(form, 1);
    sweep(form, count);
}

static int setup(const char *param)
{
    if (bench_loop_size_reps(param, &form, &n, &sweeps, 3, 16384))
        return -1;
    for (int k = 0; k < 2; k++) {
        grid[k] = aligned_alloc(64, ((size_t)n * (size_t)n * sizeof(double) + 63) & ~(size_t)63);
        if (!grid[k]) {
            fprintf(stderr, "heat: out of memory\n");
            return -1;
        }
    }
    return 0;
}

static void warm_up(void)
{
    start_and_sweep(WARMUP_SWEEPS);
}

static void run_parallel(void)
{
    start_and_sweep(sweeps);
    result = grid[sweeps % 2];
}

static void run_serial(void)
{
    for (long i = 0; i < n; i++)
        start_row(i);
    heat2d_serial_sweeps(grid[0], grid[1], n, sweeps);
    result = grid[sweeps % 2];
}

static enum bench_verdict verify(void)
{
    size_t bytes = (size_t)n * (size_t)n * sizeof(double);
    double *got = malloc(bytes);
    if (!got) {
        fprintf(stderr, "heat: out of memory for the reference\n");
        return BENCH_VERIFY_FAIL;
    }
    memcpy(got, result, bytes);
    enum bench_verdict v = jacobi_verify("heat", got, grid, n, sweeps);
    free(got);
    return v;
}

static uint64_t task_count(void)
{
    return (uint64_t)sweeps;
}

static void teardown(void)
{
    free(grid[0]);
    free(grid[1]);
}

static const struct bench_class classes[] = {
    BENCH_LOOP_CLASS("test", "48,6"),
    BENCH_LOOP_CLASS("small", "1024,600"),
    BENCH_LOOP_CLASS("medium", "2048,600"),
    BENCH_LOOP_CLASS("large", "4096,300"),
    {NULL, NULL},
};

BENCH_DEFINE_MAIN("heat", classes)
