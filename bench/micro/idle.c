/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * micro-idle: how quiet idle team members are.  In one parallel region one
 * thread -- the one that takes the `omp single`, usually the master --
 * sleeps S milliseconds while the others wait in the single's implicit
 * barrier with nothing to do.  Each thread measures its own window, from
 * entering the region to leaving the barrier: voluntary and involuntary
 * context switches (getrusage(RUSAGE_THREAD): ru_nvcsw, ru_nivcsw) and CPU
 * time (CLOCK_THREAD_CPUTIME_ID).
 *
 * A waiting thread that spins uses a core for the whole window and is
 * switched out involuntarily when something else wants the core; one that
 * sleeps in the kernel uses next to no CPU and switches once (or once per
 * wake-up, if it wakes to look around).  Many voluntary switches per second
 * mean a thread that yields or sleeps in short slices: it costs little CPU
 * but wakes the scheduler often.
 *
 * Output: one line per thread on stderr, and a summary line
 *
 *     micro-idle: idle members: N threads, nvcsw=A nivcsw=B ctxsw=A+B
 *                 cpu_ms=C window_ms=W
 *
 * (C: their CPU time added up; W: the longest window).  The result line's
 * time is the region's wall time (about S ms), `tasks` is 0 (there are no
 * operations to divide by), and the idle members' context switches in all
 * are its extra metric: `metric=ctxsw:A+B`.  With one thread there is no
 * idle member and the count is 0.
 *
 * Verification: the sleeper slept at least S ms and every thread of the
 * team measured its window.
 *
 * Parameter: "S" (milliseconds).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* RUSAGE_THREAD */
#endif
#include "../common/bench.h"

#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

static long sleep_ms;

struct window {
    _Alignas(64) long nvcsw, nivcsw;
    double cpu_s, wall_s;
    int measured, sleeper;
};
static struct window windows[BENCH_MAX_THREADS];
static int team_size;
static double slept_s;

static int setup(const char *param)
{
    unsigned long long v[1];
    if (bench_parse_uints(param, v, 1) != 1 || v[0] > 3600000ULL)
        return -1;
    sleep_ms = (long)v[0];
    return 0;
}

static double thread_cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Sleep the whole S ms (nanosleep resumes after a signal); the time slept. */
static double sleep_window(void)
{
    double t0 = bench_now();
    struct timespec ts = {sleep_ms / 1000, (sleep_ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
    return bench_now() - t0;
}

static void run_parallel(void)
{
    for (int i = 0; i < BENCH_MAX_THREADS; i++)
        windows[i] = (struct window){0};
    team_size = 0;
#pragma omp parallel
    {
        int me = omp_get_thread_num();
        struct window *w = &windows[me];
        struct rusage r0, r1;
        getrusage(RUSAGE_THREAD, &r0);
        double cpu0 = thread_cpu_s(), wall0 = bench_now();
#pragma omp single
        {
            team_size = omp_get_num_threads();
            w->sleeper = 1;
            slept_s = sleep_window();
        }
        /* every thread passed the single's barrier: the window ends */
        double wall1 = bench_now(), cpu1 = thread_cpu_s();
        getrusage(RUSAGE_THREAD, &r1);
        w->nvcsw = r1.ru_nvcsw - r0.ru_nvcsw;
        w->nivcsw = r1.ru_nivcsw - r0.ru_nivcsw;
        w->cpu_s = cpu1 - cpu0;
        w->wall_s = wall1 - wall0;
        w->measured = 1;
    }
}

static void run_serial(void)
{
    team_size = 0; /* nothing to measure: the sleep alone */
    slept_s = sleep_window();
}

static enum bench_verdict verify(void)
{
    long nv = 0, niv = 0, members = 0, measured = 0;
    double cpu = 0, longest = 0;
    for (int i = 0; i < team_size; i++) {
        const struct window *w = &windows[i];
        measured += w->measured;
        fprintf(stderr, "micro-idle: thread %d%s: nvcsw=%ld nivcsw=%ld cpu_ms=%.3f window_ms=%.3f\n",
                i, w->sleeper ? " (sleeper)" : "", w->nvcsw, w->nivcsw, w->cpu_s * 1e3,
                w->wall_s * 1e3);
        if (w->sleeper)
            continue;
        members++;
        nv += w->nvcsw;
        niv += w->nivcsw;
        cpu += w->cpu_s;
        if (w->wall_s > longest)
            longest = w->wall_s;
    }
    if (team_size) {
        fprintf(stderr,
                "micro-idle: idle members: %ld threads, nvcsw=%ld nivcsw=%ld ctxsw=%ld "
                "cpu_ms=%.3f window_ms=%.3f\n",
                members, nv, niv, nv + niv, cpu * 1e3, longest * 1e3);
        bench_report_metric("ctxsw", (double)(nv + niv));
    }
    if (slept_s < (double)sleep_ms * 1e-3) {
        fprintf(stderr, "micro-idle: slept %.6f s, less than %ld ms\n", slept_s, sleep_ms);
        return BENCH_VERIFY_FAIL;
    }
    if (measured != team_size) {
        fprintf(stderr, "micro-idle: %ld of %d threads measured their window\n", measured,
                team_size);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return 0;
}

static const struct bench_class classes[] = {
    {"test", "50"},
    {"small", "2000"},
    {"medium", "5000"},
    {"large", "10000"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "micro-idle",
    .classes = classes,
    .setup = setup,
    .run_parallel = run_parallel,
    .run_serial = run_serial,
    .verify = verify,
    .task_count = task_count,
};

int main(int argc, char **argv)
{
    return bench_main(argc, argv, &kernel);
}
