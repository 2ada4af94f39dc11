#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Stealing under stress: real and virtual NUMA topologies (several nodes on
# this machine, uneven and interleaved ones too), 2 to 16 threads on
# however few cores there are, on random unbalanced task trees, a
# producer-only workload, dependence graphs and fib.  Each program checks
# exactly-once execution itself; `timeout` catches a hang; and the
# XOMP_STATS totals must add up (tests/sh/lib/stats.sh): tasks created =
# tasks run = run by self + local + remote, stolen = stolen locally +
# remotely, steals <= tasks stolen.  Extra settings drive the rarer paths:
# deques of 2 tasks (new tasks run at once), sleeping at once, batches of
# stolen tasks (XOMP_DLB_STEAL), strict node preferences, publishers that
# fence (XOMP_PUBLISH_FENCE=1: no process-wide barrier), the central
# barrier.
# Usage: steal_stress.sh BUILD_DIR
set -u
build=${1:?usage: steal_stress.sh BUILD_DIR}
here=$(dirname "$0")
. "$here/lib/stats.sh"

programs=(test_stress_random_trees test_stress_producer_only test_omp_task_fib
          test_stress_dep_counting)
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
            steal_run "$prog" OMP_NUM_THREADS="$threads" XOMP_TOPOLOGY="$topo"
        done
    done
    steal_run "$prog" OMP_NUM_THREADS=3 XOMP_QUEUE_SIZE=2 XOMP_TOPOLOGY=2x2
    steal_run "$prog" OMP_NUM_THREADS=4 XOMP_SPIN_US=0 XOMP_TOPOLOGY=2x2
    steal_run "$prog" OMP_NUM_THREADS=4 XOMP_DLB_STEAL=8 XOMP_DLB_PLOCAL=0.5 XOMP_TOPOLOGY=2x2
    steal_run "$prog" OMP_NUM_THREADS=5 XOMP_DLB_STEAL=half XOMP_TOPOLOGY=2x3
    steal_run "$prog" OMP_NUM_THREADS=4 XOMP_DLB_PLOCAL=1 XOMP_TOPOLOGY=2x2 XOMP_PUBLISH_FENCE=1
    steal_run "$prog" OMP_NUM_THREADS=4 XOMP_BARRIER=central XOMP_DLB_PLOCAL=0 \
        XOMP_TOPOLOGY=2x2
done
echo "steal stress: $runs runs, $failed failed"
[ "$failed" -eq 0 ]
