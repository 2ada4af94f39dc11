/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared by the MPI + OpenMP test programs of tests/mpi.  Each is an
 * ordinary `mpicc -fopenmp` program that tests/mpi/run.sh starts with
 * mpirun, on xomp or on the system libgomp (XOMP_TEST_RUNTIME, checked
 * before main by xomp_test.h in every rank).
 *
 * - mpi_test_init(&argc, &argv, level, name): MPI_Init_thread asking for
 *   `level`; a library that provides less fails the test (Debian's Open MPI
 *   provides MPI_THREAD_MULTIPLE).  Starts the watchdog of
 *   tests/progress/progress.h: when no mpi_test_tick() arrives for
 *   XOMP_TEST_WATCHDOG_S seconds the rank prints "FAIL: NAME rank R: no
 *   progress ... in phase P" and exits, and mpirun then stops the other
 *   ranks: a hang fails quickly, well before CTest's timeout.
 * - mpi_test_phase("..."): names the scenario now running (for that
 *   message) and ticks.
 * - mpi_test_finish(): sums every rank's failed CHECKs, finalizes MPI and
 *   returns the exit status (0 only when no rank failed a check).
 *
 * The watchdog is a plain pthread: it calls no MPI and no OpenMP.
 */
#ifndef XOMP_MPI_TEST_H
#define XOMP_MPI_TEST_H

#include "../progress/progress.h"

#include <mpi.h>
#include <stdint.h>

static int mpi_test_rank, mpi_test_ranks;

static inline void mpi_test_tick(void)
{
    progress_tick();
}

static inline void mpi_test_phase(const char *phase)
{
    progress_phase(phase);
}

static inline double mpi_test_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
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

static const char *mpi_test_name = "?";

static inline void mpi_test_init(int *argc, char ***argv, int level, const char *name)
{
    int provided = -1;
    MPI_Init_thread(argc, argv, level, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &mpi_test_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &mpi_test_ranks);
    if (provided < level) {
        fprintf(stderr, "FAIL: %s: rank %d: asked MPI for %s, it provides only %s\n", name,
                mpi_test_rank, mpi_test_level_name(level), mpi_test_level_name(provided));
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* The watchdog's messages name the rank. */
    static char label[128];
    snprintf(label, sizeof label, "%s rank %d", name, mpi_test_rank);
    mpi_test_name = name;
    progress_start(label);
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
