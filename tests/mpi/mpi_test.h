/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared by the MPI + OpenMP test programs of tests/mpi.  Each is an
 * ordinary `mpicc -fopenmp` program that tests/mpi/run.sh starts with
 * mpirun, on xomp or on the system libgomp (XOMP_TEST_RUNTIME, checked
 * before main by xomp_test.h in every rank).
 *
 * - mpi_test_init(&argc, &argv, level, name): MPI_Init_thread asking for
 *   `level`; a library that provides less fails the test (Debian's Open MPI
 *   provides MPI_THREAD_MULTIPLE).  Starts a watchdog thread: when no
 *   mpi_test_tick() arrives for XOMP_TEST_WATCHDOG_S seconds (default 60)
 *   the rank prints "FAIL: NAME: rank R: no progress ... in phase P" and
 *   exits, and mpirun then stops the other ranks: a hang fails quickly,
 *   well before CTest's timeout.
 * - mpi_test_phase("..."): names the scenario now running (for that
 *   message) and ticks.
 * - mpi_test_finish(): sums every rank's failed CHECKs, finalizes MPI and
 *   returns the exit status (0 only when no rank failed a check).
 *
 * The watchdog is a plain pthread: it calls no MPI and no OpenMP.
 */
#ifndef XOMP_MPI_TEST_H
#define XOMP_MPI_TEST_H

#include "xomp_test.h"

#include <errno.h>
#include <mpi.h>
#include <pthread.h>
#include <time.h>

static const char *mpi_test_name = "?";
static const char *volatile mpi_test_phase_name = "init";
static unsigned long mpi_test_ticks;
static int mpi_test_rank, mpi_test_ranks;

static inline void mpi_test_tick(void)
{
    __atomic_add_fetch(&mpi_test_ticks, 1, __ATOMIC_RELAXED);
}

static inline void mpi_test_phase(const char *phase)
{
    __atomic_store_n(&mpi_test_phase_name, phase, __ATOMIC_RELAXED);
    mpi_test_tick();
    if (getenv("XOMP_TEST_VERBOSE"))
        fprintf(stderr, "%s: rank %d: %s\n", mpi_test_name, mpi_test_rank, phase);
}

static inline void mpi_test_sleep_us(long us)
{
    struct timespec ts = {us / 1000000, (us % 1000000) * 1000};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static inline double mpi_test_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *mpi_test_watchdog(void *arg)
{
    int limit = *(int *)arg;
    unsigned long last = __atomic_load_n(&mpi_test_ticks, __ATOMIC_RELAXED);
    for (int still = 0;;) {
        mpi_test_sleep_us(1000000);
        unsigned long now = __atomic_load_n(&mpi_test_ticks, __ATOMIC_RELAXED);
        if (now != last) {
            last = now;
            still = 0;
            continue;
        }
        if (++still < limit)
            continue;
        char msg[512];
        int len = snprintf(msg, sizeof msg,
                           "FAIL: %s: rank %d: no progress after %d s (hang) in phase '%s' "
                           "(OMP_NUM_THREADS=%s)\n",
                           mpi_test_name, mpi_test_rank, limit,
                           __atomic_load_n(&mpi_test_phase_name, __ATOMIC_RELAXED),
                           getenv("OMP_NUM_THREADS") ? getenv("OMP_NUM_THREADS") : "unset");
        if (len > 0) {
            ssize_t w = write(2, msg, (size_t)len < sizeof msg ? (size_t)len : sizeof msg - 1);
            (void)w;
        }
        _exit(3);
    }
    return NULL;
}

static const char *mpi_test_level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "an unknown thread level";
    }
}

static inline void mpi_test_init(int *argc, char ***argv, int level, const char *name)
{
    mpi_test_name = name;
    static int limit = 60;
    const char *s = getenv("XOMP_TEST_WATCHDOG_S");
    if (s && atoi(s) > 0)
        limit = atoi(s);
    pthread_t tid;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    if (pthread_create(&tid, &attr, mpi_test_watchdog, &limit) != 0) {
        fprintf(stderr, "FAIL: %s: cannot start the watchdog thread\n", name);
        exit(1);
    }
    pthread_attr_destroy(&attr);

    int provided = -1;
    MPI_Init_thread(argc, argv, level, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &mpi_test_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpi_test_ranks);
    if (provided < level) {
        fprintf(stderr, "FAIL: %s: rank %d: asked MPI for %s, it provides only %s\n", name,
                mpi_test_rank, mpi_test_level_name(level), mpi_test_level_name(provided));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    mpi_test_tick();
}

/* Every rank's failed checks, summed; rank 0 says how many. */
static inline int mpi_test_finish(void)
{
    mpi_test_phase("finish");
    int mine = __atomic_load_n(&xomp_test_failures, __ATOMIC_RELAXED), all = 0;
    MPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (mpi_test_rank == 0) {
        if (all)
            fprintf(stderr, "FAIL: %s: %d check(s) failed over %d ranks\n", mpi_test_name, all,
                    mpi_test_ranks);
        else
            printf("%s: ok on %d ranks x %d threads (%s)\n", mpi_test_name, mpi_test_ranks,
                   omp_get_max_threads(), test_runtime_is_xomp() ? "xomp" : "libgomp");
    }
    MPI_Finalize();
    return all ? 1 : 0;
}

#endif
