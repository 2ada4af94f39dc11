/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * cg: conjugate gradient iterations on a sparse matrix (NPB CG's pattern):
 * the 5-point Laplacian of a G x G grid in CSR form (n = G^2 unknowns),
 * right-hand side b = A * 1, start x = 0.  Each iteration is a sparse
 * matrix-vector product, two dot products and three vector updates, each
 * one loop: a taskloop (one creator; reductions for the dot products) or
 * a worksharing loop (schedule(static)).  Short, memory-bound loops
 * repeated many times: the case where ILAN's placement of the same rows on
 * the same cores pays, and where a slow start of the tasks costs most.
 *
 * The result line's `tasks` counts CG iterations.  Verification: the
 * relative residual after ITERS iterations matches a serial run to 1e-6
 * (the dot products' sums are ordered differently), and x approaches 1.
 *
 * Parameter: "FORM,G,ITERS", FORM taskloop or for.
 */
#include "../common/bench.h"

#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WARMUP_ITERS 12

static int form;
static long g, n, iters;
static long *row_start, *col;
static double *val, *b, *x, *r, *p, *q;
static double residual; /* ||r|| / ||b|| after the last run */

static void build_matrix(void)
{
    long k = 0;
    for (long i = 0; i < g; i++)
        for (long j = 0; j < g; j++) {
            long row = i * g + j;
            row_start[row] = k;
            if (i > 0) {
                col[k] = row - g;
                val[k++] = -1.0;
            }
            if (j > 0) {
                col[k] = row - 1;
                val[k++] = -1.0;
            }
            col[k] = row;
            val[k++] = 4.0;
            if (j < g - 1) {
                col[k] = row + 1;
                val[k++] = -1.0;
            }
            if (i < g - 1) {
                col[k] = row + g;
                val[k++] = -1.0;
            }
        }
    row_start[n] = k;
    for (long row = 0; row < n; row++) {
        double s = 0;
        for (long e = row_start[row]; e < row_start[row + 1]; e++)
            s += val[e];
        b[row] = s; /* A * (1, ..., 1) */
    }
}

static inline double row_product(const double *v, long row)
{
    double s = 0;
    for (long e = row_start[row]; e < row_start[row + 1]; e++)
        s += val[e] * v[col[e]];
    return s;
}

/* The steps of an iteration, one element at a time; each form's loops
 * call them, so all three forms compute alike. */
static inline double start_one(long i) /* returns b[i]^2 */
{
    x[i] = 0.0;
    r[i] = b[i];
    p[i] = b[i];
    return b[i] * b[i];
}

static inline double update_one(long i, double alpha) /* returns r[i]^2 */
{
    x[i] += alpha * p[i];
    r[i] -= alpha * q[i];
    return r[i] * r[i];
}

/* ---- the taskloop form ---- */

static double cg_taskloop(long count)
{
    double rho = 0;
#pragma omp parallel shared(rho)
#pragma omp single
    {
#pragma omp taskloop reduction(+ : rho)
        for (long i = 0; i < n; i++)
            rho += start_one(i);
        for (long it = 0; it < count; it++) {
            double pq = 0, rho_new = 0;
#pragma omp taskloop
            for (long i = 0; i < n; i++)
                q[i] = row_product(p, i);
#pragma omp taskloop reduction(+ : pq)
            for (long i = 0; i < n; i++)
                pq += p[i] * q[i];
#pragma omp taskloop reduction(+ : rho_new)
            for (long i = 0; i < n; i++)
                rho_new += update_one(i, rho / pq);
            double beta = rho_new / rho;
            rho = rho_new;
#pragma omp taskloop
            for (long i = 0; i < n; i++)
                p[i] = r[i] + beta * p[i];
        }
    }
    return rho;
}

/* ---- the worksharing form ---- */

static double cg_for(long count)
{
    double rho = 0, pq = 0, rho_new = 0;
#pragma omp parallel shared(rho, pq, rho_new)
    {
#pragma omp for schedule(static) reduction(+ : rho)
        for (long i = 0; i < n; i++)
            rho += start_one(i);
        for (long it = 0; it < count; it++) {
#pragma omp for schedule(static)
            for (long i = 0; i < n; i++)
                q[i] = row_product(p, i);
#pragma omp single
            pq = rho_new = 0;
#pragma omp for schedule(static) reduction(+ : pq)
            for (long i = 0; i < n; i++)
                pq += p[i] * q[i];
#pragma omp for schedule(static) reduction(+ : rho_new)
            for (long i = 0; i < n; i++)
                rho_new += update_one(i, rho / pq);
            double beta = rho_new / rho;
#pragma omp for schedule(static)
            for (long i = 0; i < n; i++)
                p[i] = r[i] + beta * p[i];
            /* every thread has read rho: update it once */
#pragma omp single
            rho = rho_new;
        }
    }
    return rho;
}

static double cg_serial(long count)
{
    double rho = 0;
    for (long i = 0; i < n; i++)
        rho += start_one(i);
    for (long it = 0; it < count; it++) {
        double pq = 0, rho_new = 0;
        for (long i = 0; i < n; i++)
            q[i] = row_product(p, i);
        for (long i = 0; i < n; i++)
            pq += p[i] * q[i];
        for (long i = 0; i < n; i++)
            rho_new += update_one(i, rho / pq);
        double beta = rho_new / rho;
        rho = rho_new;
        for (long i = 0; i < n; i++)
            p[i] = r[i] + beta * p[i];
    }
    return rho;
}

/* ||r|| / ||b|| after the run that left rho = r.r */
static double relative_residual(double rho)
{
    double bb = 0;
    for (long i = 0; i < n; i++)
        bb += b[i] * b[i];
    return sqrt(rho / bb);
}

static int setup(const char *param)
{
    if (bench_loop_size_reps(param, &form, &g, &iters, 2, 8192))
        return -1;
    n = g * g;
    row_start = malloc((size_t)(n + 1) * sizeof *row_start);
    col = malloc((size_t)n * 5 * sizeof *col);
    val = malloc((size_t)n * 5 * sizeof *val);
    double **vecs[] = {&b, &x, &r, &p, &q};
    for (int k = 0; k < 5; k++)
        *vecs[k] = malloc((size_t)n * sizeof(double));
    if (!row_start || !col || !val || !b || !x || !r || !p || !q) {
        fprintf(stderr, "cg: out of memory\n");
        return -1;
    }
    build_matrix();
    return 0;
}

static void warm_up(void)
{
    if (form == BENCH_FORM_TASKLOOP)
        cg_taskloop(WARMUP_ITERS);
    else
        cg_for(WARMUP_ITERS);
}

static void run_parallel(void)
{
    residual = relative_residual(form == BENCH_FORM_TASKLOOP ? cg_taskloop(iters) : cg_for(iters));
}

static void run_serial(void)
{
    residual = relative_residual(cg_serial(iters));
}

static enum bench_verdict verify(void)
{
    double got = residual;
    double err = 0;
    for (long i = 0; i < n; i++)
        err = fmax(err, fabs(x[i] - 1.0));
    double want = relative_residual(cg_serial(iters));
    double rel = fabs(got - want) / (want > 1e-300 ? want : 1e-300);
    fprintf(stderr, "cg: %ld unknowns, %ld iterations: residual %.6e (serial %.6e), max |x-1| %.3e\n",
            n, iters, got, want, err);
    if (!(rel < 1e-6) && !(fabs(got - want) < 1e-12)) {
        fprintf(stderr, "cg: the residual differs from the serial run's by %.3e (relative)\n", rel);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return (uint64_t)iters;
}

static void teardown(void)
{
    free(row_start);
    free(col);
    free(val);
    free(b);
    free(x);
    free(r);
    free(p);
    free(q);
}

static const struct bench_class classes[] = {
    BENCH_LOOP_CLASS("test", "24,8"),
    BENCH_LOOP_CLASS("small", "512,400"),
    BENCH_LOOP_CLASS("medium", "1024,400"),
    BENCH_LOOP_CLASS("large", "2048,400"),
    {NULL, NULL},
};

BENCH_DEFINE_MAIN("cg", classes)
