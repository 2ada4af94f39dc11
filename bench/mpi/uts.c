/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * mpi-uts: Unbalanced Tree Search over MPI ranks, OpenMP tasks inside each.
 * The trees are those of the single-process uts (../common/uts_tree.h);
 * the total node count must equal the tree's published size (or the
 * independent recount).
 *
 * Work sharing between ranks:
 *   1. Every rank expands the top of the tree breadth first, the same way,
 *      until the frontier holds at least FRONTIER_PER_RANK nodes per rank
 *      (rank 0 counts the nodes above it).  A few thousand SHA-1s: cheap.
 *   2. The frontier's subtrees are the units of work, dealt out on demand:
 *      a counter on rank 0, read and incremented with MPI_Fetch_and_op
 *      (MPI-3 one-sided, passive target: rank 0 does nothing to serve it).
 *      Each rank runs one "claimer" task per thread; a claimer takes the
 *      next subtree, counts it with one untied task per node (BOTS uts:
 *      uts_tree_count_tasks, whose tasks the rank's idle threads steal),
 *      and takes another, until the frontier is used up.  A rank that
 *      finds its subtrees small simply claims more: the sharing follows
 *      the work, whatever the tree's imbalance, down to one subtree (the
 *      largest subtree bounds the speedup: the frontier's size keeps it
 *      small against the total).
 *   3. The counts are summed (in verify, untimed).
 * The claimer tasks call MPI from whichever thread runs them:
 * MPI_THREAD_MULTIPLE.
 *
 * tasks = the tasks this run created: one per node below the frontier, plus
 * the claimers.
 */
#include "../common/uts_tree.h"
#include "hybrid.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define FRONTIER_PER_RANK 256

static struct uts_tree tree;
static MPI_Win claim_window;
static int64_t *claim_counter; /* on rank 0: the next frontier index */

static struct uts_node *frontier;
static uint64_t frontier_size, above_frontier;
static uint64_t counted;      /* nodes this rank counted (run) */
static uint64_t tasks_created;
static int serial_run;

/* Breadth-first from the root until the frontier is wide enough (or the
 * tree ends): every rank computes the same frontier. */
static int expand_frontier(uint64_t want)
{
    uint64_t cap = 1024, size = 1;
    struct uts_node *level = malloc(cap * sizeof *level);
    if (!level)
        return -1;
    uts_root(&tree, &level[0]);
    above_frontier = 0;
    while (size > 0 && size < want) {
        uint64_t next_size = 0;
        for (uint64_t i = 0; i < size; i++)
            next_size += (uint64_t)uts_num_children(&tree, &level[i]);
        struct uts_node *next = malloc((next_size ? next_size : 1) * sizeof *next);
        if (!next) {
            free(level);
            return -1;
        }
        uint64_t k = 0;
        for (uint64_t i = 0; i < size; i++) {
            int nc = uts_num_children(&tree, &level[i]);
            for (int c = 0; c < nc; c++)
                uts_child(&level[i], c, &next[k++]);
        }
        above_frontier += size;
        free(level);
        level = next;
        size = next_size;
    }
    free(frontier);
    frontier = level;
    frontier_size = size;
    return 0;
}

static int setup(const char *param)
{
    if (uts_tree_parse(&tree, param) != 0)
        return -1;
    MPI_Aint bytes = hybrid_rank == 0 ? (MPI_Aint)sizeof(int64_t) : 0;
    MPI_Win_allocate(bytes, sizeof(int64_t), MPI_INFO_NULL, MPI_COMM_WORLD, &claim_counter,
                     &claim_window);
    if (hybrid_rank == 0)
        *claim_counter = 0;
    MPI_Barrier(MPI_COMM_WORLD); /* the counter is 0 before anyone claims */
    return 0;
}

/* The next frontier index, for this rank alone. */
static uint64_t claim(void)
{
    const int64_t one = 1;
    int64_t index;
    MPI_Fetch_and_op(&one, &index, MPI_INT64_T, 0, 0, MPI_SUM, claim_window);
    MPI_Win_flush(0, claim_window);
    return (uint64_t)index;
}

static void run_parallel(void)
{
    serial_run = 0;
    if (expand_frontier((uint64_t)FRONTIER_PER_RANK * (uint64_t)hybrid_ranks) != 0) {
        fprintf(stderr, "mpi-uts: out of memory for the frontier\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    uint64_t nodes = 0, claimed = 0;
    int claimers = 0;
    MPI_Win_lock_all(0, claim_window);
#pragma omp parallel shared(nodes, claimed, claimers)
#pragma omp single
    {
        claimers = omp_get_num_threads();
        for (int c = 0; c < claimers; c++) {
#pragma omp task untied shared(nodes, claimed)
            {
                uint64_t mine = 0, took = 0;
                for (uint64_t i; (i = claim()) < frontier_size; took++)
                    mine += uts_tree_count_tasks(&tree, &frontier[i]);
                __atomic_add_fetch(&nodes, mine, __ATOMIC_RELAXED);
                __atomic_add_fetch(&claimed, took, __ATOMIC_RELAXED);
            }
        }
    }
    MPI_Win_unlock_all(claim_window);
    counted = nodes + (hybrid_rank == 0 ? above_frontier : 0);
    /* Each subtree's root ran inside its claimer; the nodes below it are
     * tasks. */
    tasks_created = nodes - claimed + (uint64_t)claimers;
}

static void run_serial(void)
{
    serial_run = 1;
    struct uts_node root;
    uts_root(&tree, &root);
    counted = uts_tree_count_serial(&tree, &root);
}

static enum bench_verdict verify(void)
{
    uint64_t total = counted;
    if (!serial_run)
        MPI_Allreduce(&counted, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    const char *what;
    uint64_t expect = uts_tree_expected(&tree, &what);
    if (expect == 0) {
        fprintf(stderr, "mpi-uts: out of memory in recount\n");
        return BENCH_VERIFY_FAIL;
    }
    if (total != expect) {
        if (hybrid_rank == 0)
            fprintf(stderr, "mpi-uts: %llu nodes, expected %llu (%s)\n",
                    (unsigned long long)total, (unsigned long long)expect, what);
        return BENCH_VERIFY_FAIL;
    }
    if (hybrid_rank == 0 && !serial_run)
        fprintf(stderr, "mpi-uts: %llu nodes (%s), frontier of %llu subtrees\n",
                (unsigned long long)total, what, (unsigned long long)frontier_size);
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return tasks_created;
}

static void teardown(void)
{
    MPI_Win_free(&claim_window);
    free(frontier);
    frontier = NULL;
}

/* test: 16,000 nodes; small: T1 (4,130,071 nodes, 0.5-2 s at 2 x 1 here);
 * medium: T3, binomial (4,112,897 nodes, very unbalanced subtrees);
 * large: T1L (102,181,082 nodes). */
static const struct bench_class classes[] = {
    {"test", "t=geo,a=fixed,b=4,d=6,r=19"},
    {"small", "t=geo,a=fixed,b=4,d=10,r=19"},
    {"medium", "t=bin,b=2000,q=0.124875,m=8,r=42"},
    {"large", "t=geo,a=fixed,b=4,d=13,r=29"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "mpi-uts",
    .classes = classes,
    .setup = setup,
    .run_parallel = run_parallel,
    .run_serial = run_serial,
    .verify = verify,
    .task_count = task_count,
    .teardown = teardown,
};

int main(int argc, char **argv)
{
    return hybrid_main(argc, argv, &kernel, MPI_THREAD_MULTIPLE);
}
