/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The heat kernel's grid (bench/kernels/heat.c): the stencil of heat2d.h,
 * but with a starting grid made a row at a time, each row from its own
 * seed, so that a parallel loop can first-touch it on the node that will
 * sweep it (heat2d_initialise draws the whole grid from one stream).  The
 * boundaries are those of heat2d.h; every point is one fixed expression of
 * the previous grid, so a parallel run must equal a serial one bitwise.
 */
#ifndef XOMP_BENCH_JACOBI_H
#define XOMP_BENCH_JACOBI_H

#include "heat2d.h"

#include <stdio.h>

/* Row i of the starting grid; the interior's numbers depend on the row
 * alone. */
static inline void jacobi_initial_row(double *g, long n, long i)
{
    uint64_t state = 20260101u + (uint64_t)i * 7919u;
    for (long j = 0; j < n; j++)
        g[i * n + j] = heat2d_initial_point(n, i, j, &state);
}

/* Compare `got` (the grid a parallel run ended in) with a serial run of
 * `sweeps` sweeps from the start, made in the scratch grids g[0] and g[1]
 * (they are overwritten; `got` must not be one of them).  Reports on
 * stderr as `name`. */
static inline enum bench_verdict jacobi_verify(const char *name, const double *got, double *g[2],
                                               long n, long sweeps)
{
    for (long i = 0; i < n; i++) {
        jacobi_initial_row(g[0], n, i);
        jacobi_initial_row(g[1], n, i);
    }
    heat2d_serial_sweeps(g[0], g[1], n, sweeps);
    const double *want = g[sweeps % 2];
    double sum = 0;
    for (long k = 0; k < n * n; k++)
        sum += got[k];
    long first, differ = heat2d_differences(got, want, n * n, &first);
    fprintf(stderr, "%s: %ldx%ld, %ld sweeps, sum of the grid %.17g\n", name, n, n, sweeps, sum);
    if (differ)
        fprintf(stderr, "%s: %ld points differ from the serial run, first (%ld,%ld): %.17g, "
                        "expected %.17g\n",
                name, differ, first / n, first % n, got[first], want[first]);
    return differ ? BENCH_VERIFY_FAIL : BENCH_VERIFY_OK;
}

#endif
