#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# OMP_DISPLAY_ENV=verbose shows the same values on xomp and on the system
# libgomp, for settings that programs and scripts written for libgomp use:
# the ways of writing OMP_SCHEDULE (modifiers, blanks, a chunk of 0, auto
# with a chunk), OMP_PROC_BIND lists (master/primary), OMP_PLACES lists
# (shown as libgomp shows them: {0:2} for consecutive CPUs),
# GOMP_CPU_AFFINITY, numbers with a '+'.  (Not compared: OMP_PLACES with
# OMP_PROC_BIND=false, where libgomp drops the places and xomp keeps them,
# unbound.)  Compared: every line of the block
# but xomp's own (XOMP*), the banner and _OPENMP, and GOMP_SPINCOUNT (xomp
# counts its spin in time, libgomp in iterations); and whether each run
# warns at all (the wording differs).  Places are made from the CPUs the
# process may use, so the test needs no particular machine.  Needs the
# system libgomp: skipped under a sanitizer build.
# Usage: display_env_gomp.sh BUILD_DIR
set -u

. "$(dirname "$0")/lib/setup.sh" "$@"

if [ -n "${XOMP_SANITIZE:-}" ]; then
    echo "skipped under XOMP_SANITIZE (the system libgomp runs the reference)"
    exit 0
fi

cat >"$tmp/prog.c" <<'PROG'
#include <omp.h>

int main(void)
{
    int n = 0;
#pragma omp parallel reduction(+ : n)
    n++;
    return n == omp_get_max_threads() ? 0 : 1;
}
PROG
build_prog -fopenmp -O1

# The process's CPUs (a taskset or cgroup may have narrowed them).
cpus=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status)
first=${cpus%%[-,]*}
list=""
IFS=, read -ra parts <<<"$cpus"
for part in "${parts[@]}"; do
    lo=${part%-*}
    hi=${part#*-}
    for ((c = lo; c <= hi; c++)); do
        list+="$c "
    done
done
set -- $list
second=${2:-$first}
places_one="{$first}"
places_pair="{$first,$second}"
places_each=$(for c in $list; do printf '{%s},' "$c"; done)
places_each=${places_each%,}
affinity_reversed=$(echo $list | tr ' ' '\n' | tac | tr '\n' ' ')

settings=(
    "OMP_SCHEDULE=static,0"
    "OMP_SCHEDULE=dynamic,0"
    "OMP_SCHEDULE=auto,5"
    "OMP_SCHEDULE=monotonic:static"
    "OMP_SCHEDULE=nonmonotonic:static,3"
    "OMP_SCHEDULE=monotonic : guided,2"
    "OMP_SCHEDULE=nonmonotonic:dynamic,4"
    "OMP_SCHEDULE= static , 4"
    "OMP_NUM_THREADS=+3"
    "OMP_NUM_THREADS=3,2,1"
    "OMP_PROC_BIND=primary"
    "OMP_PROC_BIND=master,close"
    "OMP_PROC_BIND=spread, close"
    "OMP_PLACES=$places_one"
    "OMP_PLACES=$places_pair"
    "OMP_PLACES=$places_each"
    "GOMP_CPU_AFFINITY=$affinity_reversed"
    "GOMP_CPU_AFFINITY=$first-$second"
    "GOMP_CPU_AFFINITY=$first OMP_PROC_BIND=false"
    "GOMP_CPU_AFFINITY=$first OMP_PLACES=$places_pair"
    "OMP_MAX_ACTIVE_LEVELS=300 OMP_THREAD_LIMIT=4 OMP_DYNAMIC=true"
    "OMP_STACKSIZE=2 M OMP_WAIT_POLICY=passive"
)

# block RUNTIME SETTING: the compared lines of the block, then "warned"
# when the run wrote anything else on stderr.
block() {
    local runtime=$1 setting=$2 args=() word
    local unset_args=()
    for v in $(env | sed -n 's/^\(\(OMP\|GOMP\|XOMP\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
        unset_args+=(-u "$v")
    done
    # Split the setting into VAR=value words at the blanks that precede a
    # new variable, so that values may hold blanks.
    while read -r word; do
        [ -n "$word" ] && args+=("$word")
    done < <(echo "$setting" | sed -E 's/ ((OMP|GOMP)_[A-Z_]+=)/\n\1/g')
    local route=(-u LD_LIBRARY_PATH -u LD_PRELOAD)
    [ "$runtime" = xomp ] && route+=(LD_LIBRARY_PATH="$lib")
    env "${unset_args[@]}" "${route[@]}" OMP_DISPLAY_ENV=verbose "${args[@]}" "$tmp/prog" \
        2>"$tmp/err.$runtime" >/dev/null
    sed -n '/OPENMP DISPLAY ENVIRONMENT BEGIN/,/OPENMP DISPLAY ENVIRONMENT END/p' \
        "$tmp/err.$runtime" |
        grep -v -e 'XOMP' -e '_OPENMP' -e 'GOMP_SPINCOUNT' -e 'OMP_TOOL' -e 'DISPLAY ENVIRONMENT' |
        sort
    if sed '/OPENMP DISPLAY ENVIRONMENT BEGIN/,/OPENMP DISPLAY ENVIRONMENT END/d' \
        "$tmp/err.$runtime" | grep -q '[^[:space:]]'; then
        echo warned
    fi
}

for setting in "${settings[@]}"; do
    gomp=$(block gomp "$setting")
    xomp=$(block xomp "$setting")
    if [ "$gomp" = "$xomp" ]; then
        echo "ok   $setting"
    else
        bad "$setting: xomp's block differs from libgomp's:"
        diff <(echo "$gomp") <(echo "$xomp") | sed -n 's/^</  libgomp:/p; s/^>/  xomp:   /p'
    fi
done

if [ $fail -ne 0 ]; then
    echo "FAIL: some settings show differently from libgomp"
    exit 1
fi
echo "all settings show as on libgomp"
