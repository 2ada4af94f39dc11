/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * floorplan: branch-and-bound floorplanning, with BOTS's task structure.
 * N rectangular cells, each with a few alternative shapes (w x h), are laid
 * down one after another on a 64 x 64 board; the goal is the placement with
 * the smallest bounding box (which always has the board's corner (0,0), where
 * cell 0 goes).  Cell i > 0 has a reference cell ref(i) < i and a side: it is
 * placed touching ref(i), either to its right (x = ref's right edge, top or
 * bottom edges aligned) or below it (y = ref's bottom edge, left or right
 * edges aligned), inside the board and not overlapping any placed cell.  A
 * partial placement whose bounding box is already no smaller than the best
 * complete one found so far is abandoned.
 *
 * The cells come from a deterministic generator seeded by the parameter:
 * areas 4..24, 2..K shapes each, widths 1..8; cell i hangs off cell i-1 on
 * a random side, and instances are redrawn until the "staircase" placement
 * fits on the board, so every instance has a solution.
 *
 * Task structure (BOTS floorplan): placing cell i enumerates every (shape,
 * position) candidate and creates one untied task per candidate; the task
 * copies its parent's board, lays the cell down, computes the new bounding
 * box and either prunes, records a complete placement (best area updated
 * inside #pragma omp critical, read racily, here with a relaxed atomic load)
 * or recurses to cell i+1; the parent waits for its candidates with
 * taskwait.  The number of tasks depends on the pruning order, so it is
 * counted.
 *
 * verify(): the parallel minimum must equal the minimum of a serial
 * branch-and-bound run; the best layout found must be a valid placement with
 * that area; for N <= 6 both must also equal an exhaustive search without
 * pruning.
 *
 * Parameter: "N,SEED" or "N,SEED,K" (K = most shapes per cell, default 3).
 * Classes (the instances' search trees differ wildly with the seed; these
 * seeds give the sizes wanted):
 *   test    N=5,  seed 1  (about 500 tasks; also checked exhaustively)
 *   small   N=15, seed 20 (about 7.5M tasks)
 *   medium  N=15, seed 31 (about 19M tasks): the thesis' "FP: 15" of its
 *           chapter 6.2, whose Table 6.2 counts 19.1M tasks (BOTS's cells
 *           file input.15 is not used: the cells here are generated)
 *   large   N=20, seed 6  (about 105M tasks): the thesis' "FP: 20" of its
 *           chapter 6, by cell count (it does not give the task count)
 */
#include "../common/bench.h"

#include <errno.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define FP_BOARD 64
#define FP_MAX_CELLS 32
#define FP_MAX_SHAPES 6

enum { SIDE_RIGHT, SIDE_BELOW };

struct fp_cell {
    int nshapes;
    int w[FP_MAX_SHAPES], h[FP_MAX_SHAPES];
    int ref, side;
};

/* A partial placement: occupancy bitmap (bit x of row y) and the positions
 * of the cells placed so far. */
struct fp_board {
    uint64_t rows[FP_BOARD];
    int8_t x[FP_MAX_CELLS], y[FP_MAX_CELLS], w[FP_MAX_CELLS], h[FP_MAX_CELLS];
    int maxx, maxy;
};

static int fp_n, fp_seed, fp_kmax;
static struct fp_cell fp_cells[FP_MAX_CELLS];

static int fp_best;                 /* smallest area found (shared) */
static struct fp_board fp_best_board; /* a placement with that area */
static int fp_result;

/* ---- generator ---- */

/* Does the staircase placement (every cell flush with its predecessor's top
 * or left edge, in its first shape) fit on the board?  It never overlaps:
 * each cell starts right of or below every earlier one.  So when it fits,
 * the instance has at least one solution. */
static int staircase_fits(void)
{
    int x = 0, y = 0;
    for (int i = 0; i < fp_n; i++) {
        if (i > 0) {
            if (fp_cells[i].side == SIDE_RIGHT)
                x += fp_cells[i - 1].w[0];
            else
                y += fp_cells[i - 1].h[0];
        }
        if (x + fp_cells[i].w[0] > FP_BOARD || y + fp_cells[i].h[0] > FP_BOARD)
            return 0;
    }
    return 1;
}

static void generate(void)
{
    uint64_t s = 0x5eedf100ULL + (uint64_t)fp_seed;
    do {
        for (int i = 0; i < fp_n; i++) {
            struct fp_cell *c = &fp_cells[i];
            int area = 4 + (int)(bench_rand_next(&s) % 21);
            c->nshapes = 2 + (int)(bench_rand_next(&s) % (uint64_t)(fp_kmax - 1));
            for (int k = 0; k < c->nshapes; k++) {
                /* A width between 1 and 8, then the height that gives at
                 * least the cell's area; shapes may repeat, as in hand-made
                 * inputs. */
                int w = 1 + (int)(bench_rand_next(&s) % 8);
                int h = (area + w - 1) / w;
                if (h > 12)
                    h = 12;
                c->w[k] = w;
                c->h[k] = h;
            }
            /* Every cell hangs off its predecessor (a chain, as in BOTS's
             * inputs), on the right or below. */
            c->ref = i - 1;
            c->side = (int)(bench_rand_next(&s) & 1);
        }
    } while (!staircase_fits());
}

/* ---- placement ---- */

static uint64_t span_mask(int x, int w)
{
    return (w >= 64 ? ~0ULL : ((1ULL << w) - 1)) << x;
}

/* Try to lay cell ID with shape K at (X, Y) on B; 0 if it overlaps. */
static int lay_down(struct fp_board *b, int id, int k, int x, int y)
{
    int w = fp_cells[id].w[k], h = fp_cells[id].h[k];
    uint64_t m = span_mask(x, w);
    for (int r = y; r < y + h; r++)
        if (b->rows[r] & m)
            return 0;
    for (int r = y; r < y + h; r++)
        b->rows[r] |= m;
    b->x[id] = (int8_t)x;
    b->y[id] = (int8_t)y;
    b->w[id] = (int8_t)w;
    b->h[id] = (int8_t)h;
    if (x + w > b->maxx)
        b->maxx = x + w;
    if (y + h > b->maxy)
        b->maxy = y + h;
    return 1;
}

/* The positions of cell ID in shape K against its reference: the cell's
 * edge is flush with one end or the other of the reference's edge (top- or
 * bottom-aligned on the right, left- or right-aligned below).  Fills XY with
 * up to 2 (x, y) pairs inside the board and returns how many. */
static int positions(const struct fp_board *b, int id, int k, int xy[2][2])
{
    const struct fp_cell *c = &fp_cells[id];
    int w = c->w[k], h = c->h[k], r = c->ref;
    int rx = b->x[r], ry = b->y[r], rw = b->w[r], rh = b->h[r];
    int cand[2][2], n = 0;
    if (c->side == SIDE_RIGHT) {
        cand[0][0] = cand[1][0] = rx + rw;
        cand[0][1] = ry;
        cand[1][1] = ry + rh - h;
    } else {
        cand[0][1] = cand[1][1] = ry + rh;
        cand[0][0] = rx;
        cand[1][0] = rx + rw - w;
    }
    for (int i = 0; i < 2; i++) {
        int x = cand[i][0], y = cand[i][1];
        if (i == 1 && x == cand[0][0] && y == cand[0][1])
            break;
        if (x < 0 || y < 0 || x + w > FP_BOARD || y + h > FP_BOARD)
            continue;
        xy[n][0] = x;
        xy[n][1] = y;
        n++;
    }
    return n;
}

static int read_best(void)
{
    return __atomic_load_n(&fp_best, __ATOMIC_RELAXED);
}

/* A complete placement of area AREA: keep it if it is the best. */
static void record(const struct fp_board *b, int area)
{
#pragma omp critical(floorplan_best)
    {
        if (area < fp_best) {
            fp_best_board = *b;
            __atomic_store_n(&fp_best, area, __ATOMIC_RELAXED);
        }
    }
}

/* ---- parallel ---- */

static void add_cell_par(int id, const struct fp_board *parent)
{
    const struct fp_cell *c = &fp_cells[id];
    for (int k = 0; k < c->nshapes; k++) {
        int xy[2][2];
        int n = positions(parent, id, k, xy);
        for (int i = 0; i < n; i++) {
            int x = xy[i][0], y = xy[i][1];
            bench_task_counters[omp_get_thread_num()].value++;
#pragma omp task untied firstprivate(id, k, x, y, parent)
            {
                struct fp_board b = *parent;
                if (lay_down(&b, id, k, x, y)) {
                    int area = b.maxx * b.maxy;
                    if (area < read_best()) {
                        if (id == fp_n - 1)
                            record(&b, area);
                        else
                            add_cell_par(id + 1, &b);
                    }
                }
            }
        }
    }
#pragma omp taskwait
}

static void start_par(void)
{
    /* Cell 0 sits at the corner in each of its shapes: one task each. */
    static struct fp_board empty;
    memset(&empty, 0, sizeof empty);
    const struct fp_board *parent = &empty;
    for (int k = 0; k < fp_cells[0].nshapes; k++) {
        bench_task_counters[omp_get_thread_num()].value++;
#pragma omp task untied firstprivate(k, parent)
        {
            struct fp_board b = *parent;
            int ok = lay_down(&b, 0, k, 0, 0);
            if (ok) {
                if (fp_n == 1)
                    record(&b, b.maxx * b.maxy);
                else
                    add_cell_par(1, &b);
            }
        }
    }
#pragma omp taskwait
}

static void reset_best(void)
{
    fp_best = FP_BOARD * FP_BOARD + 1;
    memset(&fp_best_board, 0, sizeof fp_best_board);
}

static void run_parallel(void)
{
    reset_best();
    bench_counters_reset();
#pragma omp parallel
#pragma omp single
    start_par();
    fp_result = fp_best;
}

/* ---- serial: same search, candidates explored in the same order ---- */

static void add_cell_ser(int id, const struct fp_board *parent, int prune)
{
    const struct fp_cell *c = &fp_cells[id];
    for (int k = 0; k < c->nshapes; k++) {
        int xy[2][2];
        int n = positions(parent, id, k, xy);
        for (int i = 0; i < n; i++) {
            struct fp_board b = *parent;
            if (!lay_down(&b, id, k, xy[i][0], xy[i][1]))
                continue;
            int area = b.maxx * b.maxy;
            if (prune && area >= fp_best)
                continue;
            if (id == fp_n - 1) {
                if (area < fp_best) {
                    fp_best = area;
                    fp_best_board = b;
                }
            } else {
                add_cell_ser(id + 1, &b, prune);
            }
        }
    }
}

static int search_serial(int prune)
{
    reset_best();
    for (int k = 0; k < fp_cells[0].nshapes; k++) {
        struct fp_board b;
        memset(&b, 0, sizeof b);
        lay_down(&b, 0, k, 0, 0);
        if (fp_n == 1) {
            if (b.maxx * b.maxy < fp_best) {
                fp_best = b.maxx * b.maxy;
                fp_best_board = b;
            }
        } else {
            add_cell_ser(1, &b, prune);
        }
    }
    return fp_best;
}

static void run_serial(void)
{
    fp_result = search_serial(1);
}

/* ---- verification ---- */

/* Check B is a complete legal placement and return its area (-1 if not). */
static int check_layout(const struct fp_board *b)
{
    static uint8_t grid[FP_BOARD][FP_BOARD];
    memset(grid, 0, sizeof grid);
    int maxx = 0, maxy = 0;
    for (int i = 0; i < fp_n; i++) {
        const struct fp_cell *c = &fp_cells[i];
        int x = b->x[i], y = b->y[i], w = b->w[i], h = b->h[i];
        int shape_ok = 0;
        for (int k = 0; k < c->nshapes; k++)
            shape_ok |= c->w[k] == w && c->h[k] == h;
        if (!shape_ok || x < 0 || y < 0 || x + w > FP_BOARD || y + h > FP_BOARD)
            return -1;
        if (i == 0 && (x != 0 || y != 0))
            return -1;
        if (i > 0) {
            int r = c->ref;
            int rx = b->x[r], ry = b->y[r], rw = b->w[r], rh = b->h[r];
            if (c->side == SIDE_RIGHT ? (x != rx + rw || (y != ry && y + h != ry + rh))
                                      : (y != ry + rh || (x != rx && x + w != rx + rw)))
                return -1;
        }
        for (int yy = y; yy < y + h; yy++)
            for (int xx = x; xx < x + w; xx++) {
                if (grid[yy][xx])
                    return -1;
                grid[yy][xx] = 1;
            }
        if (x + w > maxx)
            maxx = x + w;
        if (y + h > maxy)
            maxy = y + h;
    }
    return maxx * maxy;
}

static enum bench_verdict verify(void)
{
    struct fp_board best_board = fp_best_board;
    int got = fp_result;
    int layout_area = check_layout(&best_board);
    int ok = 1;
    if (got > FP_BOARD * FP_BOARD) {
        fprintf(stderr, "floorplan: no placement found\n");
        ok = 0;
    } else if (layout_area != got) {
        fprintf(stderr, "floorplan: best layout is invalid or has area %d, not %d\n", layout_area,
                got);
        ok = 0;
    }
    int ref = search_serial(1);
    if (ref != got) {
        fprintf(stderr, "floorplan: minimum area %d, serial branch-and-bound %d\n", got, ref);
        ok = 0;
    }
    if (fp_n <= 6) {
        int exh = search_serial(0);
        if (exh != got) {
            fprintf(stderr, "floorplan: minimum area %d, exhaustive search %d\n", got, exh);
            ok = 0;
        }
    }
    fprintf(stderr, "floorplan: %d cells, minimum area %d\n", fp_n, got);
    return ok ? BENCH_VERIFY_OK : BENCH_VERIFY_FAIL;
}

static uint64_t task_count(void)
{
    return bench_counters_sum();
}

/* Parse "A,B,..." (decimal integers, nothing else) into V; returns the
 * number of values, or -1 when the string is malformed or has more than MAX
 * values. */
static int parse_ints(const char *s, long long *v, int max)
{
    for (int n = 0; n < max;) {
        char *end;
        errno = 0;
        long long x = strtoll(s, &end, 10);
        if (end == s || errno)
            return -1;
        v[n++] = x;
        if (*end == '\0')
            return n;
        if (*end != ',')
            return -1;
        s = end + 1;
    }
    return -1;
}

static int setup(const char *param)
{
    long long v[3];
    int got = parse_ints(param, v, 3);
    if (got != 2 && got != 3)
        return -1;
    if (v[0] < 1 || v[0] > FP_MAX_CELLS || v[1] < 0 || v[1] > 1000000000)
        return -1;
    fp_n = (int)v[0];
    fp_seed = (int)v[1];
    fp_kmax = 3;
    if (got == 3) {
        if (v[2] < 2 || v[2] > FP_MAX_SHAPES)
            return -1;
        fp_kmax = (int)v[2];
    }
    generate();
    return 0;
}

static const struct bench_class classes[] = {
    {"test", "5,1"}, {"small", "15,20"}, {"medium", "15,31"}, {"large", "20,6"}, {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "floorplan",
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
