/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Memory in flight for a producer of many tasks: one member creates
 * 100,000 tasks with a 256-byte firstprivate payload (and then 20,000 with
 * 2 KB) while the others run them.  What the runtime keeps allocated for
 * them -- queued tasks, free blocks in the threads' caches -- must stay
 * small however many tasks pass through.  On xomp the heap in use, sampled
 * while the producer runs, grows by at most 128 KB + 96 KB per thread: a
 * deque holds at most 256 small blocks' worth of tasks (64 KB), a thread's
 * cache at most 32 KB of free blocks of each class (two classes here), and
 * some slack for the depot.  (xomp went past it at 2 and 4 threads when
 * its caches kept 256 KB a class and its deque 256 tasks of any size;
 * libgomp, whose malloc keeps freed blocks in per-thread caches too, is
 * not held to it: up to 1.2 MB at 8 threads.)  Built with clang, the
 * tasks' descriptors take blocks of the next class (their privates follow
 * a 40-byte descriptor) and the same bound holds: clang's large tasks are
 * weighed in the deque as GOMP_task's are (abi/kmp_task.c; clang's queue
 * held 256 of them, 376 KB at 2 threads).  Every task runs once.
 */
#include "xomp_test.h"

#include <malloc.h>

#define SMALL_TASKS 100000
#define LARGE_TASKS 20000
#define SAMPLE_EVERY 2048

struct payload256 {
    long v[32];
};
struct payload2k {
    long v[256];
};

static long ran, checksum;
static size_t heap_before, heap_peak;

static void sample_heap(void)
{
    size_t now = mallinfo2().uordblks;
    if (now > heap_peak)
        heap_peak = now;
}

/* COUNT tasks, each with a firstprivate TYPE (an array `v` of longs, all
 * set to the task's number), sampling the heap now and then. */
#define PRODUCE(TYPE, COUNT)                                                                   \
    for (long i = 0; i < (COUNT); i++) {                                                       \
        TYPE p;                                                                                \
        const int words = (int)(sizeof p.v / sizeof p.v[0]);                                   \
        for (int k = 0; k < words; k++)                                                        \
            p.v[k] = i;                                                                        \
        _Pragma("omp task firstprivate(p)")                                                    \
        {                                                                                      \
            __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);                                     \
            __atomic_add_fetch(&checksum, p.v[0] + p.v[words - 1], __ATOMIC_RELAXED);         \
        }                                                                                      \
        if (i % SAMPLE_EVERY == 0)                                                             \
            sample_heap();                                                                     \
    }

int main(void)
{
    heap_before = heap_peak = mallinfo2().uordblks;
    int threads = 0;
#pragma omp parallel
    {
#pragma omp single
        {
            threads = omp_get_num_threads();
            PRODUCE(struct payload256, SMALL_TASKS);
            PRODUCE(struct payload2k, LARGE_TASKS);
        }
    }
    long expect = 2 * ((long)SMALL_TASKS * (SMALL_TASKS - 1) / 2) +
                  2 * ((long)LARGE_TASKS * (LARGE_TASKS - 1) / 2);
    CHECK(ran == SMALL_TASKS + LARGE_TASKS, "%ld tasks ran, expected %d", ran,
          SMALL_TASKS + LARGE_TASKS);
    CHECK(checksum == expect, "checksum %ld, expected %ld (a payload was not copied)", checksum,
          expect);
    size_t allowed = 128 * 1024 + (size_t)threads * 96 * 1024;
    size_t grew = heap_peak > heap_before ? heap_peak - heap_before : 0;
    if (getenv("XOMP_TEST_VERBOSE"))
        fprintf(stderr, "%d threads: the heap grew by %zu KB\n", threads, grew / 1024);
    CHECK(!test_runtime_is_xomp() || grew <= allowed,
          "%d threads: the heap grew by %zu KB while tasks were produced (allowed %zu KB)",
          threads, grew / 1024, allowed / 1024);
    return test_result();
}
