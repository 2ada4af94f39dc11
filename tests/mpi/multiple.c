/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * MPI_THREAD_MULTIPLE: tasks on any thread of the team call MPI_Send,
 * MPI_Recv, MPI_Isend + MPI_Test and MPI_Irecv + MPI_Test, all at once.
 *
 * Every rank talks to its partner (rank ^ 1; with an odd number of ranks
 * the last one talks to itself).  Each task's counterpart on the partner is
 * posted by the partner's initial thread before its tasks start (an
 * MPI_Irecv for our sends, an MPI_Isend for our receives), so every MPI
 * call a task makes completes whatever order the runtimes run the tasks
 * in, at any thread count: the test is about the calls working from tasks
 * on many threads at once, never about a schedule.
 *
 * Four kinds of task, MESSAGES of each per round, ROUNDS rounds (one
 * parallel region each, so teams are reused):
 *   send   computes its payload, MPI_Send
 *   recv   MPI_Recv, checks the payload
 *   isend  MPI_Isend, then MPI_Test until done
 *   irecv  MPI_Irecv, then MPI_Test until done, checks the payload
 * Each payload is a function of (sender, round, tag), checked word by word;
 * the tasks run (and, per kind, every message) are counted.
 */
#include "mpi_test.h"

enum { MESSAGES = 64, WORDS = 256, ROUNDS = 6 };
enum { KIND_SEND, KIND_RECV, KIND_ISEND, KIND_IRECV, KINDS };

static int partner;

static long payload_word(int sender, int round, int tag, int i)
{
    return ((long)sender << 40) ^ ((long)round << 32) ^ ((long)tag << 12) ^ (long)i;
}

static void fill(long *buf, int sender, int round, int tag)
{
    for (int i = 0; i < WORDS; i++)
        buf[i] = payload_word(sender, round, tag, i);
}

static int payload_ok(const long *buf, int sender, int round, int tag)
{
    for (int i = 0; i < WORDS; i++)
        if (buf[i] != payload_word(sender, round, tag, i))
            return 0;
    return 1;
}

static int tag_of(int kind, int i)
{
    return kind * MESSAGES + i;
}

/* The partner's counterparts, posted by the initial thread. */
static long posted_buf[KINDS][MESSAGES][WORDS];
static MPI_Request posted_req[KINDS][MESSAGES];

static void post_counterparts(int round)
{
    for (int i = 0; i < MESSAGES; i++) {
        /* Our send-type tasks are matched by the partner's receives... */
        MPI_Irecv(posted_buf[KIND_SEND][i], WORDS, MPI_LONG, partner, tag_of(KIND_SEND, i),
                  MPI_COMM_WORLD, &posted_req[KIND_SEND][i]);
        MPI_Irecv(posted_buf[KIND_ISEND][i], WORDS, MPI_LONG, partner, tag_of(KIND_ISEND, i),
                  MPI_COMM_WORLD, &posted_req[KIND_ISEND][i]);
        /* ...and our receive-type tasks by its sends. */
        fill(posted_buf[KIND_RECV][i], mpi_test_rank, round, tag_of(KIND_RECV, i));
        MPI_Isend(posted_buf[KIND_RECV][i], WORDS, MPI_LONG, partner, tag_of(KIND_RECV, i),
                  MPI_COMM_WORLD, &posted_req[KIND_RECV][i]);
        fill(posted_buf[KIND_IRECV][i], mpi_test_rank, round, tag_of(KIND_IRECV, i));
        MPI_Isend(posted_buf[KIND_IRECV][i], WORDS, MPI_LONG, partner, tag_of(KIND_IRECV, i),
                  MPI_COMM_WORLD, &posted_req[KIND_IRECV][i]);
    }
}

static void task_body(int kind, int i, int round, int *done)
{
    long buf[WORDS];
    int tag = tag_of(kind, i), flag = 0;
    MPI_Request req;
    MPI_Status st;
    switch (kind) {
    case KIND_SEND:
        fill(buf, mpi_test_rank, round, tag);
        MPI_Send(buf, WORDS, MPI_LONG, partner, tag, MPI_COMM_WORLD);
        break;
    case KIND_RECV:
        MPI_Recv(buf, WORDS, MPI_LONG, partner, tag, MPI_COMM_WORLD, &st);
        CHECK(payload_ok(buf, partner, round, tag), "round %d: MPI_Recv tag %d: wrong payload",
              round, tag);
        break;
    case KIND_ISEND:
        fill(buf, mpi_test_rank, round, tag);
        MPI_Isend(buf, WORDS, MPI_LONG, partner, tag, MPI_COMM_WORLD, &req);
        while (!flag)
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        break;
    case KIND_IRECV:
        MPI_Irecv(buf, WORDS, MPI_LONG, partner, tag, MPI_COMM_WORLD, &req);
        while (!flag)
            MPI_Test(&req, &flag, &st);
        CHECK(payload_ok(buf, partner, round, tag), "round %d: MPI_Irecv tag %d: wrong payload",
              round, tag);
        break;
    }
    __atomic_add_fetch(&done[kind], 1, __ATOMIC_RELAXED);
    mpi_test_tick();
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv, MPI_THREAD_MULTIPLE, "mpi/multiple");
    partner = mpi_test_rank ^ 1;
    if (partner >= mpi_test_ranks)
        partner = mpi_test_rank;

    int threads_seen = 0;
    for (int round = 0; round < ROUNDS; round++) {
        mpi_test_phase("tasks calling MPI");
        post_counterparts(round);
        int done[KINDS] = {0};
        int used[64] = {0};
#pragma omp parallel shared(done, used, threads_seen)
        {
#pragma omp single
            {
                threads_seen = omp_get_num_threads();
                /* Interleave the kinds, so that every thread gets some of
                 * each, whichever tasks it takes. */
                for (int i = 0; i < MESSAGES; i++)
                    for (int kind = 0; kind < KINDS; kind++) {
#pragma omp task firstprivate(kind, i, round) shared(done, used)
                        {
                            int me = omp_get_thread_num();
                            __atomic_store_n(&used[me < 64 ? me : 63], 1, __ATOMIC_RELAXED);
                            task_body(kind, i, round, done);
                        }
                    }
            }
        }
        for (int kind = 0; kind < KINDS; kind++)
            CHECK(done[kind] == MESSAGES, "round %d: %d of %d tasks of kind %d ran", round,
                  done[kind], MESSAGES, kind);
        mpi_test_phase("the initial thread's counterparts");
        MPI_Status st[KINDS * MESSAGES];
        MPI_Waitall(KINDS * MESSAGES, &posted_req[0][0], st);
        for (int i = 0; i < MESSAGES; i++) {
            CHECK(payload_ok(posted_buf[KIND_SEND][i], partner, round, tag_of(KIND_SEND, i)),
                  "round %d: the partner's MPI_Send %d arrived wrong", round, i);
            CHECK(payload_ok(posted_buf[KIND_ISEND][i], partner, round, tag_of(KIND_ISEND, i)),
                  "round %d: the partner's MPI_Isend %d arrived wrong", round, i);
        }
        int threads_used = 0;
        for (int t = 0; t < 64; t++)
            threads_used += used[t];
        if (getenv("XOMP_TEST_VERBOSE"))
            fprintf(stderr, "rank %d round %d: tasks ran on %d of %d threads\n", mpi_test_rank,
                    round, threads_used, threads_seen);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    CHECK(threads_seen == omp_get_max_threads(), "team of %d threads, expected %d", threads_seen,
          omp_get_max_threads());
    return mpi_test_finish();
}
