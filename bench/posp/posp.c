/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * posp: filling a Proof-of-Space plot, the hashing phase of the thesis'
 * chapter 7 workload.  Many small, independent, equally sized tasks whose
 * only shared state is a per-bucket atomic counter: the batch size B sets how
 * much real work (B BLAKE3 hashes) each task carries, so sweeping B moves the
 * benchmark from "runtime overhead only" to "hashing only".
 *
 * Parameter: "K,LOGN,B": 2^K buckets, N = 2^LOGN nonces, B nonces per task.
 *
 * The plot, exactly:
 *   - nonces n = 0 .. N-1 (so LOGN <= 32: a nonce is a uint32);
 *   - hash input: the 4 bytes n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff,
 *     n >> 24 (the nonce in little-endian order), nothing else; the hash is
 *     plain BLAKE3 (no key, not derive_key) with its default 32-byte output,
 *     i.e. what `printf '\x..\x..\x..\x..' | b3sum` prints;
 *   - record (32 bytes): the first 28 bytes of the hash, then the same 4
 *     little-endian nonce bytes;
 *   - bucket: the first K bits of the hash read as a big-endian number,
 *     (h[0] << 24 | h[1] << 16 | h[2] << 8 | h[3]) >> (32 - K) (0 when K = 0).
 * Records are in arrival order within a bucket (that order is not checked).
 *
 * Insertion is lock-free: each bucket has a fixed capacity and an atomic fill
 * index; a thread claims a slot with one relaxed fetch-add and writes the
 * record there.  Capacity is chosen from the binomial tail so that overflow
 * is astronomically unlikely for a random function (below 2^-40 for the
 * whole plot); it is still counted, and verify() fails if it ever happens.
 *
 * Task structure: one task per batch, all created by one thread inside a
 * `single`.  That is the thesis' structure and the harder case for a task
 * runtime: one producer feeding P-1 consumers that must steal every task
 * (recursive splitting would spread creation and measure something else).
 *
 * The plot's storage, insertion and check are plot.h/plot.c, shared with the
 * hybrid MPI kernel (../mpi/posp.c).
 *
 * Extra mode for the b3sum cross-check (tests/posp/check_b3sum.sh):
 *     posp --hash-nonce N     prints the hex BLAKE3 of nonce N's 4 input bytes.
 */
#include "../common/bench.h"
#include "plot.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct posp_plot plot;
static uint64_t posp_batch; /* nonces per task */

static int posp_ran_parallel;
static double posp_elapsed; /* of the last run, for the rate line */

/* The body of one task: hash nonces [first, first + count) into the plot. */
static void hash_range(uint64_t first, uint64_t count)
{
    for (uint64_t n = first; n < first + count; n++) {
        uint8_t hash[POSP_HASH_LEN];
        posp_hash_nonce((uint32_t)n, hash);
        struct posp_record r;
        posp_record_make(&r, hash, (uint32_t)n);
        posp_plot_insert(&plot, posp_bucket_of(plot.k, hash), &r);
    }
}

static int setup(const char *param)
{
    unsigned k, logn;
    uint64_t batch;
    if (posp_parse("posp", param, &k, &logn, &batch) != 0 ||
        posp_plot_alloc(&plot, "posp", k, logn, 0, (uint64_t)1 << k) != 0)
        return -1;
    /* A batch beyond the plot is one task; clamping also keeps the task
     * loop's `first += batch` from wrapping. */
    posp_batch = batch < plot.n ? batch : plot.n;
    return 0;
}

static void run_parallel(void)
{
    const uint64_t n = plot.n, batch = posp_batch;
    double t0 = bench_now();
#pragma omp parallel
#pragma omp single
    for (uint64_t first = 0; first < n; first += batch) {
        uint64_t count = n - first < batch ? n - first : batch;
#pragma omp task firstprivate(first, count)
        hash_range(first, count);
    }
    /* The barrier closing `single` has waited for every task. */
    posp_elapsed = bench_now() - t0;
    posp_ran_parallel = 1;
}

/* The same work and insertion code on one thread, with no tasks. */
static void run_serial(void)
{
    double t0 = bench_now();
    hash_range(0, plot.n);
    posp_elapsed = bench_now() - t0;
    posp_ran_parallel = 0;
}

static uint64_t task_count(void)
{
    return (plot.n + posp_batch - 1) / posp_batch;
}

static void report_rates(uint64_t max_fill)
{
    double secs = posp_elapsed > 0 ? posp_elapsed : 1e-9;
    fprintf(stderr, "posp: K=%u LOGN=%u B=%" PRIu64 " hashes=%" PRIu64 " hashes_per_s=%.4g", plot.k,
            plot.logn, posp_batch, plot.n, (double)plot.n / secs);
    if (posp_ran_parallel)
        fprintf(stderr, " tasks=%" PRIu64 " tasks_per_s=%.4g", task_count(),
                (double)task_count() / secs);
    fprintf(stderr, " bucket_cap=%" PRIu64 " max_fill=%" PRIu64 " overflow=%" PRIu64 "\n", plot.cap,
            max_fill, (uint64_t)atomic_load(&plot.overflow));
}

static enum bench_verdict verify(void)
{
    uint64_t stored, max_fill;
    uint64_t errors = posp_plot_check(&plot, "posp", &stored, &max_fill);
    report_rates(max_fill);
    /* With N records stored and none twice, every nonce is there. */
    uint64_t overflow = atomic_load(&plot.overflow);
    if (overflow || stored != plot.n) {
        fprintf(stderr, "posp: %" PRIu64 " records stored, %" PRIu64 " expected, %" PRIu64
                        " overflowed (bucket capacity %" PRIu64 ")\n",
                stored, plot.n, overflow, plot.cap);
        errors++;
    }
    if (errors)
        fprintf(stderr, "posp: %" PRIu64 " bad records\n", errors);
    return errors ? BENCH_VERIFY_FAIL : BENCH_VERIFY_OK;
}

static void teardown(void)
{
    posp_plot_free(&plot);
}

/* Every class sweeps the batch size B = 1, 4, 16, ..., 4096 and 8192 (the
 * thesis' Figure 7.1 spans 1-8192: 1024 was best for XGOMPTB, 8192 for GOMP)
 * over one plot size:
 *   test    2^8 buckets,  2^17 records (4 MiB; all hashes rechecked)
 *   small   2^12 buckets, 2^24 records (0.5 GiB): about 5 s at B=1 and 1.2 s
 *           at large B under libgomp with 2 threads (the 2-core dev machine)
 *   medium  2^16 buckets, 2^28 records (8 GiB)
 *   large   2^20 buckets, 2^32 records (128 GiB): the thesis' plot of 2^K,
 *           K = 32, puzzles. */
static const struct bench_class classes[] = {
    {"test", "8,17,1"},
    {"test", "8,17,4"},
    {"test", "8,17,16"},
    {"test", "8,17,64"},
    {"test", "8,17,256"},
    {"test", "8,17,1024"},
    {"test", "8,17,4096"},
    {"test", "8,17,8192"},
    {"small", "12,24,1"},
    {"small", "12,24,4"},
    {"small", "12,24,16"},
    {"small", "12,24,64"},
    {"small", "12,24,256"},
    {"small", "12,24,1024"},
    {"small", "12,24,4096"},
    {"small", "12,24,8192"},
    {"medium", "16,28,1"},
    {"medium", "16,28,4"},
    {"medium", "16,28,16"},
    {"medium", "16,28,64"},
    {"medium", "16,28,256"},
    {"medium", "16,28,1024"},
    {"medium", "16,28,4096"},
    {"medium", "16,28,8192"},
    {"large", "20,32,1"},
    {"large", "20,32,4"},
    {"large", "20,32,16"},
    {"large", "20,32,64"},
    {"large", "20,32,256"},
    {"large", "20,32,1024"},
    {"large", "20,32,4096"},
    {"large", "20,32,8192"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "posp",
    .classes = classes,
    .setup = setup,
    .run_parallel = run_parallel,
    .run_serial = run_serial,
    .verify = verify,
    .task_count = task_count,
    .teardown = teardown,
};

/* `posp --hash-nonce N`: the hex hash of nonce N's input bytes, then exit. */
static int hash_nonce_mode(const char *arg)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(arg, &end, 0);
    if (errno || end == arg || *end || v > UINT32_MAX || arg[0] == '-') {
        fprintf(stderr, "posp: --hash-nonce needs a nonce in [0, 2^32)\n");
        return 2;
    }
    uint8_t h[POSP_HASH_LEN];
    posp_hash_nonce((uint32_t)v, h);
    for (int i = 0; i < POSP_HASH_LEN; i++)
        printf("%02x", h[i]);
    putchar('\n');
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "--hash-nonce"))
        return hash_nonce_mode(argv[2]);
    return bench_main(argc, argv, &kernel);
}
