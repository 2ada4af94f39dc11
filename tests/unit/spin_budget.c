/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The adaptive spin budget of the wait primitive (runtime/wait.c,
 * src/runtime/README.md "The budget"), driven through xomp_idle_* with a
 * poster thread that sets a flag after a chosen delay:
 *
 *   - a thread's budget starts at XOMP_SPIN_START_NS;
 *   - a wait that slept although it was shorter than the cap raises the
 *     budget to cover twice that wait, so that the next wait of the same
 *     length ends in the spin, without sleeping (a 200 us cap slept at
 *     every such wait and paid a wake-up each time);
 *   - a wait longer than the cap halves the budget;
 *   - the budget never exceeds the cap (XOMP_SPIN_US);
 *   - with OMP_WAIT_POLICY=active it is endless from the start;
 *   - while threads outnumber CPUs a wait spins a little before its
 *     first yield, except a wait counted in a quiet team (no task queued
 *     since its barrier released), which yields at its first look -- and
 *     sleeps at once past XOMP_YIELDERS_PER_CPU_MAX threads a CPU;
 *   - a spin yields within its first few hundred polls, unless a yield
 *     of the thread's lately gave a slice away (then not before
 *     XOMP_SPIN_START_NS);
 *   - a wait's first look reads no clock when it only pauses (the wait
 *     has no start time after it), and does when threads outnumber CPUs.
 *
 * The rule is checked on made-up waits (xomp_idle_end), exactly; two real
 * waits check that it is the rule the waits use, with a few tries each,
 * since a loaded machine can hold a waiter off its CPU.
 */
#include "runtime/config.h"
#include "runtime/thread.h"
#include "runtime/wait.h"

#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <time.h>

static int failures;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            fprintf(stderr, "spin_budget: FAIL %s:%d: ", __FILE__, __LINE__);                      \
            fprintf(stderr, __VA_ARGS__);                                                          \
            fputc('\n', stderr);                                                                   \
            failures++;                                                                            \
        }                                                                                          \
    } while (0)

struct post {
    _Atomic int waiting; /* the waiter is in its wait */
    _Atomic int flag;
    long delay_us;
    struct xomp_waker *waker; /* the waiter's */
};

static void *poster(void *arg)
{
    struct post *p = arg;
    /* The delay counts from the waiter's first look, not from our start. */
    while (!atomic_load_explicit(&p->waiting, memory_order_acquire))
        sched_yield();
    struct timespec ts = {p->delay_us / 1000000, p->delay_us % 1000000 * 1000};
    nanosleep(&ts, NULL);
    /* relaxed: the wake's fence orders it before the sleeping check. */
    atomic_store_explicit(&p->flag, 1, memory_order_relaxed);
    xomp_wake_if_sleeping(p->waker);
    return NULL;
}

static bool posted(void *arg)
{
    struct post *p = arg;
    return atomic_load_explicit(&p->flag, memory_order_relaxed);
}

/* One wait for a flag set after delay_us; returns whether it slept. */
static bool wait_once(struct xomp_thread *self, long delay_us)
{
    struct post p = {.delay_us = delay_us, .waker = &self->waker};
    pthread_t t;
    if (pthread_create(&t, NULL, poster, &p) != 0) {
        CHECK(0, "cannot start the poster thread");
        return false;
    }
    struct xomp_idle idle;
    xomp_idle_begin(&idle, &self->waker, &self->spin, XOMP_SLEEP_PLAIN);
    /* The wait's clock starts at its first step. */
    xomp_idle_step(&idle, posted, &p);
    atomic_store_explicit(&p.waiting, 1, memory_order_release);
    while (!posted(&p))
        xomp_idle_step(&idle, posted, &p);
    bool slept = idle.slept;
    xomp_idle_end(&idle);
    pthread_join(t, NULL);
    return slept;
}

/* End a made-up wait of `waited_ns` that slept or not, from a budget of
 * `budget_ns`; returns the budget xomp_idle_end leaves. */
static uint64_t end_wait(struct xomp_thread *self, uint64_t budget_ns, uint64_t waited_ns,
                         bool slept)
{
    self->spin.budget_ns = budget_ns;
    struct xomp_idle idle;
    xomp_idle_begin(&idle, &self->waker, &self->spin, XOMP_SLEEP_PLAIN);
    idle.began_ns = xomp_now_ns() - waited_ns;
    idle.slept = slept;
    xomp_idle_end(&idle);
    return self->spin.budget_ns;
}

int main(void)
{
    struct xomp_thread *self = xomp_self();
    uint64_t cap = xomp_cfg.spin_ns;
    if (cap == UINT64_MAX) {
        /* OMP_WAIT_POLICY=active (unit/spin_budget_active): endless from
         * the start, not after waits have grown it. */
        CHECK(self->spin.budget_ns == UINT64_MAX && self->dock_spin.budget_ns == UINT64_MAX,
              "with an endless spin a new thread's budget is %llu ns",
              (unsigned long long)self->spin.budget_ns);
        printf("spin_budget (endless): %s\n", failures ? "FAILED" : "ok");
        return failures != 0;
    }
    CHECK(cap >= 2000000, "the default cap is %llu ns, expected milliseconds",
          (unsigned long long)cap);
    CHECK(self->spin.budget_ns == XOMP_SPIN_START_NS, "a new thread's budget is %llu ns, not %u",
          (unsigned long long)self->spin.budget_ns, XOMP_SPIN_START_NS);

    /* The rule, on waits made up (xomp_idle_end reads only when the wait
     * began and whether it slept). */
    /* (2 x the wait: a little more than 1.2 ms, as the wait ends a moment
     * after it was made up.) */
    uint64_t covered = end_wait(self, XOMP_SPIN_START_NS, 600000, true);
    CHECK(covered >= 1200000 && covered < 2200000,
          "a 600 us wait that slept left the budget at %llu ns, not 1.2 ms",
          (unsigned long long)covered);
    CHECK(end_wait(self, 1200000, 50000, false) == 2400000,
          "a wait that ended in the spin left the budget at %llu ns, not doubled",
          (unsigned long long)self->spin.budget_ns);
    CHECK(end_wait(self, cap - 1000, 50000, false) == cap,
          "growth passed the cap: %llu ns", (unsigned long long)self->spin.budget_ns);
    CHECK(end_wait(self, XOMP_SPIN_START_NS, cap - 1000, true) == cap,
          "a wait just under the cap left the budget at %llu ns, not the cap",
          (unsigned long long)self->spin.budget_ns);
    CHECK(end_wait(self, 4000000, cap + 1000000, true) == 2000000,
          "a wait past the cap left the budget at %llu ns, not halved",
          (unsigned long long)self->spin.budget_ns);

    /* And in a real wait: with a budget that covers it, a 600 us wait ends
     * in the spin, without sleeping (a 200 us cap slept in every one).  A
     * loaded machine can hold the waiter off its CPU past its budget, so
     * one of five tries is enough. */
    int spun = 0;
    for (int try = 0; try < 5 && !spun; try++) {
        self->spin.budget_ns = 2000000;
        spun += !wait_once(self, 600);
    }
    CHECK(spun, "every 600 us wait slept although the budget covered it");

    /* A real wait past the cap sleeps and halves the budget (200 ms: long
     * enough that even a loaded machine's yields end before it). */
    xomp_cfg.spin_ns = 1000000;
    bool slept = false;
    for (int try = 0; try < 3 && !slept; try++) {
        self->spin.budget_ns = 1000000;
        slept = wait_once(self, 200000);
    }
    CHECK(slept, "a 200 ms wait did not sleep under a 1 ms cap");
    CHECK(self->spin.budget_ns == 500000, "after a wait past the cap the budget is %llu ns, "
          "expected half of 1 ms", (unsigned long long)self->spin.budget_ns);
    xomp_cfg.spin_ns = cap;

    /* The first look of a wait on a free machine only pauses: no clock
     * read, so no start time; among more threads than CPUs it may yield,
     * and reads the clock. */
    for (int crowded = 0; crowded < 2; crowded++) {
        atomic_store_explicit(&xomp_oversubscribed, crowded == 1, memory_order_relaxed);
        self->spin.budget_ns = XOMP_SPIN_START_NS;
        struct xomp_idle idle;
        xomp_idle_begin(&idle, &self->waker, &self->spin, XOMP_SLEEP_PLAIN);
        (void)xomp_idle_pause(&idle);
        CHECK((idle.began_ns != 0) == (crowded == 1), "%s: the first look %s the clock",
              crowded ? "crowded" : "free", idle.began_ns ? "read" : "did not read");
        xomp_idle_end(&idle);
    }
    atomic_store_explicit(&xomp_oversubscribed, false, memory_order_relaxed);

    /* Among more threads than CPUs: the first look of a wait spins (a
     * pause, no yield) unless the team it is counted in is quiet.  (The
     * process counts as crowded through the flag the runtime sets when
     * its busy threads outnumber the CPUs.) */
    atomic_store_explicit(&xomp_oversubscribed, true, memory_order_relaxed);
    self->spin.budget_ns = XOMP_SPIN_START_NS;
    _Atomic uint64_t sleepers;
    const uint64_t words[2] = {0, XOMP_SLEEPERS_QUIET};
    for (int quiet = 0; quiet < 2; quiet++) {
        atomic_store_explicit(&sleepers, words[quiet], memory_order_relaxed);
        struct xomp_idle idle;
        xomp_idle_begin(&idle, &self->waker, &self->spin, XOMP_SLEEP_TASKS);
        xomp_idle_count_in(&idle, &sleepers, NULL);
        bool sleep = xomp_idle_pause(&idle);
        bool yielded = sleep || idle.yields > 0;
        CHECK(yielded == (quiet == 1), "crowded, %s team: the first look %s",
              quiet ? "a quiet" : "a busy", yielded ? "yielded" : "spun");
        xomp_idle_end(&idle);
    }
    /* Past XOMP_YIELDERS_PER_CPU_MAX busy threads a CPU the quiet wait
     * sleeps at its first look; at 20 a CPU it yields. */
    unsigned busy = atomic_load_explicit(&xomp_busy_threads, memory_order_relaxed);
    const unsigned per_cpu[2] = {20, XOMP_YIELDERS_PER_CPU_MAX + 1};
    atomic_store_explicit(&sleepers, XOMP_SLEEPERS_QUIET, memory_order_relaxed);
    for (int i = 0; i < 2; i++) {
        atomic_store_explicit(&xomp_busy_threads, per_cpu[i] * xomp_cfg.ncpus,
                              memory_order_relaxed);
        struct xomp_idle idle;
        xomp_idle_begin(&idle, &self->waker, &self->spin, XOMP_SLEEP_TASKS);
        xomp_idle_count_in(&idle, &sleepers, NULL);
        bool sleep = xomp_idle_pause(&idle);
        CHECK(sleep == (i == 1) && (idle.yields > 0) == (i == 0),
              "crowded, %u threads a CPU: the first look %s", per_cpu[i],
              sleep ? "went to sleep" : idle.yields ? "yielded" : "spun");
        xomp_idle_end(&idle);
    }
    atomic_store_explicit(&xomp_busy_threads, busy, memory_order_relaxed);
    atomic_store_explicit(&xomp_oversubscribed, false, memory_order_relaxed);

    /* The yields of a spin, seen through the thread's record of its last
     * timed yield (1: a value no yield leaves).  A spin of 300 polls (well
     * under XOMP_SPIN_START_NS unless the waiter is held off its CPU: a
     * few tries) yields at least once when no yield of the thread gave a
     * slice away lately, and never when one just did. */
    for (int recent = 0; recent < 2; recent++) {
        bool ok = false;
        for (int try = 0; try < 5 && !ok; try++) {
            self->spin.budget_ns = XOMP_SPIN_START_NS;
            uint64_t start = xomp_now_ns();
            uint64_t mark = recent ? start : 1;
            self->spin.yield_gave_slice_ns = mark;
            struct xomp_idle idle;
            xomp_idle_begin(&idle, &self->waker, &self->spin, XOMP_SLEEP_PLAIN);
            for (int poll = 0; poll < 300; poll++)
                (void)xomp_idle_pause(&idle);
            bool yielded = self->spin.yield_gave_slice_ns != mark;
            ok = xomp_now_ns() - start < XOMP_SPIN_START_NS && yielded == !recent;
            xomp_idle_end(&idle);
        }
        CHECK(ok, "a spin of 300 polls %s", recent ? "yielded although a yield just gave a slice away"
                                                   : "did not yield");
    }

    printf("spin_budget: %s\n", failures ? "FAILED" : "ok");
    return failures != 0;
}
