/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared by the Archer programs (tests/archer): ThreadSanitizer-built
 * OpenMP programs run with LLVM's Archer as their OMPT tool.
 */
#ifndef XOMP_ARCHER_COMMON_H
#define XOMP_ARCHER_COMMON_H

#include "xomp_test.h"

#include <omp.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

/* Wait until `n` tasks have called this: tasks that race must run at the
 * same time, on different threads, for ThreadSanitizer to see the race.
 * Relaxed atomics: ThreadSanitizer derives no happens-before from them, so
 * the wait hides nothing.  Gives up after 10 s (a runtime that ran them on
 * one thread). */
static inline void meet(_Atomic int *count, int n)
{
    atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (atomic_load_explicit(count, memory_order_relaxed) < n) {
        sched_yield();
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec > 10) {
            fprintf(stderr, "meet: the tasks never ran at the same time\n");
            exit(98);
        }
    }
}

#endif
