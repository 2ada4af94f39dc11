/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Tasks that block in MPI_Recv while the tasks that will unblock them --
 * on the partner rank, through tasks of this rank -- still have to run
 * (MPI_THREAD_MULTIPLE).  A runtime that leaves a queued task reachable
 * only through a thread now blocked in MPI hangs here; the watchdog turns
 * that into a failure.  It needs at least 2 threads per rank: with one,
 * the only thread is the blocked one, and no runtime can finish (the
 * program says so and exits with status 2).
 *
 * Each rank talks to its partner (rank ^ 1; the last of an odd number
 * talks to itself).
 *
 * Phase "parent": a task P creates CHILDREN child tasks, then blocks in
 *   MPI_Recv for the partner's checksum before it waits for its children.
 *   The child that finishes last sends this rank's checksum to the
 *   partner.  P's children were queued by P's thread, which is now blocked
 *   in MPI: the other threads must take them, on both ranks, or neither
 *   checksum is ever sent.
 * Phase "all but one": T-1 receiver tasks (T threads) each block in
 *   MPI_Recv until the partner has finished all of its compute tasks; the
 *   compute tasks are created after them by the same thread, and the last
 *   one to finish sends T-1 "done" messages.  At worst all but one thread
 *   are blocked, and that one must run every compute task, those queued by
 *   the blocked threads included.
 */
#include "mpi_test.h"

enum { ROUNDS = 12, CHILDREN = 64, COMPUTE = 200 };

static int partner;

/* A few microseconds of work whose result is known. */
static long work(long seed)
{
    long x = seed;
    for (int i = 0; i < 2000; i++)
        x = x * 6364136223846793005L + 1442695040888963407L;
    return x & 0xffff;
}

static long expected_sum(int round, int n)
{
    long s = 0;
    for (int i = 0; i < n; i++)
        s += work(round * 1000003L + i);
    return s;
}

static void phase_parent(int round)
{
    long sum = 0, received = -1;
    int finished = 0;
#pragma omp parallel shared(sum, received, finished)
#pragma omp single
#pragma omp task shared(sum, received, finished)
    {
        for (int i = 0; i < CHILDREN; i++) {
#pragma omp task firstprivate(i) shared(sum, finished)
            {
                __atomic_add_fetch(&sum, work(round * 1000003L + i), __ATOMIC_RELAXED);
                /* acq_rel: the last child sees every child's sum. */
                if (__atomic_add_fetch(&finished, 1, __ATOMIC_ACQ_REL) == CHILDREN) {
                    long total = __atomic_load_n(&sum, __ATOMIC_RELAXED);
                    MPI_Send(&total, 1, MPI_LONG, partner, round, MPI_COMM_WORLD);
                }
                mpi_test_tick();
            }
        }
        /* Blocks until the partner's children are all done; ours sit in
         * this thread's queue. */
        MPI_Recv(&received, 1, MPI_LONG, partner, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma omp taskwait
    }
    long want = expected_sum(round, CHILDREN);
    CHECK(sum == want, "round %d: children summed %ld, expected %ld", round, sum, want);
    CHECK(received == want, "round %d: the partner sent %ld, expected %ld", round, received,
          want);
}

static void phase_all_but_one(int round)
{
    int threads = omp_get_max_threads();
    int receivers = threads - 1;
    long sum = 0;
    int finished = 0, received = 0;
    enum { TAG_BASE = 1 << 20 };
#pragma omp parallel shared(sum, finished, received)
#pragma omp single
    {
        for (int r = 0; r < receivers; r++) {
#pragma omp task firstprivate(r) shared(received)
            {
                int v = -1;
                MPI_Recv(&v, 1, MPI_INT, partner, TAG_BASE + round * 64 + r, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                CHECK(v == round, "round %d: receiver %d got %d", round, r, v);
                __atomic_add_fetch(&received, 1, __ATOMIC_RELAXED);
            }
        }
        for (int i = 0; i < COMPUTE; i++) {
#pragma omp task firstprivate(i) shared(sum, finished)
            {
                __atomic_add_fetch(&sum, work(round * 7919L + i), __ATOMIC_RELAXED);
                if (__atomic_add_fetch(&finished, 1, __ATOMIC_ACQ_REL) == COMPUTE)
                    for (int r = 0; r < receivers; r++)
                        MPI_Send(&round, 1, MPI_INT, partner, TAG_BASE + round * 64 + r,
                                 MPI_COMM_WORLD);
                mpi_test_tick();
            }
        }
    }
    long want = 0;
    for (int i = 0; i < COMPUTE; i++)
        want += work(round * 7919L + i);
    CHECK(sum == want, "round %d: compute tasks summed %ld, expected %ld", round, sum, want);
    CHECK(received == receivers, "round %d: %d of %d receivers done", round, received, receivers);
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv, MPI_THREAD_MULTIPLE, "mpi/blocking");
    partner = mpi_test_rank ^ 1;
    if (partner >= mpi_test_ranks)
        partner = mpi_test_rank;
    if (omp_get_max_threads() < 2) {
        if (mpi_test_rank == 0)
            fprintf(stderr, "mpi/blocking: needs at least 2 threads per rank: with one, the "
                            "thread blocked in MPI_Recv is the only one that could run the "
                            "tasks that unblock it\n");
        MPI_Finalize();
        return 2;
    }
    for (int round = 0; round < ROUNDS; round++) {
        mpi_test_phase("parent: a task blocks in MPI_Recv over its queued children");
        phase_parent(round);
        mpi_test_phase("all but one: T-1 tasks block in MPI_Recv, one thread computes");
        phase_all_but_one(round);
    }
    return mpi_test_finish();
}
