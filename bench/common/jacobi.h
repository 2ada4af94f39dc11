/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The 2-D Jacobi (heat) stencil of the stencil and heat kernels: an N x N
 * grid with fixed boundaries (top edge hot, the others cold) and a
 * deterministic pseudo-random interior; a sweep makes every interior point
 * the mean of its four neighbours in the previous grid.  Every point is one
 * fixed expression of the previous grid, so no thread count or schedule
 * changes a single bit: a parallel run must equal a serial one bitwise.
 */
#ifndef XOMP_BENCH_JACOBI_H
#define XOMP_BENCH_JACOBI_H

#include "bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Row i of the starting grid (a row at a time, so that a parallel loop can
 * first-touch it); the interior's numbers depend on the row alone. */
static inline void jacobi_initial_row(double *g, long n, long i)
{
    uint64_t state = 20260101u + (uint64_t)i * 7919u;
    for (long j = 0; j < n; j++) {
        double v;
        if (i == 0)
            v = 1.0;
        else if (i == n - 1 || j == 0 || j == n - 1)
            v = 0.0;
        else
            v = (double)(bench_rand_next(&state) >> 11) * 0x1.0p-53;
        g[i * n + j] = v;
    }
}

/* Row i (interior) of one sweep from src into dst. */
static inline void jacobi_row(const double *restrict src, double *restrict dst, long n, long i)
{
    const double *up = src + (i - 1) * n, *mid = src + i * n, *down = src + (i + 1) * n;
    double *out = dst + i * n;
    for (long j = 1; j < n - 1; j++)
        out[j] = 0.25 * ((up[j] + down[j]) + (mid[j - 1] + mid[j + 1]));
}

/* `sweeps` sweeps, serially, alternating between g[0] and g[1] (both
 * holding the start). */
static inline void jacobi_serial(double *g[2], long n, long sweeps)
{
    for (long s = 0; s < sweeps; s++)
        for (long i = 1; i < n - 1; i++)
            jacobi_row(g[s % 2], g[(s + 1) % 2], n, i);
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
    jacobi_serial(g, n, sweeps);
    const double *want = g[sweeps % 2];
    long differ = 0, first = -1;
    double sum = 0;
    for (long k = 0; k < n * n; k++) {
        sum += got[k];
        if (memcmp(&got[k], &want[k], sizeof(double)) != 0 && differ++ == 0)
            first = k;
    }
    fprintf(stderr, "%s: %ldx%ld, %ld sweeps, sum of the grid %.17g\n", name, n, n, sweeps, sum);
    if (differ)
        fprintf(stderr, "%s: %ld points differ from the serial run, first (%ld,%ld): %.17g, "
                        "expected %.17g\n",
                name, differ, first / n, first % n, got[first], want[first]);
    return differ ? BENCH_VERIFY_FAIL : BENCH_VERIFY_OK;
}

#endif
