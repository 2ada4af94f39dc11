#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Stealing really moves work, and the NUMA preference steers it.
# tests/stress/producer_only.c in its share mode: one thread creates every
# top-level task (sleeping a little between them, like a producer with
# work of its own), the others start idle; it prints the fraction of
# top-level tasks run by the others.
#   - 2 and 4 threads: others run at least MIN_SHARE of them;
#   - virtual topology 2x2 (members 0,1 in node 0, 2,3 in node 1), 4
#     threads: the fraction of tasks stolen within the thief's node is
#     clearly higher with XOMP_DLB_PLOCAL=1 (search only the own node) than
#     with XOMP_DLB_PLOCAL=0 (search only other nodes), medians of five
#     runs.  Neither is absolute: a thread about to sleep while any task it
#     may run is queued anywhere takes it (src/sched/README.md, "Progress").
# The share depends on the machine letting the threads run; a run below
# the bound is retried twice (the best of three counts).
# Usage: steal_moves_work.sh BUILD_DIR
set -u
build=${1:?usage: steal_moves_work.sh BUILD_DIR}
here=$(dirname "$0")
. "$here/lib/stats.sh"
prog=$build/tests/test_stress_producer_only
MIN_SHARE=0.10

out=$(mktemp) || exit 1
trap 'rm -f "$out"' EXIT
failures=0
bad() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# share THREADS [VAR=VALUE...]: run once; prints the share.
share() {
    local threads=$1
    shift
    if ! env "$@" OMP_NUM_THREADS="$threads" XOMP_TEST_SHARE=1 XOMP_STATS=1 \
            LD_LIBRARY_PATH="$build/lib" XOMP_TEST_RUNTIME=xomp timeout 300 "$prog" \
            >"$out" 2>&1; then
        bad "$threads threads $*: the program failed"
        grep -v '^xomp stats' "$out" | tail -5
        echo 0
        return
    fi
    local why
    if ! why=$(check_stats "$out"); then
        bad "$threads threads $*: counters do not add up: $why"
    fi
    sed -n 's/^share_other=//p' "$out"
}

for threads in 2 4; do
    best=0
    for attempt in 1 2 3; do
        s=$(share "$threads")
        best=$(awk -v a="$best" -v b="$s" 'BEGIN { print (b > a ? b : a) }')
        awk -v s="$best" -v m="$MIN_SHARE" 'BEGIN { exit !(s >= m) }' && break
    done
    if awk -v s="$best" -v m="$MIN_SHARE" 'BEGIN { exit !(s >= m) }'; then
        echo "ok   $threads threads: others ran $best of the tasks"
    else
        bad "$threads threads: others ran only $best of the tasks (< $MIN_SHARE)"
    fi
done

# local_fraction PLOCAL: the fraction of stolen tasks stolen within the
# thief's node, 2x2 topology, 4 threads.
local_fraction() {
    share 4 XOMP_TOPOLOGY=2x2 XOMP_DLB_PLOCAL="$1" >/dev/null
    awk -v l="$(stat "$out" stolen_local)" -v r="$(stat "$out" stolen_remote)" \
        'BEGIN { printf "%.3f", l + r ? l / (l + r) : 0 }'
}
# The preference must show: P_local=1 steals clearly more within the node
# than P_local=0, compared as medians of five runs each.  How much more
# depends on the machine: a member that goes to sleep looks everywhere, so
# when threads outnumber the CPUs the two settings come closer (quiet
# 2-CPU machine: medians about 0.50 and 0.18; under CPU load 0.97 and 0.01;
# 0.41 and 0.21 seen in CI under ASan).  With the preference ignored both
# medians are the same within about 0.05, so a margin of 0.1 still fails.
median() { tr ' ' '\n' | grep . | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
nears="" fars=""
for run in 1 2 3 4 5; do
    nears="$nears $(local_fraction 1)"
    fars="$fars $(local_fraction 0)"
done
near=$(echo "$nears" | median)
far=$(echo "$fars" | median)
if awk -v a="$near" -v b="$far" 'BEGIN { exit !(a > b + 0.1) }'; then
    echo "ok   stolen within the node (medians of 5): $near of the steals with P_local=1, $far with P_local=0"
else
    bad "stolen within the node: median $near with P_local=1 ($nears), $far with P_local=0 ($fars)" \
        "(expected a clear difference)"
fi

if [ "$failures" -ne 0 ]; then
    echo "FAIL: stealing did not move work as expected ($failures checks)"
    exit 1
fi
echo "PASS"
