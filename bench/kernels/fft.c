/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * fft: a complex double-precision discrete Fourier transform of size N (a
 * power of two), X[k] = sum_j x[j] exp(-2 pi i j k / N), computed by the
 * recursive out-of-place radix-2 decimation-in-time Cooley-Tukey algorithm:
 * the even- and odd-indexed halves of the input are transformed separately
 * (reading the input with a doubled stride) into the two halves of the
 * output, and then combined by N/2 butterflies
 *     X[k]       = E[k] + w^k O[k]
 *     X[k + N/2] = E[k] - w^k O[k],   w = exp(-2 pi i / N).
 * Twiddle factors come from one table of the N/2 powers of w, made in setup.
 *
 * Task structure (after the Cilk-5 / BOTS fft, which also makes a task of
 * both recursive sub-transforms and of halves of the twiddle loops):
 *   - a transform of size n > FFT_LEAF spawns its two half-size transforms as
 *     two tasks and waits for them (taskwait);
 *   - its n/2 butterflies are then split recursively in two halves, each a
 *     task (then taskwait), down to ranges of at most FFT_GRAIN butterflies.
 *   - transforms of size <= FFT_LEAF run serially.
 * The task count depends only on N and is computed in closed form.
 *
 * Parameter: "N", a power of two from 2 to 2^30.
 *
 * Classes (memory: 40 bytes per point during the run - input, output and the
 * half-size twiddle table - and 56 during verification, shown as run/peak):
 *   test   N = 2^12
 *   small  N = 2^24 =  16M points (640 MiB / 896 MiB)
 *   medium N = 2^28 = 256M points (10 GiB / 14 GiB), the thesis' "FFT: 268M"
 *          (its chapter 6.2 parameter sweeps)
 *   large  N = 2^29 = 512M points (20 GiB / 28 GiB), the thesis' "FFT: 536M"
 *          (its chapter 6 evaluation)
 *
 * Verification: an independent serial iterative FFT (bit-reversal
 * permutation followed by in-place butterfly passes) of the same input,
 * X[0], X[1] and X[N-1] straight from the definition (summed in long
 * double), and sampled twiddle-table entries against long double cosl/sinl.
 * The accepted error is max_k |X[k] - R[k]| / rms(R) < 1e-6, where R is the
 * reference and rms(R) = sqrt(sum_k |R[k]|^2 / N).  (The three direct
 * sums, two-level in blocks of 4096 with a 64-bit mantissa, err by at most
 * about (4096 + N/4096) 2^-64 sum_j |x[j]| (1 + 2^-52) < 1e-9 rms(R) for
 * N <= 2^30 and this input.)  Why the bound is safe for the FFTs:
 * for a radix-2 FFT computed in floating point with twiddles accurate to
 * mu, Higham (Accuracy and Stability of Numerical Algorithms, 2nd ed.,
 * Thm. 24.2) bounds the normwise error by
 *     ||X^ - X||_2 / ||X||_2 <= log2(N) eta / (1 - log2(N) eta),
 *     eta = mu + gamma_4 (sqrt(2) + mu),  gamma_4 = 4u / (1 - 4u),
 * u = 2^-53.  With mu ~ u that is about 5.7 u log2(N) <= 1.9e-14 for
 * N <= 2^30, for the kernel and for the reference alike, so
 *     |X[k] - R[k]| <= ||X - R||_2 <= 3.8e-14 ||R||_2 = 3.8e-14 sqrt(N) rms(R)
 *                   <= 1.3e-9 rms(R)  for N <= 2^30,
 * far below 1e-6, while any real mistake (a wrong twiddle, a lost butterfly,
 * a missing or duplicated term) makes some |X[k] - R[k]| of the order of
 * the typical |R[k]| = rms(R).
 */
#include "../common/bench.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FFT_LEAF 64   /* transforms of this size or less run serially */
#define FFT_GRAIN 128 /* butterfly ranges of this size or less are one task */
#define FFT_MAX_LOG2 30

typedef struct {
    double re, im;
} cplx;

static size_t fft_n;
static cplx *fft_in;  /* input x */
static cplx *fft_out; /* output X */
static cplx *fft_tw;  /* fft_tw[k] = exp(-2 pi i k / N), k < N/2 */

/* ---- serial building blocks ---- */

/* The butterflies k = lo..hi-1 combining out[0..h) (even half) and
 * out[h..2h) (odd half) of a transform of size 2h. */
static void butterflies(cplx *out, size_t h, size_t lo, size_t hi)
{
    size_t step = fft_n / (2 * h); /* twiddle index stride for this size */
    for (size_t k = lo; k < hi; k++) {
        cplx w = fft_tw[k * step];
        cplx e = out[k], o = out[k + h];
        double tr = w.re * o.re - w.im * o.im;
        double ti = w.re * o.im + w.im * o.re;
        out[k].re = e.re + tr;
        out[k].im = e.im + ti;
        out[k + h].re = e.re - tr;
        out[k + h].im = e.im - ti;
    }
}

/* Transform of the n points in[0], in[stride], ... into out[0..n). */
static void fft_serial(const cplx *in, size_t stride, cplx *out, size_t n)
{
    if (n == 1) {
        out[0] = in[0];
        return;
    }
    if (n == 2) {
        cplx a = in[0], b = in[stride];
        out[0].re = a.re + b.re;
        out[0].im = a.im + b.im;
        out[1].re = a.re - b.re;
        out[1].im = a.im - b.im;
        return;
    }
    size_t h = n / 2;
    fft_serial(in, 2 * stride, out, h);
    fft_serial(in + stride, 2 * stride, out + h, h);
    butterflies(out, h, 0, h);
}

/* ---- the same with tasks ---- */

static void butterflies_task(cplx *out, size_t h, size_t lo, size_t hi)
{
    if (hi - lo <= FFT_GRAIN) {
        butterflies(out, h, lo, hi);
        return;
    }
    size_t mid = lo + (hi - lo) / 2;
#pragma omp task untied firstprivate(out, h, lo, mid)
    butterflies_task(out, h, lo, mid);
#pragma omp task untied firstprivate(out, h, mid, hi)
    butterflies_task(out, h, mid, hi);
#pragma omp taskwait
}

static void fft_task(const cplx *in, size_t stride, cplx *out, size_t n)
{
    if (n <= FFT_LEAF) {
        fft_serial(in, stride, out, n);
        return;
    }
    size_t h = n / 2;
#pragma omp task untied firstprivate(in, stride, out, h)
    fft_task(in, 2 * stride, out, h);
#pragma omp task untied firstprivate(in, stride, out, h)
    fft_task(in + stride, 2 * stride, out + h, h);
#pragma omp taskwait
    butterflies_task(out, h, 0, h);
}

/* Tasks made by butterflies_task over a range of r butterflies. */
static uint64_t butterfly_tasks(size_t r)
{
    return r <= FFT_GRAIN ? 0 : 2 + 2 * butterfly_tasks(r / 2);
}

/* Tasks made by fft_task(n), n a power of two. */
static uint64_t fft_tasks(size_t n)
{
    if (n <= FFT_LEAF)
        return 0;
    return 2 + 2 * fft_tasks(n / 2) + butterfly_tasks(n / 2);
}

/* ---- harness glue ---- */

static void teardown(void)
{
    free(fft_in);
    free(fft_out);
    free(fft_tw);
    fft_in = fft_out = fft_tw = NULL;
}

static int setup(const char *param)
{
    unsigned long long n;
    if (bench_parse_uints(param, &n, 1) != 1 || n < 2 || n > (1ULL << FFT_MAX_LOG2) ||
        (n & (n - 1)) != 0) {
        fprintf(stderr, "fft: N must be a power of two from 2 to 2^%d\n", FFT_MAX_LOG2);
        return -1;
    }
    fft_n = (size_t)n;
    fft_in = malloc(fft_n * sizeof(cplx));
    fft_out = malloc(fft_n * sizeof(cplx));
    fft_tw = malloc(fft_n / 2 * sizeof(cplx));
    if (!fft_in || !fft_out || !fft_tw) {
        fprintf(stderr, "fft: out of memory for N=%zu\n", fft_n);
        teardown();
        return -1;
    }
    uint64_t state = 0xff7c0ffee1234567ULL;
    for (size_t i = 0; i < fft_n; i++) {
        /* Uniform in [-1, 1): the top 53 bits scaled. */
        fft_in[i].re = (double)(bench_rand_next(&state) >> 11) * 0x1p-52 - 1.0;
        fft_in[i].im = (double)(bench_rand_next(&state) >> 11) * 0x1p-52 - 1.0;
    }
    const double two_pi = 6.283185307179586476925286766559;
    for (size_t k = 0; k < fft_n / 2; k++) {
        double a = two_pi * (double)k / (double)fft_n;
        fft_tw[k].re = cos(a);
        fft_tw[k].im = -sin(a);
    }
    /* Touch the output so that page faults stay out of the timing. */
    memset(fft_out, 0, fft_n * sizeof(cplx));
    return 0;
}

static void run_parallel(void)
{
#pragma omp parallel
#pragma omp single
    fft_task(fft_in, 1, fft_out, fft_n);
}

static void run_serial(void)
{
    fft_serial(fft_in, 1, fft_out, fft_n);
}

/* The reference: iterative in-place radix-2 FFT of the input. */
static void reference_fft(cplx *r)
{
    size_t n = fft_n;
    /* r[bitreverse(i)] = x[i], with j = bitreverse(i) kept by adding one
     * from the top bit down. */
    for (size_t i = 0, j = 0; i < n; i++) {
        r[j] = fft_in[i];
        size_t bit = n >> 1;
        while (j & bit) {
            j ^= bit;
            bit >>= 1;
        }
        j |= bit;
    }
    for (size_t len = 2; len <= n; len *= 2) {
        size_t half = len / 2, tstep = n / len;
        for (size_t base = 0; base < n; base += len) {
            for (size_t j = 0; j < half; j++) {
                cplx w = fft_tw[j * tstep];
                cplx *p = &r[base + j], *q = &r[base + j + half];
                double tr = q->re * w.re - q->im * w.im;
                double ti = q->re * w.im + q->im * w.re;
                q->re = p->re - tr;
                q->im = p->im - ti;
                p->re += tr;
                p->im += ti;
            }
        }
    }
}

static enum bench_verdict verify(void)
{
    /* The twiddle table, sampled, against long double evaluation. */
    size_t nt = fft_n / 2, tstride = nt > 4096 ? nt / 4096 : 1;
    const long double two_pi_l = 6.283185307179586476925286766559L;
    for (size_t k = 0; k < nt; k += tstride) {
        long double a = two_pi_l * (long double)k / (long double)fft_n;
        if (!(fabsl((long double)fft_tw[k].re - cosl(a)) < 1e-14L) ||
            !(fabsl((long double)fft_tw[k].im + sinl(a)) < 1e-14L)) {
            fprintf(stderr, "fft: twiddle %zu is wrong\n", k);
            return BENCH_VERIFY_FAIL;
        }
    }

    cplx ref_spot[3];
    cplx *ref = malloc(fft_n * sizeof(cplx));
    if (!ref) {
        fprintf(stderr, "fft: out of memory for the reference transform\n");
        return BENCH_VERIFY_NA;
    }
    reference_fft(ref);

    /* A few outputs also straight from the definition, summed in long
     * double (twiddle index j*k mod N walks the table sequentially for
     * these k), so that the check does not rest on the butterfly
     * formulation alone. */
    size_t spot_k[3] = {0, 1, fft_n - 1};
    for (int s = 0; s < 3; s++) {
        size_t k = spot_k[s], m = 0;
        long double sr = 0.0L, si = 0.0L;
        for (size_t j0 = 0; j0 < fft_n; j0 += 4096) {
            /* Two-level summation: blocks of 4096 terms, then the blocks. */
            size_t j1 = j0 + 4096 < fft_n ? j0 + 4096 : fft_n;
            long double br = 0.0L, bi = 0.0L;
            for (size_t j = j0; j < j1; j++) {
                /* w = exp(-2 pi i m / N), m = j*k mod N */
                cplx w = m < nt ? fft_tw[m] : (cplx){-fft_tw[m - nt].re, -fft_tw[m - nt].im};
                br += (long double)fft_in[j].re * w.re - (long double)fft_in[j].im * w.im;
                bi += (long double)fft_in[j].re * w.im + (long double)fft_in[j].im * w.re;
                m = (m + k) & (fft_n - 1);
            }
            sr += br;
            si += bi;
        }
        ref_spot[s].re = (double)sr;
        ref_spot[s].im = (double)si;
    }
    double sum_sq = 0.0, max_err = 0.0;
    size_t worst = 0;
    for (size_t k = 0; k < fft_n; k++) {
        sum_sq += ref[k].re * ref[k].re + ref[k].im * ref[k].im;
        double err = hypot(fft_out[k].re - ref[k].re, fft_out[k].im - ref[k].im);
        if (err > max_err || isnan(err)) {
            max_err = err;
            worst = k;
            if (isnan(err))
                break;
        }
    }
    free(ref);
    for (int s = 0; s < 3; s++) {
        size_t k = spot_k[s];
        double err = hypot(fft_out[k].re - ref_spot[s].re, fft_out[k].im - ref_spot[s].im);
        if (err > max_err || isnan(err)) {
            max_err = err;
            worst = k;
        }
    }
    double rms = sqrt(sum_sq / (double)fft_n);
    double rel = max_err / rms;
    if (!(rel < 1e-6)) { /* also fails on NaN */
        fprintf(stderr, "fft(%zu): max error %.3g relative to rms %.3g (at k=%zu)\n", fft_n,
                rel, rms, worst);
        return BENCH_VERIFY_FAIL;
    }
    fprintf(stderr, "fft(%zu): max error / rms = %.3g\n", fft_n, rel);
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return fft_tasks(fft_n);
}

static const struct bench_class classes[] = {
    {"test", "4096"},
    {"small", "16777216"},
    {"medium", "268435456"},
    {"large", "536870912"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "fft",
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
