#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# OMP_DISPLAY_ENV on xomp (LD_LIBRARY_PATH=BUILD_DIR/lib): with =true the
# program prints one block from "OPENMP DISPLAY ENVIRONMENT BEGIN" to
# "... END" holding the xomp banner and a "NAME = 'value'" line for every
# OMP_* setting and xomp's XOMP_QUEUE_SIZE, XOMP_SOLO, XOMP_BARRIER,
# the load-balancing knobs (XOMP_DLB*, XOMP_TOPOLOGY) and XOMP_PROFILE,
# whose values reflect the environment given; =verbose adds GOMP_SPINCOUNT,
# XOMP_PROFILE_EVENTS and XOMP_PROFILE_DIR;
# =false prints nothing.  The program itself still runs correctly and no
# "xomp: " warning appears.  Usage: display_env.sh BUILD_DIR
set -u

. "$(dirname "$0")/lib/setup.sh" "$@"

cat >"$tmp/prog.c" <<'PROG'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>

int main(void)
{
    if (!dlsym(RTLD_DEFAULT, "xomp_version")) {
        printf("not running on xomp\n");
        return 3;
    }
    int threads = 0, count = 0;
#pragma omp parallel shared(threads) reduction(+ : count)
    {
        count++;
#pragma omp master
        threads = omp_get_num_threads();
    }
    printf("threads=%d %s\n", threads, count == threads ? "ok" : "WRONG");
    return count == threads ? 0 : 1;
}
PROG
cflags="-fopenmp -O1"
if [ -n "${XOMP_SANITIZE:-}" ]; then
    cflags="$cflags -fsanitize=$XOMP_SANITIZE"
fi
build_prog $cflags -ldl


# run VAR=value...: run the program with exactly these OpenMP-related
# variables (the caller's OMP_*, GOMP_*, XOMP_* are removed); the block goes
# to $tmp/block.
run() {
    local unset_args=()
    local v
    for v in $(env | sed -n 's/^\(\(OMP\|GOMP\|XOMP\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
        unset_args+=(-u "$v")
    done
    env "${unset_args[@]}" LD_LIBRARY_PATH="$lib" "$@" "$tmp/prog" >"$tmp/out" 2>"$tmp/err"
    local rc=$?
    if [ $rc -ne 0 ] || ! grep -q ' ok$' "$tmp/out"; then
        bad "$*: the program failed (exit $rc): $(cat "$tmp/out")"
    fi
    if grep -q '^xomp: ' "$tmp/err"; then
        bad "$*: unexpected warning: $(grep '^xomp: ' "$tmp/err")"
    fi
    sed -n '/OPENMP DISPLAY ENVIRONMENT BEGIN/,/OPENMP DISPLAY ENVIRONMENT END/p' "$tmp/err" \
        >"$tmp/block"
}

# check_block WHAT: one well-formed block with the banner.
check_block() {
    local begins ends
    begins=$(grep -c 'OPENMP DISPLAY ENVIRONMENT BEGIN' "$tmp/err")
    ends=$(grep -c 'OPENMP DISPLAY ENVIRONMENT END' "$tmp/err")
    if [ "$begins" -ne 1 ] || [ "$ends" -ne 1 ]; then
        bad "$1: $begins BEGIN and $ends END lines, expected one block"
        sed 's/^/  stderr: /' "$tmp/err"
        return 1
    fi
    if ! sed '1d;$d' "$tmp/block" | grep -qi 'xomp'; then
        bad "$1: no xomp banner line in the block"
    fi
    return 0
}

# expect NAME VALUE...: the block has exactly one NAME line whose value is
# one of VALUE... (compared without regard to case); VALUE '*' accepts any.
expect() {
    local name=$1
    shift
    local lines got want
    lines=$(grep -c "^ *$name = '" "$tmp/block")
    if [ "$lines" -ne 1 ]; then
        bad "$name: $lines lines in the block, expected 1"
        return
    fi
    got=$(sed -n "s/^ *$name = '\(.*\)'[[:space:]]*\$/\1/p" "$tmp/block")
    for want in "$@"; do
        if [ "$want" = '*' ] || [ "${got,,}" = "${want,,}" ]; then
            echo "ok   $name = '$got'"
            return
        fi
    done
    bad "$name = '$got', expected one of: $*"
}

absent() {
    if grep -q "^ *$1 = " "$tmp/block"; then
        bad "$1 shown, but it should not be here"
    else
        echo "ok   $1 not shown"
    fi
}

echo "== OMP_DISPLAY_ENV=true with settings"
run OMP_DISPLAY_ENV=true OMP_NUM_THREADS=3,2 OMP_DYNAMIC=true OMP_SCHEDULE=guided,7 \
    OMP_PROC_BIND=close OMP_STACKSIZE=4M OMP_WAIT_POLICY=active OMP_THREAD_LIMIT=7 \
    OMP_MAX_ACTIVE_LEVELS=3 OMP_CANCELLATION=true OMP_MAX_TASK_PRIORITY=4 \
    XOMP_QUEUE_SIZE=64 XOMP_SOLO=queue XOMP_BARRIER=central XOMP_DLB=ws \
    XOMP_DLB_STEAL=3 XOMP_DLB_PLOCAL=0.25 XOMP_TOPOLOGY=4x2
if check_block "OMP_DISPLAY_ENV=true"; then
    expect OMP_NUM_THREADS 3,2
    expect OMP_DYNAMIC TRUE
    expect OMP_SCHEDULE GUIDED,7
    expect OMP_PROC_BIND CLOSE
    expect OMP_PLACES '*'
    expect OMP_STACKSIZE 4194304 4096K 4M
    expect OMP_WAIT_POLICY ACTIVE
    expect OMP_THREAD_LIMIT 7
    expect OMP_MAX_ACTIVE_LEVELS 3
    expect OMP_CANCELLATION TRUE
    expect OMP_MAX_TASK_PRIORITY 4
    expect OMP_TOOL enabled
    expect OMP_TOOL_LIBRARIES ''
    expect OMP_TOOL_VERBOSE_INIT disabled
    expect XOMP_QUEUE_SIZE 64
    expect XOMP_SOLO queue
    expect XOMP_BARRIER central
    expect XOMP_PROFILE off
    expect XOMP_DLB ws
    expect XOMP_DLB_STEAL 3
    expect XOMP_DLB_PLOCAL 0.25
    expect XOMP_TOPOLOGY 4x2
    absent GOMP_SPINCOUNT
    absent XOMP_PROFILE_EVENTS
fi

echo "== OMP_DISPLAY_ENV=true, defaults"
ncpus=$(nproc)
run OMP_DISPLAY_ENV=true
if check_block "OMP_DISPLAY_ENV=true (defaults)"; then
    expect OMP_NUM_THREADS "$ncpus"
    expect OMP_DYNAMIC FALSE
    expect OMP_SCHEDULE '*'
    expect OMP_PROC_BIND '*'
    expect OMP_PLACES '*'
    expect OMP_STACKSIZE '*'
    expect OMP_WAIT_POLICY '*'
    expect OMP_THREAD_LIMIT '*'
    expect OMP_MAX_ACTIVE_LEVELS '*'
    expect OMP_CANCELLATION FALSE
    expect OMP_MAX_TASK_PRIORITY 0
    expect XOMP_QUEUE_SIZE '*'
    expect XOMP_SOLO run
    expect XOMP_BARRIER '*'
    expect XOMP_DLB ws
    expect XOMP_DLB_PLOCAL 0.9
    expect XOMP_TOPOLOGY machine
    expect XOMP_TASKLOOP plain
    expect XOMP_ILAN_MOLD on
    expect XOMP_HOME_LAPSE_MS 0
    absent XOMP_ILAN_BIND
    absent GOMP_SPINCOUNT
fi

# ILAN binds the threads when nothing else asked for binding, and says so;
# not when the program chose (OMP_PROC_BIND) or on a virtual topology.
echo "== XOMP_TASKLOOP=ilan"
run OMP_DISPLAY_ENV=true XOMP_TASKLOOP=ilan XOMP_ILAN_MOLD=off XOMP_ILAN_STRICT=0.5 \
    XOMP_HOME_LAPSE_MS=25
if check_block "XOMP_TASKLOOP=ilan"; then
    expect XOMP_TASKLOOP ilan
    expect XOMP_ILAN_MOLD off
    expect XOMP_ILAN_STRICT 0.5
    expect XOMP_HOME_LAPSE_MS 25
    expect OMP_PROC_BIND TRUE
    expect XOMP_ILAN_BIND '*'
fi
run OMP_DISPLAY_ENV=true XOMP_TASKLOOP=ilan OMP_PROC_BIND=false
if check_block "XOMP_TASKLOOP=ilan OMP_PROC_BIND=false"; then
    expect OMP_PROC_BIND FALSE
    absent XOMP_ILAN_BIND
fi
run OMP_DISPLAY_ENV=true XOMP_TASKLOOP=ilan XOMP_TOPOLOGY=2x1
if check_block "XOMP_TASKLOOP=ilan XOMP_TOPOLOGY=2x1"; then
    expect OMP_PROC_BIND FALSE
    absent XOMP_ILAN_BIND
fi

echo "== OMP_DISPLAY_ENV=verbose"
run OMP_DISPLAY_ENV=verbose OMP_NUM_THREADS=2 XOMP_SOLO=queue XOMP_PROFILE_EVENTS=4096 \
    XOMP_PROFILE_DIR=/tmp/xomp-display-env-profile XOMP_DLB_STEAL=half
if check_block "OMP_DISPLAY_ENV=verbose"; then
    expect OMP_NUM_THREADS 2
    expect XOMP_SOLO queue
    expect XOMP_DLB_STEAL half
    expect OMP_MAX_ACTIVE_LEVELS '*'
    expect GOMP_SPINCOUNT '*'
    expect XOMP_PROFILE off
    expect XOMP_PROFILE_EVENTS 4096
    expect XOMP_PROFILE_DIR /tmp/xomp-display-env-profile
fi

echo "== OMP_DISPLAY_ENV=false"
run OMP_DISPLAY_ENV=false OMP_NUM_THREADS=2
if grep -q 'OPENMP DISPLAY ENVIRONMENT' "$tmp/err"; then
    bad "OMP_DISPLAY_ENV=false printed a block"
else
    echo "ok   no block"
fi

if [ $fail -ne 0 ]; then
    echo "FAIL: some OMP_DISPLAY_ENV checks failed"
    exit 1
fi
echo "all OMP_DISPLAY_ENV checks passed"
