# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Sourced by the load-balancing tests: read the totals that XOMP_STATS=1
# prints at exit ("xomp stats:   COUNT  NAME  text") and check that they add
# up, and run a test program under a strategy with those checks (dlb_run).

# stat FILE NAME: the total of counter NAME in FILE (0 if absent).
stat() {
    awk -v name="$2" '$1 == "xomp" && $2 == "stats:" && $4 == name { print $3; found = 1 }
                      END { if (!found) print 0 }' "$1"
}

# check_stats FILE STRATEGY: the identities every run must satisfy.  Prints
# one line per broken identity and returns 1 if any broke.
check_stats() {
    local f=$1 dlb=$2 ok=0 name
    local created run self local_ remote sent handled with empty full stolen sl sr
    # shellcheck disable=SC2034 # read through the name
    for name in created:tasks_created run:tasks_run self:run_self local_:run_local \
        remote:run_remote sent:req_sent handled:req_handled with:req_with_steal \
        empty:req_src_empty full:req_target_full stolen:tasks_stolen sl:stolen_local \
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
    [ "$handled" -le "$sent" ] || { echo "requests handled $handled > sent $sent"; ok=1; }
    [ $((with + empty + full)) -eq "$handled" ] ||
        { echo "with steal $with + empty $empty + full $full != handled $handled"; ok=1; }
    [ $((sl + sr)) -eq "$stolen" ] ||
        { echo "stolen local $sl + remote $sr != stolen $stolen"; ok=1; }
    [ "$with" -le "$stolen" ] || { echo "requests with steal $with > tasks stolen $stolen"; ok=1; }
    if [ "$dlb" = none ] && [ $((sent + handled + stolen)) -ne 0 ]; then
        echo "XOMP_DLB=none, yet requests were sent ($sent) or tasks stolen ($stolen)"
        ok=1
    fi
    return $ok
}

# dlb_run PROG STRATEGY [VAR=VALUE...]: run test program PROG of the build
# directory $build on xomp with XOMP_DLB=STRATEGY, XOMP_STATS=1 and the
# given settings, its output in $out.  A failure (exit status, a hang
# caught by `timeout`, or counters that do not add up) is printed and
# counted in $failed; $runs counts the runs.  Returns 1 on a failure.
dlb_run() {
    local prog=$1 dlb=$2
    shift 2
    runs=$((runs + 1))
    if ! env "$@" XOMP_DLB="$dlb" XOMP_STATS=1 LD_LIBRARY_PATH="$build/lib" \
            XOMP_TEST_RUNTIME=xomp timeout 300 "$build/tests/$prog" >"$out" 2>&1; then
        echo "FAILED (exit or hang): XOMP_DLB=$dlb $* $prog"
        grep -v '^xomp stats' "$out" | tail -5
        failed=$((failed + 1))
        return 1
    fi
    local why
    if ! why=$(check_stats "$out" "$dlb"); then
        echo "FAILED (counters): XOMP_DLB=$dlb $* $prog"
        echo "$why" | sed 's/^/  /'
        failed=$((failed + 1))
        return 1
    fi
}
