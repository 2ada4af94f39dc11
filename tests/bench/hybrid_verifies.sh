#!/usr/bin/env bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# hybrid_verifies.sh KERNEL MPIEXEC RUNTIME LIBDIR LAYOUT...
#
# Runs a hybrid MPI + OpenMP kernel (bench/mpi) on its `test` class once per
# LAYOUT, RANKSxTHREADS (2x1, 4x2, ...), with mpirun through
# tests/mpi/run.sh under RUNTIME (xomp or gomp), and checks each run: exit
# status 0, exactly one BENCH line (rank 0's), runtime= the one asked for
# on every rank (the harness says "mixed" otherwise), threads= and ranks=
# as asked, verify=ok (every rank verified its part against the serial
# result).  A layout failing says which, with the end of its stderr.
set -u
. "$(dirname "$0")/bench_line.sh"
kernel=$1 mpiexec=$2 runtime=$3 libdir=$4
shift 4
run="$(dirname "$0")/../mpi/run.sh"
errors=$(mktemp)
trap 'rm -f "$errors"' EXIT
failures=0
for layout in "$@"; do
    ranks=${layout%x*} threads=${layout#*x}
    what="$(basename "$kernel") --class test, $runtime, $ranks ranks x $threads thread(s)"
    out=$(bash "$run" "$mpiexec" "$runtime" "$libdir" "$ranks" "$threads" -- \
          "$kernel" --class test 2>"$errors")
    problem=$(bench_line_problem $? "$out" "$runtime" "$threads" "$ranks")
    if [ -n "$problem" ]; then
        echo "FAIL: $what: $problem"
        tail -5 "$errors" | sed 's/^/  stderr: /'
        failures=$((failures + 1))
    else
        echo "ok: $what: $(grep '^BENCH ' <<<"$out")"
    fi
done
exit $((failures > 0))
