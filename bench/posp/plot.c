/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* A Proof-of-Space plot or part of one (see plot.h and posp.c). */
#include "plot.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

void posp_hash_nonce(uint32_t nonce, uint8_t hash[POSP_HASH_LEN])
{
    uint8_t in[4] = {(uint8_t)nonce, (uint8_t)(nonce >> 8), (uint8_t)(nonce >> 16),
                     (uint8_t)(nonce >> 24)};
    posp_blake3(in, sizeof in, hash);
}

int posp_parse(const char *who, const char *param, unsigned *k, unsigned *logn, uint64_t *batch)
{
    unsigned long long b;
    char tail;
    /* %u would quietly wrap a minus sign. */
    if (strchr(param, '-') || sscanf(param, "%u,%u,%llu%c", k, logn, &b, &tail) != 3) {
        fprintf(stderr, "%s: parameter is K,LOGN,B\n", who);
        return -1;
    }
    if (*k > POSP_MAX_K || *logn > 32 || *k > *logn || b < 1) {
        fprintf(stderr, "%s: need 0 <= K <= %d, K <= LOGN <= 32, B >= 1\n", who, POSP_MAX_K);
        return -1;
    }
    *batch = b;
    return 0;
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

void posp_plot_free(struct posp_plot *p)
{
    free(p->records);
    free((void *)p->fill);
    p->records = NULL;
    p->fill = NULL;
}

int posp_plot_alloc(struct posp_plot *p, const char *who, unsigned k, unsigned logn,
                    uint64_t first, uint64_t count)
{
    posp_plot_free(p);
    p->k = k;
    p->logn = logn;
    p->n = (uint64_t)1 << logn;
    p->cap = bucket_capacity(p->n, k);
    p->first = first;
    p->count = count;
    /* At least one byte each, so that a part with no buckets still
     * allocates (and frees) like any other. */
    uint64_t buckets = count ? count : 1;
    if (p->cap > SIZE_MAX / sizeof(struct posp_record) / buckets) {
        fprintf(stderr, "%s: plot too large for this machine\n", who);
        return -1;
    }
    size_t bytes = (size_t)(buckets * p->cap) * sizeof(struct posp_record);
    /* Every insert lands on a random bucket: on 4 KiB pages nearly each one
     * is a TLB miss, which in a large plot costs about as much as the hash.
     * Huge pages (where the kernel grants them) keep the run about hashing
     * and tasking.  aligned_alloc needs a multiple of the alignment. */
    const size_t huge = (size_t)2 << 20;
    if (bytes > SIZE_MAX - huge) {
        fprintf(stderr, "%s: plot too large for this machine\n", who);
        return -1;
    }
    size_t alloc = (bytes + huge - 1) / huge * huge;
    p->records = aligned_alloc(huge, alloc);
#ifdef MADV_HUGEPAGE
    if (p->records)
        (void)madvise(p->records, alloc, MADV_HUGEPAGE); /* a hint only */
#endif
    p->fill = malloc((size_t)buckets * sizeof *p->fill);
    if (!p->records || !p->fill) {
        fprintf(stderr, "%s: cannot allocate %zu bytes for the plot\n", who, bytes);
        posp_plot_free(p);
        return -1;
    }
    /* Fault the plot in now so the timed run measures hashing and tasking,
     * not the kernel zeroing pages. */
    memset(p->records, 0, bytes);
    for (uint64_t b = 0; b < buckets; b++)
        atomic_init(&p->fill[b], 0);
    atomic_init(&p->overflow, 0);
    return 0;
}

/* Plots up to this size are checked in full; larger ones recompute about one
 * record in VERIFY_STRIDE, which keeps verification well under the run. */
#define VERIFY_ALL_UP_TO ((uint64_t)1 << 17)
#define VERIFY_STRIDE 256

/* Whether the check recomputes this nonce's hash: a fixed pseudo-random
 * sample (a multiplicative hash, so it is spread over all buckets), plus the
 * first and last nonce. */
static int sampled(uint64_t n, uint64_t nonce)
{
    if (n <= VERIFY_ALL_UP_TO || nonce == 0 || nonce == n - 1)
        return 1;
    return (uint32_t)(nonce * 0x9e3779b97f4a7c15ULL >> 32) % VERIFY_STRIDE == 0;
}

uint64_t posp_plot_check(const struct posp_plot *p, const char *who, uint64_t *stored,
                         uint64_t *max_fill)
{
    uint64_t errors = 0, checked = 0, total = 0, fullest = 0;
    for (uint64_t b = 0; b < p->count; b++) {
        uint64_t f = atomic_load_explicit(&p->fill[b], memory_order_relaxed);
        fullest = f > fullest ? f : fullest;
        total += f < p->cap ? f : p->cap;
    }
    *stored = total;
    *max_fill = fullest;

    /* The library really is BLAKE3: the published hash of the empty input. */
    static const uint8_t empty_hash[POSP_HASH_LEN] = {
        0xaf, 0x13, 0x49, 0xb9, 0xf5, 0xf9, 0xa1, 0xa6, 0xa0, 0x40, 0x4d,
        0xea, 0x36, 0xdc, 0xc9, 0x49, 0x9b, 0xcb, 0x25, 0xc9, 0xad, 0xc1,
        0x12, 0xb7, 0xcc, 0x9a, 0x93, 0xca, 0xe4, 0x1f, 0x32, 0x62,
    };
    uint8_t h[POSP_HASH_LEN];
    posp_blake3(NULL, 0, h);
    if (memcmp(h, empty_hash, POSP_HASH_LEN)) {
        fprintf(stderr, "%s: linked hash is not BLAKE3 (empty-input vector)\n", who);
        return 1;
    }

    /* One serial pass over the records: every nonce at most once, every
     * record in the bucket its stored prefix names, and for the sampled
     * nonces the stored prefix equal to a fresh hash. */
    uint64_t *seen = calloc((size_t)((p->n + 63) / 64), sizeof *seen);
    if (!seen) {
        fprintf(stderr, "%s: cannot allocate the verification bitmap\n", who);
        return 1;
    }
    for (uint64_t b = 0; b < p->count; b++) {
        uint64_t fill = atomic_load_explicit(&p->fill[b], memory_order_relaxed);
        if (fill > p->cap)
            fill = p->cap;
        for (uint64_t i = 0; i < fill; i++) {
            const struct posp_record *r = &p->records[b * p->cap + i];
            uint64_t nonce = posp_record_nonce(r);
            const char *why = NULL;
            if (nonce >= p->n)
                why = "out of range";
            else if (seen[nonce / 64] >> (nonce % 64) & 1)
                why = "duplicate";
            else if (posp_bucket_of(p->k, r->prefix) != p->first + b)
                why = "in the wrong bucket";
            if (!why && sampled(p->n, nonce)) {
                checked++;
                posp_hash_nonce((uint32_t)nonce, h);
                if (memcmp(r->prefix, h, POSP_PREFIX_LEN))
                    why = "hash prefix differs from BLAKE3";
            }
            if (why) {
                if (errors++ < 5)
                    fprintf(stderr, "%s: bucket %" PRIu64 " slot %" PRIu64 " nonce %" PRIu64
                                    ": %s\n",
                            who, p->first + b, i, nonce, why);
                continue;
            }
            seen[nonce / 64] |= (uint64_t)1 << (nonce % 64);
        }
    }
    free(seen);
    /* Guards the sampling itself: a sample that came out empty would pass. */
    uint64_t want = p->n <= VERIFY_ALL_UP_TO ? total : total / (2 * VERIFY_STRIDE);
    if (!errors && checked < want) {
        fprintf(stderr, "%s: only %" PRIu64 " hashes recomputed\n", who, checked);
        errors++;
    }
    return errors;
}
