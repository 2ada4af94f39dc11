/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Large teams: regions of 256 and 1,024 threads (64 and 256 in sanitizer
 * builds), far more than the CPUs of the machine that runs the suite.
 * Each region is run 3 times (a new team, then the hot team again) and
 * does what a program does with a team: every member has its own id, 3
 * barriers each checked by a counter all members add to, a worksharing
 * loop with a reduction, and tasks made by one member and run by any.
 *
 * Bounded: a watchdog (alarm) fails the test after 120 s; the memory per
 * member (resident memory after the 1,024-thread regions over the state
 * before the first region, divided by the team size) must stay under
 * 24 KB (xomp 14 KB, libgomp 11 KB on the 2-CPU machine; per-member
 * arrays of team size, as xomp had once, cost 28 KB).  The memory check is left
 * out under the sanitizers, whose shadow memory and per-thread caches
 * grow by design.
 */
#include "xomp_test.h"
#include "proc_status.h"

#include <signal.h>
#include <unistd.h>

#if XOMP_TEST_SANITIZED
#define SMALL_TEAM 64
#define LARGE_TEAM 256
#else
#define SMALL_TEAM 256
#define LARGE_TEAM 1024
#endif
#define REPEATS 3
#define BARRIERS 3
#define TASKS_PER_MEMBER 4
#define WATCHDOG_S 120
#define MAX_KB_PER_MEMBER 24

static long failures;

static void fail(void)
{
    __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
}

/* One region of `team` threads; returns the team size it got. */
static int one_region(int team)
{
    unsigned char seen[LARGE_TEAM] = {0};
    long arrived = 0, tasks_run = 0, sum = 0;
    int size = 0;
#pragma omp parallel num_threads(team) shared(seen, arrived, tasks_run, size) reduction(+ : sum)
    {
        int id = omp_get_thread_num(), n = omp_get_num_threads();
        if (id == 0)
            size = n;
        if (id < 0 || id >= LARGE_TEAM || __atomic_exchange_n(&seen[id], 1, __ATOMIC_RELAXED))
            fail(); /* an id out of range, or given twice */
        for (long b = 1; b <= BARRIERS; b++) {
            __atomic_add_fetch(&arrived, 1, __ATOMIC_RELAXED);
#pragma omp barrier
            /* Everyone added before anyone passed; nobody adds again
             * before the next barrier, which all pass after this read. */
            if (__atomic_load_n(&arrived, __ATOMIC_RELAXED) != b * n)
                fail();
#pragma omp barrier
        }
#pragma omp for schedule(dynamic, 7)
        for (int i = 0; i < 10 * n; i++)
            sum += i;
#pragma omp single
        {
            for (int t = 0; t < TASKS_PER_MEMBER * n; t++) {
#pragma omp task shared(tasks_run)
                __atomic_add_fetch(&tasks_run, 1, __ATOMIC_RELAXED);
            }
#pragma omp taskwait
            if (__atomic_load_n(&tasks_run, __ATOMIC_RELAXED) != TASKS_PER_MEMBER * n)
                fail();
        }
    }
    long n = size, m = 10 * n;
    CHECK(size == team, "a team of %d threads was asked for, %d came", team, size);
    CHECK(sum == m * (m - 1) / 2, "team of %d: the loop's sum is %ld, not %ld", team, sum,
          m * (m - 1) / 2);
    for (int i = 0; i < size; i++)
        if (!seen[i]) {
            CHECK(0, "team of %d: no member had id %d", team, i);
            break;
        }
    return size;
}

int main(void)
{
    signal(SIGALRM, SIG_DFL);
    alarm(WATCHDOG_S); /* a hang fails (killed by SIGALRM) */
    omp_set_dynamic(0);
    long rss_before = proc_rss_kb();
    int teams[] = {SMALL_TEAM, LARGE_TEAM};
    for (int k = 0; k < 2; k++)
        for (int r = 0; r < REPEATS; r++)
            one_region(teams[k]);
    long rss = proc_rss_kb();
    long per_member = (rss - rss_before) / LARGE_TEAM;
    fprintf(stderr, "large_team: RSS %ld kB -> %ld kB after teams of %d: %ld kB a member\n",
            rss_before, rss, LARGE_TEAM, per_member);
    CHECK(failures == 0, "%ld checks inside the regions failed (ids, barriers, tasks)", failures);
    if (!XOMP_TEST_SANITIZED)
        CHECK(per_member <= MAX_KB_PER_MEMBER, "%ld kB of resident memory a member (at most %d)",
              per_member, MAX_KB_PER_MEMBER);
    return test_result();
}
