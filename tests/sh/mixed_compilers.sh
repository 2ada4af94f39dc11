#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# One runtime for a process built by both compilers: a clang-built program
# (the LLVM ABI, libomp.so.5) calling a gcc-built library (the GOMP ABI,
# libgomp.so.1), on xomp through both drop-ins on LD_LIBRARY_PATH and
# through LD_PRELOAD=libxomp.so:
#   - their parallel regions run on the same pool threads;
#   - an ICV one side sets (omp_set_num_threads) is the other's;
#   - the gcc code, called inside a clang region, sees that region (level,
#     team size, thread number);
#   - tasks the gcc code creates are children of the clang task that
#     called it: clang's taskwait waits for them;
#   - a simple lock initialized by clang's code excludes gcc's.
# Usage: mixed_compilers.sh BUILD_DIR
set -u

. "$(dirname "$0")/lib/setup.sh" "$@"

clang=$(command -v clang-14 || command -v clang)
if [ -z "$clang" ]; then
    echo "FAIL: clang not found (Debian: clang-14, installed by ./xomp deps)"
    exit 1
fi
if [ -n "${XOMP_SANITIZE:-}" ]; then
    echo "skipped under the sanitizers (two compilers' instrumentation in one process)"
    exit 0
fi

cat >"$tmp/gcclib.c" <<'LIB'
#include <omp.h>
#include <pthread.h>

void g_record_threads(unsigned long *ids, int *n)
{
#pragma omp parallel
    {
        ids[omp_get_thread_num()] = (unsigned long)pthread_self();
#pragma omp single
        *n = omp_get_num_threads();
    }
}

int g_max_threads(void) { return omp_get_max_threads(); }
void g_set_threads(int n) { omp_set_num_threads(n); }
int g_level(void) { return omp_get_level(); }
int g_team_size(void) { return omp_get_num_threads(); }
int g_thread_num(void) { return omp_get_thread_num(); }

/* Tasks without a wait: the caller's taskwait must cover them. */
void g_spawn_tasks(int *counter, int n)
{
    for (int i = 0; i < n; i++) {
#pragma omp task shared(counter)
        {
            for (volatile int k = 0; k < 20000; k++) {
            }
            __atomic_add_fetch(counter, 1, __ATOMIC_RELAXED);
        }
    }
}

int g_test_lock(omp_lock_t *l)
{
    int got = omp_test_lock(l);
    if (got)
        omp_unset_lock(l);
    return got;
}
LIB

cat >"$tmp/prog.c" <<'PROG'
#include <dlfcn.h>
#include <omp.h>
#include <pthread.h>
#include <stdio.h>

void g_record_threads(unsigned long *ids, int *n);
int g_max_threads(void);
void g_set_threads(int n);
int g_level(void);
int g_team_size(void);
int g_thread_num(void);
void g_spawn_tasks(int *counter, int n);
int g_test_lock(omp_lock_t *l);

static int failures;
#define CHECK(c, ...) do { if (!(c)) { printf("FAIL: " __VA_ARGS__); printf("\n"); failures++; } } while (0)

int main(void)
{
    CHECK(dlsym(RTLD_DEFAULT, "xomp_version") != NULL, "not running on xomp");
    omp_set_num_threads(3);
    CHECK(g_max_threads() == 3, "gcc code sees max threads %d after clang set 3", g_max_threads());
    g_set_threads(2);
    CHECK(omp_get_max_threads() == 2, "clang code sees max threads %d after gcc set 2",
          omp_get_max_threads());

    unsigned long clang_ids[64] = {0}, gcc_ids[64] = {0};
    int clang_n = 0, gcc_n = 0;
#pragma omp parallel
    {
        clang_ids[omp_get_thread_num()] = (unsigned long)pthread_self();
#pragma omp single
        clang_n = omp_get_num_threads();
    }
    g_record_threads(gcc_ids, &gcc_n);
    CHECK(clang_n == 2 && gcc_n == 2, "team sizes %d (clang) and %d (gcc), expected 2", clang_n,
          gcc_n);
    int same = 0;
    for (int i = 0; i < clang_n; i++)
        for (int j = 0; j < gcc_n; j++)
            same += clang_ids[i] == gcc_ids[j];
    CHECK(same == clang_n, "only %d of %d threads are common to both regions: two pools", same,
          clang_n);

    int bad_view = 0, counter = 0;
#pragma omp parallel num_threads(2) shared(bad_view, counter)
    {
        if (g_level() != 1 || g_team_size() != omp_get_num_threads() ||
            g_thread_num() != omp_get_thread_num())
            __atomic_add_fetch(&bad_view, 1, __ATOMIC_RELAXED);
#pragma omp single
        {
            g_spawn_tasks(&counter, 200);
#pragma omp taskwait
            CHECK(__atomic_load_n(&counter, __ATOMIC_RELAXED) == 200,
                  "clang's taskwait returned with %d of the 200 tasks of gcc's code done",
                  counter);
        }
    }
    CHECK(bad_view == 0, "gcc code saw another region than the clang one calling it");

    omp_lock_t lock;
    omp_init_lock(&lock);
    omp_set_lock(&lock);
    CHECK(g_test_lock(&lock) == 0, "gcc code took a lock clang's code holds");
    omp_unset_lock(&lock);
    CHECK(g_test_lock(&lock) == 1, "gcc code could not take a free lock");
    omp_destroy_lock(&lock);
    if (!failures)
        printf("ok\n");
    return failures != 0;
}
PROG

if ! gcc -fopenmp -O2 -fPIC -shared "$tmp/gcclib.c" -o "$tmp/libgcclib.so"; then
    echo "FAIL: cannot build the gcc library"
    exit 1
fi
if ! "$clang" -fopenmp -O2 "$tmp/prog.c" -o "$tmp/prog" -L"$tmp" -lgcclib -ldl \
        -Wl,-rpath,"$tmp"; then
    echo "FAIL: cannot build the clang program"
    exit 1
fi

for route in library-path preload; do
    if [ $route = library-path ]; then
        out=$(LD_LIBRARY_PATH="$lib" "$tmp/prog" 2>&1)
    else
        out=$(LD_PRELOAD="$lib/libxomp.so" "$tmp/prog" 2>&1)
    fi
    rc=$?
    if [ $rc -ne 0 ] || [ "$out" != "ok" ]; then
        bad "$route: exit $rc: $out"
    else
        echo "ok: $route"
    fi
done
exit $fail
