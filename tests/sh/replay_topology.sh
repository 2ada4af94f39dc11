#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Steal-tree replay (src/locality/REPLAY.md) on virtual topologies (2x2,
# 4x2, and an uneven 0,0,0,1), where victims are chosen near first:
#   - tests/replay's exactly_once, mapping and mismatch programs (every
#     task exactly once in every mode, the mapping of a strict replay, trees
#     that do not match) pass, and the scheduling counters add up;
#   - ILAN taskloops inside recorded regions (XOMP_TASKLOOP=ilan with
#     XOMP_REPLAY=relws and stows: two placement schedulers at once, the
#     taskloop's tasks outside the recorded tree) run every iteration once;
#   - the replay benchmark kernels (bench/replay, their test classes) verify
#     in the automatic form under every mode, StOWS included;
#   - the test programs built with clang (__kmpc_* paths), where the build
#     has them, in the first setting.
# Under a sanitizer (XOMP_SANITIZE set) the matrix is smaller.
# Usage: replay_topology.sh BUILD_DIR
set -u
build=${1:?usage: replay_topology.sh BUILD_DIR}
here=$(dirname "$0")
. "$here/lib/stats.sh"
out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
failed=0
runs=0

progs="test_replay_exactly_once test_replay_mapping test_replay_mismatch"
for prog in $progs test_omp_taskloop_placement; do
    if [ ! -x "$build/tests/$prog" ]; then
        echo "FAIL: $build/tests/$prog not built"
        exit 1
    fi
done

# TOPOLOGY:THREADS settings, and the modes ILAN taskloops are replayed in.
case "${XOMP_SANITIZE:-}" in
"") settings="2x2:4 4x2:8 0,0,0,1:4" modes="relws stows" ;;
*) settings="2x2:4" modes="stows" ;; # ten times slower: a smaller matrix
esac
for setting in $settings; do
    topology=${setting%:*}
    threads=${setting#*:}
    for prog in $progs; do
        steal_run "$prog" XOMP_TOPOLOGY="$topology" OMP_NUM_THREADS="$threads" \
            MALLOC_PERTURB_=165
    done
    for mode in $modes; do
        steal_run test_omp_taskloop_placement XOMP_TASKLOOP=ilan XOMP_REPLAY="$mode" \
            XOMP_TOPOLOGY="$topology" OMP_NUM_THREADS="$threads"
    done
    # Built with clang: once, in the first setting.
    [ "$setting" = "${settings%% *}" ] || continue
    for prog in $progs; do
        [ -x "$build/tests/clang/$prog" ] || continue
        steal_run "clang/$prog" XOMP_TOPOLOGY="$topology" OMP_NUM_THREADS="$threads" \
            MALLOC_PERTURB_=165
    done
    [ -x "$build/tests/clang/test_omp_taskloop_placement" ] || continue
    for mode in $modes; do
        steal_run clang/test_omp_taskloop_placement XOMP_TASKLOOP=ilan XOMP_REPLAY="$mode" \
            XOMP_TOPOLOGY="$topology" OMP_NUM_THREADS="$threads"
    done
done

# kernel_run BIN PARAM MODE: the kernel verifies under XOMP_REPLAY=MODE.
kernel_run() {
    runs=$((runs + 1))
    env XOMP_REPLAY="$3" XOMP_TOPOLOGY=2x2 OMP_NUM_THREADS=4 LD_LIBRARY_PATH="$build/lib" \
        timeout 300 "$1" --param "$2" >"$out" 2>&1 && grep -q ' verify=ok ' "$out" && return 0
    echo "FAILED: $(basename "$1") --param $2 (XOMP_REPLAY=$3)"
    tail -5 "$out"
    failed=$((failed + 1))
}

# The replay kernels in the automatic form (their plain test classes).
for kernel in heat fdtd floyd cg scan; do
    bin=$build/bench/replay-$kernel
    [ -x "$bin" ] || continue # the benchmarks are not built (sanitizer builds may skip them)
    for param in $("$bin" --list-classes 2>/dev/null | awk '$1 == "test" && $2 ~ /^plain,/ { print $2 }'); do
        for mode in record relws stuws stows; do
            kernel_run "$bin" "$param" "$mode"
        done
    done
done

if [ "$failed" -ne 0 ]; then
    echo "FAIL: $failed of $runs runs failed"
    exit 1
fi
echo "ok: $runs runs"
