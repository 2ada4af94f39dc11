#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# OMP_DISPLAY_AFFINITY and OMP_AFFINITY_FORMAT on xomp
# (LD_LIBRARY_PATH=BUILD_DIR/lib).  A program runs a sequence of parallel
# regions (same size again, larger, one thread, nested); with
# OMP_DISPLAY_AFFINITY=true each member's line is printed when the team is
# formed or changes, as libgomp prints them: the lines must equal the
# system libgomp's, with and without OMP_PLACES/OMP_PROC_BIND (nested
# teams print concurrently, so lines are compared in sorted order between
# the program's own markers).  Also: =false prints nothing, the values
# appear in OMP_DISPLAY_ENV, and invalid values of both variables get one
# "xomp: " line each and do not stop the program.
# Usage: affinity_display.sh BUILD_DIR
set -u

. "$(dirname "$0")/lib/setup.sh" "$@"

cat >"$tmp/prog.c" <<'PROG'
#include <omp.h>
#include <stdio.h>

static void mark(const char *what)
{
    fprintf(stderr, "--- %s\n", what);
}

int main(void)
{
    int sum = 0;
    mark("2 threads");
#pragma omp parallel num_threads(2) reduction(+ : sum)
    sum += 1;
    mark("2 threads again");
#pragma omp parallel num_threads(2) reduction(+ : sum)
    sum += 1;
    mark("3 threads");
#pragma omp parallel num_threads(3) reduction(+ : sum)
    sum += 1;
    mark("1 thread");
#pragma omp parallel num_threads(1) reduction(+ : sum)
    sum += 1;
    mark("2 threads, nested 2");
#pragma omp parallel num_threads(2) reduction(+ : sum)
    {
        /* libgomp prints the outer lines from the members' live state
         * after starting them: wait until it has, before they change it. */
#pragma omp barrier
#pragma omp parallel num_threads(2) reduction(+ : sum)
        sum += 1;
    }
    mark("2 threads after nesting");
#pragma omp parallel num_threads(2) reduction(+ : sum)
    sum += 1;
    mark("end");
    int expected = 2 + 2 + 3 + 1 + 2 * (omp_get_max_active_levels() > 1 ? 2 : 1) + 2;
    printf("sum=%d %s\n", sum, sum == expected ? "ok" : "WRONG");
    return sum == expected ? 0 : 1;
}
PROG
cflags="-fopenmp -O1"
if [ -n "${XOMP_SANITIZE:-}" ]; then
    cflags="$cflags -fsanitize=$XOMP_SANITIZE"
fi
build_prog $cflags


# run OUT LIBPATH VAR=value...: the program with exactly these OpenMP
# variables; stderr to OUT.err, stdout to OUT.out.
run() {
    local out=$1 libpath=$2
    shift 2
    local unset_args=() v
    for v in $(env | sed -n 's/^\(\(OMP\|GOMP\|XOMP\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
        unset_args+=(-u "$v")
    done
    env "${unset_args[@]}" LD_LIBRARY_PATH="$libpath" "$@" "$tmp/prog" >"$out.out" 2>"$out.err"
    local rc=$?
    if [ $rc -ne 0 ] || ! grep -q ' ok$' "$out.out"; then
        bad "$*: the program failed (exit $rc)"
        sed 's/^/  stderr: /' "$out.err"
    fi
}

# Sort the lines between markers, so concurrent nested teams compare.
normalize() {
    awk '/^--- / { if (n) close(cmd); print; fflush(); cmd = "sort"; n = 1; next }
         { print | cmd }' "$1" |
        grep -v '^xomp: '
}

format='L%L n%n N%N a%a t%t T%T A%A'
settings=("OMP_MAX_ACTIVE_LEVELS=2"
    "OMP_MAX_ACTIVE_LEVELS=2 OMP_PLACES={0},{1} OMP_PROC_BIND=spread"
    "OMP_MAX_ACTIVE_LEVELS=2 OMP_PROC_BIND=close")
[ "$(nproc)" -lt 2 ] && settings=("OMP_MAX_ACTIVE_LEVELS=2")
for setting in "${settings[@]}"; do
    # shellcheck disable=SC2086
    run "$tmp/x" "$lib" OMP_DISPLAY_AFFINITY=true "OMP_AFFINITY_FORMAT=$format" $setting
    lines=$(grep -c '^L' "$tmp/x.err")
    if [ "$lines" -ne 11 ]; then
        bad "$setting: $lines affinity lines, expected 11 (2 + 3 + 2 + 2 x 2)"
        sed 's/^/  xomp: /' "$tmp/x.err"
    fi
    if [ -z "${XOMP_SANITIZE:-}" ]; then
        # shellcheck disable=SC2086
        run "$tmp/g" "" OMP_DISPLAY_AFFINITY=true "OMP_AFFINITY_FORMAT=$format" $setting
        if ! diff <(normalize "$tmp/g.err") <(normalize "$tmp/x.err") >"$tmp/diff"; then
            bad "$setting: the lines differ from libgomp's (< libgomp, > xomp)"
            sed 's/^/  /' "$tmp/diff"
            continue
        fi
    fi
    echo "ok   $setting: $lines lines$([ -z "${XOMP_SANITIZE:-}" ] && echo ", as libgomp")"
done

# The default format: "level %L thread %i affinity %A".
run "$tmp/d" "$lib" OMP_DISPLAY_AFFINITY=TRUE OMP_MAX_ACTIVE_LEVELS=2
if [ "$(grep -cE '^level [12] thread 0x[0-9a-f]+ affinity [0-9,-]+$' "$tmp/d.err")" -ne 11 ]; then
    bad "default format: expected 11 'level 1|2 thread 0x... affinity ...' lines"
    sed 's/^/  /' "$tmp/d.err"
else
    echo "ok   default format"
fi

run "$tmp/f" "$lib" OMP_DISPLAY_AFFINITY=false "OMP_AFFINITY_FORMAT=$format"
if grep -q '^L' "$tmp/f.err"; then
    bad "OMP_DISPLAY_AFFINITY=false printed lines"
else
    echo "ok   OMP_DISPLAY_AFFINITY=false prints nothing"
fi

run "$tmp/e" "$lib" OMP_DISPLAY_ENV=true OMP_DISPLAY_AFFINITY=true "OMP_AFFINITY_FORMAT=$format"
if ! grep -q "^ *OMP_DISPLAY_AFFINITY = 'TRUE'" "$tmp/e.err" ||
    ! grep -qF "  OMP_AFFINITY_FORMAT = '$format'" "$tmp/e.err"; then
    bad "OMP_DISPLAY_ENV does not show OMP_DISPLAY_AFFINITY/OMP_AFFINITY_FORMAT"
else
    echo "ok   OMP_DISPLAY_ENV shows both"
fi

for setting in "OMP_DISPLAY_AFFINITY=maybe" "OMP_AFFINITY_FORMAT=%Q" \
    "OMP_AFFINITY_FORMAT=x%05n" "OMP_AFFINITY_FORMAT=%.n" "OMP_AFFINITY_FORMAT=%{bogus}"; do
    run "$tmp/i" "$lib" OMP_DISPLAY_AFFINITY=true "$setting"
    name=${setting%%=*}
    value=${setting#*=}
    warnings=$(grep -c '^xomp: ' "$tmp/i.err")
    line=$(grep '^xomp: ' "$tmp/i.err" | head -n 1)
    if [ "$warnings" -ne 1 ] || [[ "$line" != *"$name"* ]] || [[ "$line" != *"'$value'"* ]]; then
        bad "$setting: expected one warning naming it, got: $line"
    else
        echo "ok   $setting -> $line"
    fi
done

if [ $fail -ne 0 ]; then
    echo "FAIL: some affinity display checks failed"
    exit 1
fi
echo "all affinity display checks passed"
