/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * mpi-heat: the 2-D heat (Jacobi) stencil of ../common/heat2d.h over MPI
 * ranks, a task graph inside each, the halo exchange overlapped with the
 * computation.  The result must equal the serial sweeps bit for bit.
 *
 * Parameter "N,SWEEPS,B[,W]": an N x N grid, SWEEPS sweeps, tasks of B
 * rows; with W, a taskwait after every W sweeps bounds the tasks created
 * ahead (without, the whole graph is created at once).
 * The interior rows are split evenly over the ranks (each needs one at
 * least); a rank keeps its rows plus one ghost row above and below, in two
 * grids that alternate as source and destination.  The ghost rows of the
 * first and last rank are the grid's fixed boundary.
 *
 * Sweep s reads grid p = s % 2 and writes grid 1 - p.  Its tasks, created
 * by one thread for all sweeps at once, ordered by depend clauses only
 * (tokens: per grid one per block of B rows and one for both ghost rows):
 *   exchange  in: p's first and last block; out: p's ghosts.  Posts the
 *             ghost rows' MPI_Irecv and the edge rows' MPI_Isend to both
 *             neighbours and returns.
 *   wait      in: p's first and last block; inout: p's ghosts.  MPI_Waitall
 *             on them: after it the ghosts hold the neighbours' rows and
 *             the edge rows may be overwritten (the next writer of p's
 *             edge blocks depends on it through the `in`).
 *   block b   in: p's blocks b-1, b, b+1 (the ghosts in place of the
 *             missing ones at the edges); out: block b of 1 - p.
 * They are created exchange, interior blocks, wait, edge blocks: the order
 * one thread should run them in.  So the interior blocks of sweep s run
 * while the halo messages of sweep s are in flight, even with one thread
 * per rank, and blocks of sweep s+1 start as soon as their three source
 * blocks are done, before the whole sweep s has finished.  A wait
 * task blocks its thread in MPI_Waitall only until its neighbours' exchange
 * tasks of the same sweep have run; those never wait for this rank's later
 * tasks, so the graph finishes at any thread count, one included.  Tasks
 * call MPI from any thread: MPI_THREAD_MULTIPLE.
 *
 * tasks = SWEEPS x (blocks + 2) on this rank.  metric halo_wait_us: the
 * time per sweep a rank's wait task spent blocked in MPI_Waitall (mean over
 * the ranks), the part of the halo exchange the computation did not hide;
 * stderr also shows one row's one-way time measured alone in setup.
 */
#include "../common/heat2d.h"
#include "hybrid.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long n, sweeps, block_rows, window;
static long rows, first_row; /* this rank's interior rows: global [first_row, first_row + rows) */
static long blocks;
static double *grid[2];      /* (rows + 2) x n each; local row 0 and rows + 1 are the ghosts */
/* Depend tokens per grid: [0] stands for both ghost rows, [1 + b] for
 * block b. */
static char *token[2];
static MPI_Request requests[2][4];
static int request_count[2];
static int serial_run;
static double *serial_result; /* --serial: the whole grid */
static long halo_wait_ns;     /* time the wait tasks spent in MPI_Waitall (atomic adds) */
static double halo_raw_us;    /* one ghost row's one-way time, measured in setup */

static void measure_raw_halo(void);

static int setup(const char *param)
{
    unsigned long long v[4] = {0, 0, 0, 0};
    int given = bench_parse_uints(param, v, 4);
    if (given < 3 || v[0] < 3 || v[0] > 16384 || v[1] < 1 ||
        v[1] > 1000000000ULL || v[2] < 1)
        return -1;
    n = (long)v[0];
    sweeps = (long)v[1];
    block_rows = (long)v[2];
    window = given == 4 ? (long)v[3] : 0;
    if (n - 2 < hybrid_ranks) {
        if (hybrid_rank == 0)
            fprintf(stderr, "mpi-heat: %ld interior rows for %d ranks: each needs one\n", n - 2,
                    hybrid_ranks);
        return -1;
    }
    uint64_t first, count;
    hybrid_share((uint64_t)(n - 2), hybrid_rank, hybrid_ranks, &first, &count);
    first_row = 1 + (long)first;
    rows = (long)count;
    blocks = (rows + block_rows - 1) / block_rows;
    halo_wait_ns = 0;
    for (int p = 0; p < 2; p++) {
        grid[p] = malloc((size_t)(rows + 2) * (size_t)n * sizeof(double));
        token[p] = malloc((size_t)blocks + 1);
        if (!grid[p] || !token[p]) {
            fprintf(stderr, "mpi-heat: out of memory\n");
            return -1;
        }
    }
    measure_raw_halo();
    return 0;
}

/* Both local grids from the global start (rows first_row-1 .. first_row+rows). */
static int start(void)
{
    double *whole = malloc((size_t)n * (size_t)n * sizeof(double));
    if (!whole)
        return -1;
    heat2d_initialise(whole, n);
    for (int p = 0; p < 2; p++)
        memcpy(grid[p], whole + (first_row - 1) * n, (size_t)(rows + 2) * (size_t)n * sizeof(double));
    free(whole);
    return 0;
}

/* Ghost rows travel down with tag 2t and up with tag 2t + 1 (t = sweep mod
 * 8192: at most a few sweeps are ever in flight, and tags stay under the
 * 32767 every MPI allows). */
static int tag(long s, int up)
{
    return (int)(2 * (s % 8192) + up);
}

static void exchange(long s)
{
    int p = (int)(s % 2);
    double *g = grid[p];
    MPI_Request *r = requests[p];
    int k = 0;
    if (hybrid_rank > 0) {
        MPI_Irecv(g, (int)n, MPI_DOUBLE, hybrid_rank - 1, tag(s, 0), MPI_COMM_WORLD, &r[k++]);
        MPI_Isend(g + n, (int)n, MPI_DOUBLE, hybrid_rank - 1, tag(s, 1), MPI_COMM_WORLD, &r[k++]);
    }
    if (hybrid_rank < hybrid_ranks - 1) {
        MPI_Irecv(g + (rows + 1) * n, (int)n, MPI_DOUBLE, hybrid_rank + 1, tag(s, 1),
                  MPI_COMM_WORLD, &r[k++]);
        MPI_Isend(g + rows * n, (int)n, MPI_DOUBLE, hybrid_rank + 1, tag(s, 0), MPI_COMM_WORLD,
                  &r[k++]);
    }
    request_count[p] = k;
}

static void wait_exchange(long s)
{
    int p = (int)(s % 2);
    double t0 = MPI_Wtime();
    MPI_Waitall(request_count[p], requests[p], MPI_STATUSES_IGNORE);
    __atomic_add_fetch(&halo_wait_ns, (long)((MPI_Wtime() - t0) * 1e9), __ATOMIC_RELAXED);
}

/* The one-way time of one ghost row between neighbours with nothing else
 * running: the fastest of 20 round trips, halved (untimed, in setup). */
static void measure_raw_halo(void)
{
    double *row = calloc((size_t)n, sizeof *row), best = 1e9;
    int peer = hybrid_rank ^ 1;
    for (int trial = 0; trial < 20 && row && peer < hybrid_ranks; trial++) {
        double t0 = MPI_Wtime();
        if (hybrid_rank % 2 == 0) {
            MPI_Send(row, (int)n, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
            MPI_Recv(row, (int)n, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(row, (int)n, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(row, (int)n, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
        }
        double half = (MPI_Wtime() - t0) / 2;
        best = half < best ? half : best;
    }
    free(row);
    double mine = peer < hybrid_ranks ? best * 1e6 : 0;
    MPI_Allreduce(&mine, &halo_raw_us, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
}

static void update_block(long s, long b)
{
    const double *src = grid[s % 2];
    double *dst = grid[(s + 1) % 2];
    long end = (b + 1) * block_rows < rows ? (b + 1) * block_rows : rows;
    for (long i = b * block_rows; i < end; i++)
        heat2d_update_row(src, dst, n, i + 1);
}

/* Block b of sweep s reads blocks b-1, b and b+1 of the source grid, the
 * ghost rows where it has no neighbour block, and writes its block of the
 * destination. */
static void create_block_task(long s, long b)
{
#pragma omp task depend(in : token[s % 2][b], token[s % 2][b + 1], \
                            token[s % 2][b + 2 <= blocks ? b + 2 : 0]) \
    depend(out : token[(s + 1) % 2][b + 1]) firstprivate(s, b)
    update_block(s, b);
}

static void run_parallel(void)
{
    serial_run = 0;
    if (start() != 0) {
        fprintf(stderr, "mpi-heat: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
#pragma omp parallel
#pragma omp single
    for (long s = 0; s < sweeps; s++) {
        /* (token[s % 2] is the source grid's, token[(s + 1) % 2] the
         * destination's: spelt out, since GCC 12 calls a variable used
         * only in depend clauses unused.)  Created in the order a single
         * thread should run them, which is what a team of one does: post
         * the halos, compute the interior, then wait for the halos and
         * compute the edge blocks. */
#pragma omp task depend(in : token[s % 2][1], token[s % 2][blocks]) \
    depend(out : token[s % 2][0]) firstprivate(s)
        exchange(s);
        for (long b = 1; b < blocks - 1; b++)
            create_block_task(s, b);
#pragma omp task depend(in : token[s % 2][1], token[s % 2][blocks]) \
    depend(inout : token[s % 2][0]) firstprivate(s)
        wait_exchange(s);
        create_block_task(s, 0);
        if (blocks > 1)
            create_block_task(s, blocks - 1);
        if (window && (s + 1) % window == 0 && s + 1 < sweeps) {
#pragma omp taskwait
        }
    }
}

static void run_serial(void)
{
    serial_run = 1;
    free(serial_result);
    serial_result = heat2d_reference(n, sweeps);
    if (!serial_result) {
        fprintf(stderr, "mpi-heat: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
}

/* Each rank compares its rows (or, after --serial, the whole grid) with
 * serial sweeps of the whole grid. */
static enum bench_verdict verify(void)
{
    double *want = heat2d_reference(n, sweeps);
    if (!want) {
        fprintf(stderr, "mpi-heat: out of memory for the reference\n");
        return BENCH_VERIFY_FAIL;
    }
    const double *got = serial_run ? serial_result : grid[sweeps % 2] + n;
    long from = serial_run ? 0 : first_row, count = serial_run ? n : rows;
    long first, differ = heat2d_differences(got, want + from * n, count * n, &first);
    if (differ)
        fprintf(stderr, "mpi-heat: rank %d: %ld points differ from the serial sweeps, first "
                "(%ld,%ld): %.17g, expected %.17g\n", hybrid_rank, differ, from + first / n,
                first % n, got[first], want[from * n + first]);
    free(want);
    if (!serial_run) {
        /* How much of the halo exchange the tasks did not hide: the mean
         * over the ranks of the time per sweep their wait task spent
         * blocked, against one row's one-way time alone. */
        double exposed = (double)halo_wait_ns / 1e3 / (double)sweeps, mean = 0;
        MPI_Allreduce(&exposed, &mean, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        mean /= hybrid_ranks;
        bench_report_metric("halo_wait_us", mean);
        if (hybrid_rank == 0 && hybrid_ranks > 1)
            fprintf(stderr, "mpi-heat: halo rows of %ld doubles: %.2f us one way alone; the "
                    "wait tasks blocked %.2f us per sweep (mean over ranks)\n", n, halo_raw_us,
                    mean);
    }
    return differ ? BENCH_VERIFY_FAIL : BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return (uint64_t)sweeps * (uint64_t)(blocks + 2);
}

static void teardown(void)
{
    for (int p = 0; p < 2; p++) {
        free(grid[p]);
        free(token[p]);
    }
    free(serial_result);
}

/* test: tiny, every rank count up to 16; small: 1024 x 1024, 1000 sweeps
 * (1.0 G point updates: about 1 s at 2 x 1 here), tasks of 32 rows (some
 * 30 us); medium and large: more sweeps and larger grids. */
static const struct bench_class classes[] = {
    {"test", "66,40,4"},
    {"small", "1024,1000,32"},
    {"medium", "2048,1000,64"},
    {"large", "4096,2000,64"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "mpi-heat",
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
