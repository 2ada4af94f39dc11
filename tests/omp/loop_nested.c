/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Nested parallel loops: an outer worksharing loop whose iterations each
 * run an inner `parallel for reduction(+: x)` (a nested team, active when
 * max-active-levels allows it, a team of one otherwise), with dynamic,
 * guided and runtime schedules at both levels; every inner sum is exact
 * and the outer loop's state survives the inner regions (each member of
 * the outer team keeps its own place in the outer loop).
 */
#include "xomp_test.h"

#define OUTER 24
#define INNER 2000

static long sums[OUTER];
static int outer_hits[OUTER];

static long inner_sum(long o, int threads)
{
    long x = 0;
#pragma omp parallel for reduction(+ : x) schedule(dynamic, 16) num_threads(threads)
    for (long i = 0; i < INNER; i++)
        x += i * (o + 1);
    long y = 0;
#pragma omp parallel for reduction(+ : y) schedule(guided) num_threads(threads)
    for (unsigned long long i = 0; i < INNER; i++)
        y += (long)i;
    return x + y;
}

static void check(const char *what)
{
    long wrong = 0;
    long base = (long)INNER * (INNER - 1) / 2;
    for (long o = 0; o < OUTER; o++) {
        wrong += sums[o] != base * (o + 1) + base || outer_hits[o] != 1;
        sums[o] = 0;
        outer_hits[o] = 0;
    }
    CHECK(wrong == 0, "%s: %ld outer iterations with a wrong inner sum or not run once", what,
          wrong);
}

int main(void)
{
    for (int levels = 1; levels <= 2; levels++) {
        omp_set_max_active_levels(levels);
        const char *what = levels == 1 ? "inactive nested regions" : "active nested regions";

#pragma omp parallel
        {
#pragma omp for schedule(dynamic)
            for (long o = 0; o < OUTER; o++) {
                sums[o] = inner_sum(o, 2);
                __atomic_add_fetch(&outer_hits[o], 1, __ATOMIC_RELAXED);
            }
        }
        check(what);

        omp_set_schedule(omp_sched_guided, 2);
#pragma omp parallel for schedule(runtime) num_threads(3)
        for (long o = 0; o < OUTER; o++) {
            sums[o] = inner_sum(o, 3);
            __atomic_add_fetch(&outer_hits[o], 1, __ATOMIC_RELAXED);
        }
        check(what);

        /* Three levels, the innermost a reduction over all of them. */
        long total = 0;
#pragma omp parallel for reduction(+ : total) schedule(dynamic) num_threads(2)
        for (long a = 0; a < 4; a++) {
            long mid = 0;
#pragma omp parallel for reduction(+ : mid) schedule(guided) num_threads(2)
            for (long b = 0; b < 4; b++) {
                long in = 0;
#pragma omp parallel for reduction(+ : in) schedule(dynamic, 3) num_threads(2)
                for (long c = 0; c < 100; c++)
                    in += a * 10000 + b * 100 + c;
                mid += in;
            }
            total += mid;
        }
        long want = 0;
        for (long a = 0; a < 4; a++)
            for (long b = 0; b < 4; b++)
                for (long c = 0; c < 100; c++)
                    want += a * 10000 + b * 100 + c;
        CHECK(total == want, "%s, three levels: sum %ld, expected %ld", what, total, want);
    }
    return test_result();
}
