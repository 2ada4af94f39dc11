#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# ILAN taskloops (XOMP_TASKLOOP=ilan, src/locality) on virtual topologies:
# 2x1, 2x2, 4x2 and two uneven ones (a node of three cores and one of one;
# one of one and one of four), at 1, 2, 4 and 8 threads.
#   - tests/omp/taskloop_placement.c's forms (every grainsize, num_tasks,
#     strict, collapse, reduction and nogroup form, several executions each,
#     the search on): every iteration exactly once, and the scheduling
#     counters add up (tasks created == tasks run, ...);
#   - its placement check (the search off, no lapse of the homes): each
#     unit runs one contiguous block, in node order, the same one at every
#     execution, and no strict task runs on another node;
#   - the taskloop benchmark kernels (bench/kernels: triad, heat, cg,
#     contend) verify under ILAN;
#   - the same built with clang (__kmpc_taskloop, whose tasks ILAN makes
#     as copies of the compiler's pattern task), on fewer topologies.
# Under a sanitizer (XOMP_SANITIZE set) the matrix is smaller.
# Usage: taskloop_ilan.sh BUILD_DIR
set -u
build=${1:?usage: taskloop_ilan.sh BUILD_DIR}
here=$(dirname "$0")
. "$here/lib/stats.sh"
prog=test_omp_taskloop_placement
if [ ! -x "$build/tests/$prog" ]; then
    echo "FAIL: $build/tests/$prog not built"
    exit 1
fi
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
failed=0
runs=0

topologies="2x1 2x2 4x2 0,0,0,1 0,1,1,1,1"
thread_counts="1 2 4 8"
if [ -n "${XOMP_SANITIZE:-}" ]; then # ten times slower: a smaller matrix
    topologies="2x2 4x2 0,0,0,1"
    thread_counts="2 4"
fi
# placement_runs PROG TOPOLOGIES THREAD_COUNTS
placement_runs() {
    local p=$1 topology threads
    for topology in $2; do
        for threads in $3; do
            steal_run "$p" XOMP_TASKLOOP=ilan XOMP_TOPOLOGY="$topology" \
                OMP_NUM_THREADS="$threads" MALLOC_PERTURB_=165
            steal_run "$p" XOMP_TASKLOOP=ilan XOMP_TOPOLOGY="$topology" \
                OMP_NUM_THREADS="$threads" XOMP_ILAN_MOLD=off XOMP_ILAN_STRICT=1 \
                XOMP_HOME_LAPSE_MS=3600000 TASKLOOP_CHECK_MAPPING=1
        done
    done
}
placement_runs "$prog" "$topologies" "$thread_counts"
# Built with clang (when the build has clang's tests).
clang_prog=clang/$prog
if [ -x "$build/tests/$clang_prog" ]; then
    if [ -n "${XOMP_SANITIZE:-}" ]; then
        placement_runs "$clang_prog" "2x2 0,0,0,1" "4"
    else
        placement_runs "$clang_prog" "2x2 4x2 0,1,1,1,1" "2 4 8"
    fi
fi
# The taskloop benchmark kernels verify under ILAN (their test classes,
# both forms), on a virtual topology and on the machine's.
# (Their clang builds, bench/clang/KERNEL, on the virtual topology.)
for kernel in triad heat cg contend clang/triad clang/heat clang/cg clang/contend; do
    [ -x "$build/bench/$kernel" ] || continue
    settings="XOMP_TOPOLOGY=2x2 XOMP_TOPOLOGY=machine"
    case $kernel in clang/*) settings=XOMP_TOPOLOGY=2x2 ;; esac
    for param in $("$build/bench/$kernel" --list-classes 2>/dev/null | awk '$1 == "test" { print $2 }'); do
        for setting in $settings; do
            runs=$((runs + 1))
            if ! env XOMP_TASKLOOP=ilan "$setting" OMP_NUM_THREADS=4 LD_LIBRARY_PATH="$build/lib" \
                    timeout 300 "$build/bench/$kernel" --param "$param" >"$out" 2>&1 ||
                    ! grep -q ' verify=ok ' "$out"; then
                echo "FAILED: $kernel --param $param ($setting)"
                tail -5 "$out"
                failed=$((failed + 1))
            fi
        done
    done
done

# A strict share of 0 (every task open, the search on) and the watcher's
# shortest lapse.
steal_run "$prog" XOMP_TASKLOOP=ilan XOMP_TOPOLOGY=2x2 OMP_NUM_THREADS=4 XOMP_ILAN_STRICT=0
steal_run "$prog" XOMP_TASKLOOP=ilan XOMP_TOPOLOGY=4x2 OMP_NUM_THREADS=8 XOMP_HOME_LAPSE_MS=0 \
    XOMP_SPIN_US=0

if [ "$failed" -ne 0 ]; then
    echo "FAIL: $failed of $runs runs failed"
    exit 1
fi
echo "ok: $runs runs"
