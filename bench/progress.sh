#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# bench/progress.sh [--reps N] [--build DIR]
#
# The raw numbers of a progress report: synchronization latency, task
# handoff, idle behaviour and two loop/task kernels, under GNU libgomp, LLVM
# libomp (when installed) and xomp, as a Markdown table on stdout.  Each
# point runs N times per runtime (default 7), the runtimes alternating
# inside every repetition (gomp, llvm, xomp, gomp, ...) so that background
# load hits them alike; the table shows the median and max/median.
#
#   (a) micro-syncbench barrier and parallel at 2, 4 and 8 threads (4 and 8
#       oversubscribe a 2-core machine);
#   (b) the same at 2 threads pinned together on one CPU (taskset);
#   (c) micro-syncbench handoff at 2 threads;
#   (d) producer 64,2000 at 2, 4 and 8 threads, against its ideal;
#   (e) micro-idle 2000 (ms) at 4 threads: context switches per second and
#       CPU use of the idle members; with strace installed, the futex
#       system calls of one whole run per runtime (strace -f -c);
#   (f) stencil 512,2000 at 2, 4 and 8 threads, time per sweep;
#   (g) micro-syncbench imbalance (a barrier after one thread's 300 us or
#       3 ms of work) at 2, 4 and 8 threads: the barrier's time beyond
#       the work.
#
# Fixed repetition counts inside each run keep a run at 0.05-0.5 s; with
# more threads than cores a barrier costs tens of microseconds, hence
# fewer operations there.
#
# The runtimes are selected as tools/xomp bench does: nothing for the
# system libgomp, LD_PRELOAD=libomp.so.5 for LLVM, LD_LIBRARY_PATH=BUILD/lib
# for xomp.  Every run must verify and name the runtime it was meant for; a
# failed or timed-out run makes its cell FAIL.  Progress goes to stderr.
# About 3 minutes with 7 repetitions on a quiet 2-core machine
# (KEEP_TMP=1 keeps the raw values in the temporary folder it names).
set -u -o pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
reps=7
build=$repo/build
run_timeout=120

usage() {
    sed -n '4,5p' "$0" | sed 's/^# //' >&2
    exit 2
}
while [ $# -gt 0 ]; do
    case $1 in
    -r | --reps) [ $# -ge 2 ] || usage; reps=$2; shift 2 ;;
    -b | --build) [ $# -ge 2 ] || usage; build=$2; shift 2 ;;
    -h | --help) sed -n '4,27p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) usage ;;
    esac
done
case $reps in '' | *[!0-9]* | 0) echo "progress.sh: --reps wants a positive number" >&2; exit 2 ;; esac
build=$(cd "$build" 2>/dev/null && pwd) || { echo "progress.sh: no build directory $build" >&2; exit 2; }
bench=$build/bench
for k in micro-syncbench micro-idle producer stencil; do
    if [ ! -x "$bench/$k" ]; then
        echo "progress.sh: $bench/$k not built (ninja -C $build)" >&2
        exit 2
    fi
done

# ---- runtimes ----
runtimes=(gomp)
libomp=""
for candidate in /usr/lib/x86_64-linux-gnu/libomp.so.5 $(ls -r /usr/lib/llvm-*/lib/libomp.so.5 2>/dev/null); do
    if [ -f "$candidate" ]; then libomp=$candidate; break; fi
done
if [ -n "$libomp" ]; then runtimes+=(llvm); else echo "progress.sh: LLVM libomp.so.5 not found, skipped" >&2; fi
if [ -f "$build/lib/libgomp.so.1" ]; then
    runtimes+=(xomp)
else
    echo "progress.sh: $build/lib/libgomp.so.1 not found: xomp skipped" >&2
fi

# The environment that selects runtime $1 (one VAR=VALUE per word).
runtime_env() {
    case $1 in
    gomp) ;;
    llvm) echo "LD_PRELOAD=$libomp" ;;
    xomp) echo "LD_LIBRARY_PATH=$build/lib" ;;
    esac
}

tmp=$(mktemp -d)
[ -n "${KEEP_TMP:-}" ] && echo "progress.sh: raw values in $tmp" >&2
trap '[ -n "${KEEP_TMP:-}" ] || rm -rf "$tmp"' EXIT

first_cpu=$(taskset -pc $$ 2>/dev/null | sed 's/.*: *//; s/[-,].*//')
first_cpu=${first_cpu:-0}

# run RT THREADS PIN KERNEL PARAM: one run; sets bench_line (the BENCH
# line), err (its stderr file) and failure ("" when it verified on RT).
run() {
    local rt=$1 threads=$2 pin=$3 kernel=$4 param=$5
    local -a pin_cmd=()
    [ "$pin" = pinned ] && pin_cmd=(taskset -c "$first_cpu")
    err=$tmp/stderr
    local out rc
    # shellcheck disable=SC2046 # runtime_env prints words on purpose
    out=$(timeout "$run_timeout" "${pin_cmd[@]}" env $(runtime_env "$rt") OMP_NUM_THREADS="$threads" \
          "$bench/$kernel" --param "$param" 2>"$err")
    rc=$?
    bench_line=$(grep '^BENCH ' <<<"$out" | head -1)
    failure=""
    if [ $rc -eq 124 ]; then
        failure="timeout"
    elif [ $rc -ne 0 ]; then
        failure="exit $rc"
    elif [[ " $bench_line " != *" runtime=$rt "* ]]; then
        failure="wrong runtime"
    elif [[ " $bench_line " != *" verify=ok "* ]]; then
        failure="not verified"
    fi
}

# field NAME: a field of bench_line.
field() {
    tr ' ' '\n' <<<"$bench_line" | sed -n "s/^$1=//p"
}

# measure THREADS PIN KERNEL PARAM KEY EXPR [KEY EXPR ...]: REPS runs per
# runtime, alternating; each EXPR (awk, over time_s, tasks, metric and
# cpu_ms, the idle members' CPU from micro-idle's stderr) gives a value per
# run, kept in $tmp/KEY.RT.
measure() {
    local threads=$1 pin=$2 kernel=$3 param=$4 rep rt i
    shift 4
    local -a pairs=("$@")
    echo "progress.sh: $kernel $param, $threads thread(s)${pin:+, $pin}" >&2
    for ((rep = 1; rep <= reps; rep++)); do
        for rt in "${runtimes[@]}"; do
            run "$rt" "$threads" "$pin" "$kernel" "$param"
            if [ -n "$failure" ]; then
                echo "  FAILED under $rt: $failure" >&2
                tail -3 "$err" | sed 's/^/    /' >&2
                for ((i = 0; i < ${#pairs[@]}; i += 2)); do
                    echo "$failure" >>"$tmp/${pairs[i]}.$rt.fail"
                done
                continue
            fi
            local metric cpu
            metric=$(field metric | sed 's/.*://')
            cpu=$(sed -n 's/.*idle members:.* cpu_ms=\([0-9.]*\).*/\1/p' "$err")
            for ((i = 0; i < ${#pairs[@]}; i += 2)); do
                awk -v time_s="$(field time_s)" -v tasks="$(field tasks)" -v metric="${metric:-0}" \
                    -v cpu_ms="${cpu:-0}" "BEGIN { printf \"%.9g\\n\", ${pairs[i + 1]} }" \
                    >>"$tmp/${pairs[i]}.$rt"
            done
        done
    done
}

# fmt VALUE: three significant digits, no exponent.
fmt() {
    awk -v v="$1" 'BEGIN {
        a = v < 0 ? -v : v
        if (a >= 100) printf "%.0f", v; else if (a >= 10) printf "%.1f", v
        else if (a >= 1) printf "%.2f", v; else printf "%.3f", v }'
}

# stats FILE: "median max/median" of the values in FILE.
stats() {
    sort -g "$1" | awk '{ v[NR] = $1 } END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%.9g %.9g\n", m, (m > 0 ? v[NR] / m : 0) }'
}

rows=()
# row KEY LABEL THREADS PIN UNIT: one table row from the values under KEY.
row() {
    local key=$1 label=$2 threads=$3 pin=$4 unit=$5 rt line="" med spread
    line="| $label | $threads | ${pin:--} | $unit |"
    for rt in "${runtimes[@]}"; do
        if [ -s "$tmp/$key.$rt.fail" ]; then
            line+=" FAIL ($(sort "$tmp/$key.$rt.fail" | uniq -c | sed 's/^ *//' | paste -sd, -)) | |"
        elif [ -s "$tmp/$key.$rt" ]; then
            read -r med spread < <(stats "$tmp/$key.$rt")
            line+=" $(fmt "$med") | $(fmt "$spread") |"
        else
            line+=" - | |"
        fi
    done
    rows+=("$line")
}

start=$(date +%s)

# (a) and (b): synchronization latency, ns per operation.
per_op_ns='time_s / tasks * 1e9'
for threads in 2 4 8; do
    if [ "$threads" -eq 2 ]; then nb=500000 np=200000; else nb=10000 np=10000; fi
    measure "$threads" "" micro-syncbench "barrier,$nb" "barrier.$threads" "$per_op_ns"
    measure "$threads" "" micro-syncbench "parallel,$np" "parallel.$threads" "$per_op_ns"
done
measure 2 pinned micro-syncbench barrier,20000 barrier.pinned "$per_op_ns"
measure 2 pinned micro-syncbench parallel,20000 parallel.pinned "$per_op_ns"
# (c) task handoff to an idle thread.
measure 2 "" micro-syncbench handoff,50000 handoff "$per_op_ns"
# (d) producer: 64 tasks of 2 ms.
for threads in 2 4 8; do
    measure "$threads" "" producer 64,2000 "producer.$threads" 'time_s * 1e3'
done
# (e) idle members, a 2 s window at 4 threads.
measure 4 "" micro-idle 2000 idle.ctxsw 'metric / time_s' idle.cpu 'cpu_ms / (time_s * 1e3) * 100'
# (f) stencil: 2000 sweeps of a 512 x 512 grid.
for threads in 2 4 8; do
    measure "$threads" "" stencil 512,2000 "stencil.$threads" 'time_s / tasks * 1e6'
done
# (g) a barrier after uneven work: 300 us and 3 ms, us beyond the work.
for threads in 2 4 8; do
    measure "$threads" "" micro-syncbench imbalance,1000,300 "imbalance300.$threads" \
        'time_s / tasks * 1e6 - 300'
    measure "$threads" "" micro-syncbench imbalance,100,3000 "imbalance3000.$threads" \
        'time_s / tasks * 1e6 - 3000'
done

# futex calls of one whole micro-idle run per runtime, under strace.
futex_line=""
if command -v strace >/dev/null 2>&1; then
    echo "progress.sh: micro-idle 2000, 4 threads, under strace" >&2
    futex_line="| micro-idle 2000 ms, futex calls of the whole run (one run, strace -f -c) | 4 | - | calls |"
    for rt in "${runtimes[@]}"; do
        # shellcheck disable=SC2046
        if timeout "$run_timeout" strace -f -c -e trace=futex -o "$tmp/strace.$rt" \
               env $(runtime_env "$rt") OMP_NUM_THREADS=4 "$bench/micro-idle" --param 2000 \
               >"$tmp/strace.out" 2>/dev/null &&
           grep -q " runtime=$rt " "$tmp/strace.out"; then
            calls=$(awk '$NF == "futex" { print $4 }' "$tmp/strace.$rt")
            futex_line+=" ${calls:-0} | |"
        else
            futex_line+=" FAIL | |"
        fi
    done
fi

# ---- the table ----
producer_label() {
    local ideal=$(((64 + $1 - 1) / $1 * 2))
    echo "producer 64 tasks x 2 ms, wall (ideal $ideal ms)"
}
for threads in 2 4 8; do row "barrier.$threads" "barrier" "$threads" "" ns; done
row barrier.pinned "barrier" 2 "1 CPU" ns
for threads in 2 4 8; do row "parallel.$threads" "parallel region" "$threads" "" ns; done
row parallel.pinned "parallel region" 2 "1 CPU" ns
row handoff "task handoff (creator spins)" 2 "" ns
for threads in 2 4 8; do row "producer.$threads" "$(producer_label "$threads")" "$threads" "" ms; done
row idle.ctxsw "micro-idle 2000 ms: context switches of idle members" 4 "" "/s"
row idle.cpu "micro-idle 2000 ms: CPU of idle members" 4 "" "% of a core"
[ -n "$futex_line" ] && rows+=("$futex_line")
for threads in 2 4 8; do row "stencil.$threads" "stencil 512x512, one sweep" "$threads" "" us; done
for threads in 2 4 8; do
    row "imbalance300.$threads" "barrier after 300 us of uneven work (beyond it)" "$threads" "" us
    row "imbalance3000.$threads" "barrier after 3 ms of uneven work (beyond it)" "$threads" "" us
done

elapsed=$(($(date +%s) - start))
echo "## Progress numbers"
echo
echo "$(date -u +%Y-%m-%dT%H:%M:%SZ), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg);" \
     "commit $(git -C "$repo" rev-parse --short HEAD 2>/dev/null || echo '?');" \
     "$reps repetitions per runtime, alternating; ${elapsed} s."
echo
echo "Runtimes: gomp = system libgomp${libomp:+; llvm = $libomp (LD_PRELOAD)}; xomp = $build/lib (LD_LIBRARY_PATH)."
echo "med = median over the repetitions; max/med = slowest / median (1.00 = steady)."
echo
header="| test | thr | pin | unit |"
rule="|---|---:|---|---|"
for rt in "${runtimes[@]}"; do
    header+=" $rt med | $rt max/med |"
    rule+="---:|---:|"
done
echo "$header"
echo "$rule"
printf '%s\n' "${rows[@]}"
