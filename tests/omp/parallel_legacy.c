/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The legacy split entry points GOMP_parallel_start(fn, data, n) /
 * GOMP_parallel_end(), called directly with a hand-written outlined
 * function, as code from GCC before 4.9 does: the caller runs fn(data)
 * itself as thread 0 between the two calls.  Team sizes (default, 1, 3,
 * and num_threads 0 meaning nthreads-var), thread numbers, shared data,
 * nesting a GOMP_parallel region inside, and many repetitions.
 */
#include "xomp_test.h"

extern void GOMP_parallel_start(void (*fn)(void *), void *data, unsigned num_threads);
extern void GOMP_parallel_end(void);

struct shared_data {
    int count;
    int size;
    int bad;
    unsigned long long ids;
    long sum;
};

static void outlined(void *arg)
{
    struct shared_data *d = arg;
    int me = omp_get_thread_num(), n = omp_get_num_threads();
    __atomic_add_fetch(&d->count, 1, __ATOMIC_RELAXED);
    __atomic_or_fetch(&d->ids, 1ull << (me & 63), __ATOMIC_RELAXED);
    __atomic_add_fetch(&d->sum, me, __ATOMIC_RELAXED);
    if (me == 0)
        d->size = n;
    if (n > 1 && !omp_in_parallel())
        __atomic_add_fetch(&d->bad, 1, __ATOMIC_RELAXED);
    if (omp_get_level() != 1)
        __atomic_add_fetch(&d->bad, 1, __ATOMIC_RELAXED);
    /* a barrier inside works: everyone has counted before anyone reads */
#pragma omp barrier
    if (__atomic_load_n(&d->count, __ATOMIC_RELAXED) != n)
        __atomic_add_fetch(&d->bad, 100, __ATOMIC_RELAXED);
}

static void run(unsigned req, int want, int rep)
{
    struct shared_data d = {0};
    GOMP_parallel_start(outlined, &d, req);
    outlined(&d);
    GOMP_parallel_end();
    unsigned long long full = want >= 64 ? ~0ull : (1ull << want) - 1;
    CHECK(d.count == want && d.size == want && d.ids == full &&
              d.sum == (long)want * (want - 1) / 2 && d.bad == 0,
          "GOMP_parallel_start(n=%u) rep %d: %d ran, size %d (want %d), ids %#llx, sum %ld, "
          "bad %d",
          req, rep, d.count, d.size, want, d.ids, d.sum, d.bad);
}

static void outer_fn(void *arg)
{
    int *inner_sizes = arg;
    int n = 0;
#pragma omp parallel shared(n)
#pragma omp master
    n = omp_get_num_threads();
    /* nested regions are inactive by default: team of 1 */
    __atomic_add_fetch(&inner_sizes[n > 1], 1, __ATOMIC_RELAXED);
}

int main(void)
{
    int def = omp_get_max_threads();
    for (int rep = 0; rep < 50; rep++) {
        run(0, def, rep);
        run(1, 1, rep);
        run(3, 3, rep);
    }
    omp_set_num_threads(5);
    run(0, 5, 0);
    omp_set_num_threads(def);

    /* after a legacy region, the usual entry point still works */
    int n = 0;
#pragma omp parallel shared(n)
#pragma omp master
    n = omp_get_num_threads();
    CHECK(n == def, "GOMP_parallel after the legacy calls: %d threads, expected %d", n, def);

    /* a compiler-generated region nested in a legacy one */
    int inner_sizes[2] = {0, 0};
    GOMP_parallel_start(outer_fn, inner_sizes, 2);
    outer_fn(inner_sizes);
    GOMP_parallel_end();
    CHECK(inner_sizes[0] == 2 && inner_sizes[1] == 0,
          "nested regions in a legacy region: %d inactive, %d active (expected 2, 0)",
          inner_sizes[0], inner_sizes[1]);
    return test_result();
}
