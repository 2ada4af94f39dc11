/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * nqueens: count every placement of N non-attacking queens on an NxN board
 * by exhaustive backtracking, one queen per row.
 *
 * Task structure (as in BOTS nqueens): the search at row r tries every
 * column; each column that is legal for the partial board becomes one task,
 * which receives its own private copy of the board (the board is a small
 * struct passed firstprivate) and searches the rows below it.  Each child
 * writes its solution count into its own slot of an array owned by the
 * parent; the parent sums the slots after a taskwait.  (BOTS creates the
 * task first and tests legality inside it; here illegal columns never
 * become tasks, so the task count equals the number of legal partial boards
 * of depth 1..CUTOFF.)
 *
 * Parameter: "N" or "N,CUTOFF", 1 <= N <= 18, 0 <= CUTOFF <= N.  Rows
 * 0..CUTOFF-1 spawn tasks; rows >= CUTOFF are searched serially inside the
 * task that reached them.  "N" alone means CUTOFF = N: every legal placement
 * of every row is a task (the finest grain, like fib without a cutoff).
 * CUTOFF = 0 creates no task at all.
 *
 * Classes (every one without a cutoff; N=14 took 5.5-16 s under libgomp
 * with 2 threads, its lock contention varying with the machine's load,
 * above the small class's 10 s ceiling; N=13 takes 2.7 s there):
 *   test   N=8   (92 solutions, 2,056 tasks)
 *   small  N=13  (73,712 solutions, 4,674,889 tasks)
 *   medium N=15  (2,279,184 solutions, 171,129,071 tasks)
 *   large  N=16  (14,772,512 solutions, 1,141,190,302 tasks)
 *
 * Verification: the solution count is compared with the published values
 * of OEIS A000170 for N = 1..18.
 */
#include "../common/bench.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define NQ_MAX 18

/* The partial board: col[r] is the column of the queen in row r. */
struct nq_board {
    signed char col[NQ_MAX];
};

static int nq_n;
static int nq_cutoff;
static uint64_t nq_result;

/* OEIS A000170: number of solutions of the N-queens problem, N = 1..18. */
static const uint64_t nq_known[NQ_MAX + 1] = {
    0, /* N = 0 is not accepted */
    1ULL,         0ULL,         0ULL,       2ULL,        10ULL,        4ULL,
    40ULL,        92ULL,        352ULL,     724ULL,      2680ULL,      14200ULL,
    73712ULL,     365596ULL,    2279184ULL, 14772512ULL, 95815104ULL,  666090624ULL,
};

/* May a queen go to (row, c), given the queens in rows 0..row-1? */
static int nq_legal(const struct nq_board *b, int row, int c)
{
    for (int r = 0; r < row; r++) {
        int d = b->col[r] - c;
        if (d == 0 || d == row - r || d == r - row)
            return 0;
    }
    return 1;
}

/* Count the completions of the legal partial board b with rows 0..row-1
 * filled.  b is modified in rows >= row. */
static uint64_t nq_search_serial(struct nq_board *b, int row)
{
    if (row == nq_n)
        return 1;
    uint64_t total = 0;
    for (int c = 0; c < nq_n; c++) {
        if (nq_legal(b, row, c)) {
            b->col[row] = (signed char)c;
            total += nq_search_serial(b, row + 1);
        }
    }
    return total;
}

static uint64_t nq_search_task(const struct nq_board *b, int row)
{
    if (row == nq_n)
        return 1;
    if (row >= nq_cutoff) {
        struct nq_board mine = *b;
        return nq_search_serial(&mine, row);
    }
    uint64_t found[NQ_MAX];
    for (int c = 0; c < nq_n; c++) {
        found[c] = 0;
        if (!nq_legal(b, row, c))
            continue;
        struct nq_board child = *b;
        child.col[row] = (signed char)c;
        bench_task_counters[omp_get_thread_num()].value++;
#pragma omp task untied firstprivate(child, row, c) shared(found)
        found[c] = nq_search_task(&child, row + 1);
    }
#pragma omp taskwait
    uint64_t total = 0;
    for (int c = 0; c < nq_n; c++)
        total += found[c];
    return total;
}

static int setup(const char *param)
{
    unsigned long long v[2];
    int got = bench_parse_uints(param, v, 2);
    if (got < 1 || v[0] < 1 || v[0] > NQ_MAX || (got == 2 && v[1] > v[0])) {
        fprintf(stderr, "nqueens: parameter is N[,CUTOFF] with 1 <= N <= %d, CUTOFF <= N\n",
                NQ_MAX);
        return -1;
    }
    nq_n = (int)v[0];
    nq_cutoff = got == 2 ? (int)v[1] : nq_n;
    return 0;
}

static void run_parallel(void)
{
    struct nq_board empty = {{0}};
    bench_counters_reset();
#pragma omp parallel
#pragma omp single
    nq_result = nq_search_task(&empty, 0);
}

static void run_serial(void)
{
    struct nq_board empty = {{0}};
    nq_result = nq_search_serial(&empty, 0);
}

static enum bench_verdict verify(void)
{
    if (nq_result != nq_known[nq_n]) {
        fprintf(stderr, "nqueens(%d): got %llu solutions, expected %llu\n", nq_n,
                (unsigned long long)nq_result, (unsigned long long)nq_known[nq_n]);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return bench_counters_sum();
}

static const struct bench_class classes[] = {
    {"test", "8"}, {"small", "13"}, {"medium", "15"}, {"large", "16"}, {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "nqueens",
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
