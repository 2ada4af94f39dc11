#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# OMP_SCHEDULE drives schedule(runtime) loops: for each value below, the
# test program tests/omp/loop_runtime.c (BUILD_DIR/tests/test_omp_loop_runtime)
# checks that omp_get_schedule() reports it and that runtime loops
# distribute their iterations accordingly, on xomp with 1, 3 and 8
# threads, and on the system libgomp (a wrong expectation fails there too;
# not under a sanitizer build).  Usage: omp_schedule.sh BUILD_DIR
set -u

build=${1:?usage: omp_schedule.sh BUILD_DIR}
lib=$build/lib
prog=$build/tests/test_omp_loop_runtime
for f in "$lib/libgomp.so.1" "$prog"; do
    if [ ! -e "$f" ]; then
        echo "FAIL: $f not found (build xomp and its tests first)"
        exit 1
    fi
done

# OMP_SCHEDULE value -> what omp_get_schedule() returns (omp_sched_t, chunk):
# static 1, dynamic 2, guided 3, auto 4; monotonic adds 0x80000000, and
# static without a modifier is monotonic (as in libgomp).
cases="static=-2147483647,0 static,4=-2147483647,4 nonmonotonic:static,2=1,2
dynamic=2,1 dynamic,3=2,3 guided=3,1 guided,7=3,7 auto=4,1 auto,5=4,5
monotonic:dynamic,2=-2147483646,2 nonmonotonic:guided,5=3,5 DYNAMIC,6=2,6"

fail=0
run() { # runtime threads value expected
    local runtime=$1 threads=$2 value=$3 expect=$4 out
    local env_args=(-u LD_PRELOAD -u LD_LIBRARY_PATH)
    [ "$runtime" = xomp ] && env_args+=(LD_LIBRARY_PATH="$lib")
    env_args+=(OMP_NUM_THREADS="$threads" OMP_SCHEDULE="$value"
               LOOP_RUNTIME_EXPECT="$expect" XOMP_TEST_RUNTIME="$runtime")
    if out=$(env "${env_args[@]}" "$prog" 2>&1); then
        echo "ok   $runtime t$threads OMP_SCHEDULE=$value"
    else
        echo "FAIL: $runtime t$threads OMP_SCHEDULE=$value (expect $expect):"
        echo "$out" | sed 's/^/  /'
        fail=1
    fi
}

for c in $cases; do
    value=${c%=*}
    expect=${c##*=}
    for threads in 1 3 8; do
        run xomp "$threads" "$value" "$expect"
    done
    [ -z "${XOMP_SANITIZE:-}" ] && run gomp 3 "$value" "$expect"
done

if [ $fail -ne 0 ]; then
    echo "FAIL: some OMP_SCHEDULE checks failed"
    exit 1
fi
echo "all OMP_SCHEDULE checks passed"
