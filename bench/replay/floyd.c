/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * replay-floyd: Floyd-Warshall's all-pairs shortest paths on N vertices:
 * for each k, one in-place update of every row (d[i][j] = min(d[i][j],
 * d[i][k] + d[k][j])), as recursive tasks over blocks of B rows; the
 * matrix is first touched by an initializer with the same tasks
 * (replay_phase.h: forms, scheme).  Rows k is read by every block of its
 * step, which no task of that step writes in a way that changes it (the
 * update of row k leaves it as it is), so the result is exact; verified
 * against a serial run.
 *
 * Parameter: "FORM,N,B".
 */
#include "replay_phase.h"

static int N, B, nblocks, kk;
static float *d;
static struct rb_phase init_phase, k_phase;

static float weight(int i, int j)
{
    if (i == j)
        return 0.0f;
    unsigned h = (unsigned)i * 2654435761u ^ (unsigned)j * 40503u;
    return (h % 7 == 0) ? (float)(1 + h % 97) : 1e30f; /* about 1 edge in 7 */
}

static void init_rows(float *m, int lo, int hi)
{
    for (int i = lo; i < hi; i++)
        for (int j = 0; j < N; j++)
            m[(size_t)i * N + j] = weight(i, j);
}

static void relax_rows(float *m, int k, int lo, int hi)
{
    const float *rowk = m + (size_t)k * N;
    for (int i = lo; i < hi; i++) {
        float *row = m + (size_t)i * N;
        float dik = row[k];
        for (int j = 0; j < N; j++) {
            float via = dik + rowk[j];
            if (via < row[j])
                row[j] = via;
        }
    }
}

static int hi_of(int b)
{
    return (b + 1) * B < N ? (b + 1) * B : N;
}

static void init_block(int b, void *c)
{
    (void)c;
    init_rows(d, b * B, hi_of(b));
}

static void k_block(int b, void *c)
{
    (void)c;
    relax_rows(d, kk, b * B, hi_of(b));
}

static int setup(const char *param)
{
    const char *rest = rb_parse_form(param);
    unsigned long long v[2];
    if (!rest || bench_parse_uints(rest, v, 2) != 2 || v[0] < 2 || v[0] > 32768 || !v[1] ||
        v[1] > v[0])
        return -1;
    N = (int)v[0], B = (int)v[1];
    nblocks = (N + B - 1) / B;
    d = malloc((size_t)N * N * sizeof *d);
    return d ? 0 : -1;
}

static void run_parallel(void)
{
    rb_phase_reset(&init_phase, "init");
    rb_phase_reset(&k_phase, "k");
    rb_run(&init_phase, NULL, nblocks, init_block, NULL);
    for (kk = 0; kk < N; kk++)
        rb_run(&k_phase, &init_phase, nblocks, k_block, NULL);
}

static void serial(float *m)
{
    init_rows(m, 0, N);
    for (int k = 0; k < N; k++)
        relax_rows(m, k, 0, N);
}

static void run_serial(void)
{
    serial(d);
}

static enum bench_verdict verify(void)
{
    float *m = malloc((size_t)N * N * sizeof *m);
    if (!m)
        return BENCH_VERIFY_NA;
    serial(m);
    size_t bad = 0;
    for (size_t x = 0; x < (size_t)N * N; x++)
        bad += m[x] != d[x];
    free(m);
    if (bad) {
        fprintf(stderr, "replay-floyd: %zu distances differ from the serial run\n", bad);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return (uint64_t)(N + 1) * (uint64_t)(2 * nblocks - 2);
}

static void teardown(void)
{
    free(d);
}

static const struct bench_class classes[] = {
    {"test", "plain,128,16"},   {"test", "api,128,16"},     {"small", "plain,512,16"},
    {"small", "api,512,16"},    {"medium", "plain,1024,32"}, {"medium", "api,1024,32"},
    {"large", "plain,2048,64"}, {"large", "api,2048,64"},   {NULL, NULL}};

RB_DEFINE_MAIN("replay-floyd", classes)
