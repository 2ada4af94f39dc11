# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Sourced by the stealing tests: read the totals that XOMP_STATS=1 prints
# at exit ("xomp stats:   COUNT  NAME  text") and check that they add up,
# and run a test program with those checks (steal_run).

# stat FILE NAME: the total of counter NAME in FILE (0 if absent).
stat() {
    awk -v name="$2" '$1 == "xomp" && $2 == "stats:" && $4 == name { print $3; found = 1 }
                      END { if (!found) print 0 }' "$1"
}

# check_stats FILE: the identities every run must satisfy.  Prints one line
# per broken identity and returns 1 if any broke.
check_stats() {
    local f=$1 ok=0 name
    local created run self local_ remote steals stolen sl sr
    # shellcheck disable=SC2034 # read through the name
    for name in created:tasks_created run:tasks_run self:run_self local_:run_local \
        remote:run_remote steals:steals stolen:tasks_stolen sl:stolen_local \
        sr:stolen_remote; do
        printf -v "${name%%:*}" '%s' "$(stat "$f" "${name#*:}")"
    done
    if ! grep -q 'xomp stats: totals' "$f"; then
        echo "no XOMP_STATS totals in the output"
        return 1
    fi
    [ "$created" -eq "$run" ] || { echo "tasks created $created != tasks run $run"; ok=1; }
    [ $((self + local_ + remote)) -eq "$run" ] ||
        { echo "run self $self + local $local_ + remote $remote != tasks run $run"; ok=1; }
    [ $((sl + sr)) -eq "$stolen" ] ||
        { echo "stolen local $sl + remote $sr != stolen $stolen"; ok=1; }
    [ "$steals" -le "$stolen" ] || { echo "steals $steals > tasks stolen $stolen"; ok=1; }
    return $ok
}

# steal_run PROG [VAR=VALUE...]: run test program PROG of the build
# directory $build on xomp with XOMP_STATS=1 and the given settings, its
# output in $out.  A failure (exit status, a hang caught by `timeout`, or
# counters that do not add up) is printed and counted in $failed; $runs
# counts the runs.  Returns 1 on a failure.
steal_run() {
    local prog=$1
    shift
    runs=$((runs + 1))
    if ! env "$@" XOMP_STATS=1 LD_LIBRARY_PATH="$build/lib" \
            XOMP_TEST_RUNTIME=xomp timeout 300 "$build/tests/$prog" >"$out" 2>&1; then
        echo "FAILED (exit or hang): $* $prog"
        grep -v '^xomp stats' "$out" | tail -5
        failed=$((failed + 1))
        return 1
    fi
    local why
    if ! why=$(check_stats "$out"); then
        echo "FAILED (counters): $* $prog"
        echo "$why" | sed 's/^/  /'
        failed=$((failed + 1))
        return 1
    fi
}
