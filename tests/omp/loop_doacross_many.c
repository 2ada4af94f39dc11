/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Thousands of doacross loops in a row, with barriers and nowait, and
 * loops with a large `mem` buffer: the team-shared state of each loop is
 * freed when its work-share slot is recycled, so the heap does not grow
 * from loop to loop (checked with mallinfo2; under AddressSanitizer the
 * leak checker sees the same), and every loop still computes the
 * sequential result.
 */
#include "xomp_test.h"

#include <malloc.h>

#define N 64
#define LOOPS 3000

static long a[N];
static long last;

#include <stdbool.h>
#include <stdint.h>
bool GOMP_loop_start(long, long, long, long, long, long *, long *, uintptr_t *, void **);
bool GOMP_loop_dynamic_next(long *, long *);
void GOMP_loop_end_nowait(void);

static void doacross_loops(int count)
{
#pragma omp parallel
    for (int l = 0; l < count; l++) {
        if (l % 2) {
#pragma omp for ordered(1) schedule(dynamic, 1) nowait
            for (long i = 0; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
                __atomic_store_n(&a[i], (i ? __atomic_load_n(&a[i - 1], __ATOMIC_RELAXED) : 0) + 1,
                                 __ATOMIC_RELAXED);
#pragma omp ordered depend(source)
            }
        } else {
#pragma omp for ordered(1) schedule(guided)
            for (long i = 0; i < N; i++) {
#pragma omp ordered depend(sink : i - 1)
                __atomic_store_n(&a[i], (i ? __atomic_load_n(&a[i - 1], __ATOMIC_RELAXED) : 0) + 1,
                                 __ATOMIC_RELAXED);
#pragma omp ordered depend(source)
            }
        }
#pragma omp for schedule(dynamic) lastprivate(conditional : last)
        for (long i = 0; i < N; i++)
            if (i % 5 == 0)
                last = i;
        /* A loop with a `mem` buffer too large to live in the slot. */
        void *mem = (void *)(uintptr_t)4096;
        long s, e;
        if (GOMP_loop_start(0, N, 1, 2, 1, &s, &e, NULL, &mem))
            while (GOMP_loop_dynamic_next(&s, &e))
                ;
        GOMP_loop_end_nowait();
    }
}

int main(void)
{
    doacross_loops(200);
    size_t before = mallinfo2().uordblks;
    doacross_loops(LOOPS);
    size_t after = mallinfo2().uordblks;
    long wrong = 0;
    for (long i = 0; i < N; i++)
        wrong += a[i] != i + 1;
    CHECK(wrong == 0, "%ld wrong doacross results", wrong);
    CHECK(last == 60, "lastprivate(conditional): %ld, expected 60", last);
    CHECK(after <= before + 64 * 1024,
          "the heap grew by %zu bytes over %d doacross loops: per-loop state is not freed",
          after - before, LOOPS);
    return test_result();
}
