#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# The three ways onto xomp behave the same with affinity settings:
#   path     LD_LIBRARY_PATH=BUILD_DIR/lib (lib/libgomp.so.1 is the drop-in);
#   dropin   LD_PRELOAD=BUILD_DIR/lib/libgomp.so.1 (the system libgomp is
#            not loaded: the drop-in's SONAME satisfies the program);
#   preload  LD_PRELOAD=BUILD_DIR/lib/libxomp.so (the system libgomp is
#            loaded too, and its constructor, which runs before xomp's,
#            binds the initial thread when asked to bind).
# A program prints omp_get_num_procs (xomp_cfg.ncpus, which also drives the
# oversubscription test), the default team size, the place list with
# omp_get_place_num_procs / _proc_ids, the initial thread's CPUs, each
# member's place and CPUs, and the size a dynamic team of 8 gets (bounded by
# the CPU count); with OMP_DISPLAY_AFFINITY=true its affinity lines.  For
# each setting (no binding, OMP_PROC_BIND=close/spread/true, OMP_PLACES=
# cores/threads/{0}:2, libgomp's GOMP_CPU_AFFINITY, OMP_DISPLAY_ENV=true)
# the three routes must print the same, both on the whole machine and under
# `taskset -c CPU` (a process the user narrowed to one CPU, which every
# route must respect: 1 CPU).  Also: the system libgomp is loaded exactly in the
# preload route (the case is really exercised); with no binding the initial
# thread runs on all the process's CPUs; xomp's OMP_DISPLAY_ENV block
# appears once on every route.  Under preload the system libgomp prints its
# own block first, from its constructor: nothing xomp does can stop that
# without editing the environment that libgomp reads (the dropin route is
# the way to a single block).  Every program checks it runs on xomp
# (XOMP_TEST_RUNTIME).  Usage: preload_affinity.sh BUILD_DIR
set -u

. "$(dirname "$0")/lib/setup.sh" "$@"

cat >"$tmp/prog.c" <<'PROG'
#include "xomp_test.h"

#include <sched.h>

static void print_cpus(const char *what, const cpu_set_t *set)
{
    printf("%s", what);
    for (int cpu = 0, n = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, set))
            printf("%s%d", n++ ? "," : " ", cpu);
    printf("\n");
}

int main(void)
{
    cpu_set_t initial;
    CHECK(sched_getaffinity(0, sizeof initial, &initial) == 0, "sched_getaffinity");

    /* A libgomp.so.1 that is not xomp (nor leads to it): the system's. */
    void *gomp = dlopen("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD);
    printf("system-libgomp %d\n", gomp && !dlsym(gomp, "xomp_version"));

    printf("procs %d\n", omp_get_num_procs());
    printf("max-threads %d\n", omp_get_max_threads());
    printf("proc-bind %d\n", (int)omp_get_proc_bind());
    int places = omp_get_num_places();
    printf("places %d\n", places);
    for (int p = 0; p < places; p++) {
        int n = omp_get_place_num_procs(p), ids[CPU_SETSIZE];
        omp_get_place_proc_ids(p, ids);
        printf("place %d procs %d:", p, n);
        for (int i = 0; i < n; i++)
            printf(" %d", ids[i]);
        printf("\n");
    }
    print_cpus("initial-thread", &initial);

    enum { MAX = 64 };
    static cpu_set_t member_cpus[MAX];
    static int member_place[MAX];
    int team = 0;
#pragma omp parallel
    {
        int id = omp_get_thread_num();
#pragma omp single
        team = omp_get_num_threads();
        if (id < MAX) {
            member_place[id] = omp_get_place_num();
            CHECK(sched_getaffinity(0, sizeof member_cpus[id], &member_cpus[id]) == 0,
                  "sched_getaffinity");
        }
    }
    printf("team %d\n", team);
    for (int i = 0; i < team && i < MAX; i++) {
        char what[64];
        snprintf(what, sizeof what, "member %d place %d cpus", i, member_place[i]);
        print_cpus(what, &member_cpus[i]);
    }

    int dynamic_team = 0;
    omp_set_dynamic(1);
#pragma omp parallel num_threads(8)
#pragma omp single
    dynamic_team = omp_get_num_threads();
    omp_set_dynamic(0);
    printf("dynamic-team-of-8 %d\n", dynamic_team);
    return test_result();
}
PROG
build_prog -fopenmp -O1 -I"$(dirname "$0")/../common" $sanitizer_cflags -ldl


# run OUT ROUTE TASKSET VAR=value...: the program on ROUTE (path, dropin,
# preload) with exactly these OpenMP variables, under `taskset -c TASKSET`
# unless TASKSET is "-"; stdout to OUT.out, stderr to OUT.err, and the
# part that must not depend on the route to OUT.cmp.
run() {
    local out=$1 route=$2 cpus=$3
    shift 3
    local unset_args=() v loader
    for v in $(env | sed -n 's/^\(\(OMP\|GOMP\|XOMP\)_[A-Za-z0-9_]*\)=.*/\1/p'); do
        unset_args+=(-u "$v")
    done
    case $route in
    path) loader=(LD_LIBRARY_PATH="$lib") ;;
    dropin) loader=(LD_PRELOAD="$(preload_value "$lib/libgomp.so.1")") ;;
    preload) loader=(LD_PRELOAD="$(preload_value "$lib/libxomp.so")") ;;
    esac
    local pin=()
    [ "$cpus" != - ] && pin=(taskset -c "$cpus")
    "${pin[@]}" env "${unset_args[@]}" -u LD_PRELOAD "${loader[@]}" XOMP_TEST_RUNTIME=xomp \
        "$@" "$tmp/prog" >"$out.out" 2>"$out.err"
    local rc=$?
    if [ $rc -ne 0 ]; then
        bad "$route ${pin[*]} $*: the program failed (exit $rc)"
        sed 's/^/  stderr: /' "$out.err"
    fi
    {
        grep -v '^system-libgomp ' "$out.out"
        # Members print their affinity lines concurrently: sorted.
        grep '^aff:' "$out.err" | sort
        grep '^xomp: ' "$out.err"
        # xomp's OMP_DISPLAY_ENV block (the one with the XOMP banner).
        awk '/OPENMP DISPLAY ENVIRONMENT BEGIN/ { n = NR; block = "" }
             n { block = block $0 "\n" }
             /OPENMP DISPLAY ENVIRONMENT END/ { if (block ~ /XOMP = /) printf "%s", block; n = 0 }' \
            "$out.err"
    } >"$out.cmp"
}

field() { # FILE NAME: the value of the stdout line "NAME value"
    sed -n "s/^$2 //p" "$1.out"
}

# The CPUs this test may use ("0-2,5" from /proc/self/status), one by one.
cpus_allowed() {
    local range
    for range in $(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/self/status | tr , ' '); do
        seq "${range%-*}" "${range#*-}"
    done
}
mapfile -t test_cpus < <(cpus_allowed)
ncpus=${#test_cpus[@]}
all_cpus=$(IFS=,; echo "${test_cpus[*]}")
first_cpu=${test_cpus[0]}
last_cpu=${test_cpus[$((ncpus - 1))]}
settings=(""
    "OMP_PROC_BIND=close"
    "OMP_PROC_BIND=spread"
    "OMP_PROC_BIND=true"
    "OMP_PLACES=cores"
    "OMP_PLACES=threads"
    "OMP_PLACES={0}:2"
    "OMP_PROC_BIND=false OMP_PLACES=cores"
    "GOMP_CPU_AFFINITY=$last_cpu"
    "OMP_PROC_BIND=close OMP_DISPLAY_AFFINITY=true OMP_AFFINITY_FORMAT=aff:%n:%a:%A"
    "OMP_DISPLAY_ENV=true OMP_PROC_BIND=spread OMP_PLACES=threads")
modes=(-)
if command -v taskset >/dev/null && taskset -c "$first_cpu" true 2>/dev/null; then
    modes+=("$first_cpu")
else
    echo "note: taskset unavailable: the narrowed-process cases are skipped"
fi

for mode in "${modes[@]}"; do
    if [ "$mode" = - ]; then
        want_procs=$ncpus want_cpus=$all_cpus label="whole machine"
    else
        want_procs=1 want_cpus=$mode label="taskset -c $mode"
    fi
    for setting in "${settings[@]}"; do
        what="$label, ${setting:-no binding}"
        ok=1
        for route in path dropin preload; do
            # shellcheck disable=SC2086
            run "$tmp/$route" "$route" "$mode" $setting
        done
        for route in dropin preload; do
            if ! diff "$tmp/path.cmp" "$tmp/$route.cmp" >"$tmp/diff"; then
                bad "$what: $route differs from path (< path, > $route)"
                sed 's/^/  /' "$tmp/diff"
                ok=0
            fi
        done
        for route in path dropin preload; do
            want=0
            [ $route = preload ] && want=1
            got=$(field "$tmp/$route" system-libgomp)
            if [ "$got" != $want ]; then
                bad "$what: $route: system libgomp loaded: $got, expected $want"
                ok=0
            fi
            if grep -q '^xomp: .*\(before xomp started\|give the initial thread\)' \
                "$tmp/$route.err"; then
                bad "$what: $route: $(grep '^xomp: ' "$tmp/$route.err" | head -n 1)"
                ok=0
            fi
        done
        out=$tmp/path
        procs=$(field "$out" procs)
        if [ "$procs" != "$want_procs" ]; then
            bad "$what: omp_get_num_procs() = $procs, expected $want_procs"
            ok=0
        fi
        if [ "$(field "$out" max-threads)" != "$want_procs" ] ||
            [ "$(field "$out" team)" != "$want_procs" ]; then
            bad "$what: default team of $(field "$out" team), expected $want_procs"
            ok=0
        fi
        if [ "$(field "$out" dynamic-team-of-8)" != "$want_procs" ]; then
            bad "$what: a dynamic team of 8 got $(field "$out" dynamic-team-of-8) threads," \
                "expected $want_procs (the CPU count)"
            ok=0
        fi
        binding=$(field "$out" proc-bind)
        if [ "$binding" = 0 ] && [ "$(field "$out" initial-thread)" != "$want_cpus" ]; then
            bad "$what: unbound initial thread on $(field "$out" initial-thread)," \
                "expected the process's CPUs $want_cpus"
            ok=0
        fi
        if [ "$mode" != - ] &&
            ! awk -v cpu="$mode" '/^member |^place .*:/ { if ($NF != cpu) exit 1 }' "$out.out"; then
            bad "$what: a member or place outside CPU $mode"
            ok=0
        fi
        # One line per member, none for a team of one (as libgomp).
        want_lines=$([ "$want_procs" -gt 1 ] && echo "$want_procs" || echo 0)
        if [[ "$setting" == *OMP_DISPLAY_AFFINITY* ]] &&
            [ "$(grep -c '^aff:' "$out.cmp")" != "$want_lines" ]; then
            bad "$what: $(grep -c '^aff:' "$out.cmp") affinity lines, expected $want_lines"
            ok=0
        fi
        if [[ "$setting" == *OMP_DISPLAY_ENV* ]]; then
            for route in path dropin preload; do
                blocks=$(grep -c 'OPENMP DISPLAY ENVIRONMENT BEGIN' "$tmp/$route.err")
                ours=$(grep -c "^  XOMP = '" "$tmp/$route.err")
                others=$((blocks - ours))
                if [ "$ours" != 1 ]; then
                    bad "$what: $route: xomp's OMP_DISPLAY_ENV block appears $ours times"
                    ok=0
                fi
                # The system libgomp's own block (preload only: its
                # constructor prints it before xomp starts).
                if [ "$others" -gt "$([ $route = preload ] && echo 1 || echo 0)" ]; then
                    bad "$what: $route: $others OMP_DISPLAY_ENV blocks other than xomp's"
                    ok=0
                fi
            done
            if [ "$ok" = 1 ]; then
                echo "ok   $what: xomp's block once on every route;" \
                    "the system libgomp's own: $((
                        $(grep -c 'ENVIRONMENT BEGIN' "$tmp/preload.err") - 1)) under preload"
            fi
        fi
        [ "$ok" = 1 ] && echo "ok   $what: $procs procs, team of $(field "$out" team)," \
            "$(field "$out" places) places, initial thread on $(field "$out" initial-thread);" \
            "the same on every route"
    done
done

if [ $fail -ne 0 ]; then
    echo "FAIL: some routes differ"
    exit 1
fi
echo "all preload/affinity checks passed"
