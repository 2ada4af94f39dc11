/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * What /proc/self/status says about the process: its thread count and its
 * resident memory, for tests that check that threads and memory stay
 * bounded.  Linux only (as xomp).
 */
#ifndef XOMP_TEST_PROC_STATUS_H
#define XOMP_TEST_PROC_STATUS_H

#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The number after "key:" in /proc/self/status (kB for memory), or -1. */
static inline long proc_status_field(const char *key)
{
    FILE *f = fopen("/proc/self/status", "r");
    if (!f)
        return -1;
    char line[256];
    long value = -1;
    size_t len = strlen(key);
    while (fgets(line, sizeof line, f))
        if (strncmp(line, key, len) == 0 && line[len] == ':') {
            value = atol(line + len + 1);
            break;
        }
    fclose(f);
    return value;
}

static inline long proc_threads(void)
{
    return proc_status_field("Threads");
}

static inline long proc_rss_kb(void)
{
    return proc_status_field("VmRSS");
}

/* The CPUs this process may run on (what the runtimes size teams by). */
static inline int proc_cpus(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 1;
    int n = CPU_COUNT(&set);
    return n > 0 ? n : 1;
}

/* Threads that were told to exit take a moment to be gone: wait up to
 * `seconds` for the count to fall to `most`; returns the last count. */
static inline long proc_threads_settle(long most, double seconds)
{
    long n = proc_threads();
    for (int i = 0; n > most && i < seconds * 100; i++) {
        struct timespec ts = {0, 10 * 1000 * 1000};
        nanosleep(&ts, NULL);
        n = proc_threads();
    }
    return n;
}

#endif
