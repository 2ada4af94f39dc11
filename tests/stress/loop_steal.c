/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Nonmonotonic dynamic loops, where members claim chunks from ranges of
 * their own and steal from each other (src/runtime/loop_steal.c), at the
 * interleavings that could lose or duplicate a chunk:
 *   - ranges of one or two chunks, so that an owner's fetch-add and a
 *     thief's compare-and-swap race for the same last chunk, and thieves
 *     race each other;
 *   - one member stalled inside its first chunk (in turn), so that the
 *     others empty its range and steal back and forth from each other's
 *     stolen ranges (a range stored by a thief is stolen from again);
 *   - loops back to back with nowait, so that members are in different
 *     loops of the same slots, and thread counts that change between
 *     regions, so that a slot's ranges are reallocated;
 *   - fewer iterations than members, and chunks larger than one.
 * (Empty loops use no ranges; loop_bounds.c covers them.)
 * Every iteration must run exactly once, and lastprivate must come from
 * the last iteration (GCC copies out in the member whose final chunk ends
 * the loop).  Runs with 1, 2, 4 and 8 threads; 8 oversubscribes a small
 * machine, so that owners are descheduled with chunks left in their ranges.
 */
#include "xomp_test.h"

#include <time.h>

#define MAXN 4096

static int hits[MAXN];

static void pause_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static int count_wrong(long n)
{
    int bad = 0;
    for (long i = 0; i < n; i++) {
        bad += __atomic_load_n(&hits[i], __ATOMIC_RELAXED) != 1;
        hits[i] = 0;
    }
    return bad;
}

static void hit(long i)
{
    __atomic_add_fetch(&hits[i], 1, __ATOMIC_RELAXED);
}

/* One loop of n iterations, chunk c, with member `stall` sleeping in its
 * first chunk; returns the lastprivate value. */
static long one_loop(long n, int c, int stall, int threads)
{
    long last = -1;
#pragma omp parallel num_threads(threads)
    {
        int first = 1;
#pragma omp for schedule(nonmonotonic : dynamic, c) lastprivate(last)
        for (long i = 0; i < n; i++) {
            if (first && omp_get_thread_num() == stall)
                pause_us(300);
            first = 0;
            hit(i);
            last = i;
        }
    }
    return last;
}

/* Loops back to back with nowait, members drifting apart. */
static int nowait_chain(int threads)
{
    static long sums[40];
#pragma omp parallel num_threads(threads)
    {
        for (int k = 0; k < 40; k++) {
#pragma omp for schedule(dynamic) nowait
            for (long i = 0; i < 3 * k + 1; i++) {
                if (i % 17 == 0 && omp_get_thread_num() == k % omp_get_num_threads())
                    pause_us(50);
                __atomic_add_fetch(&sums[k], i + 1, __ATOMIC_RELAXED);
            }
        }
    }
    int bad = 0;
    for (int k = 0; k < 40; k++) {
        long n = 3 * k + 1;
        bad += sums[k] != n * (n + 1) / 2;
        sums[k] = 0;
    }
    return bad;
}

int main(void)
{
    int max = omp_get_max_threads();
    /* (Empty loops have no ranges, and lastprivate is unspecified there.) */
    static const long sizes[] = {1, 2, 3, 5, 8, 9, 17, 64, 1000, MAXN};
    static const int chunks[] = {1, 2, 7};
    for (int round = 0; round < 6; round++) {
        /* A different team size each round: slots reallocate their ranges. */
        int threads = round % 2 ? max : (max > 2 ? max / 2 + round % 3 : max);
        for (unsigned s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
            for (unsigned k = 0; k < sizeof chunks / sizeof chunks[0]; k++) {
                long n = sizes[s];
                int stall = (round + (int)s) % (threads + 1); /* == threads: nobody */
                long last = one_loop(n, chunks[k], stall, threads);
                int bad = count_wrong(n);
                CHECK(bad == 0, "n=%ld chunk %d threads %d: %d iterations not run once", n,
                      chunks[k], threads, bad);
                /* (LLVM libomp 14 loses lastprivate values in these loops.) */
                CHECK(last == n - 1 || test_runtime_is_libomp(),
                      "n=%ld chunk %d: lastprivate %ld", n, chunks[k], last);
            }
        CHECK(nowait_chain(threads) == 0, "nowait loops with %d threads", threads);
    }
    return test_result();
}
