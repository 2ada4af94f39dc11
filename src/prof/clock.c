/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "clock.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

bool xomp_prof_clock_is_counter;

static struct xomp_prof_clock_ref start_ref;
static double start_rate; /* ticks per second measured at start-up */

/* Shortest baseline for a rate measured at dump time: below it the
 * start-up measurement is the better one. */
#define LONG_BASELINE_NS 50000000u
#define CALIBRATION_NS 2000000u

static bool counter_usable(void)
{
#if defined(__x86_64__)
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(0x80000000u, &eax, &ebx, &ecx, &edx) || eax < 0x80000007u)
        return false;
    /* 0x80000001 EDX bit 27: rdtscp exists. */
    __get_cpuid(0x80000001u, &eax, &ebx, &ecx, &edx);
    if (!(edx & (1u << 27)))
        return false;
    /* 0x80000007 EDX bit 8: invariant TSC (constant rate, runs in every
     * C-state); without it ticks are not time. */
    __get_cpuid(0x80000007u, &eax, &ebx, &ecx, &edx);
    return (edx & (1u << 8)) != 0;
#elif defined(__aarch64__)
    return true; /* the generic timer is architectural and constant-rate */
#else
    return false;
#endif
}

struct xomp_prof_clock_ref xomp_prof_clock_now(void)
{
    /* Read the counter between two clock reads and use their midpoint, so
     * the pair is as close to simultaneous as the clock call allows. */
    uint64_t before = xomp_now_ns();
    uint64_t ticks = xomp_prof_ticks();
    uint64_t after = xomp_now_ns();
    return (struct xomp_prof_clock_ref){ticks, before + (after - before) / 2};
}

void xomp_prof_clock_init(bool use_counter)
{
    xomp_prof_clock_is_counter = use_counter && counter_usable();
    start_ref = xomp_prof_clock_now();
    if (!xomp_prof_clock_is_counter) {
        start_rate = 1e9;
        return;
    }
    struct xomp_prof_clock_ref end;
    do
        end = xomp_prof_clock_now();
    while (end.ns - start_ref.ns < CALIBRATION_NS);
    start_rate = (double)(end.ticks - start_ref.ticks) * 1e9 / (double)(end.ns - start_ref.ns);
}

struct xomp_prof_clock_ref xomp_prof_clock_start(void)
{
    return start_ref;
}

double xomp_prof_ticks_per_second(struct xomp_prof_clock_ref now)
{
    if (!xomp_prof_clock_is_counter)
        return 1e9;
    if (now.ns - start_ref.ns < LONG_BASELINE_NS || now.ticks <= start_ref.ticks)
        return start_rate;
    return (double)(now.ticks - start_ref.ticks) * 1e9 / (double)(now.ns - start_ref.ns);
}

const char *xomp_prof_clock_name(void)
{
    if (!xomp_prof_clock_is_counter)
        return "clock_gettime";
#if defined(__aarch64__)
    return "cntvct";
#else
    return "rdtscp";
#endif
}
