/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared by the progress programs (the programs of tests/progress): scenarios in which a
 * thread blocks outside any task scheduling point (a lock, a critical, a
 * pthread primitive, a user spin, a sleep, a nested region) while tasks it
 * does not run are needed by others.  A runtime that strands such a task
 * hangs; these helpers turn a hang into a clear, quick failure.
 *
 * - progress_start(name): starts a watchdog thread.  The program calls
 *   progress_tick() after each unit of work (a parallel region) and
 *   progress_phase("...") when it starts a new scenario.  When no tick
 *   arrives for XOMP_TEST_WATCHDOG_S seconds (default 100: generous for
 *   sanitizer builds and 8 threads on 2 cores; a healthy run ticks every few
 *   milliseconds), it prints
 *       FAIL: <name>: no progress after N s (hang) in phase '<phase>' ...
 *   and _exit(1)s, long before CTest's timeout.
 *   XOMP_TEST_PROGRESS_PHASES=a,b1 runs only the phases with these ids (the
 *   text before the ':' of a phase's name), to look at one scenario alone.
 * - progress_iters(n): n scaled by XOMP_TEST_PROGRESS_SCALE (default 1; the
 *   settings matrix runs with a smaller scale), at least 1.
 * - progress_relax(): what a user spin loop does per turn (a CPU pause and
 *   sched_yield, so that oversubscribed runs still move); neither is an
 *   OpenMP scheduling point.
 * - progress_sleep_us(us): nanosleep, restarted on EINTR.
 *
 * Flags that tasks share are read and written with __atomic builtins: they
 * are then addressable, and GCC passes them to tasks by address (a plain
 * shared local flag of a task waiting on a pthread condition variable was
 * seen never to change under GCC 12).
 *
 * None of this uses any xomp-specific API: these are ordinary OpenMP
 * programs that must pass on GNU libgomp.
 */
#ifndef XOMP_PROGRESS_H
#define XOMP_PROGRESS_H

#include "xomp_test.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <time.h>

static const char *progress_name = "?";
static const char *volatile progress_phase_name = "start";
static unsigned long progress_ticks;
static int progress_limit_s = 100;

static inline void progress_tick(void)
{
    __atomic_add_fetch(&progress_ticks, 1, __ATOMIC_RELAXED);
}

/* Does XOMP_TEST_PROGRESS_PHASES (a comma-separated list of phase ids, the
 * text before the ':' of a phase's name; unset: all) select this phase? */
static inline int progress_selected(const char *phase)
{
    const char *list = getenv("XOMP_TEST_PROGRESS_PHASES");
    if (!list || !*list)
        return 1;
    size_t idlen = strcspn(phase, ":");
    for (const char *p = list; *p;) {
        size_t len = strcspn(p, ",");
        if (len == idlen && strncmp(p, phase, len) == 0)
            return 1;
        p += len;
        if (*p == ',')
            p++;
    }
    return 0;
}

/* Start the phase named "id: description"; returns 0 when it is not
 * selected (the caller skips it). */
static inline int progress_phase(const char *phase)
{
    if (!progress_selected(phase))
        return 0;
    __atomic_store_n(&progress_phase_name, phase, __ATOMIC_RELAXED);
    progress_tick();
    if (getenv("XOMP_TEST_VERBOSE"))
        fprintf(stderr, "%s: %s\n", progress_name, phase);
    return 1;
}

static inline void progress_sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static inline void progress_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
    sched_yield();
}

static void *progress_watchdog(void *arg)
{
    (void)arg;
    unsigned long last = __atomic_load_n(&progress_ticks, __ATOMIC_RELAXED);
    int still = 0;
    for (;;) {
        progress_sleep_us(1000000);
        unsigned long now = __atomic_load_n(&progress_ticks, __ATOMIC_RELAXED);
        if (now != last) {
            last = now;
            still = 0;
            continue;
        }
        if (++still < progress_limit_s)
            continue;
        char msg[512];
        int len = snprintf(msg, sizeof msg,
                           "FAIL: %s: no progress after %d s (hang) in phase '%s' "
                           "(after %lu steps, OMP_NUM_THREADS=%s)\n",
                           progress_name, progress_limit_s,
                           __atomic_load_n(&progress_phase_name, __ATOMIC_RELAXED), now,
                           getenv("OMP_NUM_THREADS") ? getenv("OMP_NUM_THREADS") : "unset");
        if (len > 0) {
            ssize_t w = write(2, msg, (size_t)len < sizeof msg ? (size_t)len : sizeof msg - 1);
            (void)w;
        }
        _exit(1);
    }
    return NULL;
}

static inline void progress_start(const char *name)
{
    progress_name = name;
    const char *s = getenv("XOMP_TEST_WATCHDOG_S");
    if (s && atoi(s) > 0)
        progress_limit_s = atoi(s);
    pthread_t tid;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&tid, &attr, progress_watchdog, NULL) != 0) {
        fprintf(stderr, "FAIL: %s: cannot start the watchdog thread\n", name);
        exit(1);
    }
    pthread_attr_destroy(&attr);
}

static inline int progress_iters(int n)
{
    const char *s = getenv("XOMP_TEST_PROGRESS_SCALE");
    double scale = s && *s ? atof(s) : 1.0;
    if (!(scale > 0))
        scale = 1.0;
    int r = (int)(n * scale);
    return r < 1 ? 1 : r;
}

/* The team size of the next parallel region without a num_threads clause. */
static inline int progress_team_size(void)
{
    int n = 0;
#pragma omp parallel
#pragma omp single
    n = omp_get_num_threads();
    return n;
}

#endif
