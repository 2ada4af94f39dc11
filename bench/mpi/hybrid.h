/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The harness of the hybrid MPI + OpenMP kernels (bench/mpi): each MPI
 * rank is one process with an OpenMP team; the kernels are ordinary
 * `gcc -fopenmp` programs linked with Open MPI, started by mpirun (the
 * driver: `xomp bench --mpi RANKS`).  Their main() is one line:
 *
 *     int main(int argc, char **argv)
 *     { return hybrid_main(argc, argv, &kernel, MPI_THREAD_MULTIPLE); }
 *
 * hybrid_main() initializes MPI asking for the kernel's thread level (a
 * library that provides less is an error: exit 2 with one line), then runs
 * bench_main_world() (../common/bench.h: same command line, one result
 * line from rank 0 for the whole job, ending with ranks=N), then finalizes.
 * `--list-classes` answers without MPI, so the driver can ask a kernel its
 * classes without mpirun.
 *
 * `--serial` runs the kernel's serial version, the whole computation in one
 * process, in every rank: run it with one rank (the driver does).
 */
#ifndef XOMP_BENCH_HYBRID_H
#define XOMP_BENCH_HYBRID_H

#include "../common/bench.h"

#include <mpi.h>

/* This process's rank and the number of ranks (valid in setup and after). */
extern int hybrid_rank, hybrid_ranks;

int hybrid_main(int argc, char **argv, const struct bench_kernel *kernel, int thread_level);

/* [first, first + count) of `total` items split evenly over the ranks, the
 * first ranks taking one more when it does not divide. */
void hybrid_share(uint64_t total, int rank, int ranks, uint64_t *first, uint64_t *count);

/* The rank whose share (hybrid_share) holds `item`. */
int hybrid_owner(uint64_t item, uint64_t total, int ranks);

#endif
