/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * cholesky: tiled Cholesky factorization A = L L^T of a symmetric positive
 * definite matrix of NB x NB tiles of BS x BS doubles, one task per tile
 * kernel (potrf, trsm, syrk, gemm) ordered only by depend clauses on the
 * tiles -- the classic dependence-heavy task graph (no taskwait inside).
 * Small tiles make many small tasks, where the runtime's dependence
 * handling dominates.
 *
 * Parameter: "NB,BS".  Input: A = n I + S with S symmetric, |s_ij| < 1, from
 * a deterministic generator (diagonally dominant, hence SPD).  Verification:
 * L L^T against A on sampled rows (all rows for n <= 512), relative error
 * below 1e-10.
 */
#include "../common/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int nb, bs;
static double **tiles;    /* tiles[i * nb + j], lower triangle j <= i */
static double *original;  /* the full input matrix, row-major */

static double *tile(int i, int j)
{
    return tiles[i * nb + j];
}

static double entry(int r, int c, int n)
{
    if (r == c)
        return n + 1.0;
    int a = r < c ? r : c, b = r < c ? c : r;
    uint64_t s = (uint64_t)a * 1000003u + (uint64_t)b;
    return (double)(bench_rand_next(&s) >> 11) / 9007199254740992.0 - 0.5;
}

static void load_input(void)
{
    int n = nb * bs;
    for (int i = 0; i < nb; i++)
        for (int j = 0; j <= i; j++)
            for (int r = 0; r < bs; r++)
                for (int c = 0; c < bs; c++)
                    tile(i, j)[r * bs + c] = original[(size_t)(i * bs + r) * n + j * bs + c];
}

static int setup(const char *param)
{
    if (sscanf(param, "%d,%d", &nb, &bs) != 2 || nb < 1 || bs < 1 || nb > 4096 || bs > 1024 ||
        (double)nb * bs > 32768)
        return -1;
    int n = nb * bs;
    original = malloc((size_t)n * n * sizeof(double));
    tiles = calloc((size_t)nb * nb, sizeof *tiles);
    if (!original || !tiles)
        return -1;
    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++)
            original[(size_t)r * n + c] = entry(r, c, n);
    for (int i = 0; i < nb; i++)
        for (int j = 0; j <= i; j++)
            if (!(tiles[i * nb + j] = aligned_alloc(64, (size_t)bs * bs * sizeof(double))))
                return -1;
    load_input();
    return 0;
}

/* Tile kernels, row-major BS x BS. */
static void potrf(double *a)
{
    for (int k = 0; k < bs; k++) {
        double d = sqrt(a[k * bs + k]);
        a[k * bs + k] = d;
        for (int i = k + 1; i < bs; i++)
            a[i * bs + k] /= d;
        for (int j = k + 1; j < bs; j++)
            for (int i = j; i < bs; i++)
                a[i * bs + j] -= a[i * bs + k] * a[j * bs + k];
    }
    for (int i = 0; i < bs; i++)
        for (int j = i + 1; j < bs; j++)
            a[i * bs + j] = 0.0;
}

/* b = b * l^-T (l lower triangular). */
static void trsm(const double *l, double *b)
{
    for (int r = 0; r < bs; r++)
        for (int c = 0; c < bs; c++) {
            double s = b[r * bs + c];
            for (int k = 0; k < c; k++)
                s -= b[r * bs + k] * l[c * bs + k];
            b[r * bs + c] = s / l[c * bs + c];
        }
}

/* c -= a * b^T (syrk when a == b, updating the whole tile for simplicity). */
static void gemm(const double *a, const double *b, double *c)
{
    for (int i = 0; i < bs; i++)
        for (int j = 0; j < bs; j++) {
            double s = 0.0;
            for (int k = 0; k < bs; k++)
                s += a[i * bs + k] * b[j * bs + k];
            c[i * bs + j] -= s;
        }
}

static void run_parallel(void)
{
    load_input();
#pragma omp parallel
#pragma omp single
    for (int k = 0; k < nb; k++) {
        double *akk = tile(k, k);
#pragma omp task depend(inout : akk[0])
        potrf(akk);
        for (int i = k + 1; i < nb; i++) {
            double *aik = tile(i, k);
#pragma omp task depend(in : akk[0]) depend(inout : aik[0])
            trsm(akk, aik);
        }
        for (int i = k + 1; i < nb; i++) {
            double *aik = tile(i, k), *aii = tile(i, i);
#pragma omp task depend(in : aik[0]) depend(inout : aii[0])
            gemm(aik, aik, aii);
            for (int j = k + 1; j < i; j++) {
                double *ajk = tile(j, k), *aij = tile(i, j);
#pragma omp task depend(in : aik[0], ajk[0]) depend(inout : aij[0])
                gemm(aik, ajk, aij);
            }
        }
    }
}

static void run_serial(void)
{
    load_input();
    for (int k = 0; k < nb; k++) {
        potrf(tile(k, k));
        for (int i = k + 1; i < nb; i++)
            trsm(tile(k, k), tile(i, k));
        for (int i = k + 1; i < nb; i++) {
            gemm(tile(i, k), tile(i, k), tile(i, i));
            for (int j = k + 1; j < i; j++)
                gemm(tile(i, k), tile(j, k), tile(i, j));
        }
    }
}

static double l_entry(int r, int c)
{
    if (c > r)
        return 0.0;
    return tile(r / bs, c / bs)[(r % bs) * bs + c % bs];
}

static enum bench_verdict verify(void)
{
    int n = nb * bs;
    int step = n <= 512 ? 1 : n / 64;
    double worst = 0.0;
    for (int r = 0; r < n; r += step)
        for (int c = 0; c <= r; c++) {
            double s = 0.0;
            for (int k = 0; k <= c; k++)
                s += l_entry(r, k) * l_entry(c, k);
            double want = original[(size_t)r * n + c];
            double err = fabs(s - want) / (fabs(want) + 1.0);
            if (err > worst)
                worst = err;
        }
    if (!(worst < 1e-10)) {
        fprintf(stderr, "cholesky: |L L^T - A| relative error %g\n", worst);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    uint64_t n = (uint64_t)nb;
    /* potrf + trsm + syrk + gemm */
    return n + n * (n - 1) / 2 + n * (n - 1) / 2 + n * (n - 1) * (n - 2) / 6;
}

static void teardown(void)
{
    for (int i = 0; i < nb; i++)
        for (int j = 0; j <= i; j++)
            free(tiles[i * nb + j]);
    free(tiles);
    free(original);
}

static const struct bench_class classes[] = {
    {"test", "8,8"},
    {"small", "160,16"},
    {"medium", "64,64"},
    {"large", "128,64"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "cholesky",
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
