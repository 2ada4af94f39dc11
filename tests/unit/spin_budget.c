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
 *   - the budget never exceeds the cap (XOMP_SPIN_US).
 *
 * Timing only decides whether the waiter slept, and a loaded machine can
 * make a waiter miss a spin, so the spin checks take the best of a few
 * tries; the budget's values are checked exactly.
 */
#include "runtime/config.h"
#include "runtime/thread.h"
#include "runtime/wait.h"

#include <pthread.h>
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
    _Atomic int flag;
    long delay_us;
    struct xomp_waker *waker; /* the waiter's */
};

static void *poster(void *arg)
{
    struct post *p = arg;
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
    while (!posted(&p))
        xomp_idle_step(&idle, posted, &p);
    bool slept = idle.slept;
    xomp_idle_end(&idle);
    pthread_join(t, NULL);
    return slept;
}

int main(void)
{
    struct xomp_thread *self = xomp_self();
    uint64_t cap = xomp_cfg.spin_ns;
    CHECK(cap >= 2000000, "the default cap is %llu ns, expected milliseconds",
          (unsigned long long)cap);
    CHECK(self->spin.budget_ns == XOMP_SPIN_START_NS, "a new thread's budget is %llu ns, not %u",
          (unsigned long long)self->spin.budget_ns, XOMP_SPIN_START_NS);

    /* A 600 us wait outlasts the start budget: it sleeps once, then the
     * budget covers it and the same wait ends in the spin.  A try whose
     * wait came late (a loaded machine) starts again from the start. */
    bool grew = false;
    int spun = 0;
    for (int try = 0; try < 5 && !spun; try++) {
        self->spin.budget_ns = XOMP_SPIN_START_NS;
        wait_once(self, 600);
        if (self->spin.budget_ns < 1200000 || self->spin.budget_ns > cap)
            continue;
        grew = true;
        spun += !wait_once(self, 600);
    }
    CHECK(grew, "after a 600 us wait the budget is %llu ns, expected 1.2 ms to the cap",
          (unsigned long long)self->spin.budget_ns);
    CHECK(spun, "every 600 us wait slept although the budget (%llu ns) covers it",
          (unsigned long long)self->spin.budget_ns);

    /* Waits that end while spinning let the budget grow, never past the cap. */
    for (int i = 0; i < 20; i++)
        wait_once(self, 100);
    CHECK(self->spin.budget_ns <= cap, "the budget %llu ns passed the cap %llu ns",
          (unsigned long long)self->spin.budget_ns, (unsigned long long)cap);

    /* With a 1 ms cap, a 5 ms wait sleeps and halves the budget (waits
     * can only come later than asked, so this needs no retry). */
    xomp_cfg.spin_ns = 1000000;
    self->spin.budget_ns = 1000000;
    CHECK(wait_once(self, 5000), "a 5 ms wait did not sleep under a 1 ms cap");
    CHECK(self->spin.budget_ns == 500000, "after a wait past the cap the budget is %llu ns, "
          "expected half of 1 ms", (unsigned long long)self->spin.budget_ns);
    xomp_cfg.spin_ns = cap;

    printf("spin_budget: %s\n", failures ? "FAILED" : "ok");
    return failures != 0;
}
