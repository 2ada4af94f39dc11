/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * critical, atomic, master and masked:
 *  - unnamed and named critical sections: non-atomic read-modify-write
 *    counters inside are exact; two names are independent locks (one can be
 *    entered while holding the other, and either inside the unnamed one);
 *  - `#pragma omp atomic` on long double and __int128, which GCC implements
 *    with GOMP_atomic_start/GOMP_atomic_end: exact sums, and captured old
 *    values are all distinct;
 *  - master runs only on thread 0, masked filter(1) only on thread 1.
 */
#include "xomp_test.h"

#define ITERS 20000

static long plain, named_a, named_b;
static long double ld_sum;
static __int128 i128_sum;

/* A read-modify-write the compiler cannot turn into one instruction. */
static void bump(long *p)
{
    long v = *(volatile long *)p;
    __asm__ volatile("" ::: "memory");
    *(volatile long *)p = v + 1;
}

int main(void)
{
    int nth = 0;
#pragma omp parallel shared(nth)
    {
#pragma omp master
        nth = omp_get_num_threads();
        for (int i = 0; i < ITERS; i++) {
#pragma omp critical
            bump(&plain);
#pragma omp critical(alpha)
            bump(&named_a);
#pragma omp critical(beta)
            bump(&named_b);
            if (i % 16 == 0) {
                /* nesting different names, and a name inside the unnamed */
#pragma omp critical(alpha)
                {
#pragma omp critical(beta)
                    bump(&named_b);
                }
#pragma omp critical
                {
#pragma omp critical(alpha)
                    bump(&named_a);
                }
            }
        }
    }
    long extra = (ITERS + 15) / 16;
    CHECK(plain == (long)nth * ITERS, "unnamed critical counter %ld, expected %ld", plain,
          (long)nth * ITERS);
    CHECK(named_a == (long)nth * (ITERS + extra), "critical(alpha) counter %ld, expected %ld",
          named_a, (long)nth * (ITERS + extra));
    CHECK(named_b == (long)nth * (ITERS + extra), "critical(beta) counter %ld, expected %ld",
          named_b, (long)nth * (ITERS + extra));

    /* atomics through GOMP_atomic_start/end */
    int dup = 0;
    long limit = (long)nth * ITERS;
    unsigned char *seen = calloc((size_t)limit, 1);
#pragma omp parallel shared(dup)
    for (int i = 0; i < ITERS; i++) {
#pragma omp atomic
        ld_sum += 1.0L;
        __int128 old;
#pragma omp atomic capture
        {
            old = i128_sum;
            i128_sum += 1;
        }
        if (old < 0 || old >= limit || __atomic_exchange_n(&seen[(long)old], 1, __ATOMIC_RELAXED))
            __atomic_add_fetch(&dup, 1, __ATOMIC_RELAXED);
    }
    CHECK(ld_sum == (long double)nth * ITERS, "long double atomic sum %Lf, expected %d", ld_sum,
          nth * ITERS);
    CHECK(i128_sum == (__int128)nth * ITERS, "__int128 atomic sum %lld, expected %d",
          (long long)i128_sum, nth * ITERS);
    CHECK(dup == 0, "%d __int128 atomic captures repeated or out of range", dup);
    free(seen);

    /* atomic read / write of __int128 never tears */
    static __int128 big;
    int torn = 0;
    const __int128 pat1 = ((__int128)0x1111111111111111LL << 64) | 0x1111111111111111ULL;
    const __int128 pat2 = ((__int128)0x2222222222222222LL << 64) | 0x2222222222222222ULL;
#pragma omp atomic write
    big = pat1;
#pragma omp parallel shared(torn)
    for (int i = 0; i < ITERS / 4; i++) {
        if (omp_get_thread_num() & 1) {
#pragma omp atomic write
            big = (i & 1) ? pat1 : pat2;
        } else {
            __int128 v;
#pragma omp atomic read
            v = big;
            if (v != pat1 && v != pat2)
                __atomic_add_fetch(&torn, 1, __ATOMIC_RELAXED);
        }
    }
    CHECK(torn == 0, "%d torn __int128 atomic reads", torn);

    /* master and masked */
    int master_runs = 0, masked_runs = 0, wrong = 0, teams = 0;
    for (int r = 0; r < 200; r++) {
        int n = 0;
#pragma omp parallel shared(master_runs, masked_runs, wrong, n)
        {
#pragma omp master
            {
                n = omp_get_num_threads();
                master_runs++;
                if (omp_get_thread_num() != 0)
                    __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
            }
#pragma omp masked filter(1)
            {
                __atomic_add_fetch(&masked_runs, 1, __ATOMIC_RELAXED);
                if (omp_get_thread_num() != 1)
                    __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
            }
#pragma omp masked
            if (omp_get_thread_num() != 0)
                __atomic_add_fetch(&wrong, 1, __ATOMIC_RELAXED);
        }
        teams += n > 1;
    }
    CHECK(master_runs == 200, "master executed %d times in 200 regions", master_runs);
    CHECK(masked_runs == teams, "masked filter(1) executed %d times, expected %d", masked_runs,
          teams);
    CHECK(wrong == 0, "master/masked ran on the wrong thread %d times", wrong);
    return test_result();
}
