/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The runtime's static schedule hands out iterations exactly as libgomp
 * does, so that programs that depend on which thread runs which iteration
 * behave the same: records the thread of every iteration of
 *  - schedule(runtime) with run-sched-var static, without chunk and with
 *    chunks 1, 3, 7 and larger than the loop (long and unsigned long long);
 *  - ordered loops with schedule(static[, chunk]);
 *  - doacross loops (ordered(1)) with schedule(static[, chunk]);
 * and compares with libgomp's formula: without a chunk, thread t of P gets
 * one block, the first n % P threads one iteration more; with chunk c,
 * chunk k goes to thread k % P.
 */
#include "xomp_test.h"

#define MAXN 1100

static int owner[MAXN];

static int expected_owner(long i, long n, long chunk, int nthreads)
{
    if (chunk > 0)
        return (int)(i / chunk % nthreads);
    long q = n / nthreads, t = n % nthreads;
    if (i < t * (q + 1))
        return (int)(i / (q + 1));
    return (int)(t + (i - t * (q + 1)) / q);
}

static void check_owners(const char *what, long n, long chunk, int nthreads)
{
    long wrong = 0, first = -1;
    for (long i = 0; i < n; i++)
        if (owner[i] != expected_owner(i, n, chunk, nthreads)) {
            wrong++;
            if (first < 0)
                first = i;
        }
    CHECK(wrong == 0,
          "%s, n=%ld chunk=%ld, %d threads: %ld iterations on another thread than libgomp's "
          "(first: %ld ran on %d, expected %d)",
          what, n, chunk, nthreads, wrong, first, first >= 0 ? owner[first] : -1,
          first >= 0 ? expected_owner(first, n, chunk, nthreads) : -1);
}

static void reset(long n)
{
    for (long i = 0; i < n; i++)
        owner[i] = -1;
}

static void record(long i)
{
    __atomic_store_n(&owner[i], omp_get_thread_num(), __ATOMIC_RELAXED);
}

int main(void)
{
    long sizes[] = {0, 1, 5, 7, 8, 100, 1001, MAXN};
    long chunks[] = {0, 1, 3, 7, 5000};
    int nthreads = 1;
#pragma omp parallel
#pragma omp single
    nthreads = omp_get_num_threads();

    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        long n = sizes[s];
        for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
            long chunk = chunks[c];
            omp_set_schedule(omp_sched_static, (int)chunk);

            reset(n);
#pragma omp parallel for schedule(runtime)
            for (long i = 0; i < n; i++)
                record(i);
            check_owners("schedule(runtime) static, long", n, chunk, nthreads);

            reset(n);
#pragma omp parallel
            {
#pragma omp for schedule(runtime)
                for (unsigned long long i = 0; i < (unsigned long long)n; i++)
                    record((long)i);
            }
            check_owners("schedule(runtime) static, unsigned long long", n, chunk, nthreads);

            /* The same, counting down: iteration k has the value n-1-k. */
            reset(n);
#pragma omp parallel for schedule(runtime)
            for (long i = n - 1; i >= 0; i--)
                record(n - 1 - i);
            check_owners("schedule(runtime) static, counting down", n, chunk, nthreads);
        }

        reset(n);
#pragma omp parallel for ordered schedule(static)
        for (long i = 0; i < n; i++) {
            record(i);
#pragma omp ordered
            ;
        }
        check_owners("ordered schedule(static)", n, 0, nthreads);

        reset(n);
#pragma omp parallel for ordered schedule(static, 3)
        for (long i = 0; i < n; i++) {
            record(i);
#pragma omp ordered
            ;
        }
        check_owners("ordered schedule(static, 3)", n, 3, nthreads);

        reset(n);
#pragma omp parallel for ordered(1) schedule(static)
        for (long i = 0; i < n; i++) {
#pragma omp ordered depend(sink : i - 1)
            record(i);
#pragma omp ordered depend(source)
        }
        check_owners("ordered(1) schedule(static)", n, 0, nthreads);

        reset(n);
#pragma omp parallel for ordered(1) schedule(static, 7)
        for (long i = 0; i < n; i++) {
#pragma omp ordered depend(sink : i - 1)
            record(i);
#pragma omp ordered depend(source)
        }
        check_owners("ordered(1) schedule(static, 7)", n, 7, nthreads);
    }
    return test_result();
}
