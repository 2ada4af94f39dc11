/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The OpenMP 5.0 pattern for asynchronous MPI: a task with `detach(event)`
 * stands for a nonblocking MPI operation, completes only when someone who
 * polls the request with MPI_Test calls omp_fulfill_event, and the tasks
 * that depend on it (consume the received buffer, reuse the send buffer)
 * run only then.
 *
 * Each rank exchanges MESSAGES messages each way with its partner (rank ^ 1;
 * the last of an odd number talks to itself); per message a receive and a
 * send operation, each a detached task, and after each a dependent task:
 * the consumer checks the received payload, the reuser overwrites the send
 * buffer.  Both check that the poller saw their operation complete before
 * they ran.  The partner posts some of its sends late (after SLOW_MS), so a
 * runtime that let a dependant run at the end of the detached task's body,
 * before the fulfilment, would be caught.
 *
 * Three pollers:
 *   master   the operations are posted by the team's master (only it calls
 *            MPI) before the tasks are created; the master keeps the events
 *            the detach clauses gave it, then polls with MPI_Testsome and
 *            fulfils, and finally waits in taskwait.  Any thread count.
 *   thread   each detached task's body posts its own MPI_Irecv/MPI_Isend and
 *            registers (request, event); a plain pthread, not an OpenMP
 *            thread, polls with MPI_Test and calls omp_fulfill_event.  Any
 *            thread count.
 *   task     as `thread`, but the poller is an OpenMP task looping over
 *            MPI_Test and taskyield.  With one thread it could run before
 *            the bodies that register the requests and, taskyield being
 *            allowed to do nothing (libgomp's does nothing), wait forever:
 *            run with 2 threads or more only.
 */
#include "mpi_test.h"

#include <sched.h>

enum { MESSAGES = 48, WORDS = 64, ROUNDS = 4, SLOW_MS = 20 };
enum { RECV, SEND, OPS };

static int partner;

struct op {
    long buf[WORDS];
    MPI_Request req;
    omp_event_handle_t event;
    int registered; /* the body posted req (release; the poller acquires) */
    int completed;  /* the poller saw req complete (release; dependants acquire) */
    int checked;    /* the dependent task ran */
};

static struct op ops[OPS][MESSAGES];

static long word(int sender, int round, int i, int k)
{
    return ((long)sender << 48) ^ ((long)round << 40) ^ ((long)i << 20) ^ k;
}

static void fill(long *buf, int sender, int round, int i)
{
    for (int k = 0; k < WORDS; k++)
        buf[k] = word(sender, round, i, k);
}

static void post(int kind, int i, int round)
{
    struct op *o = &ops[kind][i];
    if (kind == RECV) {
        MPI_Irecv(o->buf, WORDS, MPI_LONG, partner, i, MPI_COMM_WORLD, &o->req);
    } else {
        fill(o->buf, mpi_test_rank, round, i);
        MPI_Isend(o->buf, WORDS, MPI_LONG, partner, i, MPI_COMM_WORLD, &o->req);
    }
    __atomic_store_n(&o->registered, 1, __ATOMIC_RELEASE);
}

/* One pass over the registered, incomplete operations; returns how many
 * completed in all so far. */
static int poll_once(int round)
{
    int done = 0;
    for (int kind = 0; kind < OPS; kind++)
        for (int i = 0; i < MESSAGES; i++) {
            struct op *o = &ops[kind][i];
            if (__atomic_load_n(&o->completed, __ATOMIC_RELAXED)) {
                done++;
                continue;
            }
            if (!__atomic_load_n(&o->registered, __ATOMIC_ACQUIRE))
                continue;
            int flag = 0;
            MPI_Test(&o->req, &flag, MPI_STATUS_IGNORE);
            if (!flag)
                continue;
            __atomic_store_n(&o->completed, 1, __ATOMIC_RELEASE);
            omp_fulfill_event(o->event);
            done++;
        }
    (void)round;
    return done;
}

/* The dependent task of operation (kind, i). */
static void after(int kind, int i, int round)
{
    struct op *o = &ops[kind][i];
    CHECK(__atomic_load_n(&o->completed, __ATOMIC_ACQUIRE), "round %d: the task after %s %d ran "
          "before the poller saw it complete", round, kind == RECV ? "receive" : "send", i);
    if (kind == RECV) {
        int bad = 0;
        for (int k = 0; k < WORDS; k++)
            bad += o->buf[k] != word(partner, round, i, k);
        CHECK(!bad, "round %d: message %d arrived with %d wrong words", round, i, bad);
    } else {
        memset(o->buf, 0xff, sizeof o->buf); /* the send buffer may be reused now */
    }
    o->checked = 1;
    mpi_test_tick();
}

static void reset(void)
{
    memset(ops, 0, sizeof ops);
}

static void verify(int round, const char *poller)
{
    for (int kind = 0; kind < OPS; kind++)
        for (int i = 0; i < MESSAGES; i++)
            CHECK(ops[kind][i].checked, "%s poller, round %d: the task after %s %d never ran",
                  poller, round, kind == RECV ? "receive" : "send", i);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* master: operations posted and polled by the master; the events come back
 * from the detach clauses to the task that created them. */
static void round_master(int round)
{
    for (int i = 0; i < MESSAGES; i++)
        post(RECV, i, round);
    for (int i = 0; i < MESSAGES; i += 2)
        post(SEND, i, round);
#pragma omp parallel
#pragma omp masked
    {
        for (int kind = 0; kind < OPS; kind++)
            for (int i = 0; i < MESSAGES; i++) {
                struct op *o = &ops[kind][i];
                omp_event_handle_t ev;
#pragma omp task detach(ev) depend(out : o->buf) firstprivate(o)
                o->checked = 0; /* the operation itself is in flight already */
                o->event = ev;
#pragma omp task depend(in : o->buf) firstprivate(kind, i, round)
                after(kind, i, round);
            }
        progress_sleep_us(SLOW_MS * 1000L);
        for (int i = 1; i < MESSAGES; i += 2)
            post(SEND, i, round); /* the late half */
        while (poll_once(round) < OPS * MESSAGES)
            mpi_test_tick();
#pragma omp taskwait
    }
    verify(round, "master");
}

static void *thread_poller(void *arg)
{
    int round = *(int *)arg;
    while (poll_once(round) < OPS * MESSAGES)
        sched_yield();
    return NULL;
}

/* Detached tasks whose bodies post their own operation; the events travel
 * in the op table to whichever poller runs. */
static void create_tasks(int round, int late_sends)
{
    for (int kind = 0; kind < OPS; kind++)
        for (int i = 0; i < MESSAGES; i++) {
            struct op *o = &ops[kind][i];
            omp_event_handle_t ev;
#pragma omp task detach(ev) depend(out : o->buf) firstprivate(o, kind, i, round, late_sends)
            {
                o->event = ev;
                if (kind == SEND && late_sends && i % 8 == 1)
                    progress_sleep_us(SLOW_MS * 1000L);
                post(kind, i, round);
            }
#pragma omp task depend(in : o->buf) firstprivate(kind, i, round)
            after(kind, i, round);
        }
}

static void round_thread(int round)
{
    pthread_t poller;
    if (pthread_create(&poller, NULL, thread_poller, &round) != 0) {
        CHECK(0, "cannot start the polling thread");
        return;
    }
#pragma omp parallel
#pragma omp single
    create_tasks(round, 1);
    pthread_join(poller, NULL);
    verify(round, "thread");
}

static void round_task(int round)
{
#pragma omp parallel
#pragma omp single
    {
        create_tasks(round, 1);
#pragma omp task firstprivate(round)
        while (poll_once(round) < OPS * MESSAGES) {
            mpi_test_tick();
#pragma omp taskyield
        }
    }
    verify(round, "task");
}

int main(int argc, char **argv)
{
    mpi_test_init(&argc, &argv, MPI_THREAD_MULTIPLE, "mpi/detach");
    partner = mpi_test_rank ^ 1;
    if (partner >= mpi_test_ranks)
        partner = mpi_test_rank;
    for (int round = 0; round < ROUNDS; round++) {
        mpi_test_phase("master: the master polls the operations it posted");
        reset();
        round_master(round);
        mpi_test_phase("thread: a pthread polls the operations task bodies posted");
        reset();
        round_thread(round);
        if (omp_get_max_threads() >= 2) {
            mpi_test_phase("task: a polling task with taskyield");
            reset();
            round_task(round);
        }
    }
    return mpi_test_finish();
}
