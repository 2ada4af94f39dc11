/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * mpi-posp: the Proof-of-Space plot of ../posp (plot.h), its buckets
 * partitioned across MPI ranks, OpenMP tasks inside each.
 *
 * Parameter "K,LOGN,B" as posp: 2^K buckets, 2^LOGN nonces, B nonces per
 * task.  Rank r holds an even share of the buckets (hybrid_share) and
 * hashes an even share of the nonces.  Each task hashes B nonces, stores
 * the records of this rank's buckets at once and sends the others, grouped
 * per owner, with one MPI_Isend each, without waiting for it (its thread
 * frees the buffers of completed sends at its next task); then it receives
 * whatever batches have arrived (MPI_Improbe + MPI_Mrecv, so two threads
 * never race for one message) and stores them.  When all of a rank's tasks
 * are done, its master sends every other rank one 8-byte message, the
 * number of records it sent there, receives until each rank's count has
 * come (a batch is a multiple of 32 bytes, never 8; per sender the count
 * arrives after its batches: MPI keeps the order of the messages one
 * sender posts in order, and the taskwait orders the count after every
 * batch), then waits for its own last sends.
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
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Sends not known to be complete: each thread keeps its own list (tied
 * tasks: a task stays on its thread), retires what completed at the start
 * of each of its tasks, and the master waits for the rest at the end. */
struct pending_send {
    MPI_Request req;
    struct posp_record *records;
};

struct pending_list {
    struct pending_send *items;
    int count, cap;
    char pad[64];
};

static struct pending_list *pending;
static int pending_lists;

static void retire_completed(struct pending_list *l)
{
    int kept = 0;
    for (int i = 0; i < l->count; i++) {
        int done = 0;
        MPI_Test(&l->items[i].req, &done, MPI_STATUS_IGNORE);
        if (done)
            free(l->items[i].records);
        else
            l->items[kept++] = l->items[i];
    }
    l->count = kept;
}

static void remember(struct pending_list *l, MPI_Request req, struct posp_record *records)
{
    if (l->count == l->cap) {
        int cap = l->cap ? 2 * l->cap : 16;
        struct pending_send *items = realloc(l->items, (size_t)cap * sizeof *items);
        if (!items) {
            fprintf(stderr, "mpi-posp: out of memory\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
        l->items = items;
        l->cap = cap;
    }
    l->items[l->count++] = (struct pending_send){req, records};
}

static void *checked_malloc(size_t bytes)
{
    void *p = malloc(bytes ? bytes : 1);
    if (!p) {
        fprintf(stderr, "mpi-posp: out of memory for a batch\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    return p;
}

/* One task: hash nonces [first, first + count), keep this rank's records,
 * send the others to their owners (without waiting for the sends), and
 * store what has arrived from the other ranks. */
static void hash_batch(uint64_t first, uint64_t count)
{
    struct pending_list *mine = &pending[omp_get_thread_num() % pending_lists];
    retire_completed(mine);
    int ranks = hybrid_ranks;
    struct posp_record *outgoing = checked_malloc((size_t)count * sizeof *outgoing);
    int *dest = checked_malloc((size_t)count * sizeof *dest);
    uint64_t *per_rank = checked_malloc((size_t)ranks * sizeof *per_rank);
    memset(per_rank, 0, (size_t)ranks * sizeof *per_rank);
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
        per_rank[to]++;
    }
    /* One message per owner. */
    for (int r = 0; r < ranks; r++) {
        if (!per_rank[r])
            continue;
        struct posp_record *batch_out = checked_malloc((size_t)per_rank[r] * sizeof *batch_out);
        uint64_t k = 0;
        for (uint64_t i = 0; i < remote; i++)
            if (dest[i] == r)
                batch_out[k++] = outgoing[i];
        MPI_Request req;
        MPI_Isend(batch_out, (int)(k * sizeof *batch_out), MPI_BYTE, r, RECORDS_TAG,
                  MPI_COMM_WORLD, &req);
        remember(mine, req, batch_out);
        __atomic_add_fetch(&sent_to[r], k, __ATOMIC_RELAXED);
    }
    take_arrived();
    free(per_rank);
    free(dest);
    free(outgoing);
}

static void run_parallel(void)
{
    serial_run = 0;
    pending_lists = omp_get_max_threads();
    pending = calloc((size_t)pending_lists, sizeof *pending);
    if (!pending) {
        fprintf(stderr, "mpi-posp: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
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
         * the rest until every rank has said so too, then wait for our
         * last sends (the others have taken them all by then). */
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
        for (int t = 0; t < pending_lists; t++) {
            for (int i = 0; i < pending[t].count; i++) {
                MPI_Wait(&pending[t].items[i].req, MPI_STATUS_IGNORE);
                free(pending[t].items[i].records);
            }
            free(pending[t].items);
        }
    }
    free(pending);
    pending = NULL;
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
