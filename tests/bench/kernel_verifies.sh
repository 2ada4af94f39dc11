#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# kernel_verifies.sh KERNEL RUNTIME LIBDIR THREADS...
#
# Runs every parameter of KERNEL's `test` class (a sweep has several) once
# per thread count under RUNTIME (xomp: LIBDIR/libgomp.so.1, or for a
# clang-built kernel LIBDIR/libomp.so.5, through LD_LIBRARY_PATH; gomp: the
# system libgomp; llvm: the system's LLVM libomp, which a clang-built
# kernel loads by itself) and checks each run: exit
# status 0, exactly one BENCH line, runtime= the one asked for (a kernel
# that silently ran on libgomp fails), threads= the count asked for, and
# verify=ok.
set -u
. "$(dirname "$0")/bench_line.sh"
kernel=$1 runtime=$2 libdir=$3
shift 3

case $runtime in
xomp) env_runtime=(LD_LIBRARY_PATH="$libdir") ;;
gomp | llvm) env_runtime=() ;;
*) echo "unknown runtime '$runtime'" >&2; exit 2 ;;
esac

mapfile -t params < <("$kernel" --list-classes | awk '$1 == "test" { sub(/^test[ \t]+/, ""); print }')
if [ ${#params[@]} -eq 0 ]; then
    echo "FAIL: $kernel --list-classes names no test class" >&2
    exit 1
fi

errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
failures=0
for threads in "$@"; do
    for param in "${params[@]}"; do
        what="$(basename "$kernel") --param $param, $runtime, $threads thread(s)"
        out=$(env "${env_runtime[@]}" OMP_NUM_THREADS="$threads" XOMP_TEST_RUNTIME="$runtime" \
              "$kernel" --param "$param" 2>"$errors")
        problem=$(bench_line_problem $? "$out" "$runtime" "$threads")
        if [ -n "$problem" ]; then
            echo "FAIL: $what: $problem" >&2
            tail -5 "$errors" | sed 's/^/  stderr: /' >&2
            failures=$((failures + 1))
        else
            echo "ok: $what"
        fi
    done
done
exit $((failures > 0))
