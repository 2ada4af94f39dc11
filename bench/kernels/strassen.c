/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * strassen: C = A B for dense N x N double matrices (N a power of two) by
 * Strassen's algorithm (1969).  With the matrices cut into quadrants,
 *     M1 = (A11 + A22)(B11 + B22)     M5 = (A11 + A12) B22
 *     M2 = (A21 + A22) B11            M6 = (A21 - A11)(B11 + B12)
 *     M3 = A11 (B12 - B22)            M7 = (A12 - A22)(B21 + B22)
 *     M4 = A22 (B21 - B11)
 *     C11 = M1 + M4 - M5 + M7         C12 = M3 + M5
 *     C21 = M2 + M4                   C22 = M1 - M2 + M3 + M6
 * and the seven half-size products are computed the same way, recursively,
 * down to blocks of CUTOFF x CUTOFF or less, which a cache-blocked classic
 * triple loop multiplies.
 *
 * Task structure (as BOTS strassen): at every level above the cutoff the
 * seven products are seven tasks; each task forms its operand sums in its
 * own temporaries and writes its product into its own slot, the parent waits
 * for all seven (taskwait) and then forms the four quadrants of C serially.
 * With L = log2(N / CUTOFF) recursive levels there are 7 + 7^2 + ... + 7^L
 * tasks.
 *
 * Parameter: "N" or "N,CUTOFF" (CUTOFF defaults to 64), both powers of two,
 * 1 <= N <= 16384, 1 <= CUTOFF <= 2^20.
 *
 * Classes (memory: 3 N^2 doubles plus about 3 N^2 of temporaries):
 *   test   N = 256,  CUTOFF 32  (3 levels, 399 tasks)
 *   small  N = 2048, CUTOFF 64  (5 levels, 19,607 tasks)
 *   medium N = 2048, CUTOFF 16  (7 levels, 960,799 tasks): the thesis'
 *          "STRAS: 2048 (Y=16)" of its chapter 6.2, whose Table 6.2 counts
 *          960.8K tasks
 *   large  N = 8192, CUTOFF 16  (9 levels, 47,079,207 tasks): the thesis'
 *          "STRAS: 8192 (Y=16)" of its chapter 6
 *
 * Verification: the classic product computed serially - every entry for
 * N <= 512, otherwise 16 whole rows and 16 whole columns of C (including
 * the first and last row and column of the top-level quadrants).  An entry
 * passes when |C - R| <= 1e-9 N max|A| max|B|: Strassen's error is bounded
 * normwise by a modest function of N times u |A| |B| (Higham, Accuracy and
 * Stability of Numerical Algorithms, sec. 23.2.2), and measured errors here
 * are below 1e-15 N, while a wrong or missing term changes an entry by about
 * max|A| max|B|.
 */
#include "../common/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define STR_MAX_N 16384
#define STR_BLOCK 64 /* block edge of the classic multiply */

static size_t str_n;
static size_t str_cutoff = 64;
static double *str_a, *str_b, *str_c;

/* The quadrants of the operands of one Strassen step. */
struct quads {
    const double *a11, *a12, *a21, *a22;
    const double *b11, *b12, *b21, *b22;
    size_t lda, ldb, h;
};

static void *xmalloc(size_t bytes)
{
    void *p = malloc(bytes);
    if (!p) {
        fprintf(stderr, "strassen: out of memory (%zu bytes)\n", bytes);
        abort();
    }
    return p;
}

/* d = x + sign * y, all h x h. */
static void mat_addsub(double *d, const double *x, size_t ldx, const double *y, size_t ldy,
                       size_t h, double sign)
{
    for (size_t i = 0; i < h; i++)
        for (size_t j = 0; j < h; j++)
            d[i * h + j] = x[i * ldx + j] + sign * y[i * ldy + j];
}

/* c = a b, n x n, by the blocked classic i-k-j triple loop. */
static void mul_classic(double *c, size_t ldc, const double *a, size_t lda, const double *b,
                        size_t ldb, size_t n)
{
    for (size_t i = 0; i < n; i++)
        memset(c + i * ldc, 0, n * sizeof(double));
    for (size_t i0 = 0; i0 < n; i0 += STR_BLOCK) {
        size_t i1 = i0 + STR_BLOCK < n ? i0 + STR_BLOCK : n;
        for (size_t k0 = 0; k0 < n; k0 += STR_BLOCK) {
            size_t k1 = k0 + STR_BLOCK < n ? k0 + STR_BLOCK : n;
            for (size_t j0 = 0; j0 < n; j0 += STR_BLOCK) {
                size_t j1 = j0 + STR_BLOCK < n ? j0 + STR_BLOCK : n;
                for (size_t i = i0; i < i1; i++) {
                    double *ci = c + i * ldc;
                    for (size_t k = k0; k < k1; k++) {
                        double aik = a[i * lda + k];
                        const double *bk = b + k * ldb;
                        for (size_t j = j0; j < j1; j++)
                            ci[j] += aik * bk[j];
                    }
                }
            }
        }
    }
}

static void strassen_serial(double *c, size_t ldc, const double *a, size_t lda, const double *b,
                            size_t ldb, size_t n);
static void strassen_task(double *c, size_t ldc, const double *a, size_t lda, const double *b,
                          size_t ldb, size_t n);

/* Product number `which` (0..6 for M1..M7) of the step q, into m (h x h,
 * row length h), recursing with tasks when par is set. */
static void strassen_product(const struct quads *q, int which, double *m, int par)
{
    size_t h = q->h;
    double *tl = NULL, *tr = NULL; /* temporaries for the left/right operand */
    const double *l, *r;
    size_t ldl = h, ldr = h;
    switch (which) {
    case 0: /* (A11 + A22)(B11 + B22) */
        tl = xmalloc(h * h * sizeof(double));
        tr = xmalloc(h * h * sizeof(double));
        mat_addsub(tl, q->a11, q->lda, q->a22, q->lda, h, 1.0);
        mat_addsub(tr, q->b11, q->ldb, q->b22, q->ldb, h, 1.0);
        l = tl;
        r = tr;
        break;
    case 1: /* (A21 + A22) B11 */
        tl = xmalloc(h * h * sizeof(double));
        mat_addsub(tl, q->a21, q->lda, q->a22, q->lda, h, 1.0);
        l = tl;
        r = q->b11;
        ldr = q->ldb;
        break;
    case 2: /* A11 (B12 - B22) */
        tr = xmalloc(h * h * sizeof(double));
        mat_addsub(tr, q->b12, q->ldb, q->b22, q->ldb, h, -1.0);
        l = q->a11;
        ldl = q->lda;
        r = tr;
        break;
    case 3: /* A22 (B21 - B11) */
        tr = xmalloc(h * h * sizeof(double));
        mat_addsub(tr, q->b21, q->ldb, q->b11, q->ldb, h, -1.0);
        l = q->a22;
        ldl = q->lda;
        r = tr;
        break;
    case 4: /* (A11 + A12) B22 */
        tl = xmalloc(h * h * sizeof(double));
        mat_addsub(tl, q->a11, q->lda, q->a12, q->lda, h, 1.0);
        l = tl;
        r = q->b22;
        ldr = q->ldb;
        break;
    case 5: /* (A21 - A11)(B11 + B12) */
        tl = xmalloc(h * h * sizeof(double));
        tr = xmalloc(h * h * sizeof(double));
        mat_addsub(tl, q->a21, q->lda, q->a11, q->lda, h, -1.0);
        mat_addsub(tr, q->b11, q->ldb, q->b12, q->ldb, h, 1.0);
        l = tl;
        r = tr;
        break;
    default: /* 6: (A12 - A22)(B21 + B22) */
        tl = xmalloc(h * h * sizeof(double));
        tr = xmalloc(h * h * sizeof(double));
        mat_addsub(tl, q->a12, q->lda, q->a22, q->lda, h, -1.0);
        mat_addsub(tr, q->b21, q->ldb, q->b22, q->ldb, h, 1.0);
        l = tl;
        r = tr;
        break;
    }
    if (par)
        strassen_task(m, h, l, ldl, r, ldr, h);
    else
        strassen_serial(m, h, l, ldl, r, ldr, h);
    free(tl);
    free(tr);
}

static struct quads split(const double *a, size_t lda, const double *b, size_t ldb, size_t n)
{
    size_t h = n / 2;
    struct quads q = {
        .a11 = a, .a12 = a + h, .a21 = a + h * lda, .a22 = a + h * lda + h,
        .b11 = b, .b12 = b + h, .b21 = b + h * ldb, .b22 = b + h * ldb + h,
        .lda = lda, .ldb = ldb, .h = h,
    };
    return q;
}

/* The quadrants of C from the seven products m[0..7) (each h x h). */
static void combine(double *c, size_t ldc, const double *m, size_t h)
{
    const double *m1 = m, *m2 = m + h * h, *m3 = m + 2 * h * h, *m4 = m + 3 * h * h;
    const double *m5 = m + 4 * h * h, *m6 = m + 5 * h * h, *m7 = m + 6 * h * h;
    for (size_t i = 0; i < h; i++) {
        double *c11 = c + i * ldc, *c12 = c11 + h;
        double *c21 = c + (i + h) * ldc, *c22 = c21 + h;
        for (size_t j = 0; j < h; j++) {
            size_t x = i * h + j;
            c11[j] = m1[x] + m4[x] - m5[x] + m7[x];
            c12[j] = m3[x] + m5[x];
            c21[j] = m2[x] + m4[x];
            c22[j] = m1[x] - m2[x] + m3[x] + m6[x];
        }
    }
}

static void strassen_serial(double *c, size_t ldc, const double *a, size_t lda, const double *b,
                            size_t ldb, size_t n)
{
    if (n <= str_cutoff) {
        mul_classic(c, ldc, a, lda, b, ldb, n);
        return;
    }
    struct quads q = split(a, lda, b, ldb, n);
    size_t h = q.h;
    double *m = xmalloc(7 * h * h * sizeof(double));
    for (int which = 0; which < 7; which++)
        strassen_product(&q, which, m + (size_t)which * h * h, 0);
    combine(c, ldc, m, h);
    free(m);
}

static void strassen_task(double *c, size_t ldc, const double *a, size_t lda, const double *b,
                          size_t ldb, size_t n)
{
    if (n <= str_cutoff) {
        mul_classic(c, ldc, a, lda, b, ldb, n);
        return;
    }
    struct quads q = split(a, lda, b, ldb, n);
    size_t h = q.h;
    double *m = xmalloc(7 * h * h * sizeof(double));
    for (int which = 0; which < 7; which++) {
#pragma omp task untied firstprivate(q, which, m, h)
        strassen_product(&q, which, m + (size_t)which * h * h, 1);
    }
#pragma omp taskwait
    combine(c, ldc, m, h);
    free(m);
}

/* ---- harness glue ---- */

static void teardown(void)
{
    free(str_a);
    free(str_b);
    free(str_c);
    str_a = str_b = str_c = NULL;
}

static int is_pow2(unsigned long long v)
{
    return v != 0 && (v & (v - 1)) == 0;
}

static int setup(const char *param)
{
    unsigned long long v[2] = {0, 64};
    int got = bench_parse_uints(param, v, 2);
    unsigned long long n = v[0], cutoff = v[1];
    if (got < 1 || !is_pow2(n) || n > STR_MAX_N || !is_pow2(cutoff) || cutoff > (1ULL << 20)) {
        fprintf(stderr, "strassen: parameter is N[,CUTOFF], powers of two, N <= %d\n",
                STR_MAX_N);
        return -1;
    }
    str_n = (size_t)n;
    str_cutoff = (size_t)cutoff;
    size_t bytes = str_n * str_n * sizeof(double);
    str_a = malloc(bytes);
    str_b = malloc(bytes);
    str_c = malloc(bytes);
    if (!str_a || !str_b || !str_c) {
        fprintf(stderr, "strassen: out of memory for N=%zu\n", str_n);
        teardown();
        return -1;
    }
    uint64_t state = 0x57a55e2c0ffee000ULL;
    for (size_t i = 0; i < str_n * str_n; i++) {
        str_a[i] = (double)(bench_rand_next(&state) >> 11) * 0x1p-52 - 1.0;
        str_b[i] = (double)(bench_rand_next(&state) >> 11) * 0x1p-52 - 1.0;
    }
    memset(str_c, 0, bytes);
    return 0;
}

static void run_parallel(void)
{
#pragma omp parallel
#pragma omp single
    strassen_task(str_c, str_n, str_a, str_n, str_b, str_n, str_n);
}

static void run_serial(void)
{
    strassen_serial(str_c, str_n, str_a, str_n, str_b, str_n, str_n);
}

/* Compare C[i][j] with the reference value; track the worst error. */
static int check_entry(size_t i, size_t j, double ref, double tol, double *worst)
{
    double err = fabs(str_c[i * str_n + j] - ref);
    if (err > *worst || isnan(err))
        *worst = err;
    if (!(err <= tol)) {
        fprintf(stderr, "strassen: C[%zu][%zu] = %.17g, expected %.17g\n", i, j,
                str_c[i * str_n + j], ref);
        return 0;
    }
    return 1;
}

static enum bench_verdict verify(void)
{
    size_t n = str_n;
    double amax = 0.0, bmax = 0.0;
    for (size_t i = 0; i < n * n; i++) {
        amax = fmax(amax, fabs(str_a[i]));
        bmax = fmax(bmax, fabs(str_b[i]));
    }
    double tol = 1e-9 * (double)n * amax * bmax;
    double worst = 0.0;
    double *row = xmalloc(n * sizeof(double));
    double *col = xmalloc(n * sizeof(double));
    enum bench_verdict verdict = BENCH_VERIFY_OK;

    /* Which rows (and columns) to check: all, or a sample. */
    size_t nsample = n <= 512 ? n : 16;
    uint64_t state = 0x0123456789abcdefULL;
    for (size_t s = 0; s < nsample && verdict == BENCH_VERIFY_OK; s++) {
        size_t idx;
        if (nsample == n)
            idx = s;
        else if (s < 4) /* quadrant edges */
            idx = (size_t[]){0, n / 2 - 1, n / 2, n - 1}[s];
        else
            idx = (size_t)(bench_rand_next(&state) % n);

        /* Row idx of A B. */
        memset(row, 0, n * sizeof(double));
        for (size_t k = 0; k < n; k++) {
            double aik = str_a[idx * n + k];
            const double *bk = str_b + k * n;
            for (size_t j = 0; j < n; j++)
                row[j] += aik * bk[j];
        }
        for (size_t j = 0; j < n; j++)
            if (!check_entry(idx, j, row[j], tol, &worst)) {
                verdict = BENCH_VERIFY_FAIL;
                break;
            }
        if (nsample == n || verdict != BENCH_VERIFY_OK)
            continue;

        /* Column idx of A B. */
        for (size_t k = 0; k < n; k++)
            col[k] = str_b[k * n + idx];
        for (size_t i = 0; i < n; i++) {
            const double *ai = str_a + i * n;
            double sum = 0.0;
            for (size_t k = 0; k < n; k++)
                sum += ai[k] * col[k];
            if (!check_entry(i, idx, sum, tol, &worst)) {
                verdict = BENCH_VERIFY_FAIL;
                break;
            }
        }
    }
    free(row);
    free(col);
    fprintf(stderr, "strassen(%zu): worst error %.3g, tolerance %.3g\n", n, worst, tol);
    return verdict;
}

static uint64_t task_count(void)
{
    uint64_t total = 0, level = 1;
    for (size_t n = str_n; n > str_cutoff; n /= 2) {
        level *= 7;
        total += level;
    }
    return total;
}

static const struct bench_class classes[] = {
    {"test", "256,32"},
    {"small", "2048,64"},
    {"medium", "2048,16"},
    {"large", "8192,16"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "strassen",
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
