#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# OMP_TARGET_OFFLOAD with no offload device, on xomp
# (LD_LIBRARY_PATH=BUILD_DIR/lib) and, as the reference, on the system
# libgomp (GCC 12):
#   - DEFAULT, DISABLED and MANDATORY (any case) run target regions on the
#     host when they name the default device 0, the host (GCC 12 behaviour);
#   - MANDATORY with a target construct that names another device, or with
#     OMP_DEFAULT_DEVICE naming one, stops the program at that construct
#     with "OMP_TARGET_OFFLOAD is set to MANDATORY, but device not found";
#     without MANDATORY such constructs run on the host;
#   - OMP_DISPLAY_ENV shows the value; an invalid value gets one "xomp: "
#     line naming it and DEFAULT.
# Usage: target_offload.sh BUILD_DIR
set -u

. "$(dirname "$0")/lib/setup.sh" "$@"

cat >"$tmp/prog.c" <<'PROG'
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    int device = argc > 1 ? atoi(argv[1]) : -1; /* -1: no device clause */
    int x = 1;
    printf("start\n");
    fflush(stdout);
    if (device < 0) {
#pragma omp target map(tofrom : x)
        x += 1;
#pragma omp target data map(tofrom : x)
        x += 1;
    } else {
#pragma omp target map(tofrom : x) device(device)
        x += 1;
#pragma omp target data map(tofrom : x) device(device)
        x += 1;
    }
    printf("x=%d %s\n", x, x == 3 ? "ok" : "WRONG");
    return x == 3 ? 0 : 1;
}
PROG
cflags="-fopenmp -O1"
if [ -n "${XOMP_SANITIZE:-}" ]; then
    cflags="$cflags -fsanitize=$XOMP_SANITIZE"
fi
build_prog $cflags

fail=0
bad() {
    echo "FAIL: $*"
    echo "  stdout: $(cat "$tmp/out")"
    sed 's/^/  stderr: /' "$tmp/err"
    fail=1
}

# run LIBPATH VAR=value... -- ARGS
run() {
    local libpath=$1
    shift
    local unset_args=() v vars=()
    for v in $(env | sed -n 's/^\(\(OMP\|GOMP\|XOMP\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
        unset_args+=(-u "$v")
    done
    while [ "$1" != -- ]; do
        vars+=("$1")
        shift
    done
    shift
    env "${unset_args[@]}" LD_LIBRARY_PATH="$libpath" OMP_NUM_THREADS=2 "${vars[@]}" \
        "$tmp/prog" "$@" >"$tmp/out" 2>"$tmp/err"
}

runtimes=(xomp)
[ -z "${XOMP_SANITIZE:-}" ] && runtimes+=(gomp)
for runtime in "${runtimes[@]}"; do
    libpath=$lib
    [ "$runtime" = gomp ] && libpath=
    # VARS | ARGS | expected: ok or fatal
    while IFS='|' read -r vars args expect; do
        read -ra var_list <<<"$vars"
        read -ra arg_list <<<"$args"
        run "$libpath" "${var_list[@]}" -- "${arg_list[@]}"
        rc=$?
        what="$runtime: ${vars:-(no variable)} args '${args}'"
        if [ "$expect" = ok ]; then
            if [ $rc -ne 0 ] || ! grep -q ' ok$' "$tmp/out" || grep -qE '^(xomp|libgomp): ' "$tmp/err"; then
                bad "$what: expected to run on the host (rc $rc)"
            else
                echo "ok   $what: runs on the host"
            fi
        else
            if [ $rc -eq 0 ] || grep -q ' ok$' "$tmp/out" || ! grep -q '^start$' "$tmp/out" ||
                ! grep -qE '^(xomp|libgomp): OMP_TARGET_OFFLOAD is set to MANDATORY, but device not found$' "$tmp/err"; then
                bad "$what: expected the MANDATORY error at the first construct (rc $rc)"
            else
                echo "ok   $what: stopped (rc $rc): $(grep -E '^(xomp|libgomp): ' "$tmp/err")"
            fi
        fi
    done <<'CASES'
||ok
OMP_TARGET_OFFLOAD=DEFAULT||ok
OMP_TARGET_OFFLOAD=disabled||ok
OMP_TARGET_OFFLOAD=MANDATORY||ok
OMP_TARGET_OFFLOAD=Mandatory|0|ok
OMP_TARGET_OFFLOAD=DEFAULT|1|ok
OMP_TARGET_OFFLOAD=DISABLED|3|ok
OMP_TARGET_OFFLOAD=MANDATORY|1|fatal
OMP_TARGET_OFFLOAD=mandatory OMP_DEFAULT_DEVICE=2||fatal
CASES
done

run "$lib" OMP_DISPLAY_ENV=true OMP_TARGET_OFFLOAD=' mandatory ' --
if ! grep -q "^ *OMP_TARGET_OFFLOAD = 'MANDATORY'" "$tmp/err"; then
    bad "OMP_DISPLAY_ENV does not show OMP_TARGET_OFFLOAD = 'MANDATORY'"
else
    echo "ok   OMP_DISPLAY_ENV shows MANDATORY"
fi

run "$lib" OMP_TARGET_OFFLOAD=sometimes OMP_DISPLAY_ENV=true --
rc=$?
lines=$(grep -c '^xomp: ' "$tmp/err")
line=$(grep '^xomp: ' "$tmp/err" | head -n 1)
if [ $rc -ne 0 ] || [ "$lines" -ne 1 ] || [[ "$line" != *OMP_TARGET_OFFLOAD* ]] ||
    [[ "$line" != *"'sometimes'"* ]] || ! grep -q "OMP_TARGET_OFFLOAD = 'DEFAULT'" "$tmp/err"; then
    bad "OMP_TARGET_OFFLOAD=sometimes: expected one warning and DEFAULT"
else
    echo "ok   OMP_TARGET_OFFLOAD=sometimes -> $line"
fi

if [ $fail -ne 0 ]; then
    echo "FAIL: some OMP_TARGET_OFFLOAD checks failed"
    exit 1
fi
echo "all OMP_TARGET_OFFLOAD checks passed"
