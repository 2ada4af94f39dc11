/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * stencil: a 2-D Jacobi (heat) stencil, the loop-and-barrier pattern of
 * proxy applications.  An N x N grid with fixed boundaries (top edge hot,
 * the others cold, a deterministic pseudo-random interior) takes SWEEPS
 * sweeps, each point of the interior becoming the mean of its four
 * neighbours in the previous grid (two grids, alternating; the grid and
 * the update are ../common/heat2d.h, shared with the hybrid ../mpi/heat.c).  All sweeps run
 * inside ONE parallel region: each is a `#pragma omp for schedule(static)`
 * over the rows whose implicit barrier separates it from the next, so the
 * run passes one barrier per sweep and no task is created.
 *
 * The sizes keep a sweep short -- tens of microseconds at 2 threads for
 * small -- so that the barriers, and how a runtime's waiting threads
 * spin, yield or sleep between sweeps, are a visible part of the time.
 *
 * The result line's `tasks` counts sweeps (barriers), not OpenMP tasks, so
 * the driver's core-ns/task is the core time of one sweep: compare it
 * between runtimes at one thread count (with 1 thread it is the sweep's
 * work alone, with more the work plus the barrier).
 *
 * Verification: the grid must be bitwise identical to a serial run from the
 * same start (computed in verify, untimed).  Every point's update is one
 * fixed expression of the previous grid, so no thread count or schedule
 * changes a single bit.
 *
 * Parameter: "N,SWEEPS", 3 <= N <= 16384.
 */
#include "../common/bench.h"
#include "../common/heat2d.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long n, sweeps;
static double *grid[2];   /* the two grids, n * n each */
static const double *result; /* the grid the last run ended in */

static int setup(const char *param)
{
    unsigned long long v[2];
    if (bench_parse_uints(param, v, 2) != 2 || v[0] < 3 || v[0] > 16384 || v[1] < 1 ||
        v[1] > 1000000000ULL)
        return -1;
    n = (long)v[0];
    sweeps = (long)v[1];
    for (int k = 0; k < 2; k++) {
        grid[k] = malloc((size_t)n * (size_t)n * sizeof(double));
        if (!grid[k]) {
            fprintf(stderr, "stencil: out of memory\n");
            return -1;
        }
    }
    return 0;
}

/* Both grids start alike, so the boundary is right in either. */
static void start(void)
{
    heat2d_initialise(grid[0], n);
    memcpy(grid[1], grid[0], (size_t)n * (size_t)n * sizeof(double));
}

static void run_parallel(void)
{
    start();
    double *g0 = grid[0], *g1 = grid[1];
#pragma omp parallel
    {
        for (long s = 0; s < sweeps; s++) {
            const double *src = s % 2 ? g1 : g0;
            double *dst = s % 2 ? g0 : g1;
#pragma omp for schedule(static)
            for (long i = 1; i < n - 1; i++)
                heat2d_update_row(src, dst, n, i);
            /* the implicit barrier: the next sweep reads what this wrote */
        }
    }
    result = grid[sweeps % 2];
}

static void run_serial(void)
{
    start();
    heat2d_serial_sweeps(grid[0], grid[1], n, sweeps);
    result = grid[sweeps % 2];
}

static enum bench_verdict verify(void)
{
    double *want = heat2d_reference(n, sweeps);
    if (!want) {
        fprintf(stderr, "stencil: out of memory for the reference\n");
        return BENCH_VERIFY_FAIL;
    }
    double sum = 0;
    for (long k = 0; k < n * n; k++)
        sum += result[k];
    long first, differ = heat2d_differences(result, want, n * n, &first);
    fprintf(stderr, "stencil: %ldx%ld, %ld sweeps, sum of the grid %.17g\n", n, n, sweeps, sum);
    if (differ)
        fprintf(stderr, "stencil: %ld points differ from the serial run, first (%ld,%ld): %.17g, "
                "expected %.17g\n", differ, first / n, first % n, result[first], want[first]);
    free(want);
    return differ ? BENCH_VERIFY_FAIL : BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return (uint64_t)sweeps; /* sweeps, i.e. barriers (see the top) */
}

static void teardown(void)
{
    free(grid[0]);
    free(grid[1]);
}

static const struct bench_class classes[] = {
    {"test", "64,500"},
    {"small", "512,20000"},
    {"medium", "512,200000"},
    {"large", "2048,20000"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "stencil",
    .classes = classes,
    .setup = setup,
    .run_parallel = run_parallel,
    .run_serial = run_serial,
    .verify = verify,
    .task_count = task_count,
    .teardown = teardown,
};

int main(int argc, char **argv)
{
    return bench_main(argc, argv, &kernel);
}
