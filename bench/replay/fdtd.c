/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * replay-fdtd: PolyBench's fdtd-2d (ex, ey, hz on an N x M grid, T time
 * steps, each step an E-field sweep and an H-field sweep) as recursive
 * tasks over blocks of B rows; the fields are first touched by an
 * initializer with the same tasks (replay_phase.h: forms, scheme).
 * Verified exactly against a serial run.
 *
 * Parameter: "FORM,N,M,T,B".
 */
#include "replay_phase.h"

static int N, M, T, B, nblocks, step;
static double *ex, *ey, *hz;
static struct rb_phase init_phase, e_phase, h_phase;

#define AT(a, i, j) (a)[(size_t)(i) * M + (j)]

static void init_rows(double *x, double *y, double *h, int lo, int hi)
{
    for (int i = lo; i < hi; i++)
        for (int j = 0; j < M; j++) {
            AT(x, i, j) = ((double)i * (j + 1)) / N;
            AT(y, i, j) = ((double)i * (j + 2)) / M;
            AT(h, i, j) = ((double)i * (j + 3)) / N;
        }
}

/* E fields of rows lo..hi-1 at step t (reads hz of row i-1). */
static void e_rows(double *x, double *y, const double *h, int t, int lo, int hi)
{
    for (int i = lo; i < hi; i++) {
        if (i == 0) {
            for (int j = 0; j < M; j++)
                AT(y, 0, j) = (double)t;
        } else {
            for (int j = 0; j < M; j++)
                AT(y, i, j) -= 0.5 * (AT(h, i, j) - AT(h, i - 1, j));
        }
        for (int j = 1; j < M; j++)
            AT(x, i, j) -= 0.5 * (AT(h, i, j) - AT(h, i, j - 1));
    }
}

/* H field of rows lo..hi-1 (reads ey of row i+1). */
static void h_rows(const double *x, const double *y, double *h, int lo, int hi)
{
    for (int i = lo; i < hi && i < N - 1; i++)
        for (int j = 0; j < M - 1; j++)
            AT(h, i, j) -= 0.7 * (AT(x, i, j + 1) - AT(x, i, j) + AT(y, i + 1, j) - AT(y, i, j));
}

static int hi_of(int b)
{
    return (b + 1) * B < N ? (b + 1) * B : N;
}

static void init_block(int b, void *c)
{
    (void)c;
    init_rows(ex, ey, hz, b * B, hi_of(b));
}

static void e_block(int b, void *c)
{
    (void)c;
    e_rows(ex, ey, hz, step, b * B, hi_of(b));
}

static void h_block(int b, void *c)
{
    (void)c;
    h_rows(ex, ey, hz, b * B, hi_of(b));
}

static int setup(const char *param)
{
    const char *rest = rb_parse_form(param);
    unsigned long long v[4];
    if (!rest || bench_parse_uints(rest, v, 4) != 4 || v[0] < 2 || v[1] < 2 || !v[2] || !v[3] ||
        v[0] > 65536 || v[1] > 65536 || v[2] > 100000 || v[3] > v[0])
        return -1;
    N = (int)v[0], M = (int)v[1], T = (int)v[2], B = (int)v[3];
    nblocks = (N + B - 1) / B;
    size_t bytes = (size_t)N * M * sizeof(double);
    ex = malloc(bytes), ey = malloc(bytes), hz = malloc(bytes);
    return ex && ey && hz ? 0 : -1;
}

static void run_parallel(void)
{
    rb_phase_reset(&init_phase, "init");
    rb_phase_reset(&e_phase, "e");
    rb_phase_reset(&h_phase, "h");
    rb_run(&init_phase, NULL, nblocks, init_block, NULL);
    for (step = 0; step < T; step++) {
        rb_run(&e_phase, &init_phase, nblocks, e_block, NULL);
        rb_run(&h_phase, &init_phase, nblocks, h_block, NULL);
    }
}

static void serial(double *x, double *y, double *h)
{
    init_rows(x, y, h, 0, N);
    for (int t = 0; t < T; t++) {
        e_rows(x, y, h, t, 0, N);
        h_rows(x, y, h, 0, N);
    }
}

static void run_serial(void)
{
    serial(ex, ey, hz);
}

static enum bench_verdict verify(void)
{
    size_t n = (size_t)N * M, bytes = n * sizeof(double);
    double *x = malloc(bytes), *y = malloc(bytes), *h = malloc(bytes);
    if (!x || !y || !h)
        return BENCH_VERIFY_NA;
    serial(x, y, h);
    size_t bad = 0;
    for (size_t k = 0; k < n; k++)
        bad += x[k] != ex[k] || y[k] != ey[k] || h[k] != hz[k];
    free(x), free(y), free(h);
    if (bad) {
        fprintf(stderr, "replay-fdtd: %zu of %zu points differ from the serial run\n", bad, n);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return (uint64_t)(2 * T + 1) * (uint64_t)(2 * nblocks - 2);
}

static void teardown(void)
{
    free(ex), free(ey), free(hz);
}

static const struct bench_class classes[] = {
    {"test", "plain,256,256,4,16"},       {"test", "api,256,256,8,16"},
    {"small", "plain,2048,2048,20,16"},   {"small", "api,2048,2048,20,16"},
    {"medium", "plain,4096,4096,20,32"},  {"medium", "api,4096,4096,20,32"},
    {"large", "plain,8192,8192,20,64"},   {"large", "api,8192,8192,20,64"},
    {NULL, NULL}};

RB_DEFINE_MAIN("replay-fdtd", classes)
