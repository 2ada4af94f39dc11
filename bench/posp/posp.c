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
 * Extra mode for the b3sum cross-check (tests/posp/check_b3sum.sh):
 *     posp --hash-nonce N     prints the hex BLAKE3 of nonce N's 4 input bytes.
 */
#include "../common/bench.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* The official BLAKE3 (Rust crate `blake3`), via blake3-ffi/src/lib.rs. */
void posp_blake3(const uint8_t *input, size_t len, uint8_t *out);

#define HASH_LEN 32
#define PREFIX_LEN 28
#define MAX_K 24 /* 2^24 fill counters = 128 MiB: a sane upper bound */

struct posp_record {
    uint8_t prefix[PREFIX_LEN];
    uint8_t nonce[4]; /* little-endian */
};
_Static_assert(sizeof(struct posp_record) == 32, "records are 32 bytes");

static unsigned posp_k;
static unsigned posp_logn;
static uint64_t posp_n;     /* nonces in the plot */
static uint64_t posp_batch; /* nonces per task */
static uint64_t posp_cap;   /* records per bucket */

static struct posp_record *posp_records; /* bucket b at [b * posp_cap] */
static _Atomic uint64_t *posp_fill;      /* slots claimed per bucket */
static _Atomic uint64_t posp_overflow;   /* records that found no slot */

static int posp_ran_parallel;
static double posp_elapsed; /* of the last run, for the rate line */

static void nonce_bytes(uint32_t nonce, uint8_t out[4])
{
    out[0] = (uint8_t)nonce;
    out[1] = (uint8_t)(nonce >> 8);
    out[2] = (uint8_t)(nonce >> 16);
    out[3] = (uint8_t)(nonce >> 24);
}

static void hash_nonce(uint32_t nonce, uint8_t hash[HASH_LEN])
{
    uint8_t in[4];
    nonce_bytes(nonce, in);
    posp_blake3(in, sizeof in, hash);
}

static uint64_t bucket_of(const uint8_t *hash)
{
    if (posp_k == 0)
        return 0;
    uint32_t lead = (uint32_t)hash[0] << 24 | (uint32_t)hash[1] << 16 |
                    (uint32_t)hash[2] << 8 | (uint32_t)hash[3];
    return lead >> (32 - posp_k);
}

/* The body of one task: hash nonces [first, first + count) into the plot. */
static void hash_range(uint64_t first, uint64_t count)
{
    for (uint64_t n = first; n < first + count; n++) {
        uint8_t hash[HASH_LEN];
        hash_nonce((uint32_t)n, hash);
        uint64_t b = bucket_of(hash);
        /* Relaxed suffices: the slot index only has to be unique; readers
         * see the records after the region's closing barrier. */
        uint64_t slot = atomic_fetch_add_explicit(&posp_fill[b], 1, memory_order_relaxed);
        if (slot >= posp_cap) {
            atomic_fetch_add_explicit(&posp_overflow, 1, memory_order_relaxed);
            continue;
        }
        struct posp_record *r = &posp_records[b * posp_cap + slot];
        memcpy(r->prefix, hash, PREFIX_LEN);
        nonce_bytes((uint32_t)n, r->nonce);
    }
}

/*
 * Smallest capacity c with 2^K * P(X > c) <= 2^-40, X ~ Binomial(N, 2^-K),
 * the load of one bucket when the hash is a random function.  For k past the
 * mean the pmf ratio r(k) = p(k+1)/p(k) = (N-k)/(k+1) * p/(1-p) falls, so
 * P(X >= k) <= p(k) / (1 - r(k)), a rigorous bound, and tight.
 */
static uint64_t bucket_capacity(uint64_t n, unsigned k)
{
    if (k == 0)
        return n;
    const double p = ldexp(1.0, -(int)k);
    const double limit = -((double)k + 40.0) * log(2.0);
    const double lg_n = lgamma((double)n + 1.0);
    uint64_t c = (uint64_t)ceil((double)n * p) + 1;
    for (; c < n; c++) {
        double kk = (double)c; /* bound P(X >= c) = P(X > c - 1) */
        double r = ((double)n - kk) / (kk + 1.0) * p / (1.0 - p);
        if (r >= 1.0)
            continue;
        double log_pmf = lg_n - lgamma(kk + 1.0) - lgamma((double)n - kk + 1.0) +
                         kk * log(p) + ((double)n - kk) * log1p(-p);
        if (log_pmf - log1p(-r) <= limit)
            return c - 1;
    }
    return n;
}

static void release(void)
{
    free(posp_records);
    free((void *)posp_fill);
    posp_records = NULL;
    posp_fill = NULL;
}

static int setup(const char *param)
{
    unsigned k, logn;
    unsigned long long batch;
    char tail;
    /* %u would quietly wrap a minus sign. */
    if (strchr(param, '-') || sscanf(param, "%u,%u,%llu%c", &k, &logn, &batch, &tail) != 3) {
        fprintf(stderr, "posp: parameter is K,LOGN,B\n");
        return -1;
    }
    if (k > MAX_K || logn > 32 || k > logn || batch < 1) {
        fprintf(stderr, "posp: need 0 <= K <= %d, K <= LOGN <= 32, B >= 1\n", MAX_K);
        return -1;
    }
    release();
    posp_k = k;
    posp_logn = logn;
    posp_n = (uint64_t)1 << logn;
    /* A batch beyond the plot is one task; clamping also keeps the task
     * loop's `first += batch` from wrapping. */
    posp_batch = batch < posp_n ? batch : posp_n;
    posp_cap = bucket_capacity(posp_n, k);

    uint64_t buckets = (uint64_t)1 << k;
    if (posp_cap > SIZE_MAX / sizeof(struct posp_record) / buckets) {
        fprintf(stderr, "posp: plot too large for this machine\n");
        return -1;
    }
    size_t bytes = (size_t)(buckets * posp_cap) * sizeof(struct posp_record);
    /* Every insert lands on a random bucket: on 4 KiB pages nearly each one
     * is a TLB miss, which in a large plot costs about as much as the hash.
     * Huge pages (where the kernel grants them) keep the run about hashing
     * and tasking.  aligned_alloc needs a multiple of the alignment. */
    const size_t huge = (size_t)2 << 20;
    if (bytes > SIZE_MAX - huge) {
        fprintf(stderr, "posp: plot too large for this machine\n");
        return -1;
    }
    size_t alloc = (bytes + huge - 1) / huge * huge;
    posp_records = aligned_alloc(huge, alloc);
#ifdef MADV_HUGEPAGE
    if (posp_records)
        (void)madvise(posp_records, alloc, MADV_HUGEPAGE); /* a hint only */
#endif
    posp_fill = malloc((size_t)buckets * sizeof *posp_fill);
    if (!posp_records || !posp_fill) {
        fprintf(stderr, "posp: cannot allocate %zu bytes for the plot\n", bytes);
        release();
        return -1;
    }
    /* Fault the plot in now so the timed run measures hashing and tasking,
     * not the kernel zeroing pages. */
    memset(posp_records, 0, bytes);
    for (uint64_t b = 0; b < buckets; b++)
        atomic_init(&posp_fill[b], 0);
    atomic_init(&posp_overflow, 0);
    return 0;
}

static void run_parallel(void)
{
    const uint64_t n = posp_n, batch = posp_batch;
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
    hash_range(0, posp_n);
    posp_elapsed = bench_now() - t0;
    posp_ran_parallel = 0;
}

static uint64_t task_count(void)
{
    return (posp_n + posp_batch - 1) / posp_batch;
}

static void report_rates(uint64_t max_fill)
{
    double secs = posp_elapsed > 0 ? posp_elapsed : 1e-9;
    fprintf(stderr, "posp: K=%u LOGN=%u B=%" PRIu64 " hashes=%" PRIu64 " hashes_per_s=%.4g", posp_k,
            posp_logn, posp_batch, posp_n, (double)posp_n / secs);
    if (posp_ran_parallel)
        fprintf(stderr, " tasks=%" PRIu64 " tasks_per_s=%.4g", task_count(),
                (double)task_count() / secs);
    fprintf(stderr, " bucket_cap=%" PRIu64 " max_fill=%" PRIu64 " overflow=%" PRIu64 "\n", posp_cap,
            max_fill, (uint64_t)atomic_load(&posp_overflow));
}

/* Plots up to this size are checked in full; larger ones recompute about one
 * record in VERIFY_STRIDE, which keeps verification well under the run. */
#define VERIFY_ALL_UP_TO ((uint64_t)1 << 17)
#define VERIFY_STRIDE 256

/* Whether verify() recomputes this nonce's hash: a fixed pseudo-random
 * sample (a multiplicative hash, so it is spread over all buckets), plus the
 * first and last nonce. */
static int sampled(uint64_t nonce)
{
    if (posp_n <= VERIFY_ALL_UP_TO || nonce == 0 || nonce == posp_n - 1)
        return 1;
    return (uint32_t)(nonce * 0x9e3779b97f4a7c15ULL >> 32) % VERIFY_STRIDE == 0;
}

static enum bench_verdict verify(void)
{
    const uint64_t buckets = (uint64_t)1 << posp_k;
    uint64_t max_fill = 0, total = 0, errors = 0, checked = 0;
    for (uint64_t b = 0; b < buckets; b++) {
        uint64_t f = atomic_load_explicit(&posp_fill[b], memory_order_relaxed);
        max_fill = f > max_fill ? f : max_fill;
        total += f < posp_cap ? f : posp_cap;
    }
    report_rates(max_fill);

    /* The library really is BLAKE3: the published hash of the empty input. */
    static const uint8_t empty_hash[HASH_LEN] = {
        0xaf, 0x13, 0x49, 0xb9, 0xf5, 0xf9, 0xa1, 0xa6, 0xa0, 0x40, 0x4d,
        0xea, 0x36, 0xdc, 0xc9, 0x49, 0x9b, 0xcb, 0x25, 0xc9, 0xad, 0xc1,
        0x12, 0xb7, 0xcc, 0x9a, 0x93, 0xca, 0xe4, 0x1f, 0x32, 0x62,
    };
    uint8_t h[HASH_LEN];
    posp_blake3(NULL, 0, h);
    if (memcmp(h, empty_hash, HASH_LEN)) {
        fprintf(stderr, "posp: linked hash is not BLAKE3 (empty-input vector)\n");
        return BENCH_VERIFY_FAIL;
    }

    uint64_t overflow = atomic_load(&posp_overflow);
    if (overflow || total != posp_n) {
        fprintf(stderr, "posp: %" PRIu64 " records stored, %" PRIu64 " expected, %" PRIu64
                        " overflowed (bucket capacity %" PRIu64 ")\n",
                total, posp_n, overflow, posp_cap);
        return BENCH_VERIFY_FAIL;
    }

    /* One serial pass over the plot: every nonce exactly once (with
     * total == N and no duplicate, none is missing), every record in the
     * bucket its stored prefix names, and for the sampled nonces the stored
     * prefix equal to a fresh hash. */
    uint64_t *seen = calloc((size_t)((posp_n + 63) / 64), sizeof *seen);
    if (!seen) {
        fprintf(stderr, "posp: cannot allocate the verification bitmap\n");
        return BENCH_VERIFY_FAIL;
    }
    for (uint64_t b = 0; b < buckets; b++) {
        uint64_t fill = atomic_load_explicit(&posp_fill[b], memory_order_relaxed);
        for (uint64_t i = 0; i < fill; i++) {
            const struct posp_record *r = &posp_records[b * posp_cap + i];
            uint64_t nonce = (uint64_t)r->nonce[0] | (uint64_t)r->nonce[1] << 8 |
                             (uint64_t)r->nonce[2] << 16 | (uint64_t)r->nonce[3] << 24;
            const char *why = NULL;
            if (nonce >= posp_n)
                why = "out of range";
            else if (seen[nonce / 64] >> (nonce % 64) & 1)
                why = "duplicate";
            else if (bucket_of(r->prefix) != b)
                why = "in the wrong bucket";
            if (!why && sampled(nonce)) {
                checked++;
                hash_nonce((uint32_t)nonce, h);
                if (memcmp(r->prefix, h, PREFIX_LEN))
                    why = "hash prefix differs from BLAKE3";
            }
            if (why) {
                if (errors++ < 5)
                    fprintf(stderr, "posp: bucket %" PRIu64 " slot %" PRIu64 " nonce %" PRIu64
                                    ": %s\n",
                            b, i, nonce, why);
                continue;
            }
            seen[nonce / 64] |= (uint64_t)1 << (nonce % 64);
        }
    }
    free(seen);
    /* Guards the sampling itself: a sample that came out empty would pass. */
    uint64_t want = posp_n <= VERIFY_ALL_UP_TO ? posp_n : posp_n / (2 * VERIFY_STRIDE);
    if (!errors && checked < want) {
        fprintf(stderr, "posp: only %" PRIu64 " hashes recomputed\n", checked);
        errors++;
    }
    if (errors)
        fprintf(stderr, "posp: %" PRIu64 " bad records\n", errors);
    return errors ? BENCH_VERIFY_FAIL : BENCH_VERIFY_OK;
}

static void teardown(void)
{
    release();
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
    uint8_t h[HASH_LEN];
    hash_nonce((uint32_t)v, h);
    for (int i = 0; i < HASH_LEN; i++)
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
