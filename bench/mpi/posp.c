/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * mpi-posp: the Proof-of-Space plot of ../posp (plot.h), its buckets
 * partitioned across MPI ranks, OpenMP tasks inside each.
 *
 * Parameter "K,LOGN,B" as posp: 2^K buckets, 2^LOGN nonces, B nonces per
 * task.  Rank r holds an even share of the buckets (hybrid_share) and
 * hashes an even share of the nonces.  Each task hashes B nonces, stores
 * the records of this rank's buckets at once and sends the others, grouped
 * per owner, with one MPI_Isend each; until its sends complete, it receives
 * whatever batches have arrived (MPI_Improbe + MPI_Mrecv, so two threads
 * never race for one message) and stores them.  When all of a rank's tasks
 * are done, its master sends every other rank one 8-byte message, the
 * number of records it sent there, and receives until each rank's count
 * has come (a batch is a multiple of 32 bytes, never 8; per sender the
 * count arrives after its batches: MPI keeps the order of one sender's
 * messages, and the count is sent after its batches' sends completed).
 * Tasks call MPI from any thread: MPI_THREAD_MULTIPLE.
 *
 * verify: each rank checks its buckets with posp_plot_check (every record
 * in the right bucket and held once, hashes rechecked on a sample, BLAKE3
 * itself), that it received from every rank the number of records that
 * rank announced, and that the records over all ranks number 2^LOGN: with
 * no nonce twice anywhere (a nonce's bucket is fixed, so a duplicate would
 * sit in one rank's buckets), every nonce is in the plot once.
 *
 * tasks = this rank's batches.
 */
#include "hybrid.h"
#include "plot.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#define RECORDS_TAG 7

static struct posp_plot plot;
static uint64_t batch, nonce_first, nonce_count;
static uint64_t *sent_to;    /* records sent to each rank (atomic adds) */
static uint64_t *received;   /* records received from each rank (atomic adds) */
static int64_t *announced;   /* what each rank said it sent, -1 until it says */
static int announcements;    /* counts received (atomic adds) */
static int serial_run;

static int setup(const char *param)
{
    unsigned k, logn;
    uint64_t b;
    if (posp_parse("mpi-posp", param, &k, &logn, &b) != 0)
        return -1;
    uint64_t first, count;
    hybrid_share((uint64_t)1 << k, hybrid_rank, hybrid_ranks, &first, &count);
    if (posp_plot_alloc(&plot, "mpi-posp", k, logn, first, count) != 0)
        return -1;
    batch = b < plot.n ? b : plot.n;
    hybrid_share(plot.n, hybrid_rank, hybrid_ranks, &nonce_first, &nonce_count);
    sent_to = calloc((size_t)hybrid_ranks, sizeof *sent_to);
    received = calloc((size_t)hybrid_ranks, sizeof *received);
    announced = malloc((size_t)hybrid_ranks * sizeof *announced);
    if (!sent_to || !received || !announced) {
        fprintf(stderr, "mpi-posp: out of memory\n");
        return -1;
    }
    for (int r = 0; r < hybrid_ranks; r++)
        announced[r] = -1;
    announcements = 0;
    return 0;
}

static int owner(uint64_t bucket)
{
    return hybrid_owner(bucket, (uint64_t)1 << plot.k, hybrid_ranks);
}

/* Receive and store one matched message: a batch of records, or a rank's
 * count. */
static void take(MPI_Message *msg, MPI_Status *st)
{
    int bytes = 0;
    MPI_Get_count(st, MPI_BYTE, &bytes);
    int from = st->MPI_SOURCE;
    if (bytes == (int)sizeof(int64_t)) {
        int64_t count;
        MPI_Mrecv(&count, (int)sizeof count, MPI_BYTE, msg, MPI_STATUS_IGNORE);
        __atomic_store_n(&announced[from], count, __ATOMIC_RELAXED);
        __atomic_add_fetch(&announcements, 1, __ATOMIC_RELAXED);
        return;
    }
    struct posp_record *in = malloc((size_t)bytes);
    if (!in) {
        fprintf(stderr, "mpi-posp: out of memory for %d received bytes\n", bytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    MPI_Mrecv(in, bytes, MPI_BYTE, msg, MPI_STATUS_IGNORE);
    uint64_t records = (uint64_t)bytes / sizeof *in;
    for (uint64_t i = 0; i < records; i++)
        posp_plot_insert(&plot, posp_bucket_of(plot.k, in[i].prefix), &in[i]);
    __atomic_add_fetch(&received[from], records, __ATOMIC_RELAXED);
    free(in);
}

/* Store whatever has arrived, without waiting. */
static void take_arrived(void)
{
    for (;;) {
        int flag = 0;
        MPI_Message msg;
        MPI_Status st;
        MPI_Improbe(MPI_ANY_SOURCE, RECORDS_TAG, MPI_COMM_WORLD, &flag, &msg, &st);
        if (!flag)
            return;
        take(&msg, &st);
    }
}

/* One task: hash nonces [first, first + count), keep this rank's records,
 * send the others to their owners. */
static void hash_batch(uint64_t first, uint64_t count)
{
    int ranks = hybrid_ranks;
    struct posp_record *outgoing = malloc((size_t)count * sizeof *outgoing);
    int *dest = malloc((size_t)count * sizeof *dest);
    uint64_t *per_rank = calloc((size_t)ranks + 1, sizeof *per_rank);
    struct posp_record *grouped = malloc((size_t)count * sizeof *grouped);
    MPI_Request *reqs = malloc((size_t)ranks * sizeof *reqs);
    if (!outgoing || !dest || !per_rank || !grouped || !reqs) {
        fprintf(stderr, "mpi-posp: out of memory for a batch\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    uint64_t remote = 0;
    for (uint64_t nonce = first; nonce < first + count; nonce++) {
        uint8_t hash[POSP_HASH_LEN];
        posp_hash_nonce((uint32_t)nonce, hash);
        struct posp_record r;
        posp_record_make(&r, hash, (uint32_t)nonce);
        uint64_t b = posp_bucket_of(plot.k, hash);
        int to = owner(b);
        if (to == hybrid_rank) {
            posp_plot_insert(&plot, b, &r);
            continue;
        }
        outgoing[remote] = r;
        dest[remote++] = to;
        per_rank[to + 1]++;
    }
    /* Group by owner (a counting sort), one message each. */
    for (int r = 0; r < ranks; r++)
        per_rank[r + 1] += per_rank[r];
    uint64_t *fill = calloc((size_t)ranks, sizeof *fill);
    if (!fill) {
        fprintf(stderr, "mpi-posp: out of memory for a batch\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    for (uint64_t i = 0; i < remote; i++)
        grouped[per_rank[dest[i]] + fill[dest[i]]++] = outgoing[i];
    int sends = 0;
    for (int r = 0; r < ranks; r++) {
        uint64_t c = per_rank[r + 1] - per_rank[r];
        if (!c)
            continue;
        MPI_Isend(&grouped[per_rank[r]], (int)(c * sizeof *grouped), MPI_BYTE, r, RECORDS_TAG,
                  MPI_COMM_WORLD, &reqs[sends++]);
        __atomic_add_fetch(&sent_to[r], c, __ATOMIC_RELAXED);
    }
    /* Until our batches are taken, take the others'. */
    for (int done = 0; !done;) {
        take_arrived();
        MPI_Testall(sends, reqs, &done, MPI_STATUSES_IGNORE);
    }
    free(fill);
    free(reqs);
    free(grouped);
    free(per_rank);
    free(dest);
    free(outgoing);
}

static void run_parallel(void)
{
    serial_run = 0;
    const uint64_t end = nonce_first + nonce_count;
#pragma omp parallel
#pragma omp single
    {
        for (uint64_t first = nonce_first; first < end; first += batch) {
            uint64_t count = end - first < batch ? end - first : batch;
#pragma omp task firstprivate(first, count)
            hash_batch(first, count);
        }
#pragma omp taskwait
        /* Our batches are all sent: say how many went where, then take
         * the rest until every rank has said so too. */
        for (int r = 0; r < hybrid_ranks; r++) {
            if (r == hybrid_rank)
                continue;
            int64_t count = (int64_t)sent_to[r];
            MPI_Send(&count, (int)sizeof count, MPI_BYTE, r, RECORDS_TAG, MPI_COMM_WORLD);
        }
        while (__atomic_load_n(&announcements, __ATOMIC_RELAXED) < hybrid_ranks - 1) {
            MPI_Message msg;
            MPI_Status st;
            MPI_Mprobe(MPI_ANY_SOURCE, RECORDS_TAG, MPI_COMM_WORLD, &msg, &st);
            take(&msg, &st);
        }
    }
}

static void run_serial(void)
{
    serial_run = 1;
    if (posp_plot_alloc(&plot, "mpi-posp", plot.k, plot.logn, 0, (uint64_t)1 << plot.k) != 0)
        MPI_Abort(MPI_COMM_WORLD, 1);
    for (uint64_t nonce = 0; nonce < plot.n; nonce++) {
        uint8_t hash[POSP_HASH_LEN];
        posp_hash_nonce((uint32_t)nonce, hash);
        struct posp_record r;
        posp_record_make(&r, hash, (uint32_t)nonce);
        posp_plot_insert(&plot, posp_bucket_of(plot.k, hash), &r);
    }
}

static enum bench_verdict verify(void)
{
    uint64_t stored, max_fill;
    uint64_t errors = posp_plot_check(&plot, "mpi-posp", &stored, &max_fill);
    uint64_t overflow = atomic_load(&plot.overflow);
    if (overflow) {
        fprintf(stderr, "mpi-posp: rank %d: %" PRIu64 " records overflowed (bucket capacity %"
                PRIu64 ")\n", hybrid_rank, overflow, plot.cap);
        errors++;
    }
    uint64_t total = stored;
    if (!serial_run) {
        for (int r = 0; r < hybrid_ranks; r++)
            if (r != hybrid_rank && (int64_t)received[r] != announced[r]) {
                fprintf(stderr, "mpi-posp: rank %d received %" PRIu64 " records from rank %d, "
                        "which sent %" PRId64 "\n", hybrid_rank, received[r], r, announced[r]);
                errors++;
            }
        MPI_Allreduce(&stored, &total, 1, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    }
    if (total != plot.n) {
        if (hybrid_rank == 0 || serial_run)
            fprintf(stderr, "mpi-posp: %" PRIu64 " records stored, %" PRIu64 " expected\n", total,
                    plot.n);
        errors++;
    }
    return errors ? BENCH_VERIFY_FAIL : BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return (nonce_count + batch - 1) / batch;
}

static void teardown(void)
{
    posp_plot_free(&plot);
    free(sent_to);
    free(received);
    free(announced);
}

/* test: 2^16 nonces (all rechecked); small: 2^22 nonces over 2^12 buckets,
 * batches of 256 (about 1 s at 2 x 1 here); medium, large: the posp
 * kernel's plot sizes. */
static const struct bench_class classes[] = {
    {"test", "8,16,64"},
    {"small", "12,22,256"},
    {"medium", "16,28,1024"},
    {"large", "20,32,1024"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "mpi-posp",
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
