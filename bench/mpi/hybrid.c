/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* The hybrid kernels' harness: MPI around bench_main_world (see hybrid.h). */
#include "hybrid.h"

#include <stdio.h>
#include <string.h>

int hybrid_rank, hybrid_ranks = 1;

static void world_barrier(void)
{
    MPI_Barrier(MPI_COMM_WORLD);
}

static void world_max(double *values, int n)
{
    MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}

static void world_sum(double *values, int n)
{
    MPI_Allreduce(MPI_IN_PLACE, values, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
}

void hybrid_share(uint64_t total, int rank, int ranks, uint64_t *first, uint64_t *count)
{
    uint64_t base = total / (uint64_t)ranks, extra = total % (uint64_t)ranks;
    uint64_t r = (uint64_t)rank;
    *first = r * base + (r < extra ? r : extra);
    *count = base + (r < extra ? 1 : 0);
}

int hybrid_owner(uint64_t item, uint64_t total, int ranks)
{
    uint64_t base = total / (uint64_t)ranks, extra = total % (uint64_t)ranks;
    uint64_t big = extra * (base + 1); /* items in the shares one larger */
    if (item < big)
        return (int)(item / (base + 1));
    return (int)(extra + (item - big) / base);
}

static const char *level_name(int level)
{
    switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    case MPI_THREAD_MULTIPLE: return "MPI_THREAD_MULTIPLE";
    default: return "an unknown thread level";
    }
}

int hybrid_main(int argc, char **argv, const struct bench_kernel *kernel, int thread_level)
{
    for (int i = 1; i < argc; i++)
        if (!strcmp(argv[i], "--list-classes"))
            return bench_main(argc, argv, kernel);

    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, thread_level, &provided);
    MPI_Comm_rank(MPI_COMM_WORLD, &hybrid_rank);
    MPI_Comm_size(MPI_COMM_WORLD, &hybrid_ranks);
    if (provided < thread_level) {
        if (hybrid_rank == 0)
            fprintf(stderr, "%s: needs %s, the MPI library provides %s\n", kernel->name,
                    level_name(thread_level), level_name(provided));
        MPI_Finalize();
        return 2;
    }
    const struct bench_world world = {
        .rank = hybrid_rank,
        .size = hybrid_ranks,
        .barrier = world_barrier,
        .allreduce_max = world_max,
        .allreduce_sum = world_sum,
    };
    int status = bench_main_world(argc, argv, kernel, &world);
    MPI_Finalize();
    return status;
}
