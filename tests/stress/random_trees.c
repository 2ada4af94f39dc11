/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Random unbalanced task trees, created by one thread and by all threads,
 * finished by taskwait, taskgroup or only by the barrier.  Every task has a
 * unique id and bumps its own counter: after the construct that covers it,
 * each counter must be exactly 1 (exactly-once execution).
 */
#include "xomp_test.h"

#include <stdint.h>

#define MAX_TASKS (1 << 17)

static unsigned char run_count[MAX_TASKS];
static unsigned next_id;

static uint64_t mix(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}

/* Children count drawn from the seed: mostly 0-2, sometimes 8. */
static void node(uint64_t seed, int depth, int wait_mode)
{
    unsigned id = __atomic_fetch_add(&next_id, 1, __ATOMIC_RELAXED);
    if (id < MAX_TASKS)
        __atomic_add_fetch(&run_count[id], 1, __ATOMIC_RELAXED);
    if (depth == 0)
        return;
    uint64_t r = mix(seed);
    int kids = (r % 16 == 0) ? 8 : (int)(r % 3);
    for (int i = 0; i < kids; i++) {
        uint64_t s = mix(seed + 0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1));
#pragma omp task firstprivate(s, depth, wait_mode)
        node(s, depth - 1, wait_mode);
    }
    if (wait_mode == 0) {
#pragma omp taskwait
    }
}

static int check_exactly_once(const char *what)
{
    unsigned n = next_id < MAX_TASKS ? next_id : MAX_TASKS;
    int bad = 0;
    for (unsigned i = 0; i < n; i++)
        if (run_count[i] != 1)
            bad++;
    CHECK(bad == 0, "%s: %d of %u tasks did not run exactly once", what, bad, n);
    memset(run_count, 0, sizeof run_count);
    next_id = 0;
    return bad;
}

int main(void)
{
    for (int round = 0; round < 6; round++) {
        /* One creator, taskwait at every level. */
#pragma omp parallel
#pragma omp single
        node(1000 + round, 22, 0);
        check_exactly_once("single creator, taskwait");

        /* One creator, no taskwait: the barrier must wait for everything. */
#pragma omp parallel
#pragma omp single nowait
        node(2000 + round, 22, 1);
        check_exactly_once("single creator, barrier only");

        /* All threads create, inside a taskgroup. */
#pragma omp parallel
        {
#pragma omp taskgroup
            node(3000 + round * 64 + omp_get_thread_num(), 18, 1);
        }
        check_exactly_once("all creators, taskgroup");
    }
    return test_result();
}
