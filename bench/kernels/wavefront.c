/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * wavefront: a 2-D wavefront of many small tasks ordered only by depend
 * clauses -- Smith-Waterman local alignment (linear gap) of two random DNA
 * sequences of length NX*BS and NY*BS, cut into NX x NY blocks of BS x BS
 * cells.  Block (i, j) needs the bottom row of block (i-1, j), the right
 * column of block (i, j-1) and the corner of block (i-1, j-1), so its task
 * has depend(in) on its upper and left neighbours and depend(out) on
 * itself: the parallelism grows and shrinks along the anti-diagonals, and
 * with small blocks the runtime's dependence handling is the cost.
 *
 * Parameter: "NX,NY,BS".  Verification: every block's last row and
 * column and the best score against an unblocked row-by-row computation of
 * the same recurrence (integers, so any correct order gives the same
 * values; a task run before its inputs were ready changes them).
 */
#include "../common/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct block {
    int *bottom; /* last row of the block, BS values */
    int *right;  /* last column of the block, BS values */
    int best;    /* best score inside the block */
};

static int nx, ny, bs;
static char *seq_a, *seq_b; /* lengths nx*bs and ny*bs */
static struct block *blocks;
static int *storage;

#define MATCH 2
#define MISMATCH (-1)
#define GAP 1

static struct block *blk(int i, int j)
{
    return &blocks[(size_t)i * ny + j];
}

static int max2(int a, int b)
{
    return a > b ? a : b;
}

/* Fill block (i, j) from its neighbours' edges. */
static void compute_block(int i, int j)
{
    int row[bs + 1], next[bs + 1];
    const struct block *up = i ? blk(i - 1, j) : NULL, *left = j ? blk(i, j - 1) : NULL;
    row[0] = i && j ? blk(i - 1, j - 1)->bottom[bs - 1] : 0; /* the corner */
    for (int c = 0; c < bs; c++)
        row[c + 1] = up ? up->bottom[c] : 0;
    struct block *me = blk(i, j);
    const char *a = seq_a + (size_t)i * bs, *b = seq_b + (size_t)j * bs;
    int best = 0;
    for (int r = 0; r < bs; r++) {
        next[0] = left ? left->right[r] : 0;
        for (int c = 0; c < bs; c++) {
            int h = row[c] + (a[r] == b[c] ? MATCH : MISMATCH);
            h = max2(h, row[c + 1] - GAP);
            h = max2(h, next[c] - GAP);
            h = max2(h, 0);
            next[c + 1] = h;
            best = max2(best, h);
        }
        me->right[r] = next[bs];
        memcpy(row, next, sizeof row);
    }
    memcpy(me->bottom, row + 1, (size_t)bs * sizeof(int));
    me->best = best;
}

/* The reference: the whole matrix row by row (one row kept), recording
 * the cells that are block edges.  Returns the best score. */
static int reference_edges(int *bottom_of, int *right_of)
{
    size_t cols = (size_t)ny * bs;
    int *row = calloc(cols + 1, sizeof *row), *next = calloc(cols + 1, sizeof *next);
    if (!row || !next) {
        fprintf(stderr, "wavefront: out of memory for the reference\n");
        exit(1);
    }
    int best = 0;
    for (size_t r = 0; r < (size_t)nx * bs; r++) {
        next[0] = 0;
        for (size_t c = 0; c < cols; c++) {
            int h = row[c] + (seq_a[r] == seq_b[c] ? MATCH : MISMATCH);
            h = max2(max2(h, row[c + 1] - GAP), max2(next[c] - GAP, 0));
            next[c + 1] = h;
            best = max2(best, h);
            size_t i = r / bs, j = c / bs, k = i * ny + j;
            if (r % bs == (size_t)bs - 1)
                bottom_of[k * bs + c % bs] = h;
            if (c % bs == (size_t)bs - 1)
                right_of[k * bs + r % bs] = h;
        }
        int *t = row;
        row = next;
        next = t;
    }
    free(row);
    free(next);
    return best;
}

static int setup(const char *param)
{
    if (sscanf(param, "%d,%d,%d", &nx, &ny, &bs) != 3 || nx < 1 || ny < 1 || bs < 1 ||
        nx > 65536 || ny > 65536 || bs > 4096 || (double)nx * ny > 16777216.0 ||
        (double)nx * ny * bs > 268435456.0)
        return -1;
    size_t na = (size_t)nx * bs, nb = (size_t)ny * bs, nblocks = (size_t)nx * ny;
    seq_a = malloc(na);
    seq_b = malloc(nb);
    blocks = calloc(nblocks, sizeof *blocks);
    storage = malloc(nblocks * 2 * (size_t)bs * sizeof(int));
    if (!seq_a || !seq_b || !blocks || !storage)
        return -1;
    uint64_t state = 12345;
    for (size_t k = 0; k < na; k++)
        seq_a[k] = "ACGT"[bench_rand_next(&state) & 3];
    for (size_t k = 0; k < nb; k++)
        seq_b[k] = "ACGT"[bench_rand_next(&state) & 3];
    for (size_t k = 0; k < nblocks; k++) {
        blocks[k].bottom = storage + k * 2 * (size_t)bs;
        blocks[k].right = blocks[k].bottom + bs;
    }
    return 0;
}

static void run_parallel(void)
{
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++) {
            struct block *me = blk(i, j);
            if (i && j) {
                struct block *up = blk(i - 1, j), *left = blk(i, j - 1);
#pragma omp task depend(in : *up, *left) depend(out : *me) firstprivate(i, j)
                compute_block(i, j);
            } else if (i) {
                struct block *up = blk(i - 1, j);
#pragma omp task depend(in : *up) depend(out : *me) firstprivate(i, j)
                compute_block(i, j);
            } else if (j) {
                struct block *left = blk(i, j - 1);
#pragma omp task depend(in : *left) depend(out : *me) firstprivate(i, j)
                compute_block(i, j);
            } else {
#pragma omp task depend(out : *me) firstprivate(i, j)
                compute_block(i, j);
            }
        }
}

static void run_serial(void)
{
    for (int i = 0; i < nx; i++)
        for (int j = 0; j < ny; j++)
            compute_block(i, j);
}

static enum bench_verdict verify(void)
{
    size_t nblocks = (size_t)nx * ny;
    int *bottom_of = malloc(nblocks * bs * sizeof(int)),
        *right_of = malloc(nblocks * bs * sizeof(int));
    if (!bottom_of || !right_of) {
        fprintf(stderr, "wavefront: out of memory for the reference\n");
        return BENCH_VERIFY_FAIL;
    }
    int want_best = reference_edges(bottom_of, right_of), best = 0;
    size_t wrong = 0;
    for (size_t k = 0; k < nblocks; k++) {
        best = max2(best, blocks[k].best);
        wrong += memcmp(blocks[k].bottom, bottom_of + k * bs, (size_t)bs * sizeof(int)) != 0 ||
                 memcmp(blocks[k].right, right_of + k * bs, (size_t)bs * sizeof(int)) != 0;
    }
    free(bottom_of);
    free(right_of);
    if (wrong || best != want_best) {
        fprintf(stderr, "wavefront: %zu blocks wrong, best score %d, expected %d\n", wrong, best,
                want_best);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return (uint64_t)nx * ny;
}

static void teardown(void)
{
    free(seq_a);
    free(seq_b);
    free(blocks);
    free(storage);
}

/* Blocks of 16 x 16 cells: tasks of about a microsecond. */
static const struct bench_class classes[] = {
    {"test", "8,8,16"},
    {"small", "400,400,16"},
    {"medium", "800,800,16"},
    {"large", "1000,1000,32"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "wavefront",
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
    return bench_main(argc, argv, &kernel);
}
