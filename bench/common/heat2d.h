/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The 2-D heat (Jacobi) grid shared by the loop stencil (bench/kernels/
 * stencil.c) and the hybrid MPI stencil (bench/mpi/heat.c): an N x N grid,
 * row-major, with fixed boundaries (top edge hot, the others cold) and a
 * deterministic pseudo-random interior; a sweep makes each interior point
 * the mean of its four neighbours in the previous grid.  Every point's
 * update is one fixed expression of the previous grid, so any split of the
 * rows over threads, tasks or processes gives the serial result bit for
 * bit.
 */
#ifndef XOMP_BENCH_HEAT2D_H
#define XOMP_BENCH_HEAT2D_H

#include "bench.h"

#include <stdlib.h>
#include <string.h>

/* Point (i, j) of a starting grid n x n: the boundary's value, or the
 * next number of `state` for an interior point. */
static inline double heat2d_initial_point(long n, long i, long j, uint64_t *state)
{
    if (i == 0)
        return 1.0;
    if (i == n - 1 || j == 0 || j == n - 1)
        return 0.0;
    return (double)(bench_rand_next(state) >> 11) * 0x1.0p-53;
}

/* The starting grid, n x n. */
static inline void heat2d_initialise(double *g, long n)
{
    uint64_t state = 20260101;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++)
            g[i * n + j] = heat2d_initial_point(n, i, j, &state);
}

/* Row i of dst from rows i-1, i, i+1 of src (rows of n points; the first
 * and last point of the row are boundary and stay). */
static inline void heat2d_update_row(const double *restrict src, double *restrict dst, long n,
                                     long i)
{
    const double *up = src + (i - 1) * n, *mid = src + i * n, *down = src + (i + 1) * n;
    double *out = dst + i * n;
    for (long j = 1; j < n - 1; j++)
        out[j] = 0.25 * ((up[j] + down[j]) + (mid[j - 1] + mid[j + 1]));
}

/* `sweeps` serial sweeps from g0 (g1 a second grid with the same
 * boundary); the result is in g[sweeps % 2]. */
static inline void heat2d_serial_sweeps(double *g0, double *g1, long n, long sweeps)
{
    for (long s = 0; s < sweeps; s++) {
        const double *src = s % 2 ? g1 : g0;
        double *dst = s % 2 ? g0 : g1;
        for (long i = 1; i < n - 1; i++)
            heat2d_update_row(src, dst, n, i);
    }
}

/* The grid after `sweeps` serial sweeps from the start: n x n, malloc'd
 * (free it), or NULL when memory runs out. */
static inline double *heat2d_reference(long n, long sweeps)
{
    size_t bytes = (size_t)n * (size_t)n * sizeof(double);
    double *g[2] = {malloc(bytes), malloc(bytes)};
    if (!g[0] || !g[1]) {
        free(g[0]);
        free(g[1]);
        return NULL;
    }
    heat2d_initialise(g[0], n);
    memcpy(g[1], g[0], bytes);
    heat2d_serial_sweeps(g[0], g[1], n, sweeps);
    free(g[1 - sweeps % 2]);
    return g[sweeps % 2];
}

/* How many of `count` points differ, bit for bit; *first gets the index of
 * the first (-1 when none). */
static inline long heat2d_differences(const double *got, const double *want, long count,
                                      long *first)
{
    long differ = 0;
    *first = -1;
    for (long k = 0; k < count; k++)
        if (memcmp(&got[k], &want[k], sizeof(double)) != 0 && differ++ == 0)
            *first = k;
    return differ;
}

#endif
