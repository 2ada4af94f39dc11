/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * MPI_THREAD_FUNNELED: only the thread that initialized MPI calls it.  A
 * 1-D heat equation on a ring of CELLS cells per rank: each step the
 * master thread exchanges the halo cells with both neighbours (MPI_Sendrecv)
 * while tasks it created update the interior, which needs no halo; after a
 * barrier the two edge cells follow.  The result must equal, bit for bit,
 * the same steps computed serially over the whole ring (each rank computes
 * the global reference itself).
 *
 * Also checked: the member that runs `masked` is the thread MPI knows as
 * the main thread (MPI_Is_thread_main), and no other member is -- the
 * runtime's team master is the initial thread.
 */
#include "mpi_test.h"

enum { CELLS = 4096, STEPS = 60, BLOCK = 256 };

static double step_cell(const double *u, long i)
{
    return 0.25 * u[i - 1] + 0.5 * u[i] + 0.25 * u[i + 1];
}

static double initial(long global_i)
{
    uint64_t x = (uint64_t)global_i * 0x9e3779b97f4a7c15ULL;
    x ^= x >> 29;
    return (double)(x % 1000) / 1000.0;
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv, MPI_THREAD_FUNNELED, "mpi/funneled");
    int left = (mpi_test_rank + mpi_test_ranks - 1) % mpi_test_ranks;
    int right = (mpi_test_rank + 1) % mpi_test_ranks;
    long first = (long)mpi_test_rank * CELLS;

    /* u[0] and u[CELLS + 1] are the halo cells. */
    double *u = malloc((CELLS + 2) * sizeof *u), *v = malloc((CELLS + 2) * sizeof *v);
    for (long i = 0; i < CELLS; i++)
        u[i + 1] = initial(first + i);

    int main_ok = 1, others_main = 0;
    for (int s = 0; s < STEPS; s++) {
        mpi_test_phase("step: master exchanges halos, tasks update the interior");
#pragma omp parallel shared(u, v, main_ok, others_main)
        {
#pragma omp masked
            {
                int is_main = 0;
                MPI_Is_thread_main(&is_main);
                if (!is_main)
                    main_ok = 0;
                for (long b = 2; b < CELLS; b += BLOCK) {
                    long end = b + BLOCK < CELLS ? b + BLOCK : CELLS;
#pragma omp task firstprivate(b, end) shared(u, v)
                    for (long i = b; i < end; i++)
                        v[i] = step_cell(u, i);
                }
                /* The halo exchange overlaps the tasks above. */
                MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, s, &u[CELLS + 1], 1, MPI_DOUBLE, right,
                             s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                MPI_Sendrecv(&u[CELLS], 1, MPI_DOUBLE, right, STEPS + s, &u[0], 1, MPI_DOUBLE,
                             left, STEPS + s, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            }
            if (omp_get_thread_num() != 0) {
                int is_main = 1;
                MPI_Is_thread_main(&is_main);
                if (is_main)
                    __atomic_store_n(&others_main, 1, __ATOMIC_RELAXED);
            }
#pragma omp barrier
#pragma omp single
            {
                v[1] = step_cell(u, 1);
                v[CELLS] = step_cell(u, CELLS);
            }
        }
        double *t = u;
        u = v;
        v = t;
    }
    CHECK(main_ok, "the member running `masked` is not MPI's main thread");
    CHECK(!others_main, "a member other than the master is MPI's main thread");

    /* The whole ring, serially. */
    long n = (long)CELLS * mpi_test_ranks;
    double *a = malloc((n + 2) * sizeof *a), *b = malloc((n + 2) * sizeof *b);
    for (long i = 0; i < n; i++)
        a[i + 1] = initial(i);
    for (int s = 0; s < STEPS; s++) {
        a[0] = a[n];
        a[n + 1] = a[1];
        for (long i = 1; i <= n; i++)
            b[i] = step_cell(a, i);
        double *t = a;
        a = b;
        b = t;
    }
    long wrong = 0;
    for (long i = 0; i < CELLS; i++)
        wrong += memcmp(&u[i + 1], &a[first + i + 1], sizeof(double)) != 0;
    CHECK(wrong == 0, "rank %d: %ld of %d cells differ from the serial ring", mpi_test_rank, wrong,
          CELLS);
    free(a);
    free(b);
    free(u);
    free(v);
    return mpi_test_finish();
}
