/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * sort: Cilksort, the parallel merge sort of the Cilk-5 distribution (and of
 * BOTS sort), on N 64-bit integers with an N-element scratch array.
 *
 * Algorithm and task structure:
 *   sort(A, n):  n < SORT_CUTOFF: serial quicksort (median-of-three pivot;
 *                partitions shorter than INSERTION_CUTOFF finish with
 *                insertion sort).  Otherwise cut A into quarters A1..A4 and
 *                sort each one in a task; taskwait; merge A1+A2 and A3+A4
 *                into the scratch array, each merge in a task; taskwait;
 *                merge the two halves back into A (not a task itself, but a
 *                parallel merge).
 *   merge(X, Y -> D): let X be the longer run.  If |X|+|Y| < MERGE_CUTOFF,
 *                merge serially.  Otherwise take the median x of X, find by
 *                binary search the number of elements of Y smaller than x,
 *                store x at its final place in D and merge the two pairs of
 *                sub-runs on either side of it, each in a task; taskwait.
 * The number of merge tasks depends on the data, so tasks are counted.
 *
 * Parameter: "N" or "N,SORT_CUTOFF,MERGE_CUTOFF,INSERTION_CUTOFF" (the
 * default cutoffs, 2048, 2048 and 20, are BOTS's).  1 <= N <= 2^31;
 * SORT_CUTOFF >= 4, MERGE_CUTOFF >= 2, INSERTION_CUTOFF >= 1.
 *
 * Input: a deterministic pseudo-random permutation of 0..N-1 (Fisher-Yates
 * shuffle driven by bench_rand_next), built in setup (one run per process).
 *
 * Classes (memory: 16 bytes per element, data plus scratch):
 *   test   N = 2^16        (1 MiB)
 *   small  N = 2^25 = 32M  (512 MiB)
 *   medium N = 2^28 = 256M (4 GiB), the thesis' "Sort: 268M" (chapter 6.2)
 *   large  N = 2^30 = 1G   (16 GiB), the thesis' "Sort: 1B" (chapter 6)
 *
 * Verification: the result must be exactly 0, 1, ..., N-1.
 */
#include "../common/bench.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef int64_t elem_t;

static size_t srt_n;
static size_t srt_sort_cutoff = 2048;
static size_t srt_merge_cutoff = 2048;
static size_t srt_insertion_cutoff = 20;
static elem_t *srt_data;    /* the input, sorted in place */
static elem_t *srt_scratch; /* same size as srt_data */

/* ---- serial building blocks ---- */

static void insertion_sort(elem_t *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        elem_t v = a[i];
        size_t j = i;
        while (j > 0 && a[j - 1] > v) {
            a[j] = a[j - 1];
            j--;
        }
        a[j] = v;
    }
}

static elem_t median_of_three(elem_t x, elem_t y, elem_t z)
{
    if (x < y) {
        if (y < z)
            return y;
        return x < z ? z : x;
    }
    if (x < z)
        return x;
    return y < z ? z : y;
}

/* Quicksort with Hoare partitioning; recurses into the smaller part and
 * loops on the larger one, so the stack depth stays logarithmic. */
static void quick_sort(elem_t *a, size_t n)
{
    while (n >= srt_insertion_cutoff && n > 2) {
        elem_t pivot = median_of_three(a[0], a[n / 2], a[n - 1]);
        size_t i = 0, j = n - 1;
        for (;;) {
            while (a[i] < pivot)
                i++;
            while (a[j] > pivot)
                j--;
            if (i >= j)
                break;
            elem_t t = a[i];
            a[i] = a[j];
            a[j] = t;
            i++;
            j--;
        }
        /* a[0..j] <= pivot <= a[j+1..n-1], and both parts are non-empty:
         * with n >= 3 the three samples are distinct elements, so the
         * pivot is never the strict maximum of a[]. */
        size_t left = j + 1, right = n - left;
        if (left < right) {
            quick_sort(a, left);
            a += left;
            n = right;
        } else {
            quick_sort(a + left, right);
            n = left;
        }
    }
    insertion_sort(a, n);
}

/* Merge the sorted runs x[0..nx) and y[0..ny) into d. */
static void merge_serial(const elem_t *x, size_t nx, const elem_t *y, size_t ny, elem_t *d)
{
    size_t i = 0, j = 0, k = 0;
    while (i < nx && j < ny)
        d[k++] = y[j] < x[i] ? y[j++] : x[i++];
    while (i < nx)
        d[k++] = x[i++];
    while (j < ny)
        d[k++] = y[j++];
}

/* Number of elements of the sorted run y[0..ny) that are smaller than v. */
static size_t count_below(const elem_t *y, size_t ny, elem_t v)
{
    size_t lo = 0, hi = ny;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (y[mid] < v)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* ---- the divide-and-conquer merge and sort, serial elision ---- */

static void pmerge_serial(const elem_t *x, size_t nx, const elem_t *y, size_t ny, elem_t *d)
{
    if (nx < ny) {
        const elem_t *t = x;
        x = y;
        y = t;
        size_t tn = nx;
        nx = ny;
        ny = tn;
    }
    if (nx + ny < srt_merge_cutoff) {
        merge_serial(x, nx, y, ny, d);
        return;
    }
    size_t mx = nx / 2;
    size_t my = count_below(y, ny, x[mx]);
    d[mx + my] = x[mx];
    pmerge_serial(x, mx, y, my, d);
    pmerge_serial(x + mx + 1, nx - mx - 1, y + my, ny - my, d + mx + my + 1);
}

static void psort_serial(elem_t *a, elem_t *tmp, size_t n)
{
    if (n < srt_sort_cutoff) {
        quick_sort(a, n);
        return;
    }
    size_t q = n / 4;
    psort_serial(a, tmp, q);
    psort_serial(a + q, tmp + q, q);
    psort_serial(a + 2 * q, tmp + 2 * q, q);
    psort_serial(a + 3 * q, tmp + 3 * q, n - 3 * q);
    pmerge_serial(a, q, a + q, q, tmp);
    pmerge_serial(a + 2 * q, q, a + 3 * q, n - 3 * q, tmp + 2 * q);
    pmerge_serial(tmp, 2 * q, tmp + 2 * q, n - 2 * q, a);
}

/* ---- the same with tasks ---- */

#define COUNT_TASK() (bench_task_counters[omp_get_thread_num()].value++)

static void pmerge_task(const elem_t *x, size_t nx, const elem_t *y, size_t ny, elem_t *d)
{
    if (nx < ny) {
        const elem_t *t = x;
        x = y;
        y = t;
        size_t tn = nx;
        nx = ny;
        ny = tn;
    }
    if (nx + ny < srt_merge_cutoff) {
        merge_serial(x, nx, y, ny, d);
        return;
    }
    size_t mx = nx / 2;
    size_t my = count_below(y, ny, x[mx]);
    d[mx + my] = x[mx];
    COUNT_TASK();
#pragma omp task untied firstprivate(x, mx, y, my, d)
    pmerge_task(x, mx, y, my, d);
    COUNT_TASK();
#pragma omp task untied firstprivate(x, nx, mx, y, ny, my, d)
    pmerge_task(x + mx + 1, nx - mx - 1, y + my, ny - my, d + mx + my + 1);
#pragma omp taskwait
}

static void psort_task(elem_t *a, elem_t *tmp, size_t n)
{
    if (n < srt_sort_cutoff) {
        quick_sort(a, n);
        return;
    }
    size_t q = n / 4;
    for (int part = 0; part < 4; part++) {
        size_t off = (size_t)part * q;
        size_t len = part < 3 ? q : n - 3 * q;
        COUNT_TASK();
#pragma omp task untied firstprivate(a, tmp, off, len)
        psort_task(a + off, tmp + off, len);
    }
#pragma omp taskwait
    COUNT_TASK();
#pragma omp task untied firstprivate(a, tmp, q)
    pmerge_task(a, q, a + q, q, tmp);
    COUNT_TASK();
#pragma omp task untied firstprivate(a, tmp, q, n)
    pmerge_task(a + 2 * q, q, a + 3 * q, n - 3 * q, tmp + 2 * q);
#pragma omp taskwait
    pmerge_task(tmp, 2 * q, tmp + 2 * q, n - 2 * q, a);
}

/* ---- harness glue ---- */

static void teardown(void)
{
    free(srt_data);
    free(srt_scratch);
    srt_data = srt_scratch = NULL;
}

static int setup(const char *param)
{
    unsigned long long v[4] = {0, 2048, 2048, 20};
    int got = bench_parse_uints(param, v, 4);
    unsigned long long n = v[0], sc = v[1], mc = v[2], ic = v[3];
    if ((got != 1 && got != 4) || n < 1 || n > (1ULL << 31) || sc < 4 || mc < 2 || ic < 1) {
        fprintf(stderr, "sort: parameter is N[,SORT_CUTOFF,MERGE_CUTOFF,INSERTION_CUTOFF] "
                        "with 1 <= N <= 2^31, SORT_CUTOFF >= 4, MERGE_CUTOFF >= 2, "
                        "INSERTION_CUTOFF >= 1\n");
        return -1;
    }
    srt_n = (size_t)n;
    srt_sort_cutoff = (size_t)sc;
    srt_merge_cutoff = (size_t)mc;
    srt_insertion_cutoff = (size_t)ic;

    srt_data = malloc(srt_n * sizeof(elem_t));
    srt_scratch = malloc(srt_n * sizeof(elem_t));
    if (!srt_data || !srt_scratch) {
        fprintf(stderr, "sort: out of memory for N=%zu\n", srt_n);
        teardown();
        return -1;
    }
    for (size_t i = 0; i < srt_n; i++)
        srt_data[i] = (elem_t)i;
    /* Fisher-Yates; the modulo bias (< 2^31 / 2^64) is irrelevant here. */
    uint64_t state = 0x5eed5eed12345678ULL;
    for (size_t i = srt_n - 1; i > 0; i--) {
        size_t j = (size_t)(bench_rand_next(&state) % (i + 1));
        elem_t t = srt_data[i];
        srt_data[i] = srt_data[j];
        srt_data[j] = t;
    }
    /* Touch the scratch array so that page faults stay out of the timing. */
    memset(srt_scratch, 0, srt_n * sizeof(elem_t));
    return 0;
}

static void run_parallel(void)
{
    bench_counters_reset();
#pragma omp parallel
#pragma omp single
    psort_task(srt_data, srt_scratch, srt_n);
}

static void run_serial(void)
{
    psort_serial(srt_data, srt_scratch, srt_n);
}

static enum bench_verdict verify(void)
{
    for (size_t i = 0; i < srt_n; i++) {
        if (srt_data[i] != (elem_t)i) {
            fprintf(stderr, "sort: element %zu is %lld, expected %zu\n", i,
                    (long long)srt_data[i], i);
            return BENCH_VERIFY_FAIL;
        }
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return bench_counters_sum();
}

static const struct bench_class classes[] = {
    {"test", "65536"},
    {"small", "33554432"},
    {"medium", "268435456"},
    {"large", "1073741824"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "sort",
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
