/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * micro-ring: throughput and latency of xomp's task queues themselves, the
 * SPSC ring and the XQueue built from them (src/sched/xqueue.h), without
 * any OpenMP construct around them: how many task pointers a ring moves per
 * second between two cores, how long one takes to cross and come back, and
 * what a whole team moves when every member feeds every other.
 *
 * It is linked with xomp's runtime objects, like the unit tests, so it runs
 * on xomp only (the driver runs it under xomp configurations alone; an
 * XOMP_QUEUE_SIZE setting applies to its rings).  Its own pthreads act as
 * the members of a bare team object; "tasks" are tagged pointers that the
 * rings carry but nobody dereferences.
 *
 * Parameter: "TEST,N"; the result line's `tasks` counts operations:
 *   spsc      member 0 pushes tasks 1..N into ring [1][0], member 1 pops
 *             them (N operations: one push plus one pop).  With one thread,
 *             that thread pushes until the ring is full, then drains it:
 *             the cost of the two operations with no line crossing cores.
 *   pingpong  member 0 pushes a task to member 1, which pops it and pushes
 *             it back through ring [0][1]; member 0 pops it and sends the
 *             next (N operations: one round trip each).  With one thread it
 *             plays both members.
 *   xqueue    every member of a team of OMP_NUM_THREADS pushes its share of
 *             N tasks round-robin to every member (its own deque included),
 *             popping its rings with xomp_xqueue_pop meanwhile, and keeps
 *             popping until all N were popped (N operations).  A push that
 *             finds its ring full pops first, as the runtime never blocks on
 *             a full ring.
 * spsc and pingpong use two threads when OMP_NUM_THREADS >= 2 (more stay
 * unused).
 *
 * Verification: every task is popped exactly once (the count and the sum of
 * the tags), by the member it was pushed to, and (spsc, pingpong) in FIFO
 * order.
 *
 * Classes are sweeps of the three tests.  The sizes of small are meant to
 * take 0.2-2 s with 2 threads on a quiet 2-core machine; on a shared one
 * the cross-core tests slow down tenfold or more whenever another process
 * takes the partner's core (measured: 150-300 ns per spsc operation and
 * 2.5-5 us per round trip at load average 11).
 */
#include "../common/bench.h"
#include "runtime/team.h"
#include "runtime/wait.h"
#include "sched/xqueue.h"

#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum ring_test { RING_SPSC, RING_PINGPONG, RING_XQUEUE };
static const char *const ring_tests[] = {"spsc", "pingpong", "xqueue", NULL};

static enum ring_test test;
static uint64_t n_ops;
static unsigned members;        /* threads of the last run */
static struct xomp_team *team;  /* rings sized for `members` */

/* Results of the last run, per member (written by that member only). */
static struct {
    _Alignas(64) uint64_t popped;
    uint64_t tag_sum;
    uint64_t errors; /* wrong consumer or out-of-order tag */
} seen[BENCH_MAX_THREADS];

static _Atomic unsigned start_gate;  /* members that arrived */
static _Atomic uint64_t popped_total; /* xqueue: pops by all members */

static struct xomp_task *tag(uint64_t i)
{
    return (struct xomp_task *)(uintptr_t)i; /* never dereferenced */
}

static uint64_t untag(struct xomp_task *t)
{
    return (uint64_t)(uintptr_t)t;
}

/* A polling loop that gives the core away now and then: on an
 * oversubscribed machine the member it waits for may need this core. */
static void backoff(unsigned *spins)
{
    if (++*spins % 1024 == 0)
        sched_yield();
    else
        xomp_cpu_relax();
}

static void wait_for_all(unsigned n)
{
    /* acq_rel: the last arrival sees every member ready; no data travels
     * through the gate. */
    atomic_fetch_add_explicit(&start_gate, 1, memory_order_acq_rel);
    unsigned spins = 0;
    while (atomic_load_explicit(&start_gate, memory_order_acquire) < n)
        backoff(&spins);
}

static void push_spin(struct xomp_worker *me, unsigned to, struct xomp_task *t)
{
    unsigned spins = 0;
    while (!xomp_ring_push(team, me, to, t))
        backoff(&spins);
}

static struct xomp_task *pop_spin(struct xomp_worker *me, unsigned from)
{
    struct xomp_task *t;
    unsigned spins = 0;
    while (!(t = xomp_ring_pop(team, me, from)))
        backoff(&spins);
    return t;
}

/* Check and count a task member `id` popped; `expect` is the tag a FIFO
 * order requires (0: any order). */
static void received(unsigned id, struct xomp_task *t, uint64_t expect)
{
    uint64_t v = untag(t);
    seen[id].popped++;
    seen[id].tag_sum += v;
    seen[id].errors += expect && v != expect;
}

static void spsc_alone(void)
{
    struct xomp_worker *p = &team->workers[0], *c = &team->workers[1];
    uint64_t next_push = 1, next_pop = 1;
    while (next_pop <= n_ops) {
        while (next_push <= n_ops && xomp_ring_push(team, p, 1, tag(next_push)))
            next_push++;
        struct xomp_task *t;
        while ((t = xomp_ring_pop(team, c, 0)))
            received(1, t, next_pop++);
    }
}

static void pingpong_alone(void)
{
    struct xomp_worker *a = &team->workers[0], *b = &team->workers[1];
    for (uint64_t i = 1; i <= n_ops; i++) {
        push_spin(a, 1, tag(i));
        push_spin(b, 0, pop_spin(b, 0));
        received(0, pop_spin(a, 1), i);
    }
}

static void *member_main(void *arg)
{
    unsigned id = (unsigned)(uintptr_t)arg;
    struct xomp_worker *me = &team->workers[id];
    wait_for_all(members);
    switch (test) {
    case RING_SPSC:
        if (id == 0)
            for (uint64_t i = 1; i <= n_ops; i++)
                push_spin(me, 1, tag(i));
        else
            for (uint64_t i = 1; i <= n_ops; i++)
                received(1, pop_spin(me, 0), i);
        break;
    case RING_PINGPONG:
        if (id == 0) {
            for (uint64_t i = 1; i <= n_ops; i++) {
                push_spin(me, 1, tag(i));
                received(0, pop_spin(me, 1), i);
            }
        } else {
            for (uint64_t i = 1; i <= n_ops; i++)
                push_spin(me, 0, pop_spin(me, 0));
        }
        break;
    case RING_XQUEUE: {
        /* Tags say who must pop them: tag = i * members + consumer + 1. */
        uint64_t mine = n_ops / members + (id < n_ops % members);
        uint64_t first = id * (n_ops / members) + (id < n_ops % members ? id : n_ops % members);
        unsigned to = id;
        struct xomp_task *t;
        for (uint64_t k = 0; k < mine; k++) {
            uint64_t v = (first + k) * members + to + 1;
            for (;;) {
                bool ok = to == id ? xomp_self_push(team, me, tag(v))
                                   : xomp_ring_push(team, me, to, tag(v));
                if (ok)
                    break;
                while ((t = xomp_xqueue_pop(team, me))) {
                    received(id, t, 0);
                    seen[id].errors += (untag(t) - 1) % members != id;
                    /* relaxed: a counter read only to know when to stop. */
                    atomic_fetch_add_explicit(&popped_total, 1, memory_order_relaxed);
                }
            }
            to = to + 1 == members ? 0 : to + 1;
        }
        unsigned spins = 0;
        /* relaxed: see above; each member's own results are read after
         * pthread_join. */
        while (atomic_load_explicit(&popped_total, memory_order_relaxed) < n_ops) {
            if ((t = xomp_xqueue_pop(team, me))) {
                received(id, t, 0);
                seen[id].errors += (untag(t) - 1) % members != id;
                atomic_fetch_add_explicit(&popped_total, 1, memory_order_relaxed);
            } else {
                backoff(&spins);
            }
        }
        break;
    }
    }
    return NULL;
}

static int setup(const char *param)
{
    char name[16];
    unsigned long long n;
    if (sscanf(param, "%15[a-z],%llu", name, &n) != 2 || n < 1 || n > (1ULL << 40) ||
        bench_choice(name, ring_tests) < 0)
        return -1;
    test = (enum ring_test)bench_choice(name, ring_tests);
    n_ops = n;
    return 0;
}

static void reset(unsigned n)
{
    members = n;
    memset(seen, 0, sizeof seen);
    atomic_store_explicit(&start_gate, 0, memory_order_relaxed);
    atomic_store_explicit(&popped_total, 0, memory_order_relaxed);
    /* A team of at least two members, so that ring [1][0] exists. */
    if (team)
        xomp_team_destroy(team);
    team = xomp_team_create(n < 2 ? 2 : n, 2);
    team->nthreads = n < 2 ? 2 : n;
}

/* One run with `threads` members (spsc and pingpong use at most two). */
static void run_with(unsigned threads)
{
    unsigned n = test == RING_XQUEUE ? threads : threads >= 2 ? 2 : 1;
    reset(n);
    if (n == 1) {
        if (test == RING_SPSC)
            spsc_alone();
        else if (test == RING_PINGPONG)
            pingpong_alone();
        else {
            team->nthreads = 1; /* xqueue alone: its own deque only */
            member_main((void *)(uintptr_t)0);
        }
        return;
    }
    pthread_t threads_of[BENCH_MAX_THREADS];
    for (unsigned i = 1; i < n; i++)
        if (pthread_create(&threads_of[i], NULL, member_main, (void *)(uintptr_t)i) != 0) {
            fprintf(stderr, "micro-ring: cannot create thread %u\n", i);
            exit(1);
        }
    member_main((void *)(uintptr_t)0);
    for (unsigned i = 1; i < n; i++)
        pthread_join(threads_of[i], NULL);
}

static void run_parallel(void)
{
    int max = omp_get_max_threads();
    run_with(max < 1 ? 1 : max > BENCH_MAX_THREADS ? BENCH_MAX_THREADS : (unsigned)max);
}

/* The one-thread variant of each test. */
static void run_serial(void)
{
    run_with(1);
}

static enum bench_verdict verify(void)
{
    uint64_t popped = 0, sum = 0, errors = 0;
    for (unsigned i = 0; i < team->capacity; i++) { /* alone, one thread plays two */
        popped += seen[i].popped;
        sum += seen[i].tag_sum;
        errors += seen[i].errors;
    }
    uint64_t want_sum;
    if (test == RING_XQUEUE) {
        /* tags (i * members + c + 1) for i = 0..N-1, c = i's consumer */
        want_sum = 0;
        unsigned m = members;
        for (unsigned id = 0; id < m; id++) {
            uint64_t mine = n_ops / m + (id < n_ops % m);
            uint64_t first = id * (n_ops / m) + (id < n_ops % m ? id : n_ops % m);
            for (uint64_t k = 0; k < mine; k++)
                want_sum += (first + k) * m + (id + k) % m + 1;
        }
    } else {
        want_sum = n_ops * (n_ops + 1) / 2;
    }
    if (popped != n_ops || sum != want_sum || errors) {
        fprintf(stderr,
                "micro-ring: %llu of %llu tasks popped, tag sum %llu (expected %llu), "
                "%llu out of order or at the wrong member\n",
                (unsigned long long)popped, (unsigned long long)n_ops,
                (unsigned long long)sum, (unsigned long long)want_sum,
                (unsigned long long)errors);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return n_ops;
}

static void teardown(void)
{
    if (team)
        xomp_team_destroy(team);
    team = NULL;
}

static const struct bench_class classes[] = {
    {"test", "spsc,100000"},      {"test", "pingpong,10000"},      {"test", "xqueue,100000"},
    {"small", "spsc,50000000"},   {"small", "pingpong,2000000"},   {"small", "xqueue,20000000"},
    {"medium", "spsc,500000000"}, {"medium", "pingpong,20000000"}, {"medium", "xqueue,200000000"},
    {"large", "spsc,5000000000"}, {"large", "pingpong,200000000"}, {"large", "xqueue,2000000000"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "micro-ring",
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
    return bench_main(argc, argv, &kernel);
}
