#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Per-rank thread counts and binding under mpirun's placements, on one
# runtime:  affinity.sh MPIEXEC RUNTIME LIBDIR PROGRAM
#
# For each placement (--bind-to none|core|socket, --map-by ppr:N:node:pe=M,
# with and without OMP_PLACES/OMP_PROC_BIND/OMP_NUM_THREADS), each rank
# starts as a shell that reads the CPUs mpirun gave it (/proc/self/status)
# into XOMP_TEST_RANK_CPUS and execs tests/mpi/affinity.c, which checks its
# team against them (see its header), with OMP_DISPLAY_AFFINITY on: every
# line the program prints about a thread must match one the runtime
# displayed (same pid, thread number, team size and CPUs), and there must
# be no others.  The placements fit a 2-core machine (2 ranks x 1 core); on a
# larger one they still hold.
set -u
mpiexec=$1 runtime=$2 libdir=$3 prog=$4
run="$(dirname "$0")/run.sh"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
ncpu=$(nproc)

# Each rank: note the CPUs mpirun bound it to, then become the program.
note_cpus='XOMP_TEST_RANK_CPUS=$(sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status)
export XOMP_TEST_RANK_CPUS
exec "$0" "$@"'

# check NAME RANKS "VAR=VALUE ..." [--disjoint] -- MPIRUN OPTS...
check() {
    local name=$1 ranks=$2 vars=$3 disjoint=
    shift 3
    if [ "${1:-}" = --disjoint ]; then
        disjoint=--disjoint
        shift
    fi
    [ "${1:-}" = -- ] && shift
    local threads=-
    for v in $vars; do
        case "$v" in OMP_NUM_THREADS=*) threads=${v#OMP_NUM_THREADS=} ;; esac
    done
    if ! env $vars OMP_DISPLAY_AFFINITY=true \
        OMP_AFFINITY_FORMAT='DISPLAY pid=%P thread=%n of=%N cpus=%A' \
        bash "$run" "$mpiexec" "$runtime" "$libdir" "$ranks" "$threads" "$@" -- \
        /bin/sh -c "$note_cpus" "$prog" $disjoint >"$tmp/out" 2>"$tmp/err"; then
        echo "FAIL: $name (mpirun -np $ranks $*, $vars):"
        grep -v '^DISPLAY' "$tmp/err" | head -20
        fail=1
        return
    fi
    # The program's lines and the runtime's display lines, as sets.  A team
    # of one thread displays nothing (libgomp's rule, which xomp follows).
    grep '^THREAD ' "$tmp/out" | sed 's/^THREAD //' | grep -v ' of=1 ' | sort >"$tmp/seen"
    grep -h '^DISPLAY ' "$tmp/out" "$tmp/err" | sed 's/^DISPLAY //' | sort >"$tmp/shown"
    if [ "$(grep -c '^THREAD ' "$tmp/out")" -eq 0 ] || ! cmp -s "$tmp/seen" "$tmp/shown"; then
        echo "FAIL: $name: OMP_DISPLAY_AFFINITY lines differ from the threads' own view"
        diff "$tmp/seen" "$tmp/shown" | head -10
        fail=1
        return
    fi
    echo "ok: $name: mpirun -np $ranks $* ${vars:+($vars)}:" \
        "$(grep '^RANK ' "$tmp/out" | sort | cut -d' ' -f2- | paste -sd';')"
}

check "bind none, default team" 2 "" -- --bind-to none
check "bind none, 4 ranks" 4 "" -- --bind-to none
check "bind none, spread over cores" 2 "OMP_PLACES=cores OMP_PROC_BIND=spread" -- --bind-to none
check "bind socket" 2 "" -- --bind-to socket
if [ "$ncpu" -ge 2 ]; then
    check "bind core: 2 ranks x 1 core" 2 "" --disjoint -- --bind-to core
    check "bind core, 2 threads on the rank's core" 2 \
        "OMP_NUM_THREADS=2 OMP_PLACES=threads OMP_PROC_BIND=close" --disjoint -- --bind-to core
    check "bind core, master binding" 2 "OMP_PLACES=cores OMP_PROC_BIND=master" --disjoint -- \
        --bind-to core
    check "ppr:2:node:pe=1" 2 "" --disjoint -- --map-by ppr:2:node:pe=1
    check "ppr:1:node:pe=2, close" 1 "OMP_PLACES=cores OMP_PROC_BIND=close" -- \
        --map-by ppr:1:node:pe=2
    check "ppr:1:node:pe=2, default team" 1 "" -- --map-by ppr:1:node:pe=2
fi
exit $fail
