/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * replay-cg: the conjugate gradient of NAS CG (T iterations on a random
 * sparse symmetric positive definite matrix of N rows with about NZ
 * entries per row, x = 1, z solved for) as recursive tasks over blocks of
 * B rows: each iteration q = A p with the partial sums of p.q, then z and r
 * updated with the partial sums of r.r, then p; the dot products add the
 * blocks' partial sums in block order, so that the result does not depend
 * on the schedule.  The vectors and the matrix rows are first touched by
 * an initializer with the same tasks (replay_phase.h: forms, scheme).
 * Verified exactly against a serial run of the same arithmetic.
 *
 * Parameter: "FORM,N,NZ,T,B".
 */
#include "replay_phase.h"

static int N, NZ, T, B, nblocks;
/* The matrix in CSR; row i's entries at [start[i], start[i + 1]). */
static long *start;
static int *col;
static double *val;
static double *x, *z, *r, *p, *q, *partial;
static double rho, alpha;
static struct rb_phase init_phase, spmv_phase, update_phase, dir_phase;

static int hi_of(int b)
{
    return (b + 1) * B < N ? (b + 1) * B : N;
}

/* Row i's off-diagonal entries: NZ - 1 columns drawn from a hash of
 * (i, k) and their mirrors (j's draws that hit i), so that A is
 * symmetric; the diagonal dominates.  Entries per row: counted first. */
static unsigned draw(int i, int k)
{
    unsigned h = (unsigned)i * 2654435761u + (unsigned)k * 97u + 12345u;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return h;
}

static double entry_value(int i, int j)
{
    int a = i < j ? i : j, b = i < j ? j : i;
    return -((double)(draw(a, b) % 1000) + 1.0) / 1000.0;
}

static int *mirror_start, *mirror;

/* Add entry (i, j) at *at of row i unless it is the diagonal or there
 * already; *sum: the off-diagonal sum so far. */
static void add_entry(int i, int j, long *at, double *sum)
{
    if (j == i)
        return;
    for (long e = start[i]; e < *at; e++)
        if (col[e] == j)
            return;
    col[*at] = j;
    val[*at] = entry_value(i, j);
    *sum -= val[*at];
    (*at)++;
}

static void build_row(int i)
{
    long at = start[i];
    double sum = 0;
    for (int k = 0; k < NZ - 1; k++) /* its own draws */
        add_entry(i, (int)(draw(i, k) % (unsigned)N), &at, &sum);
    for (int m = mirror_start[i]; m < mirror_start[i + 1]; m++) /* rows that drew it */
        add_entry(i, mirror[m], &at, &sum);
    col[at] = i;
    val[at] = sum + 1.0; /* diagonally dominant: positive definite */
    /* The slack left by duplicates: zeros (exact in the products). */
    for (at++; at < start[i + 1]; at++) {
        col[at] = i;
        val[at] = 0.0;
    }
}

static void init_block(int b, void *c)
{
    (void)c;
    for (int i = b * B; i < hi_of(b); i++) {
        build_row(i);
        x[i] = 1.0;
        z[i] = 0.0;
        r[i] = x[i];
        p[i] = r[i];
        q[i] = 0.0;
    }
}

static double row_times(int i, const double *v)
{
    double s = 0;
    for (long e = start[i]; e < start[i + 1]; e++)
        s += val[e] * v[col[e]];
    return s;
}

static void spmv_block(int b, void *c)
{
    (void)c;
    double pq = 0;
    for (int i = b * B; i < hi_of(b); i++) {
        q[i] = row_times(i, p);
        pq += p[i] * q[i];
    }
    partial[b] = pq;
}

static void update_block(int b, void *c)
{
    (void)c;
    double rr = 0;
    for (int i = b * B; i < hi_of(b); i++) {
        z[i] += alpha * p[i];
        r[i] -= alpha * q[i];
        rr += r[i] * r[i];
    }
    partial[b] = rr;
}

static double beta;

static void dir_block(int b, void *c)
{
    (void)c;
    for (int i = b * B; i < hi_of(b); i++)
        p[i] = r[i] + beta * p[i];
}

static double sum_partial(void)
{
    double s = 0;
    for (int b = 0; b < nblocks; b++)
        s += partial[b];
    return s;
}

static int setup(const char *param)
{
    const char *rest = rb_parse_form(param);
    unsigned long long v[4];
    if (!rest || bench_parse_uints(rest, v, 4) != 4 || v[0] < 2 || v[0] > (1u << 26) ||
        v[1] < 1 || v[1] > 64 || !v[2] || v[2] > 10000 || !v[3] || v[3] > v[0])
        return -1;
    N = (int)v[0], NZ = (int)v[1], T = (int)v[2], B = (int)v[3];
    nblocks = (N + B - 1) / B;
    /* The structure, serially (untimed): row sizes and the mirrors. */
    int *count = calloc((size_t)N + 1, sizeof *count);
    mirror_start = calloc((size_t)N + 1, sizeof *mirror_start);
    start = malloc(((size_t)N + 1) * sizeof *start);
    if (!count || !mirror_start || !start)
        return -1;
    for (int i = 0; i < N; i++)
        for (int k = 0; k < NZ - 1; k++) {
            int j = (int)(draw(i, k) % (unsigned)N);
            if (j != i)
                mirror_start[j + 1]++;
        }
    for (int i = 0; i < N; i++)
        mirror_start[i + 1] += mirror_start[i];
    mirror = malloc(((size_t)mirror_start[N] + 1) * sizeof *mirror);
    if (!mirror)
        return -1;
    for (int i = 0; i < N; i++)
        for (int k = 0; k < NZ - 1; k++) {
            int j = (int)(draw(i, k) % (unsigned)N);
            if (j != i)
                mirror[mirror_start[j] + count[j]++] = i;
        }
    free(count);
    long total = 0;
    for (int i = 0; i < N; i++) {
        start[i] = total;
        total += (NZ - 1) + (mirror_start[i + 1] - mirror_start[i]) + 1; /* an upper bound */
    }
    start[N] = total;
    col = malloc((size_t)total * sizeof *col);
    val = malloc((size_t)total * sizeof *val);
    x = malloc((size_t)N * sizeof *x), z = malloc((size_t)N * sizeof *z);
    r = malloc((size_t)N * sizeof *r), p = malloc((size_t)N * sizeof *p);
    q = malloc((size_t)N * sizeof *q), partial = malloc((size_t)nblocks * sizeof *partial);
    return col && val && x && z && r && p && q && partial ? 0 : -1;
}

static void run_phase(struct rb_phase *ph, rb_leaf_fn leaf)
{
    rb_run(ph, &init_phase, nblocks, leaf, NULL);
}

static void serial_phase(struct rb_phase *ph, rb_leaf_fn leaf)
{
    (void)ph;
    for (int b = 0; b < nblocks; b++)
        leaf(b, NULL);
}

/* The whole computation, each phase run by `phase`. */
static void cg(void (*phase)(struct rb_phase *, rb_leaf_fn))
{
    phase(&init_phase, init_block); /* under rb_run: recorded, the others' seed */
    for (int b = 0; b < nblocks; b++) {
        partial[b] = 0;
        for (int i = b * B; i < hi_of(b); i++)
            partial[b] += r[i] * r[i];
    }
    rho = sum_partial();
    for (int t = 0; t < T; t++) {
        phase(&spmv_phase, spmv_block);
        alpha = rho / sum_partial();
        phase(&update_phase, update_block);
        double rho_new = sum_partial();
        beta = rho_new / rho;
        rho = rho_new;
        phase(&dir_phase, dir_block);
    }
}

static double final_rho;

static void run_parallel(void)
{
    rb_phase_reset(&init_phase, "init");
    rb_phase_reset(&spmv_phase, "spmv");
    rb_phase_reset(&update_phase, "update");
    rb_phase_reset(&dir_phase, "direction");
    cg(run_phase);
    final_rho = rho;
}

static void run_serial(void)
{
    cg(serial_phase);
    final_rho = rho;
}

static enum bench_verdict verify(void)
{
    size_t bytes = (size_t)N * sizeof(double);
    double *final_z = malloc(bytes);
    if (!final_z)
        return BENCH_VERIFY_NA;
    memcpy(final_z, z, bytes);
    double got = final_rho;
    cg(serial_phase);
    size_t bad = 0;
    for (int i = 0; i < N; i++)
        bad += final_z[i] != z[i];
    free(final_z);
    if (bad || got != rho) {
        fprintf(stderr, "replay-cg: %zu of %d entries of z differ from the serial run "
                        "(r.r %.17g, serial %.17g)\n", bad, N, got, rho);
        return BENCH_VERIFY_FAIL;
    }
    if (!(rho < 1e-6 * (double)N)) {
        fprintf(stderr, "replay-cg: r.r = %g after %d iterations: not converging\n", rho, T);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return (uint64_t)(3 * T + 1) * (uint64_t)(2 * nblocks - 2);
}

static void teardown(void)
{
    free(start), free(col), free(val), free(mirror_start), free(mirror);
    free(x), free(z), free(r), free(p), free(q), free(partial);
}

static const struct bench_class classes[] = {
    {"test", "plain,4096,15,10,256"},       {"test", "api,4096,15,12,256"},
    {"small", "plain,262144,15,15,4096"},   {"small", "api,262144,15,15,4096"},
    {"medium", "plain,1048576,15,25,8192"},  {"medium", "api,1048576,15,25,8192"},
    {"large", "plain,4194304,15,25,16384"},  {"large", "api,4194304,15,25,16384"},
    {NULL, NULL}};

RB_DEFINE_MAIN("replay-cg", classes)
