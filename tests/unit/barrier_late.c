/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The tree barrier's termination rule against its hardest interleaving,
 * driven through the real runtime: a spawner waits until the other members
 * have arrived at the barrier and *reported* (their report cell carries the
 * barrier's ticket: the seed's rule would count them as gathered), then
 * creates one slow task per reported member; the reported members, idle in
 * the barrier, steal them, and each creates a grandchild that another
 * member (reported or not) may steal.  The barrier must not return before
 * every one of them ran.  The test also checks it really produced that
 * interleaving: slow tasks run by members that had reported before they
 * were created.  (Replacing the barrier's rule by the seed's, or by a
 * single-wave "created == completed", makes it fail.)  It runs a team of
 * five (the tree barrier) and a team of two (the pair barrier, where
 * each member reports to the other and both decide).
 */
#include "runtime/thread.h"
#include "sched/barrier.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags);
void GOMP_task(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
               long arg_align, bool if_clause, unsigned flags, void **depend, int priority,
               void *detach);
void GOMP_barrier(void);

#define MEMBERS 5 /* the largest team */
#define ITERATIONS 60

static _Atomic int done[ITERATIONS][MEMBERS];
static _Atomic int started[ITERATIONS]; /* a slow task of the iteration began */
static _Atomic int grandchild_done[ITERATIONS][MEMBERS];
static _Atomic int unfinished_seen;
static _Atomic int pushes_to_reported;
/* Slow tasks run by a member that had reported before they were created. */
static _Atomic int runs_on_reported;
/* Members that reported before the spawner pushed, per iteration (bits). */
static _Atomic unsigned reported_mask[ITERATIONS];

struct job {
    int iter, member;
};

static void pause_us(long us)
{
    struct timespec ts = {0, us * 1000};
    nanosleep(&ts, NULL);
}

static void grandchild(void *arg)
{
    struct job *j = arg;
    atomic_store(&grandchild_done[j->iter][j->member], 1);
}

/* Run by a member that had reported: push a grandchild, then stay busy a
 * while.  On even iterations the grandchild goes to another member that
 * had reported; on odd ones to the spawner, which has not reported yet and
 * will count the grandchild's completion in the same wave that counts this
 * still-running task's creation -- sums that balance although a task is
 * unfinished, which a rule comparing one wave's sums would accept. */
static void slow_task(void *arg)
{
    struct job *j = arg;
    struct xomp_thread *thr = xomp_self();
    atomic_store(&started[j->iter], 1);
    unsigned mask = atomic_load(&reported_mask[j->iter]);
    if (mask & (1u << thr->team_id))
        atomic_fetch_add(&runs_on_reported, 1);
    struct job g = *j;
    GOMP_task(grandchild, &g, NULL, sizeof g, _Alignof(struct job), true, 0, NULL, 0, NULL);
    pause_us(2000);
    atomic_store(&done[j->iter][j->member], 1);
}

static bool is_ancestor(unsigned a, unsigned node)
{
    if (xomp_self()->team->nthreads == 2)
        return false; /* pair barrier: each member reports on its own */
    unsigned k = xomp_self()->team->bar.arity;
    while (node != 0) {
        node = (node - 1) / k;
        if (node == a)
            return true;
    }
    return false;
}

static void region(void *arg)
{
    (void)arg;
    struct xomp_thread *thr = xomp_self();
    struct xomp_team *team = thr->team;
    unsigned me = thr->team_id, members = team->nthreads;
    for (int iter = 0; iter < ITERATIONS; iter++) {
        unsigned spawner = (unsigned)iter % members;
        if (me == spawner) {
            uint64_t ticket = thr->worker->bar_ticket;
            /* Members whose subtree does not hold the spawner can report;
             * wait (up to 0.5 s) until they have. */
            unsigned mask = 0;
            for (int tries = 0; tries < 5000; tries++) {
                mask = 0;
                unsigned want = 0;
                for (unsigned k = 0; k < members; k++) {
                    if (k == spawner || is_ancestor(k, spawner))
                        continue;
                    want |= 1u << k;
                    if (xomp_bar_ticket_of(atomic_load_explicit(&team->workers[k].bar.report,
                                                                memory_order_acquire)) >= ticket)
                        mask |= 1u << k;
                }
                if (mask == want)
                    break;
                pause_us(100);
            }
            atomic_store(&reported_mask[iter], mask);
            for (unsigned k = 0; k < members; k++) {
                if (!(mask & (1u << k)))
                    continue;
                struct job j = {iter, (int)k};
                GOMP_task(slow_task, &j, NULL, sizeof j, _Alignof(struct job), true, 0, NULL, 0,
                          NULL);
                atomic_fetch_add(&pushes_to_reported, 1);
            }
            /* A team of two: let the other member (reported, idle in the
             * barrier) take the slow task before we arrive, so that we,
             * not yet reported, take its grandchild from its deque while
             * it sleeps -- one wave's sums then balance (the task created,
             * the grandchild completed) with the slow task unfinished.  (A
             * spin, no scheduling point: up to 0.5 s.) */
            for (int tries = 0; members == 2 && tries < 500000; tries++) {
                if (atomic_load(&started[iter]))
                    break;
                if (tries % 1000 == 999)
                    pause_us(1);
            }
        }
        GOMP_barrier();
        unsigned mask = atomic_load(&reported_mask[iter]);
        for (unsigned k = 0; k < members; k++)
            if ((mask & (1u << k)) &&
                (!atomic_load(&done[iter][k]) || !atomic_load(&grandchild_done[iter][k])))
                atomic_fetch_add(&unfinished_seen, 1);
        GOMP_barrier();
    }
}

static bool run_team(unsigned members)
{
    memset(done, 0, sizeof done);
    memset(grandchild_done, 0, sizeof grandchild_done);
    memset(reported_mask, 0, sizeof reported_mask);
    memset(started, 0, sizeof started);
    atomic_store(&unfinished_seen, 0);
    atomic_store(&pushes_to_reported, 0);
    atomic_store(&runs_on_reported, 0);
    GOMP_parallel(region, NULL, members, 0);
    int unfinished = atomic_load(&unfinished_seen), pushes = atomic_load(&pushes_to_reported);
    int late = atomic_load(&runs_on_reported);
    bool failed = unfinished != 0 || pushes < ITERATIONS || late < ITERATIONS;
    printf("%s: team of %u: %d slow tasks created after the others reported, %d of them run by "
           "members that had reported; %d checks saw an unfinished task after the barrier\n",
           failed ? "FAIL" : "ok", members, pushes, late, unfinished);
    return failed;
}

int main(void)
{
    xomp_cfg.spin_ns = 20 * 1000; /* let the reported members fall asleep too */
    bool failed = run_team(MEMBERS);
    failed |= run_team(2);
    return failed;
}
