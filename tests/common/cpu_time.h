/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* The process's CPU time and a sleep that survives signals, for the tests
 * that check that idle threads use no CPU. */
#ifndef XOMP_TEST_CPU_TIME_H
#define XOMP_TEST_CPU_TIME_H

#include <sys/resource.h>
#include <time.h>

/* User and system time of every thread of the process so far. */
static inline double cpu_seconds(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
           1e-6 * (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
}

static inline void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts))
        ;
}

#endif
