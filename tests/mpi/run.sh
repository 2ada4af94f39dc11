#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Start an MPI + OpenMP test program with mpirun on one OpenMP runtime.
#
#   run.sh MPIEXEC RUNTIME LIBDIR RANKS THREADS [MPIRUN OPTION...] -- PROGRAM [ARG...]
#   run.sh --skip REASON
#
# MPIEXEC   mpirun (Open MPI's; CMake's MPIEXEC_EXECUTABLE)
# RUNTIME   xomp (LIBDIR/libgomp.so.1 on LD_LIBRARY_PATH), preload
#           (LD_PRELOAD=LIBDIR/libgomp.so.1) or gomp (the system libgomp);
#           XOMP_TEST_RUNTIME tells each rank which one it must be on
# RANKS     mpirun -np
# THREADS   OMP_NUM_THREADS for every rank, or - to leave it unset (the
#           runtime then sizes the team from the rank's CPUs)
# MPIRUN OPTION  extra mpirun options: --bind-to core, --map-by ...; without
#           one, --bind-to none
#
# Every run gets --oversubscribe (the CI machine has 2 cores; 4 ranks or
# 2 ranks x 2 threads oversubscribe it) and mpi_yield_when_idle (below).  The variables are given to the
# ranks with -x NAME=VALUE, so mpirun itself never loads an OpenMP runtime.
# As root (the CI runs as root), and only then, mpirun needs
# --allow-run-as-root, which this script adds.
#
# `--skip REASON` prints REASON and exits 77, CTest's SKIP_RETURN_CODE for
# these tests: CMake registers the tests that way when it finds no MPI, so
# they show as skipped, never as passed.
set -u

if [ "${1:-}" = "--skip" ]; then
    echo "SKIP: ${2:-MPI not found}"
    exit 77
fi
if [ $# -lt 7 ]; then
    echo "usage: $0 MPIEXEC RUNTIME LIBDIR RANKS THREADS [MPIRUN OPTION...] -- PROGRAM [ARG...]" >&2
    exit 2
fi
mpiexec=$1 runtime=$2 libdir=$3 ranks=$4 threads=$5
shift 5
opts=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    opts+=("$1")
    shift
done
[ "${1:-}" = "--" ] && shift
if [ $# -lt 1 ]; then
    echo "run.sh: no program after --" >&2
    exit 2
fi

env_vars=(XOMP_TEST_RUNTIME=$runtime)
case "$runtime" in
xomp) env_vars+=("LD_LIBRARY_PATH=$libdir${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}") ;;
preload)
    # Under AddressSanitizer its runtime must come first (README).
    pre="$libdir/libgomp.so.1"
    if [ "${XOMP_SANITIZE:-}" = address ]; then
        pre="$(${CC:-gcc} -print-file-name=libasan.so) $pre"
    fi
    env_vars=(XOMP_TEST_RUNTIME=xomp "LD_PRELOAD=$pre")
    ;;
gomp) ;;
*)
    echo "run.sh: unknown runtime '$runtime' (xomp, preload or gomp)" >&2
    exit 2
    ;;
esac
[ "$threads" != - ] && env_vars+=("OMP_NUM_THREADS=$threads")
# Under AddressSanitizer, Open MPI's own allocations that it never frees
# (about 120 KB in 3,400 blocks at MPI_Finalize, the same for an MPI program
# with no OpenMP at all, many from components it has dlclose'd, so that no
# suppression can name them) would fail every run at exit: leak detection is
# off for these tests (the other tests check xomp for leaks); every other
# AddressSanitizer check stays on.
if [ "${XOMP_SANITIZE:-}" = address ]; then
    export ASAN_OPTIONS="detect_leaks=0${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
fi
# Variables the caller set for the program (OMP_*, XOMP_*, GOMP_*, the
# tests' own XOMP_TEST_*, sanitizer options) travel too.
while IFS='=' read -r name _; do
    case "$name" in
    OMP_NUM_THREADS | XOMP_TEST_RUNTIME) ;;
    OMP_* | XOMP_* | GOMP_* | TSAN_OPTIONS | ASAN_OPTIONS | UBSAN_OPTIONS | MALLOC_PERTURB_)
        env_vars+=("$name=${!name}") ;;
    esac
done < <(env)

# Open MPI's blocking calls poll; with more busy threads than cores (4
# ranks, or ranks x threads above the cores, or a loaded CI machine) a rank
# polling for a message from a rank that is not running would burn its
# time slice: let it yield instead.
launch=(--oversubscribe --mca mpi_yield_when_idle 1)
# Open MPI refuses to start as root unless told; only the root user needs it.
[ "$(id -u)" -eq 0 ] && launch+=(--allow-run-as-root)
have_binding=0
for o in "${opts[@]}"; do
    case "$o" in --bind-to | --map-by | --cpu-set | --rankfile) have_binding=1 ;; esac
done
[ $have_binding -eq 0 ] && launch+=(--bind-to none)
for v in "${env_vars[@]}"; do
    launch+=(-x "$v")
done

# A hang is caught by each program's watchdog (60 s); this is the backstop.
limit=${XOMP_MPI_TEST_TIMEOUT:-240}
exec timeout -k 10 "$limit" "$mpiexec" "${launch[@]}" -np "$ranks" "${opts[@]}" "$@"
