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

static inline void give_up_after_10s(const struct timespec *start, const char *why)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec - start->tv_sec > 10) {
        fprintf(stderr, "%s\n", why);
        exit(98);
    }
}

/* Wait until `n` tasks have called this: tasks that race must run at the
 * same time, on different threads, for ThreadSanitizer to see the race.
 * Relaxed atomics: ThreadSanitizer derives no happens-before from them, so
 * the wait hides nothing.  Returns the caller's arrival order (0 first).
 * Gives up after 10 s (a runtime that ran them on one thread). */
static inline int meet(_Atomic int *count, int n)
{
    int order = atomic_fetch_add_explicit(count, 1, memory_order_relaxed);
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (atomic_load_explicit(count, memory_order_relaxed) < n) {
        sched_yield();
        give_up_after_10s(&start, "meet: the tasks never ran at the same time");
    }
    return order;
}

/* Then take turns: the racing accesses one after the other, in arrival
 * order, again with no happens-before between them (relaxed).  Accesses at
 * the very same instant can escape ThreadSanitizer (its shadow update
 * races too: both tasks read 0, the sum came out 1, and no report, on
 * LLVM libomp as on xomp, in about 1 run of 6); one after the other they
 * cannot.  wait_turn(turn, order) before the access, pass_turn(turn)
 * after it. */
static inline void wait_turn(_Atomic int *turn, int order)
{
    struct timespec start;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (atomic_load_explicit(turn, memory_order_relaxed) < order) {
        sched_yield();
        give_up_after_10s(&start, "wait_turn: the task before never took its turn");
    }
}

static inline void pass_turn(_Atomic int *turn)
{
    atomic_fetch_add_explicit(turn, 1, memory_order_relaxed);
}

#endif
