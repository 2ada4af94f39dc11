#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# What OMPT costs (src/tool, docs/tools.md):
#
#   1. instructions (callgrind, stable under load) per task of fib(25) at
#      1 thread, tasks run at once (XOMP_SOLO=run) and queued, and per
#      barrier and per region (micro-syncbench) at 1 thread, for
#        base    a build without OMPT (--base: its lib/ directory)
#        none    this build, no tool
#        attached  a tool attached that registers no callback
#        empty   a tool whose callbacks (all of them) return at once
#   2. wall time, medians of --reps alternating runs: fib(30) at 1 and 2
#      threads, barriers and regions at 2 threads, the same four cases.
#
# Usage: bench/ompt_cost.sh [--build DIR] [--base LIBDIR] [--reps N]
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
build=$root/build
base=""
reps=7
while [ $# -gt 0 ]; do
    case $1 in
    --build) build=$(readlink -f "$2"); shift 2 ;;
    --base) base=$(readlink -f "$2"); shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    *) echo "usage: $0 [--build DIR] [--base LIBDIR] [--reps N]" >&2; exit 2 ;;
    esac
done
fib=$build/bench/fib
sync=$build/bench/micro-syncbench
[ -x "$fib" ] && [ -x "$sync" ] || { echo "ompt_cost: build xomp and its benchmarks in $build" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "ompt_cost: needs valgrind" >&2; exit 2; }
tools_h=$(for d in /usr/lib/llvm-*/lib/clang/*/include; do [ -e "$d/omp-tools.h" ] && echo "$d" && break; done)

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/tool.c" <<'TOOL'
#include <omp-tools.h>
#include <stdlib.h>
static void nothing(void) {}
static int initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *data)
{
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    if (getenv("COST_CALLBACKS"))
        for (int e = 1; e <= 37; e++)
            if (e != ompt_callback_control_tool)
                set((ompt_callbacks_t)e, (ompt_callback_t)nothing);
    return 1;
}
static void finalize(ompt_data_t *data) {}
ompt_start_tool_result_t *ompt_start_tool(unsigned v, const char *rt)
{
    static ompt_start_tool_result_t r = {initialize, finalize, {0}};
    return &r;
}
TOOL
gcc -shared -fPIC -O2 -idirafter "$tools_h" "$tmp/tool.c" -o "$tmp/tool.so"

cases=(none attached empty)
[ -n "$base" ] && cases=(base "${cases[@]}")
# case_env CASE: the environment of a case.
case_env() {
    case $1 in
    base) echo "LD_LIBRARY_PATH=$base" ;;
    none) echo "LD_LIBRARY_PATH=$build/lib" ;;
    attached) echo "LD_LIBRARY_PATH=$build/lib OMP_TOOL_LIBRARIES=$tmp/tool.so" ;;
    empty) echo "LD_LIBRARY_PATH=$build/lib OMP_TOOL_LIBRARIES=$tmp/tool.so COST_CALLBACKS=1" ;;
    esac
}

# instructions CASE UNITS ENV... -- PROGRAM ARGS: callgrind's total / UNITS.
instructions() {
    local c=$1 units=$2
    shift 2
    local refs
    refs=$(env $(case_env "$c") "$@" 2>&1 >/dev/null | awk '/refs:/ {gsub(",", "", $NF); print $NF}')
    awk -v r="$refs" -v u="$units" 'BEGIN { printf "%.1f", r / u }'
}

cg="valgrind --tool=callgrind --callgrind-out-file=/dev/null"
# header TITLE...: a Markdown header row with the cases' columns.
header() {
    printf '|'
    printf ' %s |' "$@" "${cases[@]}"
    printf '\n|'
    for _ in "$@"; do printf -- '---|'; done
    for _ in "${cases[@]}"; do printf -- '---:|'; done
    echo
}
header "instructions, 1 thread"
for solo in run queue; do
    printf '| fib(25), per task, XOMP_SOLO=%s |' "$solo"
    for c in "${cases[@]}"; do
        printf ' %s |' "$(instructions "$c" 242784 OMP_NUM_THREADS=1 XOMP_SOLO=$solo $cg "$fib" --param 25)"
    done
    echo
done
for t in barrier,200000 parallel,20000; do
    n=${t#*,}
    printf '| %s, per %s |' "${t%,*}" "${t%,*}"
    for c in "${cases[@]}"; do
        printf ' %s |' "$(instructions "$c" "$n" OMP_NUM_THREADS=1 $cg "$sync" --param "$t")"
    done
    echo
done

# Wall time: alternate the cases, `reps` rounds; medians.
declare -A times
run_time() {
    env $(case_env "$1") OMP_NUM_THREADS=$2 "${@:3}" | awk '/^BENCH/ { for (i = 1; i <= NF; i++) if ($i ~ /^time_s=/) print substr($i, 8) }'
}
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
tests=("fib 30|1|$fib --param 30" "fib 30|2|$fib --param 30"
       "barrier x100k|2|$sync --param barrier,100000" "region x20k|2|$sync --param parallel,20000")
for r in $(seq "$reps"); do
    for t in "${tests[@]}"; do
        IFS='|' read -r name thr cmd <<<"$t"
        for c in "${cases[@]}"; do
            times["$name|$thr|$c"]+="$(run_time "$c" "$thr" $cmd) "
        done
    done
done
echo
header "wall time, median of $reps (s)" threads
for t in "${tests[@]}"; do
    IFS='|' read -r name thr cmd <<<"$t"
    printf '| %s | %s |' "$name" "$thr"
    for c in "${cases[@]}"; do
        printf ' %s |' "$(tr ' ' '\n' <<<"${times["$name|$thr|$c"]}" | grep . | median)"
    done
    echo
done
