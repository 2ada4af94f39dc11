/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The task deque (src/sched/deque.h) at its hardest interleavings: one
 * owner pushes and pops while thieves steal, with a deque that starts at
 * 2 slots (so it grows under the thieves' feet), an owner that keeps it
 * nearly empty (so owner and thieves race for the last task all the time),
 * bursts (many tasks, then all popped back), pops under a floor (only tasks
 * above it may be taken by the owner), and thieves whose `allowed` check
 * refuses some tasks (they must stay for the owner).  Every task must be
 * taken exactly once; a refused task never by a thief.
 */
#include "sched/deque.h"
#include "task/task.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define THIEVES 3
#define ROUNDS 4
#define TASKS 200000

static struct xomp_deque deque;
static struct xomp_task tasks[TASKS];
static _Atomic unsigned char seen[TASKS];
static _Atomic unsigned refused_stolen;
static _Atomic bool done;
static int failures;

static unsigned index_of(struct xomp_task *t)
{
    return (unsigned)(t - tasks);
}

static void take(struct xomp_task *t)
{
    atomic_fetch_add_explicit(&seen[index_of(t)], 1, memory_order_relaxed);
}

/* Thieves refuse tasks whose flags say "owner only" (1). */
static bool allowed(struct xomp_task *t, const void *arg)
{
    (void)arg;
    return __atomic_load_n(&t->flags, __ATOMIC_RELAXED) != 1;
}

static void *thief(void *arg)
{
    (void)arg;
    unsigned idle = 0;
    while (!atomic_load_explicit(&done, memory_order_acquire)) {
        struct xomp_task *t;
        enum xomp_steal_result r = xomp_deque_steal(&deque, &t, allowed, NULL);
        if (r == XOMP_STEAL_TAKEN) {
            if (__atomic_load_n(&t->flags, __ATOMIC_RELAXED) == 1)
                atomic_fetch_add(&refused_stolen, 1);
            take(t);
            idle = 0;
        } else if (++idle % 64 == 0) {
            sched_yield(); /* 2 cores, 4 threads: let the owner run */
        }
    }
    return NULL;
}

/* One round of the owner's pattern `mode`. */
static void owner_round(int mode)
{
    struct xomp_task *t;
    int64_t floor = INT64_MIN;
    for (unsigned i = 0; i < TASKS; i++) {
        /* Every 97th task is for the owner only. */
        __atomic_store_n(&tasks[i].flags, i % 97 == 0 ? 1u : 0u, __ATOMIC_RELAXED);
        if (mode == 2 && i % 1000 == 0)
            /* A floor: what is pushed from here on is "ours". */
            floor = atomic_load_explicit(&deque.bottom, memory_order_relaxed);
        xomp_deque_push(&deque, &tasks[i]);
        switch (mode) {
        case 0: /* nearly empty: push one, pop one */
            if ((t = xomp_deque_pop(&deque, INT64_MIN)))
                take(t);
            break;
        case 1: /* bursts of 300 */
            if (i % 300 == 299)
                while ((t = xomp_deque_pop(&deque, INT64_MIN)))
                    take(t);
            break;
        case 2: /* pops above a floor only, every other task */
            if (i % 2 && (t = xomp_deque_pop(&deque, floor))) {
                if (atomic_load_explicit(&deque.bottom, memory_order_relaxed) < floor) {
                    fprintf(stderr, "FAIL: the owner popped below its floor\n");
                    failures++;
                }
                take(t);
            }
            break;
        }
    }
    while ((t = xomp_deque_pop(&deque, INT64_MIN)))
        take(t);
    /* Refused tasks left by the thieves: the owner took them above; any
     * task still queued here would be lost. */
    if (xomp_deque_nonempty(&deque)) {
        fprintf(stderr, "FAIL: tasks left in the deque after the owner emptied it\n");
        failures++;
    }
}

static void watchdog(int sig)
{
    (void)sig;
    static const char msg[] = "FAIL: deque_stress made no progress in 120 s (hang)\n";
    write(2, msg, sizeof msg - 1);
    _exit(1);
}

int main(void)
{
    signal(SIGALRM, watchdog);
    alarm(120);
    for (int mode = 0; mode < 3; mode++) {
        for (int round = 0; round < ROUNDS; round++) {
            xomp_deque_init(&deque, 2);
            for (unsigned i = 0; i < TASKS; i++)
                atomic_store(&seen[i], 0);
            atomic_store(&done, false);
            pthread_t th[THIEVES];
            for (int k = 0; k < THIEVES; k++)
                pthread_create(&th[k], NULL, thief, NULL);
            owner_round(mode);
            atomic_store_explicit(&done, true, memory_order_release);
            for (int k = 0; k < THIEVES; k++)
                pthread_join(th[k], NULL);
            unsigned lost = 0, twice = 0;
            for (unsigned i = 0; i < TASKS; i++) {
                unsigned s = atomic_load(&seen[i]);
                lost += s == 0;
                twice += s > 1;
            }
            if (lost || twice) {
                fprintf(stderr, "FAIL: mode %d round %d: %u tasks lost, %u taken twice\n", mode,
                        round, lost, twice);
                failures++;
            }
            xomp_deque_destroy(&deque);
        }
    }
    if (atomic_load(&refused_stolen)) {
        fprintf(stderr, "FAIL: thieves took %u tasks their check refused\n",
                atomic_load(&refused_stolen));
        failures++;
    }
    if (failures)
        return 1;
    printf("deque_stress: %d rounds of %d tasks, 3 thieves: every task taken once\n",
           3 * ROUNDS, TASKS);
    return 0;
}
