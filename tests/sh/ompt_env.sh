#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# How xomp finds and drives an OMPT tool (src/tool/ompt_init.c): OMP_TOOL
# (enabled, disabled, a bad value reported on one line), the search of
# OMP_TOOL_LIBRARIES in order (a missing file, a library without
# ompt_start_tool, one whose ompt_start_tool declines, then the tool),
# OMP_TOOL_VERBOSE_INIT (stdout, a file, a file that cannot be written), a
# tool whose initializer declines (no callback, no finalize), ompt_finalize_tool
# called early (finalize once, no callback after it), omp_control_tool's
# answers, and thread_end for every thread that began.
# Usage: ompt_env.sh BUILD_DIR
set -u

. "$(dirname "$0")/lib/setup.sh" "$@"

tools_h=$(for d in /usr/lib/llvm-*/lib/clang/*/include /usr/lib/llvm-*/include; do
    [ -e "$d/omp-tools.h" ] && echo "$d" && break; done)
if [ -z "$tools_h" ]; then
    echo "FAIL: omp-tools.h not found (libomp-14-dev)"
    exit 1
fi
san=""
if [ -n "${XOMP_SANITIZE:-}" ]; then
    san="-fsanitize=$XOMP_SANITIZE"
fi

# The tool: says what happens on stdout; TOOL_INIT=0 makes its
# initializer decline; command 99 of omp_control_tool makes it call
# ompt_finalize_tool.
cat >"$tmp/tool.c" <<'TOOL'
#include <omp-tools.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static _Atomic int begins, ends, regions;
static ompt_finalize_tool_t finalize_tool;

static void thread_begin(ompt_thread_t type, ompt_data_t *d) { begins++; }
static void thread_end(ompt_data_t *d) { ends++; }
static void parallel_begin(ompt_data_t *e, const ompt_frame_t *f, ompt_data_t *p, unsigned r,
                           int fl, const void *ra) { regions++; }
static int control(uint64_t command, uint64_t modifier, void *arg, const void *ra)
{
    if (command == 99) {
        finalize_tool();
        return 99;
    }
    return (int)command + 1000;
}
static int initialize(ompt_function_lookup_t lookup, int dev, ompt_data_t *data)
{
    printf("tool: initialize\n");
    ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
    finalize_tool = (ompt_finalize_tool_t)lookup("ompt_finalize_tool");
    set(ompt_callback_thread_begin, (ompt_callback_t)thread_begin);
    set(ompt_callback_thread_end, (ompt_callback_t)thread_end);
    set(ompt_callback_parallel_begin, (ompt_callback_t)parallel_begin);
    set(ompt_callback_control_tool, (ompt_callback_t)control);
    const char *v = getenv("TOOL_INIT");
    return !v || atoi(v);
}
static void finalize(ompt_data_t *data)
{
    printf("tool: finalize: %d thread_begin, %d thread_end, %d regions\n", begins, ends,
           regions);
    fflush(stdout);
}
ompt_start_tool_result_t *ompt_start_tool(unsigned version, const char *runtime)
{
    static ompt_start_tool_result_t r = {initialize, finalize, {0}};
    printf("tool: ompt_start_tool(%u, %s)\n", version, runtime);
    return &r;
}
TOOL
cat >"$tmp/declines.c" <<'TOOL'
#include <omp-tools.h>
#include <stdio.h>
ompt_start_tool_result_t *ompt_start_tool(unsigned version, const char *runtime)
{
    printf("declines: ompt_start_tool\n");
    return NULL;
}
TOOL
echo "int not_a_tool = 1;" >"$tmp/notool.c"
for t in tool declines notool; do
    if ! gcc -shared -fPIC -O1 $san -idirafter "$tools_h" "$tmp/$t.c" -o "$tmp/$t.so"; then
        echo "FAIL: cannot build $t.so"
        exit 1
    fi
done

cat >"$tmp/prog.c" <<'PROG'
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
int omp_control_tool(int command, int modifier, void *arg) __attribute__((weak));
int main(void)
{
    printf("control(64) = %d\n", omp_control_tool ? omp_control_tool(64, 0, NULL) : -99);
    int members = 0;
    for (int i = 0; i < 3; i++) {
#pragma omp parallel num_threads(3)
        {
#pragma omp atomic
            members += omp_get_thread_num() + 1;
        }
        if (i == 1 && getenv("FINALIZE_EARLY"))
            printf("control(99) = %d\n", omp_control_tool(99, 0, NULL));
    }
    printf("done\n");
    return members != 18;
}
PROG
build_prog -fopenmp -O1 $san

# run ENV...: the program on xomp with these variables; stdout+stderr in $out.
run() {
    out=$(env OMP_NUM_THREADS=3 LD_LIBRARY_PATH="$lib" "$@" "$tmp/prog" 2>&1)
    status=$?
    if [ $status -ne 0 ] || ! grep -q "^done$" <<<"$out"; then
        bad "$* -> status $status: $out"
    fi
}
has() { grep -qF -- "$1" <<<"$out" || bad "expected '$1' in: $out"; }
hasnt() { ! grep -qF -- "$1" <<<"$out" || bad "unexpected '$1' in: $out"; }

# A tool from OMP_TOOL_LIBRARIES: initialized, every thread ends, finalized.
run OMP_TOOL_LIBRARIES="$tmp/tool.so"
has "tool: ompt_start_tool(202111, xomp"
has "tool: initialize"
has "control(64) = 1064"
has "tool: finalize: 3 thread_begin, 3 thread_end, 3 regions"
[ "$(grep -c "tool: finalize" <<<"$out")" -eq 1 ] || bad "finalize not called once: $out"
hasnt "xomp:"

# OMP_TOOL=enabled is the default; disabled loads nothing.
run OMP_TOOL=enabled OMP_TOOL_LIBRARIES="$tmp/tool.so"
has "tool: initialize"
run OMP_TOOL=disabled OMP_TOOL_LIBRARIES="$tmp/tool.so"
hasnt "tool:"
has "control(64) = -2"
hasnt "xomp:"

# A bad OMP_TOOL: one line naming it, and no tool.
run OMP_TOOL=sometimes OMP_TOOL_LIBRARIES="$tmp/tool.so"
hasnt "tool:"
[ "$(grep "^xomp: " <<<"$out" | grep -c "OMP_TOOL\b.*sometimes\|sometimes.*OMP_TOOL\b")" -eq 1 ] ||
    bad "expected one xomp: line about OMP_TOOL=sometimes: $out"

# The search goes on past a missing file, a library without the entry and
# one that declines, and stops at the first tool.
run OMP_TOOL_LIBRARIES="$tmp/missing.so:$tmp/notool.so:$tmp/declines.so:$tmp/tool.so:$tmp/declines.so" \
    OMP_TOOL_VERBOSE_INIT=stdout
has "declines: ompt_start_tool"
[ "$(grep -c "declines: ompt_start_tool" <<<"$out")" -eq 1 ] || bad "searched past the tool: $out"
has "Opening $tmp/missing.so... Failed"
has "Searching for ompt_start_tool in $tmp/notool.so... Failed"
has "Found but not using the OMPT interface."
has "Tool was started and is using the OMPT interface."
has "tool: finalize"

# Verbose output into a file; a file that cannot be written: one line, and
# the log on stderr.
run OMP_TOOL_LIBRARIES="$tmp/tool.so" OMP_TOOL_VERBOSE_INIT="$tmp/verbose.log"
grep -q "Tool was started" "$tmp/verbose.log" || bad "no log in OMP_TOOL_VERBOSE_INIT's file"
hasnt "START LOGGING"
run OMP_TOOL_LIBRARIES="$tmp/tool.so" OMP_TOOL_VERBOSE_INIT="$tmp/no/such/dir/log"
[ "$(grep -c "^xomp: .*OMP_TOOL_VERBOSE_INIT" <<<"$out")" -eq 1 ] ||
    bad "expected one xomp: line about OMP_TOOL_VERBOSE_INIT: $out"
has "START LOGGING"

# No tool at all: the search says so, and omp_control_tool answers -2.
run OMP_TOOL_VERBOSE_INIT=stdout
has "No OMP_TOOL_LIBRARIES defined."
has "No OMP tool loaded."
has "control(64) = -2"

# An initializer that declines: no callback, no finalize, "no tool".
run OMP_TOOL_LIBRARIES="$tmp/tool.so" TOOL_INIT=0
has "tool: initialize"
has "control(64) = -2"
hasnt "tool: finalize"

# ompt_finalize_tool during the program: finalized there, once; the later
# regions cause no callback.
run OMP_TOOL_LIBRARIES="$tmp/tool.so" FINALIZE_EARLY=1
has "tool: finalize: 3 thread_begin, 3 thread_end, 2 regions"
has "control(99) = 99"
[ "$(grep -c "tool: finalize" <<<"$out")" -eq 1 ] || bad "finalize not called once: $out"

exit $fail
