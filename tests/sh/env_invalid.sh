#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Invalid environment values never stop a program: for each bad VAR=value
# below, a small OpenMP program (parallel region, tasks, single) run on
# xomp (LD_LIBRARY_PATH=BUILD_DIR/lib) must still exit 0 with the right
# result, and its stderr must hold exactly one line starting with "xomp: "
# that names the variable and the bad value (quoted, or as VAR=value).  Valid values must produce no
# "xomp: " line at all.  Usage: env_invalid.sh BUILD_DIR
set -u

. "$(dirname "$0")/lib/setup.sh" "$@"

cat >"$tmp/prog.c" <<'PROG'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>

static long fib(int n)
{
    if (n < 2)
        return n;
    long x, y;
#pragma omp task shared(x)
    x = fib(n - 1);
#pragma omp task shared(y)
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

int main(void)
{
    if (!dlsym(RTLD_DEFAULT, "xomp_version")) {
        printf("not running on xomp\n");
        return 3;
    }
    long sum = 0, f = -1;
    int threads = 0;
#pragma omp parallel reduction(+ : sum) shared(threads, f)
    {
        sum += omp_get_thread_num() + 1;
#pragma omp single
        {
            threads = omp_get_num_threads();
            f = fib(15);
        }
    }
    int ok = sum == (long)threads * (threads + 1) / 2 && f == 610;
    printf("threads=%d sum=%ld fib15=%ld %s\n", threads, sum, f, ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
PROG
cflags="-fopenmp -O1"
if [ -n "${XOMP_SANITIZE:-}" ]; then
    cflags="$cflags -fsanitize=$XOMP_SANITIZE"
fi
build_prog $cflags -ldl

# Run the program with exactly the given OpenMP-related variables: any
# OMP_*, GOMP_* or XOMP_* from the caller's environment is removed.
run() {
    local unset_args=()
    local v
    for v in $(env | sed -n 's/^\(\(OMP\|GOMP\|XOMP\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
        unset_args+=(-u "$v")
    done
    env "${unset_args[@]}" LD_LIBRARY_PATH="$lib" "$@" "$tmp/prog" >"$tmp/out" 2>"$tmp/err"
}

fail=0
bad() {
    echo "FAIL: $*"
    echo "  stdout: $(cat "$tmp/out")"
    sed 's/^/  stderr: /' "$tmp/err"
    fail=1
}

invalid="OMP_NUM_THREADS=abc OMP_NUM_THREADS=0 OMP_NUM_THREADS=-2 OMP_DYNAMIC=maybe
OMP_STACKSIZE=12Q OMP_WAIT_POLICY=sometimes OMP_PROC_BIND=sideways OMP_SCHEDULE=bogus
OMP_MAX_ACTIVE_LEVELS=-1 OMP_THREAD_LIMIT=0 OMP_MAX_TASK_PRIORITY=-3 OMP_CANCELLATION=2
OMP_NESTED=maybe OMP_PROC_BIND=
GOMP_SPINCOUNT=zz OMP_DISPLAY_ENV=loud XOMP_QUEUE_SIZE=0 XOMP_SOLO=alone
XOMP_BARRIER=wall XOMP_MAX_DEPTH=-5 XOMP_SPIN_US=x XOMP_DLB=steal XOMP_DLB_STEAL=0
XOMP_DLB_PLOCAL=1.5 XOMP_DLB_PLOCAL=half
XOMP_TOPOLOGY=3x0 XOMP_TOPOLOGY=0,,1 XOMP_TOPOLOGY=nodes XOMP_PROFILE=loud XOMP_PROFILE_EVENTS=3
XOMP_PROFILE_EVENTS=lots XOMP_PROFILE_DIR= XOMP_PUBLISH_FENCE=2 XOMP_TASKLOOP=numa
XOMP_ILAN_MOLD=maybe XOMP_ILAN_STRICT=2 XOMP_ILAN_STRICT=third XOMP_HOME_LAPSE_MS=-1
XOMP_REPLAY=sometimes XOMP_REPLAY_PRUNE=101 XOMP_REPLAY_PRUNE=half XOMP_REPLAY_PRUNE_RUNS=-2
GOMP_CPU_AFFINITY=0,,1 GOMP_CPU_AFFINITY=2-1 GOMP_CPU_AFFINITY=1:2 GOMP_CPU_AFFINITY=0-1:0"

for setting in $invalid; do
    name=${setting%%=*}
    value=${setting#*=}
    extra=()
    [ "$name" != OMP_NUM_THREADS ] && extra=(OMP_NUM_THREADS=2)
    run "${extra[@]}" "$setting"
    rc=$?
    lines=$(grep -c '^xomp: ' "$tmp/err")
    line=$(grep '^xomp: ' "$tmp/err" | head -n 1)
    if [ $rc -ne 0 ] || ! grep -q ' ok$' "$tmp/out"; then
        bad "$setting: the program failed (exit $rc)"
    elif [ "$lines" -ne 1 ]; then
        bad "$setting: $lines 'xomp: ' lines on stderr, expected exactly 1"
    elif [[ "$line" != *"$name"* ]] ||
        { [[ "$line" != *"'$value'"* ]] && [[ "$line" != *"\"$value\""* ]] &&
          [[ "$line" != *"$name=$value"* ]]; }; then
        bad "$setting: the warning does not name the variable and the value: $line"
    else
        echo "ok   $setting -> $line"
    fi
done

# (As libgomp: a '+' sign, and lists of any length, one entry per level.)
valid="OMP_NUM_THREADS=3 OMP_NUM_THREADS=3,2 OMP_NUM_THREADS=+3 OMP_NUM_THREADS=3,+2
OMP_NUM_THREADS=3,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,1
OMP_PROC_BIND=close,close,spread,close,spread,close,spread,close,spread,close,spread,close,spread,close,spread,close,spread,close,spread
OMP_DYNAMIC=false OMP_SCHEDULE=dynamic,4
OMP_STACKSIZE=4M OMP_WAIT_POLICY=passive OMP_MAX_ACTIVE_LEVELS=2 OMP_THREAD_LIMIT=8
OMP_MAX_TASK_PRIORITY=5 OMP_CANCELLATION=false GOMP_SPINCOUNT=10k XOMP_QUEUE_SIZE=64
XOMP_SOLO=queue XOMP_BARRIER=central XOMP_MAX_DEPTH=64 XOMP_SPIN_US=10
XOMP_DLB=ws XOMP_DLB_STEAL=half XOMP_DLB_PLOCAL=0.5 XOMP_DLB_PLOCAL=1 XOMP_TOPOLOGY=4x2
XOMP_TOPOLOGY=0,1,1 XOMP_TOPOLOGY=machine XOMP_PROFILE=off XOMP_PROFILE_EVENTS=4096
XOMP_PUBLISH_FENCE=1 XOMP_PUBLISH_FENCE=0 XOMP_TASKLOOP=ilan XOMP_TASKLOOP=plain
XOMP_ILAN_MOLD=off XOMP_ILAN_MOLD=on XOMP_ILAN_STRICT=0.5 XOMP_HOME_LAPSE_MS=20
XOMP_REPLAY=off XOMP_REPLAY=record XOMP_REPLAY=relws XOMP_REPLAY=STUWS XOMP_REPLAY=stows
XOMP_REPLAY_PRUNE=0 XOMP_REPLAY_PRUNE=85 XOMP_REPLAY_PRUNE_RUNS=0 XOMP_REPLAY_PRUNE_RUNS=5"

# Settings of the retired message-based scheduler: one line each saying
# so, naming the variable, and the program runs as usual.
retired="XOMP_PLACEMENT=rr XOMP_PLACEMENT=local XOMP_DLB_VICTIMS=2 XOMP_DLB_INTERVAL=5
XOMP_DLB_ROUND_START=1 XOMP_DLB=none XOMP_DLB=rp XOMP_DLB=wait XOMP_DLB=waitfree1 XOMP_DLB=waitfree2"

for setting in $retired; do
    name=${setting%%=*}
    run OMP_NUM_THREADS=2 "$setting"
    rc=$?
    lines=$(grep -c '^xomp: ' "$tmp/err")
    line=$(grep '^xomp: ' "$tmp/err" | head -n 1)
    if [ $rc -ne 0 ] || ! grep -q ' ok$' "$tmp/out"; then
        bad "$setting (retired): the program failed (exit $rc)"
    elif [ "$lines" -ne 1 ] || [[ "$line" != *"$name"*"no longer supported"* ]]; then
        bad "$setting (retired): expected one 'no longer supported' line naming $name"
    else
        echo "ok   $setting (retired) -> $line"
    fi
done

for setting in $valid; do
    name=${setting%%=*}
    extra=()
    [ "$name" != OMP_NUM_THREADS ] && extra=(OMP_NUM_THREADS=2)
    run "${extra[@]}" "$setting"
    rc=$?
    want_threads=2
    [ "$name" = OMP_NUM_THREADS ] && want_threads=3
    if [ $rc -ne 0 ] || ! grep -q ' ok$' "$tmp/out"; then
        bad "$setting (valid): the program failed (exit $rc)"
    elif grep -q '^xomp: ' "$tmp/err"; then
        bad "$setting (valid): unexpected 'xomp: ' line on stderr"
    elif ! grep -q "^threads=$want_threads " "$tmp/out"; then
        bad "$setting (valid): expected a team of $want_threads threads"
    else
        echo "ok   $setting (valid) -> no warning, $(cat "$tmp/out")"
    fi
done

# Invalid values of variables whose absence means more than a default
# value are ignored, as libgomp does: the program runs as if they were
# unset (OMP_DISPLAY_ENV shows what it got).  NAME=VALUE... then the
# line that must show.
as_unset() {
    local want=${*: -1}
    run "${@:1:$#-1}" OMP_DISPLAY_ENV=true
    if ! grep -qF "$want" "$tmp/err"; then
        bad "${*:1:$#-1}: expected as if unset, $want"
    else
        echo "ok   ${*:1:$#-1} -> as if unset: $want"
    fi
}
# A list in OMP_NUM_THREADS enables nesting unless OMP_NESTED says no.
as_unset OMP_NUM_THREADS=2,2 OMP_NESTED=maybe "OMP_MAX_ACTIVE_LEVELS = '255'"
as_unset OMP_NUM_THREADS=2,2 OMP_MAX_ACTIVE_LEVELS=lots "OMP_MAX_ACTIVE_LEVELS = '255'"
grep -q "OMP_MAX_ACTIVE_LEVELS; using 255" "$tmp/err" ||
    bad "OMP_MAX_ACTIVE_LEVELS=lots: the warning does not say the 255 levels used"
# OMP_PLACES alone turns binding on.
as_unset OMP_NUM_THREADS=2 OMP_PLACES=threads OMP_PROC_BIND=sideways "OMP_PROC_BIND = 'TRUE'"

if [ $fail -ne 0 ]; then
    echo "FAIL: some environment checks failed"
    exit 1
fi
echo "all environment checks passed"
