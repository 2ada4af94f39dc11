/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * A Proof-of-Space plot, or the part of one that one process holds: shared
 * by the single-process kernel (posp.c, which defines the plot exactly in
 * its header comment) and the hybrid MPI one (../mpi/posp.c, buckets
 * partitioned across ranks).
 *
 * The plot has 2^K buckets of 32-byte records for N = 2^LOGN nonces; a
 * struct posp_plot holds the buckets [first, first + count) with a fixed
 * capacity each (from the binomial tail: overflow has probability below
 * 2^-40 for a random function; it is still counted, and fails the check).
 * Insertion is one relaxed fetch-add on the bucket's fill index: the slot
 * index only has to be unique, and readers see the records after the
 * parallel region (or the MPI exchange) that wrote them.
 */
#ifndef XOMP_BENCH_POSP_PLOT_H
#define XOMP_BENCH_POSP_PLOT_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define POSP_HASH_LEN 32
#define POSP_PREFIX_LEN 28
#define POSP_MAX_K 24 /* 2^24 fill counters = 128 MiB: a sane upper bound */

struct posp_record {
    uint8_t prefix[POSP_PREFIX_LEN];
    uint8_t nonce[4]; /* little-endian */
};
_Static_assert(sizeof(struct posp_record) == 32, "records are 32 bytes");

struct posp_plot {
    unsigned k, logn;
    uint64_t n;            /* nonces in the whole plot */
    uint64_t cap;          /* records per bucket */
    uint64_t first, count; /* the buckets held here */
    struct posp_record *records; /* bucket b at [(b - first) * cap] */
    _Atomic uint64_t *fill;      /* slots claimed per bucket held */
    _Atomic uint64_t overflow;   /* records that found no slot */
};

/* The official BLAKE3 (Rust crate `blake3`), via blake3-ffi/src/lib.rs. */
void posp_blake3(const uint8_t *input, size_t len, uint8_t *out);

/* "K,LOGN,B": 0, or -1 with a reason on stderr (`who` starts it). */
int posp_parse(const char *who, const char *param, unsigned *k, unsigned *logn,
               uint64_t *batch);

/* Allocate and clear the buckets [first, first + count) of the plot with
 * 2^k buckets and 2^logn nonces, faulted in (huge pages where granted), so
 * a timed run measures hashing and tasking; 0, or -1 with a reason. */
int posp_plot_alloc(struct posp_plot *p, const char *who, unsigned k, unsigned logn,
                    uint64_t first, uint64_t count);
void posp_plot_free(struct posp_plot *p);

void posp_hash_nonce(uint32_t nonce, uint8_t hash[POSP_HASH_LEN]);

/* The bucket a hash (or a record's stored prefix) belongs to, out of 2^k. */
static inline uint64_t posp_bucket_of(unsigned k, const uint8_t *hash)
{
    if (k == 0)
        return 0;
    uint32_t lead = (uint32_t)hash[0] << 24 | (uint32_t)hash[1] << 16 |
                    (uint32_t)hash[2] << 8 | (uint32_t)hash[3];
    return lead >> (32 - k);
}

static inline void posp_record_make(struct posp_record *r, const uint8_t *hash, uint32_t nonce)
{
    memcpy(r->prefix, hash, POSP_PREFIX_LEN);
    r->nonce[0] = (uint8_t)nonce;
    r->nonce[1] = (uint8_t)(nonce >> 8);
    r->nonce[2] = (uint8_t)(nonce >> 16);
    r->nonce[3] = (uint8_t)(nonce >> 24);
}

static inline uint64_t posp_record_nonce(const struct posp_record *r)
{
    return (uint64_t)r->nonce[0] | (uint64_t)r->nonce[1] << 8 | (uint64_t)r->nonce[2] << 16 |
           (uint64_t)r->nonce[3] << 24;
}

/* Store a record in bucket b (one the plot holds). */
static inline void posp_plot_insert(struct posp_plot *p, uint64_t b, const struct posp_record *r)
{
    /* Relaxed suffices: the slot index only has to be unique (above). */
    uint64_t slot = atomic_fetch_add_explicit(&p->fill[b - p->first], 1, memory_order_relaxed);
    if (slot >= p->cap) {
        atomic_fetch_add_explicit(&p->overflow, 1, memory_order_relaxed);
        return;
    }
    p->records[(b - p->first) * p->cap + slot] = *r;
}

/*
 * Check the records the plot holds, after every insertion is visible: each
 * nonce in range and at most once, each record in the bucket its stored
 * prefix names, and, for every record of a plot of up to 2^17 nonces or a
 * fixed sample of about 1/256 of the nonces plus the first and last, the
 * prefix equal to a fresh hash.  Prints the first few problems (`who`
 * starts each line); returns their number.  *stored gets the records held
 * (overflowed ones not counted), *max_fill the fullest bucket's claims.
 * Also fails when the linked hash is not BLAKE3 (the published hash of the
 * empty input) and when the sample came out too small to mean anything.
 */
uint64_t posp_plot_check(const struct posp_plot *p, const char *who, uint64_t *stored,
                         uint64_t *max_fill);

#endif
