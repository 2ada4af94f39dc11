/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * An idle rank's OpenMP threads stay off the CPU while the rank waits in
 * MPI outside parallel regions: they must use under 1% of one core in all
 * (IDLE_LIMIT) while the initial thread sits in MPI_Recv (which, in Open
 * MPI, itself polls at full speed: that is MPI's CPU, reported but not
 * limited).
 *
 * Each round runs a parallel region full of tasks (the members were just
 * busy, as in a real code's compute phase), notes the CPU clock of every
 * member but the master (pthread_getcpuclockid, nanoseconds), then waits in
 * MPI_Recv for WAIT_MS until a helper pthread of the partner rank sends the
 * message that ends the wait, and reads the clocks again.  The members'
 * CPU time over the wait, divided by its wall time, is the figure; rank 0
 * prints every rank's (`idle: ...` lines, quoted in docs/hybrid.md).
 */
#include "mpi_test.h"

#include <sched.h>

enum { ROUNDS = 3, WAIT_MS = 400, MAX_THREADS = 64 };
#define IDLE_LIMIT 0.01 /* cores */

static int partner;

static double cpu_seconds(clockid_t clock)
{
    struct timespec ts;
    if (clock_gettime(clock, &ts) != 0)
        return -1;
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void *delayed_send(void *arg)
{
    int round = *(int *)arg;
    progress_sleep_us(WAIT_MS * 1000L);
    MPI_Send(&round, 1, MPI_INT, partner, round, MPI_COMM_WORLD);
    return NULL;
}

static long busy(long seed)
{
    long x = seed;
    for (int i = 0; i < 20000; i++)
        x = x * 6364136223846793005L + 1442695040888963407L;
    return x;
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv, MPI_THREAD_MULTIPLE, "mpi/idle");
    partner = mpi_test_rank ^ 1;
    if (partner >= mpi_test_ranks)
        partner = mpi_test_rank;
    double worst = 0, master_share = 0, waited = 0;
    int members = 0;
    for (int round = 0; round < ROUNDS; round++) {
        mpi_test_phase("a busy parallel region, then a wait in MPI_Recv");
        clockid_t clocks[MAX_THREADS];
        int n = 0;
        long sink = 0;
#pragma omp parallel shared(clocks, n, sink)
        {
            int me = omp_get_thread_num();
            if (me < MAX_THREADS && pthread_getcpuclockid(pthread_self(), &clocks[me]) != 0)
                clocks[me] = (clockid_t)-1;
#pragma omp single
            {
                n = omp_get_num_threads() < MAX_THREADS ? omp_get_num_threads() : MAX_THREADS;
                for (int i = 0; i < 200; i++) {
#pragma omp task firstprivate(i) shared(sink)
                    __atomic_add_fetch(&sink, busy(i), __ATOMIC_RELAXED);
                }
            }
        }
        if (sink == 42)
            printf("(unlikely)\n");
        members = n - 1;

        pthread_t sender;
        int token = round, got = -1;
        MPI_Barrier(MPI_COMM_WORLD);
        double before[MAX_THREADS];
        for (int i = 0; i < n; i++)
            before[i] = cpu_seconds(clocks[i]);
        double t0 = mpi_test_now();
        if (pthread_create(&sender, NULL, delayed_send, &token) != 0) {
            CHECK(0, "cannot start the sending thread");
            break;
        }
        MPI_Recv(&got, 1, MPI_INT, partner, round, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        double wall = mpi_test_now() - t0;
        double members_cpu = 0;
        for (int i = 1; i < n; i++) {
            double after = cpu_seconds(clocks[i]);
            CHECK(before[i] >= 0 && after >= 0, "cannot read member %d's CPU clock", i);
            members_cpu += after - before[i];
        }
        double master_cpu = cpu_seconds(clocks[0]) - before[0];
        pthread_join(sender, NULL);
        CHECK(got == round, "round %d: received %d", round, got);
        CHECK(wall >= WAIT_MS * 1e-3 * 0.9, "round %d: waited %.3f s only", round, wall);
        double share = members_cpu / wall;
        CHECK(share < IDLE_LIMIT, "round %d: rank %d's %d idle members used %.2f%% of a core "
              "(%.2f ms of CPU in %.0f ms) while it waited in MPI_Recv; the limit is %.0f%%",
              round, mpi_test_rank, n - 1, 100 * share, 1e3 * members_cpu, 1e3 * wall,
              100 * IDLE_LIMIT);
        if (share > worst)
            worst = share;
        master_share += master_cpu;
        waited += wall;
        MPI_Barrier(MPI_COMM_WORLD);
    }
    double mine[3] = {worst, waited > 0 ? master_share / waited : 0, (double)members};
    double *all = malloc(3 * sizeof(double) * (size_t)mpi_test_ranks);
    MPI_Gather(mine, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (mpi_test_rank == 0)
        for (int r = 0; r < mpi_test_ranks; r++)
            printf("idle: rank %d (%s): %g idle members used at most %.3f%% of a core while "
                   "the rank waited %d ms in MPI_Recv (its master, in MPI's poll: %.0f%%)\n",
                   r, test_runtime_is_xomp() ? "xomp" : "libgomp", all[3 * r + 2],
                   100 * all[3 * r], WAIT_MS, 100 * all[3 * r + 1]);
    free(all);
    return mpi_test_finish();
}
