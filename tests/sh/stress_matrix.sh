#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Run the stress programs on xomp under a matrix of scheduler settings that
# change which interleavings happen: sleeping at once (XOMP_SPIN_US=0) so
# every published task must wake a sleeper, deques of 2 tasks so most new
# tasks run inline, publishers that fence instead of the sleepers'
# process-wide barrier (XOMP_PUBLISH_FENCE=1), both barriers, tree arities,
# crowded waits that yield for their budget or sleep soon
# (XOMP_YIELD_HANDS_OVER), odd and oversubscribed thread counts.  Usage: stress_matrix.sh BUILD_DIR
set -u
build=${1:?usage: stress_matrix.sh BUILD_DIR}
programs=(test_stress_barrier_late_push test_stress_random_trees test_omp_task_fib test_stress_dep_counting)
failed=0
runs=0

run() {
    local prog=$1; shift
    runs=$((runs + 1))
    if ! env "$@" LD_LIBRARY_PATH="$build/lib" XOMP_TEST_RUNTIME=xomp timeout 300 \
            "$build/tests/$prog" >/tmp/xomp_stress.$$ 2>&1; then
        echo "FAILED: $* $prog"
        tail -5 /tmp/xomp_stress.$$
        failed=$((failed + 1))
    fi
}

if [ -n "${XOMP_SANITIZE:-}" ]; then
    threads_list="2 3"
    spins="0"
else
    threads_list="2 3 8"
    spins="0 1000"
fi

for prog in "${programs[@]}"; do
    for threads in $threads_list; do
        for spin in $spins; do
            for barrier in tree central; do
                for fence in 0 1; do
                    for qsize in 2 256; do
                        run "$prog" OMP_NUM_THREADS=$threads XOMP_SPIN_US=$spin \
                            XOMP_BARRIER=$barrier XOMP_PUBLISH_FENCE=$fence \
                            XOMP_QUEUE_SIZE=$qsize
                    done
                done
            done
        done
        run "$prog" OMP_NUM_THREADS=$threads XOMP_BARRIER_ARITY=4 XOMP_SPIN_US=0
        run "$prog" OMP_NUM_THREADS=$threads XOMP_MAX_DEPTH=2
        # Waits among more threads than CPUs: yielding for the budget
        # (Linux 6.6+) and sleeping after a few yields (older kernels).
        run "$prog" OMP_NUM_THREADS=$threads XOMP_YIELD_HANDS_OVER=0
        run "$prog" OMP_NUM_THREADS=$threads XOMP_YIELD_HANDS_OVER=1
    done
done

# Wake chaining (src/sched/README.md): its bursts need several members
# awake at once, so deques as large as a burst (a task run inline there
# would wait for one not made yet); the other settings as above.
for threads in $threads_list; do
    for spin in $spins; do
        for barrier in tree central; do
            for fence in 0 1; do
                run test_stress_wake_chain OMP_NUM_THREADS=$threads XOMP_SPIN_US=$spin \
                    XOMP_BARRIER=$barrier XOMP_PUBLISH_FENCE=$fence
            done
        done
    done
done
rm -f /tmp/xomp_stress.$$
echo "stress matrix: $runs runs, $failed failed"
[ "$failed" -eq 0 ]
