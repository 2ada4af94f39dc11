#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Load balancing under stress, one strategy (XOMP_DLB) per run (ctest has a
# case per strategy, tests/CMakeLists.txt): real and virtual
# NUMA topologies (several nodes on this machine, uneven and interleaved
# ones too), 2 to 16 threads on however few cores there are, on random
# unbalanced task trees, a producer-only workload and fib.  Each program
# checks exactly-once execution itself; `timeout` catches a hang; and the
# XOMP_STATS totals must add up (tests/sh/lib/stats.sh): tasks created =
# tasks run = run by self + local + remote, requests handled <= sent and =
# their outcomes, stolen = stolen locally + remotely.  Extra settings drive
# the rarer paths: rings of 2 slots (full target rings), round-robin
# placement (tasks given away from incoming rings), sleeping at once,
# several victims and steals per request, no interval between requests.
# Usage: dlb_stress.sh BUILD_DIR STRATEGY
set -u
build=${1:?usage: dlb_stress.sh BUILD_DIR STRATEGY}
dlb=${2:?usage: dlb_stress.sh BUILD_DIR STRATEGY}
here=$(dirname "$0")
. "$here/lib/stats.sh"

programs=(test_stress_random_trees test_stress_producer_only test_omp_task_fib)
if [ -n "${XOMP_SANITIZE:-}" ]; then
    threads_list="3"
    topologies="0,1,0,2,2"
else
    threads_list="2 5 16"
    topologies="machine 4x2 0,1,0,2,2"
fi

out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
failed=0
runs=0

for prog in "${programs[@]}"; do
    for threads in $threads_list; do
        for topo in $topologies; do
            dlb_run "$prog" "$dlb" OMP_NUM_THREADS="$threads" XOMP_TOPOLOGY="$topo"
        done
    done
    dlb_run "$prog" "$dlb" OMP_NUM_THREADS=3 XOMP_QUEUE_SIZE=2 XOMP_TOPOLOGY=2x2
    dlb_run "$prog" "$dlb" OMP_NUM_THREADS=4 XOMP_PLACEMENT=rr XOMP_SPIN_US=0 XOMP_TOPOLOGY=2x2
    dlb_run "$prog" "$dlb" OMP_NUM_THREADS=4 XOMP_DLB_VICTIMS=3 XOMP_DLB_STEAL=8 \
        XOMP_DLB_INTERVAL=0 XOMP_DLB_PLOCAL=0.5 XOMP_TOPOLOGY=2x2
    dlb_run "$prog" "$dlb" OMP_NUM_THREADS=5 XOMP_DLB_STEAL=half XOMP_DLB_INTERVAL=1 XOMP_TOPOLOGY=2x3
    dlb_run "$prog" "$dlb" OMP_NUM_THREADS=4 XOMP_BARRIER=central XOMP_DLB_PLOCAL=0 \
        XOMP_TOPOLOGY=2x2
done
echo "dlb stress, XOMP_DLB=$dlb: $runs runs, $failed failed"
[ "$failed" -eq 0 ]
