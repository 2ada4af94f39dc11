/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Dependence counting and the table's pruning (src/task/README.md,
 * "Dependences") at the interleavings that could run a task early, twice
 * or never:
 *   - tiny tasks, so that predecessors complete while the creator is still
 *     linking a new task behind them (the CAS onto a list racing the
 *     completer's exchange to CLOSED, decrements arriving before the
 *     creator settles its guard), mixed with slower ones, so that other
 *     predecessors are still pending when the count is settled;
 *   - addresses drawn from a window that slides along a pool, so that the
 *     table keeps growing past addresses whose tasks all completed and
 *     rebuilds without them while recent ones are live;
 *   - repeated addresses in one task (in and out on the same element:
 *     the strongest kind counts), and now and then an undeferred task
 *     with dependences, which its creator runs itself as soon as its last
 *     predecessor releases it.
 * Each task checks the values it reads against the number of writers the
 * creation order puts before it, and bumps the element it writes with a
 * plain increment: a task run too early reads a wrong value, and under
 * ThreadSanitizer a missing ordering is also a reported race.  Every task
 * must run exactly once.  Runs with 1, 2, 4 and 8 threads (8 oversubscribes
 * a small machine, so that completers are descheduled mid-release).
 */
#include "xomp_test.h"

#include <stdint.h>

#define POOL 2048
#define WINDOW 24
#define TASKS 1500
#define ROUNDS 3

static int value[POOL];      /* written only by tasks with depend(out) on it */
static int writers[POOL];    /* creator's count: writers created so far */
static unsigned char ran[TASKS];
static int bad;

static uint64_t next_random(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return *s >> 33;
}

/* Reads two elements, writes a third (which may be one of them). */
static void body(int a, int b, int c, int expect_a, int expect_b, int expect_c, int id, int slow)
{
    if (value[a] != expect_a || value[b] != expect_b || value[c] != expect_c) {
#pragma omp atomic
        bad++;
    }
    if (slow) {
        volatile int sink = 0;
        for (int k = 0; k < 2000; k++)
            sink += k;
    }
    value[c]++;
    ran[id]++;
}

static void round_of_tasks(uint64_t seed)
{
    memset(value, 0, sizeof value);
    memset(writers, 0, sizeof writers);
    memset(ran, 0, sizeof ran);
#pragma omp parallel
#pragma omp single
    {
        uint64_t s = seed;
        for (int i = 0; i < TASKS; i++) {
            int base = (i / 6) % (POOL - WINDOW);
            int a = base + (int)(next_random(&s) % WINDOW);
            int b = base + (int)(next_random(&s) % WINDOW);
            int c = base + (int)(next_random(&s) % WINDOW);
            /* In the creation order the task sees every earlier writer of
             * a, b and c, and none of the later ones. */
            int ea = writers[a], eb = writers[b], ec = writers[c];
            writers[c]++;
            int slow = next_random(&s) % 5 == 0;
            if (i % 251 == 250) {
#pragma omp task if (0) depend(in : value[a], value[b]) depend(out : value[c])
                body(a, b, c, ea, eb, ec, i, slow);
            } else {
#pragma omp task depend(in : value[a], value[b]) depend(out : value[c])
                body(a, b, c, ea, eb, ec, i, slow);
            }
            if (i % 1000 == 999) {
#pragma omp taskwait
            }
        }
    }
    int missing = 0, twice = 0;
    for (int i = 0; i < TASKS; i++) {
        missing += ran[i] == 0;
        twice += ran[i] > 1;
    }
    CHECK(missing == 0 && twice == 0, "seed %llu: %d tasks never ran, %d ran more than once",
          (unsigned long long)seed, missing, twice);
    for (int k = 0; k < POOL; k++)
        CHECK(value[k] == writers[k], "seed %llu: element %d written %d times, expected %d",
              (unsigned long long)seed, k, value[k], writers[k]);
}

int main(void)
{
    for (int r = 0; r < ROUNDS; r++)
        round_of_tasks(0x9e3779b97f4a7c15ULL * (uint64_t)(r + 1));
    CHECK(bad == 0, "%d tasks read a value their predecessors had not written yet", bad);
    return test_result();
}
