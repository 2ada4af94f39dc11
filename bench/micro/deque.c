/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * micro-deque: what xomp's task deque itself costs (src/sched/deque.h),
 * without any OpenMP construct around it: the owner's push and pop, and
 * what thieves take from an owner that keeps feeding its deque.
 *
 * It is linked with xomp's runtime objects, like the unit tests, so it runs
 * on xomp only (the driver runs it under xomp configurations alone).  Its
 * own pthreads play the members; "tasks" are tagged pointers that the deque
 * carries but nobody dereferences.
 *
 * Parameter: "TEST,N"; the result line's `tasks` counts tasks:
 *   owner   one thread pushes a task and pops it again, N times: the fast
 *           path of a creator that runs its own child (a push, a fence, a
 *           pop); thieves, if any, only watch the deque.
 *   burst   the owner pushes 64 tasks, then pops them back, N/64 times
 *           (the queue holds many: the pop never races for the last one).
 *   steal   the owner pushes N tasks, never popping while the deque holds
 *           fewer than 256; the other members steal; at the end the owner
 *           pops what is left.  Every task is taken exactly once.
 * With one thread, steal has no thief: the owner pops everything.
 *
 * Verification: every task is taken exactly once (count, sum and sum of
 * squares of the tags).
 */
#include "../common/bench.h"
#include "runtime/wait.h"
#include "sched/deque.h"

#include <omp.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum deque_test { DEQUE_OWNER, DEQUE_BURST, DEQUE_STEAL };
static const char *const deque_tests[] = {"owner", "burst", "steal", NULL};

static enum deque_test test;
static uint64_t n_ops;
static unsigned members;
static struct xomp_deque deque;
static _Atomic bool owner_done;
static _Atomic unsigned start_gate;

/* Results of the last run, per member (written by that member only). */
static struct {
    _Alignas(64) uint64_t taken;
    uint64_t sum, sum_sq;
} seen[BENCH_MAX_THREADS];

static struct xomp_task *tag(uint64_t i)
{
    return (struct xomp_task *)(uintptr_t)i; /* never dereferenced */
}

static void taken(unsigned id, struct xomp_task *t)
{
    uint64_t v = (uint64_t)(uintptr_t)t;
    seen[id].taken++;
    seen[id].sum += v;
    seen[id].sum_sq += v * v;
}

static void wait_for_all(unsigned n)
{
    /* acq_rel: the last arrival sees every member ready; no data travels
     * through the gate. */
    atomic_fetch_add_explicit(&start_gate, 1, memory_order_acq_rel);
    unsigned spins = 0;
    while (atomic_load_explicit(&start_gate, memory_order_acquire) < n)
        if (++spins % 1024 == 0)
            sched_yield();
}

static void owner_main(void)
{
    struct xomp_task *t;
    switch (test) {
    case DEQUE_OWNER:
        for (uint64_t i = 1; i <= n_ops; i++) {
            xomp_deque_push(&deque, tag(i));
            if ((t = xomp_deque_pop(&deque, INT64_MIN)))
                taken(0, t);
        }
        break;
    case DEQUE_BURST:
        for (uint64_t i = 1; i <= n_ops;) {
            uint64_t end = i + 64 <= n_ops + 1 ? i + 64 : n_ops + 1;
            for (uint64_t k = i; k < end; k++)
                xomp_deque_push(&deque, tag(k));
            while ((t = xomp_deque_pop(&deque, INT64_MIN)))
                taken(0, t);
            i = end;
        }
        break;
    case DEQUE_STEAL:
        for (uint64_t i = 1; i <= n_ops; i++) {
            if (xomp_deque_holds(&deque, 256) && (t = xomp_deque_pop(&deque, INT64_MIN)))
                taken(0, t);
            xomp_deque_push(&deque, tag(i));
        }
        break;
    }
    while ((t = xomp_deque_pop(&deque, INT64_MIN)))
        taken(0, t);
    /* release: thieves that see it stop (what they took is counted by
     * them, read after pthread_join). */
    atomic_store_explicit(&owner_done, true, memory_order_release);
}

static void *thief_main(void *arg)
{
    unsigned id = (unsigned)(uintptr_t)arg;
    wait_for_all(members);
    struct xomp_task *t;
    unsigned idle = 0;
    while (!atomic_load_explicit(&owner_done, memory_order_acquire)) {
        if (test == DEQUE_STEAL && xomp_deque_steal(&deque, &t, NULL, NULL) == XOMP_STEAL_TAKEN) {
            taken(id, t);
            idle = 0;
        } else if (++idle % 256 == 0) {
            sched_yield(); /* oversubscribed: the owner may need this CPU */
        } else {
            xomp_cpu_relax();
        }
    }
    /* The owner emptied the deque after its last push: nothing is left. */
    return NULL;
}

static int setup(const char *param)
{
    char name[16];
    unsigned long long n;
    if (sscanf(param, "%15[a-z],%llu", name, &n) != 2 || n < 1 || n > (1ULL << 31) ||
        bench_choice(name, deque_tests) < 0)
        return -1;
    test = (enum deque_test)bench_choice(name, deque_tests);
    n_ops = n;
    return 0;
}

static void run_with(unsigned n)
{
    members = n;
    memset(seen, 0, sizeof seen);
    atomic_store_explicit(&start_gate, 0, memory_order_relaxed);
    atomic_store_explicit(&owner_done, false, memory_order_relaxed);
    xomp_deque_init(&deque, 256);
    pthread_t thieves[BENCH_MAX_THREADS];
    for (unsigned i = 1; i < n; i++)
        if (pthread_create(&thieves[i], NULL, thief_main, (void *)(uintptr_t)i) != 0) {
            fprintf(stderr, "micro-deque: cannot create thread %u\n", i);
            exit(1);
        }
    wait_for_all(n);
    owner_main();
    for (unsigned i = 1; i < n; i++)
        pthread_join(thieves[i], NULL);
    xomp_deque_destroy(&deque);
}

static void run_parallel(void)
{
    int max = omp_get_max_threads();
    run_with(max < 1 ? 1 : max > BENCH_MAX_THREADS ? BENCH_MAX_THREADS : (unsigned)max);
}

static void run_serial(void)
{
    run_with(1);
}

static enum bench_verdict verify(void)
{
    uint64_t count = 0, sum = 0, sum_sq = 0;
    for (unsigned i = 0; i < members; i++) {
        count += seen[i].taken;
        sum += seen[i].sum;
        sum_sq += seen[i].sum_sq;
    }
    /* Both sums modulo 2^64, as the members accumulated them. */
    unsigned __int128 n = n_ops;
    uint64_t want_sum = (uint64_t)(n * (n + 1) / 2);
    uint64_t want_sq = (uint64_t)(n * (n + 1) * (2 * n + 1) / 6);
    if (count != n_ops || sum != want_sum || sum_sq != want_sq) {
        fprintf(stderr,
                "micro-deque: %llu of %llu tasks taken (tag sum %llu, expected %llu): a task "
                "was lost or taken twice\n",
                (unsigned long long)count, (unsigned long long)n_ops, (unsigned long long)sum,
                (unsigned long long)want_sum);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return n_ops;
}

static const struct bench_class classes[] = {
    {"test", "owner,100000"},     {"test", "burst,100000"},     {"test", "steal,100000"},
    {"small", "owner,50000000"},  {"small", "burst,50000000"},  {"small", "steal,20000000"},
    {"medium", "owner,500000000"}, {"medium", "burst,500000000"}, {"medium", "steal,200000000"},
    {"large", "owner,2000000000"}, {"large", "burst,2000000000"}, {"large", "steal,2000000000"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "micro-deque",
    .classes = classes,
    .setup = setup,
    .run_parallel = run_parallel,
    .run_serial = run_serial,
    .verify = verify,
    .task_count = task_count,
};

int main(int argc, char **argv)
{
    return bench_main(argc, argv, &kernel);
}
