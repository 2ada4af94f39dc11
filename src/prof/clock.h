/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The profiler's timestamps: a cycle counter read in a few nanoseconds.
 *
 *   x86-64   rdtscp (the invariant TSC: constant rate, synchronized across
 *            cores), when CPUID says the TSC is invariant;
 *   AArch64  the virtual counter CNTVCT_EL0;
 *   else     clock_gettime(CLOCK_MONOTONIC) in nanoseconds.
 *
 * Ticks become nanoseconds with a rate measured against CLOCK_MONOTONIC:
 * over 2 ms at start-up, then again over the whole run at each dump (a
 * longer baseline, so parts per million).
 */
#ifndef XOMP_PROF_CLOCK_H
#define XOMP_PROF_CLOCK_H

#include "../runtime/wait.h"

#include <stdbool.h>
#include <stdint.h>

/* Set once by xomp_prof_clock_init, read-only afterwards. */
extern bool xomp_prof_clock_is_counter;

static inline uint64_t xomp_prof_ticks(void)
{
#if defined(__x86_64__)
    if (__builtin_expect(xomp_prof_clock_is_counter, 1)) {
        unsigned int cpu;
        /* rdtscp waits for earlier instructions to execute, so an event's
         * timestamp is not taken before the work it ends. */
        return __builtin_ia32_rdtscp(&cpu);
    }
#elif defined(__aarch64__)
    if (__builtin_expect(xomp_prof_clock_is_counter, 1)) {
        uint64_t v;
        /* isb: the read is not hoisted above earlier instructions. */
        __asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v)::"memory");
        return v;
    }
#endif
    return xomp_now_ns();
}

/* A pair of readings of the tick counter and CLOCK_MONOTONIC (ns). */
struct xomp_prof_clock_ref {
    uint64_t ticks;
    uint64_t ns;
};

/* Take the start-up reference.  With use_counter (event recording), choose
 * the cycle counter and measure its rate (about 2 ms); without, ticks are
 * CLOCK_MONOTONIC nanoseconds and nothing is measured. */
void xomp_prof_clock_init(bool use_counter);

/* The reference taken at start-up (the zero of every profile). */
struct xomp_prof_clock_ref xomp_prof_clock_start(void);

/* Ticks per second: measured from start-up to `now` when that is long
 * enough, else the start-up measurement. */
double xomp_prof_ticks_per_second(struct xomp_prof_clock_ref now);

/* Read both clocks now. */
struct xomp_prof_clock_ref xomp_prof_clock_now(void);

/* "rdtscp", "cntvct" or "clock_gettime". */
const char *xomp_prof_clock_name(void);

#endif
