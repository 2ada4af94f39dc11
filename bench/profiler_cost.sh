#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# What the profiler costs, on the fib kernel (every call a task: the worst
# case for per-task overheads).  One `xomp bench` run alternates four
# runtimes on the same binary:
#
#   noprof    xomp built with -DXOMP_PROFILER=OFF (event sites compiled out)
#   off       this build, XOMP_PROFILE unset (one test per event site off
#             the task fast paths)
#   counters  XOMP_PROFILE=counters (counters are always on; adds the dump)
#   events    XOMP_PROFILE=events with a buffer big enough for every event
#             (every task then takes the general task paths, where the
#             event sites are: the per-event cost below includes that)
#
# then prints each median against noprof and the cost of one event:
# (events median - off median) x threads / events recorded, in ns of thread
# time.  Usage:
#
#   bench/profiler_cost.sh [--build DIR] [--noprof DIR] [--param N] [--threads LIST] [--reps N]
#
# The no-profiler build is configured and built in --noprof (default
# build-noprof) when it is missing.  Results: --out (default
# results/profiler-cost-DATE), the bench's results.json and report.md.
set -euo pipefail

root=$(cd "$(dirname "$(readlink -f "$0")")/.." && pwd)
build=$root/build
noprof=$root/build-noprof
param=32
threads=1,2
reps=7
out=$root/results/profiler-cost-$(date +%Y%m%d-%H%M%S)
while [ $# -gt 0 ]; do
    case $1 in
    --build) build=$(readlink -f "$2"); shift 2 ;;
    --noprof) noprof=$(readlink -f "$2"); shift 2 ;;
    --param) param=$2; shift 2 ;;
    --threads) threads=$2; shift 2 ;;
    --reps) reps=$2; shift 2 ;;
    --out) out=$(readlink -f "$2"); shift 2 ;;
    *) echo "usage: $0 [--build DIR] [--noprof DIR] [--param N] [--threads LIST] [--reps N] [--out DIR]" >&2
       exit 2 ;;
    esac
done

if [ ! -x "$build/bench/fib" ] || [ ! -e "$build/lib/libgomp.so.1" ]; then
    echo "profiler_cost: $build has no bench/fib or lib/libgomp.so.1: build xomp first (./xomp build)" >&2
    exit 2
fi
if [ ! -e "$noprof/lib/libgomp.so.1" ]; then
    echo "profiler_cost: building xomp without the profiler in $noprof" >&2
    cmake -S "$root" -B "$noprof" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DXOMP_PROFILER=OFF \
        -DXOMP_BUILD_TESTS=OFF -DXOMP_BUILD_BENCH=OFF >/dev/null
    ninja -C "$noprof" xomp >/dev/null
fi

# Dumps go to memory (tmpfs) when there is one: an events dump of fib is
# hundreds of megabytes.
scratch=$(mktemp -d "${XOMP_SCRATCH:-/dev/shm}/xomp-prof-cost.XXXXXX" 2>/dev/null || mktemp -d)
trap 'rm -rf "$scratch"' EXIT
events_per_thread=$((1 << 27)) # 2 GiB of address space, touched only as used

python=$(command -v /usr/bin/python3 || command -v python3)
"$python" "$root/tools/xomp" bench --build "$build" --kernels fib --param "$param" \
    --threads "$threads" --reps "$reps" --no-plots --no-serial --out "$out" \
    --runtime "xomp:LD_LIBRARY_PATH=$noprof/lib" \
    --runtime xomp \
    --runtime "xomp:XOMP_PROFILE=counters,XOMP_PROFILE_DIR=$scratch/counters" \
    --runtime "xomp:XOMP_PROFILE=events,XOMP_PROFILE_EVENTS=$events_per_thread,XOMP_PROFILE_DIR=$scratch/events" \
    || true

"$python" - "$out/results.json" "$scratch/events/meta.txt" "$noprof" <<'PY'
import json, sys
results, meta_path, noprof = sys.argv[1:]
data = json.load(open(results))
meta = dict(line.split(" = ", 1) for line in open(meta_path).read().splitlines()
            if " = " in line and not line.startswith("#"))
events, dropped = int(meta["events"]), int(meta["events_dropped"])
names = {"noprof": f"xomp:LD_LIBRARY_PATH={noprof}/lib", "off": "xomp"}
cells = [c for c in data["cells"] if c["mode"] == "parallel"]
def label(runtime):
    for short, name in names.items():
        if runtime == name:
            return short
    return runtime.split(",")[0].replace("xomp:XOMP_PROFILE=", "")
print()
print(f"fib {cells[0]['param']}: {data['settings']['reps']} repetitions, runtimes alternating; "
      f"load average {data['machine']['load']}")
print(f"{'threads':>7}  {'config':<9} {'median s':>9} {'min-max s':>15}  {'vs noprof':>9}")
for t in sorted({c["threads"] for c in cells}):
    row = {label(c["runtime"]): c for c in cells if c["threads"] == t}
    base = row["noprof"]["median_s"]
    for name in ("noprof", "off", "counters", "events"):
        c = row.get(name)
        if not c or c["median_s"] is None:
            print(f"{t:>7}  {name:<9} FAILED")
            continue
        print(f"{t:>7}  {name:<9} {c['median_s']:>9.4f} {c['min_s']:>7.4f}-{c['max_s']:<7.4f}  "
              f"{100 * (c['median_s'] / base - 1):>+8.1f}%")
    if row.get("events", {}).get("median_s") and row.get("off", {}).get("median_s"):
        per_event = (row["events"]["median_s"] - row["off"]["median_s"]) * t / events * 1e9
        print(f"{t:>7}  per event: {per_event:.1f} ns of thread time "
              f"({events} events recorded in the last events run, {dropped} dropped)")
PY
