/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * taskloop: every iteration runs exactly once for signed and unsigned
 * induction variables, positive and negative steps, with grainsize,
 * num_tasks (also strict), nogroup, if(0), collapse(2), a reduction, tasks
 * with dependences inside taskloop iterations, and empty loops.
 */
#include "xomp_test.h"

#define N 1000

static int hits[N];

static int all_once(const char *what)
{
    int bad = 0;
    for (int i = 0; i < N; i++) {
        bad += hits[i] != 1;
        hits[i] = 0;
    }
    CHECK(bad == 0, "%s: %d iterations did not run exactly once", what, bad);
    return bad;
}

int main(void)
{
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop
        for (int i = 0; i < N; i++)
            __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
        all_once("default");

#pragma omp taskloop grainsize(7)
        for (int i = N - 1; i >= 0; i--)
            __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
        all_once("grainsize, negative step");

#pragma omp taskloop num_tasks(13)
        for (unsigned long long i = 0; i < N; i += 3) {
            for (unsigned long long k = i; k < i + 3 && k < N; k++)
                __atomic_add_fetch(&hits[k], 1, __ATOMIC_RELAXED);
        }
        all_once("unsigned long long, step 3");

#if XOMP_TEST_HAVE_OMP51
#pragma omp taskloop grainsize(strict : 64)
        for (int i = 0; i < N; i++)
            __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
        all_once("grainsize strict");

#pragma omp taskloop num_tasks(strict : 9) if (0)
        for (int i = 0; i < N; i++)
            __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
        all_once("num_tasks strict, if(0)");
#endif

#pragma omp taskloop collapse(2)
        for (int i = 0; i < 25; i++)
            for (int j = 0; j < 40; j++)
                __atomic_add_fetch(&hits[i * 40 + j], 1, __ATOMIC_RELAXED);
        all_once("collapse(2)");

#pragma omp taskgroup
        {
#pragma omp taskloop nogroup grainsize(10)
            for (int i = 0; i < N; i++)
                __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
        }
        all_once("nogroup inside a taskgroup");

        long sum = 0;
#pragma omp taskloop reduction(+ : sum) grainsize(16)
        for (int i = 0; i < N; i++)
            sum += i;
        CHECK(sum == (long)N * (N - 1) / 2, "taskloop reduction: %ld", sum);
    }

    /* Dependences between tasks created inside taskloop iterations: each
     * iteration's child chain must run in order.  (In a single construct
     * of its own: GCC 12 miscompiles it after a taskloop with a reduction
     * in the same construct, on libgomp as well.) */
    static long chain[50];
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop grainsize(1)
        for (int c = 0; c < 50; c++) {
            long v = 0;
            for (int k = 0; k < 20; k++) {
#pragma omp task depend(inout : v) firstprivate(k) shared(v)
                v = v * 3 + k;
            }
#pragma omp taskwait
            chain[c] = v;
        }
    }
    long expect = 0;
    for (int k = 0; k < 20; k++)
        expect = expect * 3 + k;
    int bad = 0;
    for (int c = 0; c < 50; c++)
        bad += chain[c] != expect;
    CHECK(bad == 0, "%d dependence chains inside taskloop iterations went wrong", bad);

    /* Empty loops create nothing and return. */
    int ran = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskloop
    for (int i = 5; i < 5; i++)
        ran++;
    CHECK(ran == 0, "an empty taskloop ran %d iterations", ran);
    return test_result();
}
