/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * replay-heat: the 2-D heat equation (explicit 5-point stencil, the MIT
 * Cilk example of the seed's Table I) on an N x M grid for T steps, as
 * recursive tasks over blocks of B rows; the grids are first touched by
 * an initializer with the same tasks (replay_phase.h: forms, scheme).
 * Verified exactly against a serial run of the same steps.
 *
 * Parameter: "FORM,N,M,T,B".
 */
#include "replay_phase.h"

static int N, M, T, B, nblocks;
static double *grid[2], *ref[2];
static struct rb_phase init_phase, step_phase;

static inline double initial(int i, int j)
{
    return (i == 0 || j == 0 || i == N - 1 || j == M - 1) ? 100.0
                                                          : (double)((i * 7 + j * 13) % 17);
}

static void init_block(int b, void *ctx)
{
    (void)ctx;
    for (int i = b * B; i < (b + 1) * B && i < N; i++)
        for (int j = 0; j < M; j++)
            grid[0][(size_t)i * M + j] = grid[1][(size_t)i * M + j] = initial(i, j);
}

static void rows(const double *in, double *out, int lo, int hi)
{
    for (int i = lo; i < hi; i++) {
        if (i == 0 || i == N - 1) {
            memcpy(out + (size_t)i * M, in + (size_t)i * M, (size_t)M * sizeof *in);
            continue;
        }
        const double *up = in + (size_t)(i - 1) * M, *row = in + (size_t)i * M,
                     *down = in + (size_t)(i + 1) * M;
        double *o = out + (size_t)i * M;
        o[0] = row[0];
        o[M - 1] = row[M - 1];
        for (int j = 1; j < M - 1; j++)
            o[j] = row[j] + 0.1 * (up[j] + down[j] + row[j - 1] + row[j + 1] - 4.0 * row[j]);
    }
}

static int cur;

static void step_block(int b, void *ctx)
{
    (void)ctx;
    int hi = (b + 1) * B < N ? (b + 1) * B : N;
    rows(grid[cur], grid[1 - cur], b * B, hi);
}

static int setup(const char *param)
{
    const char *rest = rb_parse_form(param);
    unsigned long long v[4];
    if (!rest || bench_parse_uints(rest, v, 4) != 4 || v[0] < 3 || v[1] < 3 || !v[2] || !v[3] ||
        v[0] > 65536 || v[1] > 65536 || v[2] > 100000 || v[3] > v[0])
        return -1;
    N = (int)v[0], M = (int)v[1], T = (int)v[2], B = (int)v[3];
    nblocks = (N + B - 1) / B;
    for (int k = 0; k < 2; k++) {
        grid[k] = malloc((size_t)N * M * sizeof(double)); /* touched by the initializer */
        if (!grid[k])
            return -1;
    }
    return 0;
}

static void run_parallel(void)
{
    rb_phase_reset(&init_phase, "init");
    rb_phase_reset(&step_phase, "step");
    rb_run(&init_phase, NULL, nblocks, init_block, NULL);
    cur = 0;
    for (int t = 0; t < T; t++) {
        rb_run(&step_phase, &init_phase, nblocks, step_block, NULL);
        cur = 1 - cur;
    }
}

static void run_serial(void)
{
    for (int b = 0; b < nblocks; b++)
        init_block(b, NULL);
    cur = 0;
    for (int t = 0; t < T; t++) {
        rows(grid[cur], grid[1 - cur], 0, N);
        cur = 1 - cur;
    }
}

static enum bench_verdict verify(void)
{
    for (int k = 0; k < 2; k++)
        if (!(ref[k] = malloc((size_t)N * M * sizeof(double))))
            return BENCH_VERIFY_NA;
    for (int i = 0; i < N; i++)
        for (int j = 0; j < M; j++)
            ref[0][(size_t)i * M + j] = ref[1][(size_t)i * M + j] = initial(i, j);
    int c = 0;
    for (int t = 0; t < T; t++) {
        rows(ref[c], ref[1 - c], 0, N);
        c = 1 - c;
    }
    size_t bad = 0;
    for (size_t x = 0; x < (size_t)N * M; x++)
        bad += ref[c][x] != grid[cur][x];
    free(ref[0]);
    free(ref[1]);
    if (bad) {
        fprintf(stderr, "replay-heat: %zu of %zu points differ from the serial run\n", bad,
                (size_t)N * M);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    /* A binary spread over n leaves creates 2n - 2 tasks; T + 1 phases. */
    return (uint64_t)(T + 1) * (uint64_t)(2 * nblocks - 2);
}

static void teardown(void)
{
    free(grid[0]);
    free(grid[1]);
}

static const struct bench_class classes[] = {
    {"test", "plain,256,256,4,16"},       {"test", "api,256,256,8,16"},
    {"small", "plain,2048,2048,40,16"},   {"small", "api,2048,2048,40,16"},
    {"medium", "plain,4096,4096,40,32"},  {"medium", "api,4096,4096,40,32"},
    {"large", "plain,8192,8192,40,64"},   {"large", "api,8192,8192,40,64"},
    {NULL, NULL}};

RB_DEFINE_MAIN("replay-heat", classes)
