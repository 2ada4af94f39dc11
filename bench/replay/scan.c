/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * replay-scan: the parallel prefix sum of N doubles (blocks of B: the sum
 * of each block, a scan of the block sums, then each block's prefix from
 * its offset), repeated R times on the same data, as recursive tasks over
 * the blocks; the data are first touched by an initializer with the same
 * tasks (replay_phase.h: forms, scheme).  Values are small integers, so
 * every order of summation is exact; verified against a serial scan.
 *
 * Parameter: "FORM,N,B,R".
 */
#include "replay_phase.h"

static long N, B;
static int R, nblocks;
static double *in, *out, *sums;
static struct rb_phase init_phase, sum_phase, prefix_phase;

static long hi_of(int b)
{
    return ((long)b + 1) * B < N ? ((long)b + 1) * B : N;
}

static void init_block(int b, void *c)
{
    (void)c;
    for (long i = (long)b * B; i < hi_of(b); i++) {
        in[i] = (double)(i % 13);
        out[i] = 0.0;
    }
}

static void sum_block(int b, void *c)
{
    (void)c;
    double s = 0;
    for (long i = (long)b * B; i < hi_of(b); i++)
        s += in[i];
    sums[b] = s;
}

static void prefix_block(int b, void *c)
{
    (void)c;
    double s = sums[b]; /* the exclusive scan of the block sums */
    for (long i = (long)b * B; i < hi_of(b); i++) {
        s += in[i];
        out[i] = s;
    }
}

static int setup(const char *param)
{
    const char *rest = rb_parse_form(param);
    unsigned long long v[3];
    if (!rest || bench_parse_uints(rest, v, 3) != 3 || !v[0] || v[0] > (1ull << 32) || !v[1] ||
        v[1] > v[0] || !v[2] || v[2] > 100000 || (v[0] + v[1] - 1) / v[1] > (1u << 24))
        return -1;
    N = (long)v[0], B = (long)v[1], R = (int)v[2];
    nblocks = (int)((N + B - 1) / B);
    in = malloc((size_t)N * sizeof *in);
    out = malloc((size_t)N * sizeof *out);
    sums = malloc((size_t)nblocks * sizeof *sums);
    return in && out && sums ? 0 : -1;
}

static void scan_sums(void)
{
    double run = 0;
    for (int b = 0; b < nblocks; b++) {
        double s = sums[b];
        sums[b] = run;
        run += s;
    }
}

static void run_parallel(void)
{
    rb_phase_reset(&init_phase, "init");
    rb_phase_reset(&sum_phase, "sum");
    rb_phase_reset(&prefix_phase, "prefix");
    rb_run(&init_phase, NULL, nblocks, init_block, NULL);
    for (int r = 0; r < R; r++) {
        rb_run(&sum_phase, &init_phase, nblocks, sum_block, NULL);
        scan_sums();
        rb_run(&prefix_phase, &init_phase, nblocks, prefix_block, NULL);
    }
}

static void run_serial(void)
{
    for (int b = 0; b < nblocks; b++)
        init_block(b, NULL);
    for (int r = 0; r < R; r++) {
        double s = 0;
        for (long i = 0; i < N; i++) {
            s += in[i];
            out[i] = s;
        }
    }
}

static enum bench_verdict verify(void)
{
    double s = 0;
    long bad = 0;
    for (long i = 0; i < N; i++) {
        s += (double)(i % 13);
        bad += out[i] != s;
    }
    if (bad) {
        fprintf(stderr, "replay-scan: %ld of %ld prefix sums are wrong\n", bad, N);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return (uint64_t)(2 * R + 1) * (uint64_t)(2 * nblocks - 2);
}

static void teardown(void)
{
    free(in), free(out), free(sums);
}

static const struct bench_class classes[] = {
    {"test", "plain,100000,1000,3"},        {"test", "api,100000,1000,8"},
    {"small", "plain,33554432,65536,10"},   {"small", "api,33554432,65536,10"},
    {"medium", "plain,67108864,65536,20"},  {"medium", "api,67108864,65536,20"},
    {"large", "plain,268435456,131072,20"}, {"large", "api,268435456,131072,20"},
    {NULL, NULL}};

RB_DEFINE_MAIN("replay-scan", classes)
