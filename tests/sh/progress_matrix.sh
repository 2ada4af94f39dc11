#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Run every progress program (tests/progress: threads that block outside any
# task scheduling point while tasks they do not run are needed elsewhere;
# task scheduling constraint 2; priorities) on xomp under a matrix of
# scheduler settings: thieves taking one task or half a queue, publishers
# that fence or sleepers that issue the process-wide barrier
# (XOMP_PUBLISH_FENCE), sleeping at once or spinning first, odd and
# oversubscribed thread counts; and, once each, a strong NUMA preference on
# a virtual topology, the central barrier and the smallest stack-depth
# bound.  (Not tiny deques: a creator whose deque is full runs its new task
# at once, which the specification allows and libgomp does past 64 queued
# tasks per thread, and these programs rely on a few tasks being deferred;
# xomp's default, 256 per thread, defers at least as many as libgomp.)
# A hang fails the run through the program's watchdog (or `timeout`).
# Usage: progress_matrix.sh BUILD_DIR
#
# Environment: XOMP_SANITIZE (set: the smaller matrix below),
# XOMP_TEST_PROGRESS_SCALE (iterations, default 0.1 of a program's own
# count; 0.05 under a sanitizer), XOMP_TEST_WATCHDOG_S (default 20: a healthy
# run makes progress every few milliseconds), PROGRESS_MATRIX_RUNTIME=gomp
# (run the same matrix on the system libgomp, which ignores the XOMP_*
# settings: checks the programs, not xomp).  PROGRESS_MATRIX_STEAL,
# PROGRESS_MATRIX_FENCE, PROGRESS_MATRIX_SPIN, PROGRESS_MATRIX_THREADS
# replace a list of the matrix, PROGRESS_MATRIX_PROGRAMS the programs
# (names without test_progress_, e.g. "lock_taskwait spin_flag").
set -u
build=${1:?usage: progress_matrix.sh BUILD_DIR}

# The matrix.  "default" leaves the variable unset.
steals="1 half"
fences="0 1"
spins="0 default"
threads_list="2 3 8"
extras="XOMP_DLB_PLOCAL=1,XOMP_TOPOLOGY=2x2 XOMP_BARRIER=central XOMP_MAX_DEPTH=2"
scale=${XOMP_TEST_PROGRESS_SCALE:-0.1}
if [ -n "${XOMP_SANITIZE:-}" ]; then
    steals="1"
    spins="0"
    threads_list="2 3"
    extras="XOMP_BARRIER=central"
    scale=${XOMP_TEST_PROGRESS_SCALE:-0.05}
fi
steals=${PROGRESS_MATRIX_STEAL:-$steals}
fences=${PROGRESS_MATRIX_FENCE:-$fences}
spins=${PROGRESS_MATRIX_SPIN:-$spins}
threads_list=${PROGRESS_MATRIX_THREADS:-$threads_list}
watchdog=${XOMP_TEST_WATCHDOG_S:-20}
limit=$((watchdog * 3))

runtime=${PROGRESS_MATRIX_RUNTIME:-xomp}
if [ "$runtime" = gomp ]; then
    runtime_env=(XOMP_TEST_RUNTIME=gomp)
else
    runtime_env=(LD_LIBRARY_PATH="$build/lib" XOMP_TEST_RUNTIME=xomp)
fi

if [ -n "${PROGRESS_MATRIX_PROGRAMS:-}" ]; then
    programs=()
    for name in $PROGRESS_MATRIX_PROGRAMS; do
        programs+=("$build/tests/test_progress_$name")
    done
else
    programs=("$build"/tests/test_progress_*)
fi
if [ ! -x "${programs[0]}" ]; then
    echo "progress matrix: no test_progress_* program in $build/tests"
    exit 1
fi

out=$(mktemp /tmp/xomp_progress.XXXXXX)
trap 'rm -f "$out"' EXIT
failed=0
runs=0
declare -A failures

run() {
    local prog=$1; shift
    local name
    name=$(basename "$prog")
    runs=$((runs + 1))
    if ! env "$@" "${runtime_env[@]}" XOMP_TEST_PROGRESS_SCALE="$scale" \
            XOMP_TEST_WATCHDOG_S="$watchdog" timeout "$limit" "$prog" >"$out" 2>&1; then
        echo "FAILED: $* ${name#test_progress_}"
        if grep -q -E 'FAIL|check failed' "$out"; then
            grep -m 3 -E 'FAIL|check failed' "$out" | cut -c1-300
        else
            tail -3 "$out" | cut -c1-300 # killed by timeout, or another failure
        fi
        failed=$((failed + 1))
        failures[$name]=$((${failures[$name]:-0} + 1))
    fi
}

for prog in "${programs[@]}"; do
    for threads in $threads_list; do
        for steal in $steals; do
            for fence in $fences; do
                for spin in $spins; do
                    settings=(OMP_NUM_THREADS="$threads" XOMP_DLB_STEAL="$steal"
                              XOMP_PUBLISH_FENCE="$fence")
                    [ "$spin" != default ] && settings+=(XOMP_SPIN_US="$spin")
                    run "$prog" "${settings[@]}"
                done
            done
        done
    done
    for extra in $extras; do
        # shellcheck disable=SC2086 # one VAR=VALUE per comma
        run "$prog" OMP_NUM_THREADS=4 ${extra//,/ }
    done
done

echo "progress matrix ($runtime): $runs runs, $failed failed"
for name in "${!failures[@]}"; do
    echo "  ${name#test_progress_}: ${failures[$name]} failed"
done
[ "$failed" -eq 0 ]
