#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Where libgomp warns or fails, xomp says as much (or more), and where
# libgomp goes on, xomp goes on:
#  - OMP_PLACES naming logical CPUs the machine does not have: one line
#    with "out of range" (libgomp: "Logical CPU number N out of range");
#  - omp_fulfill_event on an event fulfilled already -- right after the
#    first fulfilment while the task still runs, after the task completed,
#    after its storage went to a new detachable task -- or on a handle that
#    never was one: always exit status 1 with libgomp's "event is invalid or
#    has already been fulfilled!", never silence, never a crash;
#  - GOMP_taskgroup_end without a taskgroup of the task's own: returns (as
#    libgomp), with one line;
#  - an unknown XOMP_* variable: one line naming the nearest setting; none
#    for the settings OMP_DISPLAY_ENV lists;
#  - XOMP_PROFILE_EVENTS too large to get memory for: "lower", never
#    "raise" (not under sanitizers: they need the address space).
# Usage: libgomp_messages.sh BUILD_DIR
set -u

. "$(dirname "$0")/lib/setup.sh" "$@"

cat >"$tmp/prog.c" <<'PROG'
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

void GOMP_taskgroup_end(void);

static volatile int release_body;

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "region";
    int members = 0;
    if (!strcmp(mode, "region")) {
#pragma omp parallel reduction(+ : members)
        members++;
        printf("members=%d\n", members);
        return 0;
    }
    if (!strcmp(mode, "bogus")) {
        /* Handles that were never events. */
        omp_fulfill_event((omp_event_handle_t)strtoull(argv[2], NULL, 0));
        printf("returned\n");
        return 0;
    }
    if (!strcmp(mode, "taskgroup_end")) {
        int ran = 0;
#pragma omp parallel shared(ran)
#pragma omp single
        {
            GOMP_taskgroup_end(); /* no taskgroup at all */
#pragma omp taskgroup
            {
#pragma omp task shared(ran)
                {
                    /* Inside a taskgroup, but not one of this task's own. */
                    GOMP_taskgroup_end();
                    ran = 1;
                }
            }
        }
        printf("returned ran=%d\n", ran);
        return 0;
    }
#pragma omp parallel
#pragma omp single
    {
        omp_event_handle_t ev;
        if (!strcmp(mode, "twice_running")) {
            /* The second fulfilment while the task's body still runs. */
#pragma omp task detach(ev)
            while (!release_body)
                usleep(100);
            omp_fulfill_event(ev);
            omp_fulfill_event(ev);
            release_body = 1;
        } else if (!strcmp(mode, "twice_waited")) {
            /* The second fulfilment after the task completed. */
#pragma omp task detach(ev)
            {
            }
            omp_fulfill_event(ev);
#pragma omp taskwait
            omp_fulfill_event(ev);
        } else if (!strcmp(mode, "twice_done")) {
#pragma omp task detach(ev)
            {
            }
            omp_fulfill_event(ev);
#pragma omp taskwait
            /* Its storage may serve other tasks by now (libgomp crashes). */
            for (int i = 0; i < 100; i++) {
#pragma omp task
                members++;
            }
#pragma omp taskwait
            omp_fulfill_event(ev);
        } else if (!strcmp(mode, "stale")) {
            /* The old handle while a new detachable task is pending: it
             * must not fulfil the new one's event. */
#pragma omp task detach(ev)
            {
            }
            omp_fulfill_event(ev);
#pragma omp taskwait
            omp_event_handle_t fresh;
#pragma omp task detach(fresh)
            {
            }
            omp_fulfill_event(ev);
            omp_fulfill_event(fresh);
        }
    }
    printf("returned\n");
    return 0;
}
PROG
build_prog -fopenmp -O1 $sanitizer_cflags

# run OUT RUNTIME ENV... -- ARGS...: stdout and stderr of the program on
# xomp (library path) or the system libgomp, exit status in OUT.rc.
run() {
    local out=$1 runtime=$2
    shift 2
    local envs=()
    while [ $# -gt 0 ] && [ "$1" != -- ]; do
        envs+=("$1")
        shift
    done
    shift
    local loader=()
    [ "$runtime" = xomp ] && loader=(LD_LIBRARY_PATH="$lib")
    env "${loader[@]}" "${envs[@]}" timeout 60 "$tmp/prog" "$@" >"$out.out" 2>"$out.err"
    echo $? >"$out.rc"
}
libgomp_too=1
[ -n "${XOMP_SANITIZE:-}" ] && libgomp_too=0

# OMP_PLACES beyond the machine's CPUs (and beyond libgomp's CPU set, of
# at least 64, and xomp's, of 1024).
places="{0:$(($(getconf _NPROCESSORS_CONF) + 1100))}"
run "$tmp/p" xomp OMP_NUM_THREADS=2 "OMP_PLACES=$places" -- region
lines=$(grep -c '^xomp: ' "$tmp/p.err")
if [ "$(cat "$tmp/p.rc")" != 0 ] || ! grep -q '^members=2$' "$tmp/p.out"; then
    bad "OMP_PLACES=$places: the program failed: $(cat "$tmp/p.err")"
elif [ "$lines" != 1 ] || ! grep -q "OMP_PLACES.*out of range" "$tmp/p.err"; then
    bad "OMP_PLACES=$places: expected one line saying out of range, got: $(cat "$tmp/p.err")"
fi
if [ $libgomp_too = 1 ]; then
    run "$tmp/pg" gomp OMP_NUM_THREADS=2 "OMP_PLACES=$places" -- region
    grep -q "out of range" "$tmp/pg.err" ||
        bad "libgomp no longer says 'out of range' for OMP_PLACES=$places: $(cat "$tmp/pg.err")"
fi

# Double and stale fulfilments, many times over (the old check was silent
# in most runs).  The message is libgomp 12's; libgomp itself reads the
# freed task here and prints it in some runs, crashes in others.
fulfil_message="event is invalid or has already been fulfilled!"
for mode in twice_running twice_waited twice_done stale; do
    for threads in 2 4; do
        for rep in 1 2 3 4 5 6 7 8; do
            run "$tmp/f" xomp OMP_NUM_THREADS=$threads -- $mode
            rc=$(cat "$tmp/f.rc")
            lines=$(grep -c '^xomp: ' "$tmp/f.err")
            if [ "$rc" != 1 ] || [ "$lines" != 1 ] ||
                ! grep -q "^xomp: omp_fulfill_event: .* $fulfil_message\$" "$tmp/f.err"; then
                bad "$mode, $threads threads, run $rep: exit $rc, expected 1 and one line" \
                    "'$fulfil_message': $(cat "$tmp/f.err")"
                break 2
            fi
        done
    done
done
for handle in 0 0x1234 0xffffffffffffffff 0x7fff00000001 0x100000000; do
    run "$tmp/b" xomp OMP_NUM_THREADS=2 -- bogus $handle
    if [ "$(cat "$tmp/b.rc")" != 1 ] || ! grep -q "$fulfil_message" "$tmp/b.err"; then
        bad "omp_fulfill_event($handle): exit $(cat "$tmp/b.rc"), expected 1 and" \
            "'$fulfil_message': $(cat "$tmp/b.err")"
    fi
done

# GOMP_taskgroup_end with no taskgroup of its own: returns.
run "$tmp/t" xomp OMP_NUM_THREADS=2 -- taskgroup_end
if [ "$(cat "$tmp/t.rc")" != 0 ] || ! grep -q '^returned ran=1$' "$tmp/t.out"; then
    bad "GOMP_taskgroup_end without a start: exit $(cat "$tmp/t.rc"): $(cat "$tmp/t.err")"
elif [ "$(grep -c '^xomp: .*GOMP_taskgroup_end' "$tmp/t.err")" != 1 ]; then
    bad "GOMP_taskgroup_end without a start: expected one line: $(cat "$tmp/t.err")"
fi

# Unknown XOMP_* variables; every setting OMP_DISPLAY_ENV lists is known.
run "$tmp/u" xomp OMP_NUM_THREADS=2 XOMP_DLB_STEEL=2 -- region
if [ "$(cat "$tmp/u.rc")" != 0 ] || [ "$(grep -c '^xomp: ' "$tmp/u.err")" != 1 ] ||
    ! grep -q "XOMP_DLB_STEEL.*XOMP_DLB_STEAL" "$tmp/u.err"; then
    bad "XOMP_DLB_STEEL: expected one line naming XOMP_DLB_STEAL: $(cat "$tmp/u.err")"
fi
run "$tmp/d" xomp OMP_NUM_THREADS=2 OMP_DISPLAY_ENV=verbose -- region
settings=$(sed -n "s/^  \(XOMP_[A-Z_]*\) = .*/\1=1/p" "$tmp/d.out" "$tmp/d.err" | sort -u)
[ -n "$settings" ] || bad "OMP_DISPLAY_ENV=verbose lists no XOMP_ setting"
# shellcheck disable=SC2086
run "$tmp/k" xomp OMP_NUM_THREADS=2 $settings -- region
if grep -q "unknown environment variable" "$tmp/k.err"; then
    bad "a setting OMP_DISPLAY_ENV lists is unknown: $(grep unknown "$tmp/k.err")"
fi

# Event buffers too large for the memory there is.
if [ -z "${XOMP_SANITIZE:-}" ]; then
    (
        ulimit -v 2000000
        run "$tmp/m" xomp OMP_NUM_THREADS=2 XOMP_PROFILE=events XOMP_PROFILE_EVENTS=268435456 \
            XOMP_PROFILE_DIR="$tmp/profile" -- region
    )
    if [ "$(cat "$tmp/m.rc")" != 0 ] || ! grep -q "lower XOMP_PROFILE_EVENTS" "$tmp/m.err" ||
        grep -q "raise XOMP_PROFILE_EVENTS" "$tmp/m.err"; then
        bad "XOMP_PROFILE_EVENTS too large: expected 'lower' and no 'raise': $(cat "$tmp/m.err")"
    fi
fi

[ $fail = 0 ] && echo "ok: libgomp's diagnostics, or better"
exit $fail
