#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Automatic replay for unmodified programs (XOMP_REPLAY): a program with no
# xomp API in it repeats a parallel region of tasks, and a parallel region
# whose single thread repeats a taskgroup of tasks.  With XOMP_REPLAY=relws
# (and record, stuws, stows) it still computes the right result, and
# XOMP_STATS=1 reports each region: its executions, steal points recorded,
# applied, honoured and overridden, and its affinity over the executions
# (the taskgroups are recorded, not the region around them, from its second
# execution on).  XOMP_PROFILE=counters writes replay.csv with one row per
# execution.  XOMP_REPLAY=off (the default) records nothing.
# Usage: replay_auto.sh BUILD_DIR
set -u

. "$(dirname "$0")/lib/setup.sh" "$@"

cat >"$tmp/prog.c" <<'PROG'
#include <omp.h>
#include <stdio.h>

#define N 512
static double a[N];

static void work(int lo, int hi, int it)
{
    if (hi - lo <= 8) {
        for (int i = lo; i < hi; i++)
            a[i] += it;
        return;
    }
    int mid = (lo + hi) / 2;
#pragma omp task
    work(lo, mid, it);
#pragma omp task
    work(mid, hi, it);
#pragma omp taskwait
}

int main(void)
{
    for (int it = 0; it < 8; it++) {
#pragma omp parallel
#pragma omp single
        work(0, N, it);
    }
    for (int rep = 0; rep < 2; rep++) {
#pragma omp parallel
#pragma omp single
        for (int it = 0; it < 6; it++) {
#pragma omp taskgroup
            work(0, N, it);
        }
    }
    double sum = 0;
    for (int i = 0; i < N; i++)
        sum += a[i];
    printf("sum=%.0f\n", sum);
    return 0;
}
PROG
# A sanitized runtime needs a program built with the same sanitizer.
build_prog -O2 -fopenmp ${XOMP_SANITIZE:+-fsanitize=$XOMP_SANITIZE}
# 8 executions add 0..7 (28), two runs of 6 add 2 * (0..5) (30): 58 per element.
want="sum=$((58 * 512))"

for mode in record relws stuws stows; do
    out=$(XOMP_REPLAY=$mode XOMP_STATS=1 OMP_NUM_THREADS=2 LD_LIBRARY_PATH="$lib" \
          timeout 120 "$tmp/prog" 2>"$tmp/err")
    [ "$out" = "$want" ] || bad "XOMP_REPLAY=$mode: printed '$out', wanted '$want'"
    grep -q '^xomp: ' "$tmp/err" && bad "XOMP_REPLAY=$mode: a warning: $(grep '^xomp: ' "$tmp/err")"
    grep -q 'Sanitizer' "$tmp/err" && bad "XOMP_REPLAY=$mode: $(grep -m1 'Sanitizer' "$tmp/err")"
    par=$(grep -c 'xomp stats: replay parallel .*: 8 executions' "$tmp/err")
    [ "$par" = 1 ] || bad "XOMP_REPLAY=$mode: no line for the parallel region's 8 executions"
    # The second region: recorded once as a region (it opens taskgroups),
    # then its taskgroup 6 times.
    tg=$(grep -c 'xomp stats: replay taskgroup .*: 6 executions' "$tmp/err")
    [ "$tg" = 1 ] || bad "XOMP_REPLAY=$mode: no line for the taskgroup's 6 executions"
    aff=$(grep -c 'affinity over executions: 1:- 2:[0-9.]* 3:' "$tmp/err")
    [ "$aff" -ge 2 ] || bad "XOMP_REPLAY=$mode: no affinity over executions"
    if [ "$mode" = record ]; then
        grep ': 8 executions' "$tmp/err" | grep -q 'applied 0, honoured 0, overridden 0' ||
            bad "XOMP_REPLAY=record replayed something: $(grep ': 8 executions' "$tmp/err")"
    fi
done

# replay.csv: a header and one row per execution: 8, the second region's
# first execution, and the 6 taskgroups of its second.
dir="$tmp/profile"
out=$(XOMP_REPLAY=relws XOMP_PROFILE=counters XOMP_PROFILE_DIR="$dir" OMP_NUM_THREADS=2 \
      LD_LIBRARY_PATH="$lib" timeout 120 "$tmp/prog" 2>"$tmp/err")
[ "$out" = "$want" ] || bad "with the profile: printed '$out'"
if [ -f "$dir/replay.csv" ]; then
    head -1 "$dir/replay.csv" | grep -q '^region,kind,execution,mode,threads,tasks,applied,recorded,honoured,overridden,unrecorded,affinity,seconds$' ||
        bad "replay.csv: unexpected header: $(head -1 "$dir/replay.csv")"
    rows=$(($(wc -l <"$dir/replay.csv") - 1))
    [ "$rows" = 15 ] || bad "replay.csv: $rows rows, wanted 15"
else
    bad "no replay.csv in the profile"
fi

# Off: nothing recorded.
XOMP_REPLAY=off XOMP_STATS=1 OMP_NUM_THREADS=2 LD_LIBRARY_PATH="$lib" "$tmp/prog" >/dev/null 2>"$tmp/err"
grep -q 'xomp stats: replay' "$tmp/err" && bad "XOMP_REPLAY=off recorded something"
# OMP_DISPLAY_ENV shows the setting.
OMP_DISPLAY_ENV=true XOMP_REPLAY=relws OMP_NUM_THREADS=1 LD_LIBRARY_PATH="$lib" "$tmp/prog" 2>&1 |
    grep -q "XOMP_REPLAY = 'relws'" || bad "OMP_DISPLAY_ENV does not show XOMP_REPLAY"

[ $fail = 0 ] && echo "replay_auto: ok"
exit $fail
