/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * OMP_WAIT_POLICY=active with more threads than CPUs: waiting threads stop
 * spinning (as libgomp's throttled spin does), so an idle team does not
 * burn every CPU.  A team of 2 x CPUs + 2 threads (the program sets
 * OMP_WAIT_POLICY=active and runs itself again):
 *  - in a barrier: member 0 sleeps 300 ms while the others wait for it;
 *  - between regions: the initial thread sleeps 300 ms after a region.
 * Either may use at most 12 ms of CPU a waiting member (the short spin, up
 * to 9 ms of yields, noise): 60 ms on 2 CPUs, 0.4 s on 16; spinning
 * members would keep every CPU busy for the 300 ms (0.6 s on 2 CPUs, 4.8 s
 * on 16).
 */
#include "xomp_test.h"

#include "cpu_time.h"

#define IDLE_MS 300
#define ALLOWED_PER_WAITER_S 0.012

int main(int argc, char **argv)
{
    (void)argc;
    if (!getenv("IDLE_ACTIVE_AGAIN"))
        return test_exec_again(argv, "IDLE_ACTIVE_AGAIN", "OMP_WAIT_POLICY", "active");

    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int team = (int)(2 * cpus + 2);
    int members = 0;
    /* A first region creates the threads (not measured). */
#pragma omp parallel num_threads(team) reduction(+ : members)
    members++;
    CHECK(members == team, "the team has %d threads, expected %d", members, team);

    double allowed = ALLOWED_PER_WAITER_S * (team - 1);
    double before = cpu_seconds();
#pragma omp parallel num_threads(team)
    {
        if (omp_get_thread_num() == 0)
            sleep_ms(IDLE_MS);
    }
    double in_barrier = cpu_seconds() - before;
    CHECK(in_barrier < allowed,
          "%d threads waiting %d ms in a barrier used %.3f s of CPU (allowed %.3f)", team, IDLE_MS,
          in_barrier, allowed);

    before = cpu_seconds();
    sleep_ms(IDLE_MS);
    double between = cpu_seconds() - before;
    CHECK(between < allowed,
          "%d threads idle %d ms between regions used %.3f s of CPU (allowed %.3f)", team, IDLE_MS,
          between, allowed);
    return test_result();
}
