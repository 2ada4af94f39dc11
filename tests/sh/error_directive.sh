#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# The error directive at execution time (GOMP_warning, GOMP_error), on xomp
# (LD_LIBRARY_PATH=BUILD_DIR/lib) and, as the reference, on the system
# libgomp: severity(warning) prints "PREFIX: error directive encountered:
# MSG" (or without ": MSG" when there is no message) and the program goes
# on; severity(fatal) prints "PREFIX: fatal error: error directive
# encountered: MSG" and exits with status 1 after the atexit handlers.  A
# message with an explicit length (Fortran) prints exactly that many bytes.
# PREFIX is xomp or libgomp; the messages must otherwise be identical.
# Usage: error_directive.sh BUILD_DIR
set -u

. "$(dirname "$0")/lib/setup.sh" "$@"

cat >"$tmp/prog.c" <<'PROG'
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void GOMP_warning(const char *msg, size_t msglen);

static void goodbye(void)
{
    printf("atexit ran\n");
}

int main(int argc, char **argv)
{
    atexit(goodbye);
    const char *dynamic = argc > 2 ? argv[2] : "from a variable";
#pragma omp error at(execution) severity(warning) message("a static warning")
#pragma omp error at(execution) severity(warning) message(dynamic)
#pragma omp error at(execution) severity(warning)
    GOMP_warning("fortran-style message, not terminated here", 21);
    int count = 0;
#pragma omp parallel num_threads(2) reduction(+ : count)
    {
        count++;
        /* One at a time: libgomp prints a message in three pieces. */
#pragma omp critical
        {
#pragma omp error at(execution) severity(warning) message("from a team")
        }
    }
    printf("after the warnings, team of %d\n", count);
    fflush(stdout);
    if (argc > 1 && !strcmp(argv[1], "fatal")) {
#pragma omp error at(execution) severity(fatal) message("stop here")
    }
    if (argc > 1 && !strcmp(argv[1], "fatal-in-parallel")) {
#pragma omp parallel num_threads(2)
        {
#pragma omp master
            {
#pragma omp error at(execution) severity(fatal)
            }
        }
    }
    printf("end reached\n");
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
    echo "  stdout: $(cat "$tmp/$2.out" 2>/dev/null)"
    sed 's/^/  stderr: /' "$tmp/$2.err" 2>/dev/null
    fail=1
}

# run NAME LIBPATH ARGS...: stdout/stderr to $tmp/NAME.{out,err}; the
# messages, prefix removed and blank lines dropped, to $tmp/NAME.msg.
run() {
    local name=$1 libpath=$2
    shift 2
    local unset_args=() v
    for v in $(env | sed -n 's/^\(\(OMP\|GOMP\|XOMP\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
        unset_args+=(-u "$v")
    done
    env "${unset_args[@]}" LD_LIBRARY_PATH="$libpath" OMP_NUM_THREADS=2 "$tmp/prog" "$@" \
        >"$tmp/$name.out" 2>"$tmp/$name.err"
    local rc=$?
    sed -n 's/^\(xomp\|libgomp\): //p' "$tmp/$name.err" | sort >"$tmp/$name.msg"
    return $rc
}

expected_warnings="error directive encountered
error directive encountered: a static warning
error directive encountered: from a team
error directive encountered: from a team
error directive encountered: from a variable
error directive encountered: fortran-style message"

for mode in warning fatal fatal-in-parallel; do
    run "x-$mode" "$lib" "$mode"
    rc=$?
    want=$(echo "$expected_warnings" | sort)
    want_rc=0
    case $mode in
    fatal) want=$(printf '%s\n%s' "$want" "fatal error: error directive encountered: stop here" | sort)
        want_rc=1 ;;
    fatal-in-parallel) want=$(printf '%s\n%s' "$want" "fatal error: error directive encountered" | sort)
        want_rc=1 ;;
    esac
    if [ $rc -ne $want_rc ]; then
        bad "$mode: exit status $rc, expected $want_rc" "x-$mode"
    elif [ "$(cat "$tmp/x-$mode.msg")" != "$want" ]; then
        bad "$mode: messages differ from the expected ones" "x-$mode"
        diff <(echo "$want") "$tmp/x-$mode.msg" | sed 's/^/  /'
    elif ! grep -q '^after the warnings, team of 2$' "$tmp/x-$mode.out" ||
        ! grep -q '^atexit ran$' "$tmp/x-$mode.out" ||
        { [ $want_rc -ne 0 ] && grep -q 'end reached' "$tmp/x-$mode.out"; } ||
        { [ $want_rc -eq 0 ] && ! grep -q 'end reached' "$tmp/x-$mode.out"; }; then
        bad "$mode: wrong program output" "x-$mode"
    elif [ -z "${XOMP_SANITIZE:-}" ]; then
        run "g-$mode" "" "$mode"
        grc=$?
        if [ $grc -ne $rc ] || ! diff -q "$tmp/g-$mode.msg" "$tmp/x-$mode.msg" >/dev/null; then
            bad "$mode: libgomp differs (exit $grc)" "g-$mode"
            diff "$tmp/g-$mode.msg" "$tmp/x-$mode.msg" | sed 's/^/  /'
        else
            echo "ok   $mode: exit $rc, messages as libgomp's"
        fi
    else
        echo "ok   $mode: exit $rc"
    fi
done

if [ $fail -ne 0 ]; then
    echo "FAIL: some error directive checks failed"
    exit 1
fi
echo "all error directive checks passed"
