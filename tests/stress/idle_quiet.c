/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Idle is quiet: once a parallel region is over and the spin time has
 * passed, the process uses no CPU.  Measured as process CPU time over a
 * 400 ms sleep after the region (allowing 40 ms for noise and sanitizers).
 * Only meaningful on xomp with the default wait policy.
 */
#include "xomp_test.h"

#include "cpu_time.h"

static long sum;

int main(void)
{
#pragma omp parallel
    {
#pragma omp single
        for (int i = 0; i < 1000; i++) {
#pragma omp task
            __atomic_add_fetch(&sum, 1, __ATOMIC_RELAXED);
        }
    }
    CHECK(sum == 1000, "tasks ran %ld times", sum);
    if (!test_runtime_is_xomp() || getenv("OMP_WAIT_POLICY"))
        return test_result(); /* libgomp spins up to 300k iterations; not our claim */
    sleep_ms(100); /* past the spin budget */
    double before = cpu_seconds();
    sleep_ms(400);
    double used = cpu_seconds() - before;
    CHECK(used < 0.040, "the idle process used %.3f s of CPU in 0.4 s", used);
    return test_result();
}
