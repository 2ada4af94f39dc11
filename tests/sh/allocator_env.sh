#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# OMP_ALLOCATOR and the fatal allocation paths, on xomp
# (LD_LIBRARY_PATH=BUILD_DIR/lib):
#   - each predefined allocator name (any case, blanks around) becomes the
#     default allocator, and OMP_DISPLAY_ENV shows it;
#   - an invalid value gets exactly one "xomp: " line naming the variable
#     and the value, and omp_default_mem_alloc;
#   - a pool with fallback abort_fb that runs out, and GOMP_alloc (the
#     allocate clause) that cannot allocate, stop the program with
#     "Out of memory allocating N bytes" and a failure status; the same
#     happens on the system libgomp (its message prefix is "libgomp: ").
# Usage: allocator_env.sh BUILD_DIR
set -u

. "$(dirname "$0")/lib/setup.sh" "$@"

cat >"$tmp/prog.c" <<'PROG'
#include <omp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

void *GOMP_alloc(size_t alignment, size_t size, uintptr_t allocator);

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "default";
    if (!strcmp(mode, "default")) {
        int ok = 1;
#pragma omp parallel reduction(&& : ok)
        ok = omp_get_default_allocator() == omp_get_default_allocator();
        printf("default=%d %s\n", (int)omp_get_default_allocator(), ok ? "ok" : "WRONG");
        return 0;
    }
    omp_alloctrait_t traits[2] = {{omp_atk_pool_size, 4096},
                                  {omp_atk_fallback, omp_atv_abort_fb}};
    omp_allocator_handle_t a = omp_init_allocator(omp_default_mem_space, 2, traits);
    if (!strcmp(mode, "abort_fb")) {
        void *p = omp_alloc(1000, a);
        printf("first %s\n", p ? "ok" : "NULL");
        fflush(stdout);
        omp_alloc(5000, a); /* does not return */
        printf("returned from abort_fb\n");
        return 0;
    }
    traits[1].value = omp_atv_null_fb;
    omp_allocator_handle_t n = omp_init_allocator(omp_default_mem_space, 2, traits);
    printf("GOMP_alloc\n");
    fflush(stdout);
    GOMP_alloc(16, 8000, (uintptr_t)n); /* does not return */
    printf("returned from GOMP_alloc\n");
    return 0;
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

# run [--gomp] VAR=value... -- ARGS: the program with exactly these
# OpenMP-related variables, on xomp (or on the system libgomp).
run() {
    local libpath=$lib
    if [ "$1" = --gomp ]; then
        libpath=
        shift
    fi
    local unset_args=() v
    for v in $(env | sed -n 's/^\(\(OMP\|GOMP\|XOMP\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
        unset_args+=(-u "$v")
    done
    local vars=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        vars+=("$1")
        shift
    done
    shift
    env "${unset_args[@]}" LD_LIBRARY_PATH="$libpath" OMP_NUM_THREADS=2 "${vars[@]}" \
        "$tmp/prog" "$@" >"$tmp/out" 2>"$tmp/err"
}

names="omp_default_mem_alloc omp_large_cap_mem_alloc omp_const_mem_alloc omp_high_bw_mem_alloc
omp_low_lat_mem_alloc omp_cgroup_mem_alloc omp_pteam_mem_alloc omp_thread_mem_alloc"
handle=1
for name in $names; do
    for spelling in "$name" " ${name^^} "; do
        run "OMP_ALLOCATOR=$spelling" OMP_DISPLAY_ENV=true -- default
        if [ $? -ne 0 ] || ! grep -q "^default=$handle ok$" "$tmp/out"; then
            bad "OMP_ALLOCATOR='$spelling': expected default allocator $handle"
        elif grep -q '^xomp: ' "$tmp/err"; then
            bad "OMP_ALLOCATOR='$spelling': unexpected warning"
        elif ! grep -q "^ *OMP_ALLOCATOR = '$name'" "$tmp/err"; then
            bad "OMP_ALLOCATOR='$spelling': OMP_DISPLAY_ENV does not show '$name'"
        else
            echo "ok   OMP_ALLOCATOR='$spelling' -> $handle"
        fi
    done
    handle=$((handle + 1))
done

invalid=(bogus 3 omp_default_mem_space omp_default_mem_allocx "omp_thread_mem_alloc x")
for value in "${invalid[@]}"; do
    run "OMP_ALLOCATOR=$value" -- default
    rc=$?
    lines=$(grep -c '^xomp: ' "$tmp/err")
    line=$(grep '^xomp: ' "$tmp/err" | head -n 1)
    if [ $rc -ne 0 ] || ! grep -q '^default=1 ok$' "$tmp/out"; then
        bad "OMP_ALLOCATOR='$value': expected omp_default_mem_alloc"
    elif [ "$lines" -ne 1 ] || [[ "$line" != *OMP_ALLOCATOR* ]] || [[ "$line" != *"'$value'"* ]]; then
        bad "OMP_ALLOCATOR='$value': expected one warning naming it, got $lines"
    else
        echo "ok   OMP_ALLOCATOR='$value' -> $line"
    fi
done

# The fatal paths, on xomp and (as the reference) on libgomp.
runtimes=(xomp)
[ -z "${XOMP_SANITIZE:-}" ] && runtimes+=(gomp)
for runtime in "${runtimes[@]}"; do
    gomp_flag=()
    [ "$runtime" = gomp ] && gomp_flag=(--gomp)
    prefix=xomp
    [ "$runtime" = gomp ] && prefix=libgomp
    run "${gomp_flag[@]}" -- abort_fb
    rc=$?
    if [ $rc -eq 0 ] || ! grep -q '^first ok$' "$tmp/out" || grep -q returned "$tmp/out" ||
        ! grep -q "^$prefix: Out of memory allocating 5000 bytes$" "$tmp/err"; then
        bad "$runtime: abort_fb: expected 'Out of memory allocating 5000 bytes' and a failure (rc $rc)"
    else
        echo "ok   $runtime: abort_fb stops the program (rc $rc)"
    fi
    run "${gomp_flag[@]}" -- gomp_alloc
    rc=$?
    if [ $rc -eq 0 ] || grep -q returned "$tmp/out" ||
        ! grep -q "^$prefix: Out of memory allocating 8000 bytes$" "$tmp/err"; then
        bad "$runtime: GOMP_alloc: expected 'Out of memory allocating 8000 bytes' (rc $rc)"
    else
        echo "ok   $runtime: GOMP_alloc failure stops the program (rc $rc)"
    fi
done

if [ $fail -ne 0 ]; then
    echo "FAIL: some allocator checks failed"
    exit 1
fi
echo "all allocator environment checks passed"
