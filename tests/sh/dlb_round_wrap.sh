#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Load balancing across the wrap of its 40-bit rounds (src/sched/README.md,
# "Rounds"), one strategy (XOMP_DLB) per run (ctest has a case per
# strategy, tests/CMakeLists.txt).  XOMP_DLB_ROUND_START, a test knob,
# starts every member's rounds OFFSET below 2^40, so that they wrap (to 1,
# skipping 0) early in each run, and the rest of the run balances with
# wrapped rounds, requests posted on both sides of the wrap meeting
# victims on the other side.  Each program of tests/stress and fib runs
# under several thread counts, virtual topologies and the settings that
# drive the rarer paths (rings of 2 slots, several victims and steals, no
# interval, round-robin placement, the central barrier):
#   - exactly-once execution (checked by each program), no hang (`timeout`),
#     and the XOMP_STATS totals add up (tests/sh/lib/stats.sh);
#   - work still moves after the wrap: before its round wraps a member can
#     answer at most OFFSET requests (the region begins take rounds too),
#     each moving at most PER_ANSWER tasks (ws, rp: XOMP_DLB_STEAL; wait,
#     waitfree1: 1; waitfree2: 2), so a run of producer_only in one team
#     of N members that moves more than N * OFFSET * PER_ANSWER tasks moved
#     some with wrapped rounds.  A runtime that stops serving requests at
#     the wrap (as one comparing rounds with `<` on 2^40 + 1 does) fails
#     it.  The count depends on how the machine lets the threads run; a
#     run below the bound is retried twice (the best of three counts).
# Usage: dlb_round_wrap.sh BUILD_DIR STRATEGY
set -u
build=${1:?usage: dlb_round_wrap.sh BUILD_DIR STRATEGY}
dlb=${2:?usage: dlb_round_wrap.sh BUILD_DIR STRATEGY}
here=$(dirname "$0")
. "$here/lib/stats.sh"

OFFSET=64
start=$(((1 << 40) - OFFSET))

programs=(test_omp_task_fib)
for p in "$build"/tests/test_stress_*; do
    programs+=("$(basename "$p")")
done
if [ -n "${XOMP_SANITIZE:-}" ]; then
    settings=("OMP_NUM_THREADS=3 XOMP_TOPOLOGY=0,1,0"
              "OMP_NUM_THREADS=4 XOMP_QUEUE_SIZE=2 XOMP_DLB_INTERVAL=0 XOMP_TOPOLOGY=2x2")
else
    settings=("OMP_NUM_THREADS=2"
              "OMP_NUM_THREADS=5 XOMP_TOPOLOGY=0,1,0,2,2"
              "OMP_NUM_THREADS=16 XOMP_TOPOLOGY=4x2"
              "OMP_NUM_THREADS=3 XOMP_QUEUE_SIZE=2 XOMP_TOPOLOGY=2x2"
              "OMP_NUM_THREADS=4 XOMP_DLB_VICTIMS=3 XOMP_DLB_STEAL=8 XOMP_DLB_INTERVAL=0
               XOMP_PLACEMENT=rr XOMP_BARRIER=central XOMP_TOPOLOGY=2x2")
fi

out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
failed=0
runs=0

for prog in "${programs[@]}"; do
    for s in "${settings[@]}"; do
        # shellcheck disable=SC2086 # one word per setting
        dlb_run "$prog" "$dlb" XOMP_DLB_ROUND_START="$start" $s
    done
done

if [ "$dlb" != none ]; then
    members=4
    case $dlb in
        waitfree2) per_answer=2 ;;
        *) per_answer=1 ;; # ws and rp: XOMP_DLB_STEAL, set to 1 below
    esac
    bound=$((members * OFFSET * per_answer))
    best=0 ran=1
    for attempt in 1 2 3; do
        dlb_run test_stress_producer_only "$dlb" XOMP_DLB_ROUND_START="$start" \
            XOMP_DLB_STEAL=1 OMP_NUM_THREADS=$members || { ran=0; break; }
        moved=$(stat "$out" tasks_stolen)
        [ "$moved" -gt "$best" ] && best=$moved
        [ "$best" -gt "$bound" ] && break
    done
    if [ "$ran" -eq 0 ]; then
        : # the failed run is reported and counted
    elif [ "$best" -gt "$bound" ]; then
        echo "ok   XOMP_DLB=$dlb: $best tasks moved, more than the $bound possible before the wrap"
    else
        echo "FAILED (no work moved after the wrap): XOMP_DLB=$dlb, $members threads:" \
            "$best tasks moved, at most $bound can move before the rounds wrap"
        failed=$((failed + 1))
    fi
fi
echo "dlb round wrap, XOMP_DLB=$dlb: $runs runs, $failed failed"
[ "$failed" -eq 0 ]
