/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * sparselu: LU factorization (no pivoting) of a block-sparse matrix, with the
 * task structure of BOTS "sparselu_single".  The matrix is an NB x NB grid of
 * BS x BS dense blocks, many of them absent (NULL).  Step k of the
 * right-looking factorization:
 *
 *   lu0   factor the diagonal block A[k][k] = L U in place (the thread of
 *         the single construct does it);
 *   fwd   A[k][j] = L^-1 A[k][j] for every present block right of it;
 *   bdiv  A[i][k] = A[i][k] U^-1 for every present block below it;
 *   -- taskwait --
 *   bmod  A[i][j] -= A[i][k] A[k][j] for every present pair, allocating
 *         A[i][j] (fill-in) when it was absent;
 *   -- taskwait --
 *
 * with one untied task per fwd, bdiv and bmod, all created by one thread
 * inside #pragma omp single.  The number of tasks follows from the sparsity
 * pattern and its fill-in; it is counted as the tasks are created.
 *
 * The sparsity pattern is deterministic: the diagonal and the first
 * off-diagonals are always present, block (i, j) further out is present when
 * a hash of (i, j, SEED) falls under DENSITY percent.  Entries are uniform in
 * [-1, 1] with the diagonal of each diagonal block raised to make the matrix
 * diagonally dominant by rows, so that LU without pivoting is stable.
 *
 * verify(): multiplies L and U back block by block (k running only over
 * blocks present in both) and compares with a copy of the original matrix:
 * the largest error must be below 1e-9 times the largest entry.  It also
 * checks that fill-in left no block of L U outside the factor's pattern.
 *
 * Parameter: "NB,BS" or "NB,BS,DENSITY,SEED" (defaults 10 percent, 1).
 * Classes:
 *   test    NB=8   BS=16
 *   small   NB=50  BS=64
 *   medium  NB=50  BS=100   (BOTS's default size)
 *   large   NB=100 BS=100
 */
#include "../common/bench.h"

#include <errno.h>
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int lu_nb, lu_bs, lu_density;
static uint64_t lu_seed;
static double **lu_a;    /* the matrix being factored: lu_nb^2 block pointers */
static double **lu_orig; /* a copy of the input */

#define BLK(m, i, j) ((m)[(size_t)(i) * (size_t)lu_nb + (size_t)(j)])

/* ---- blocks ---- */

static double *block_new(void)
{
    double *b = calloc((size_t)lu_bs * (size_t)lu_bs, sizeof *b);
    if (!b) {
        fprintf(stderr, "sparselu: out of memory\n");
        abort();
    }
    return b;
}

static void matrix_free(double **m)
{
    if (!m)
        return;
    for (size_t i = 0; i < (size_t)lu_nb * (size_t)lu_nb; i++)
        free(m[i]);
    free(m);
}

static int present(int i, int j)
{
    if (i == j || i == j + 1 || j == i + 1)
        return 1;
    uint64_t s = lu_seed * 0x9e3779b97f4a7c15ULL + (uint64_t)i * 0x100000001b3ULL + (uint64_t)j;
    return (int)(bench_rand_next(&s) % 100) < lu_density;
}

static int generate(void)
{
    size_t nblocks = (size_t)lu_nb * (size_t)lu_nb;
    lu_a = calloc(nblocks, sizeof *lu_a);
    lu_orig = calloc(nblocks, sizeof *lu_orig);
    if (!lu_a || !lu_orig)
        return -1;
    int bs = lu_bs;
    for (int i = 0; i < lu_nb; i++)
        for (int j = 0; j < lu_nb; j++) {
            if (!present(i, j))
                continue;
            double *b = block_new();
            uint64_t s = (lu_seed << 40) ^ ((uint64_t)i << 20) ^ (uint64_t)j;
            for (int k = 0; k < bs * bs; k++)
                b[k] = (double)(bench_rand_next(&s) >> 11) * 0x1.0p-52 - 1.0;
            BLK(lu_a, i, j) = b;
        }
    /* Diagonal dominance: every row's diagonal entry exceeds the sum of the
     * magnitudes of the rest of its row. */
    for (int i = 0; i < lu_nb; i++)
        for (int r = 0; r < bs; r++) {
            double sum = 0;
            for (int j = 0; j < lu_nb; j++) {
                const double *b = BLK(lu_a, i, j);
                if (b)
                    for (int c = 0; c < bs; c++)
                        sum += fabs(b[r * bs + c]);
            }
            BLK(lu_a, i, i)[r * bs + r] = sum + 1.0;
        }
    for (size_t k = 0; k < nblocks; k++)
        if (lu_a[k]) {
            lu_orig[k] = block_new();
            memcpy(lu_orig[k], lu_a[k], (size_t)bs * (size_t)bs * sizeof(double));
        }
    return 0;
}

/* ---- block kernels (row-major BS x BS) ---- */

/* In-place LU of a diagonal block: unit lower L below the diagonal, U on and
 * above it. */
static void lu0(double *d)
{
    int bs = lu_bs;
    for (int k = 0; k < bs; k++) {
        double piv = d[k * bs + k];
        for (int i = k + 1; i < bs; i++) {
            double l = d[i * bs + k] / piv;
            d[i * bs + k] = l;
            double *ri = &d[i * bs];
            const double *rk = &d[k * bs];
            for (int j = k + 1; j < bs; j++)
                ri[j] -= l * rk[j];
        }
    }
}

/* col = L^-1 col, L the unit lower triangle of diag (block to the right). */
static void fwd(const double *diag, double *col)
{
    int bs = lu_bs;
    for (int k = 0; k < bs; k++) {
        const double *rk = &col[k * bs];
        for (int i = k + 1; i < bs; i++) {
            double l = diag[i * bs + k];
            double *ri = &col[i * bs];
            for (int j = 0; j < bs; j++)
                ri[j] -= l * rk[j];
        }
    }
}

/* row = row U^-1, U the upper triangle of diag (block below it). */
static void bdiv(const double *diag, double *row)
{
    int bs = lu_bs;
    for (int i = 0; i < bs; i++) {
        double *ri = &row[i * bs];
        for (int k = 0; k < bs; k++) {
            ri[k] /= diag[k * bs + k];
            double v = ri[k];
            const double *uk = &diag[k * bs];
            for (int j = k + 1; j < bs; j++)
                ri[j] -= v * uk[j];
        }
    }
}

/* inner -= row * col. */
static void bmod(const double *row, const double *col, double *inner)
{
    int bs = lu_bs;
    for (int i = 0; i < bs; i++) {
        double *ii = &inner[i * bs];
        for (int k = 0; k < bs; k++) {
            double v = row[i * bs + k];
            const double *ck = &col[k * bs];
            for (int j = 0; j < bs; j++)
                ii[j] -= v * ck[j];
        }
    }
}

/* ---- parallel ---- */

static void run_parallel(void)
{
    double **a = lu_a;
    int nb = lu_nb;
    bench_counters_reset();
#pragma omp parallel firstprivate(a, nb)
#pragma omp single
    for (int k = 0; k < nb; k++) {
        lu0(BLK(a, k, k));
        for (int j = k + 1; j < nb; j++)
            if (BLK(a, k, j)) {
                bench_task_counters[omp_get_thread_num()].value++;
#pragma omp task untied firstprivate(k, j)
                fwd(BLK(a, k, k), BLK(a, k, j));
            }
        for (int i = k + 1; i < nb; i++)
            if (BLK(a, i, k)) {
                bench_task_counters[omp_get_thread_num()].value++;
#pragma omp task untied firstprivate(k, i)
                bdiv(BLK(a, k, k), BLK(a, i, k));
            }
#pragma omp taskwait
        for (int i = k + 1; i < nb; i++) {
            if (!BLK(a, i, k))
                continue;
            for (int j = k + 1; j < nb; j++) {
                if (!BLK(a, k, j))
                    continue;
                bench_task_counters[omp_get_thread_num()].value++;
#pragma omp task untied firstprivate(k, i, j)
                {
                    if (!BLK(a, i, j))
                        BLK(a, i, j) = block_new();
                    bmod(BLK(a, i, k), BLK(a, k, j), BLK(a, i, j));
                }
            }
        }
#pragma omp taskwait
    }
}

static void run_serial(void)
{
    double **a = lu_a;
    int nb = lu_nb;
    for (int k = 0; k < nb; k++) {
        lu0(BLK(a, k, k));
        for (int j = k + 1; j < nb; j++)
            if (BLK(a, k, j))
                fwd(BLK(a, k, k), BLK(a, k, j));
        for (int i = k + 1; i < nb; i++)
            if (BLK(a, i, k))
                bdiv(BLK(a, k, k), BLK(a, i, k));
        for (int i = k + 1; i < nb; i++) {
            if (!BLK(a, i, k))
                continue;
            for (int j = k + 1; j < nb; j++) {
                if (!BLK(a, k, j))
                    continue;
                if (!BLK(a, i, j))
                    BLK(a, i, j) = block_new();
                bmod(BLK(a, i, k), BLK(a, k, j), BLK(a, i, j));
            }
        }
    }
}

/* ---- verification ---- */

/* acc += L_ik U_kj, where L_ik is A[i][k] (unit lower part only when i == k)
 * and U_kj is A[k][j] (upper part only when k == j). */
static void mul_add(double *acc, const double *l, int l_diag, const double *u, int u_diag)
{
    int bs = lu_bs;
    for (int r = 0; r < bs; r++)
        for (int t = 0; t < bs; t++) {
            double lv;
            if (l_diag)
                lv = t < r ? l[r * bs + t] : t == r ? 1.0 : 0.0;
            else
                lv = l[r * bs + t];
            if (lv == 0.0)
                continue;
            const double *ut = &u[t * bs];
            int c0 = u_diag ? t : 0;
            for (int c = c0; c < bs; c++)
                acc[r * bs + c] += lv * ut[c];
        }
}

static enum bench_verdict verify(void)
{
    int nb = lu_nb, bs = lu_bs;
    double *acc = malloc((size_t)bs * (size_t)bs * sizeof *acc);
    if (!acc)
        return BENCH_VERIFY_FAIL;
    double max_err = 0, max_val = 0;
    uint64_t blocks = 0, missing = 0;
    for (int i = 0; i < nb; i++)
        for (int j = 0; j < nb; j++) {
            memset(acc, 0, (size_t)bs * (size_t)bs * sizeof *acc);
            int any = 0;
            int kmax = i < j ? i : j;
            for (int k = 0; k <= kmax; k++) {
                const double *l = BLK(lu_a, i, k), *u = BLK(lu_a, k, j);
                if (l && u) {
                    mul_add(acc, l, k == i, u, k == j);
                    any = 1;
                }
            }
            const double *o = BLK(lu_orig, i, j);
            if (any && !BLK(lu_a, i, j))
                missing++; /* L U has a block the factor has no room for */
            if (BLK(lu_a, i, j))
                blocks++;
            for (int r = 0; r < bs * bs; r++) {
                double want = o ? o[r] : 0.0;
                double err = fabs(acc[r] - want);
                if (err > max_err || err != err)
                    max_err = err != err ? INFINITY : err;
                if (fabs(want) > max_val)
                    max_val = fabs(want);
            }
        }
    free(acc);
    double rel = max_err / max_val;
    fprintf(stderr, "sparselu: %d x %d blocks of %d, %llu blocks after fill-in, "
            "max |LU - A| / max |A| = %.3g\n", nb, nb, bs, (unsigned long long)blocks, rel);
    if (!(rel < 1e-9) || missing) {
        fprintf(stderr, "sparselu: factorization wrong (%llu blocks without storage)\n",
                (unsigned long long)missing);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return bench_counters_sum();
}

static void teardown(void)
{
    matrix_free(lu_a);
    matrix_free(lu_orig);
    lu_a = lu_orig = NULL;
}

/* Parse "A,B,..." (decimal integers, nothing else) into V; returns the
 * number of values, or -1 when the string is malformed or has more than MAX
 * values. */
static int parse_ints(const char *s, long long *v, int max)
{
    for (int n = 0; n < max;) {
        char *end;
        errno = 0;
        long long x = strtoll(s, &end, 10);
        if (end == s || errno)
            return -1;
        v[n++] = x;
        if (*end == '\0')
            return n;
        if (*end != ',')
            return -1;
        s = end + 1;
    }
    return -1;
}

static int setup(const char *param)
{
    long long v[4];
    int got = parse_ints(param, v, 4);
    if (got != 2 && got != 4)
        return -1;
    if (v[0] < 1 || v[0] > 1000 || v[1] < 1 || v[1] > 1000)
        return -1;
    lu_nb = (int)v[0];
    lu_bs = (int)v[1];
    lu_density = 10;
    lu_seed = 1;
    if (got == 4) {
        if (v[2] < 0 || v[2] > 100 || v[3] < 0)
            return -1;
        lu_density = (int)v[2];
        lu_seed = (uint64_t)v[3];
    }
    if (generate() != 0) {
        fprintf(stderr, "sparselu: out of memory\n");
        teardown();
        return -1;
    }
    return 0;
}

static const struct bench_class classes[] = {
    {"test", "8,16"}, {"small", "50,64"}, {"medium", "50,100"}, {"large", "100,100"}, {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "sparselu",
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
