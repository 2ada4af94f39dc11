#!/bin/bash
# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
#
# Unloading: a program that does not use OpenMP dlopens a library that does,
# runs parallel regions with tasks in it and dlcloses it, again and again;
# and two threads do that with two such libraries at once, so that regions
# run while the other library is closed.  xomp (libxomp.so, the drop-in
# libgomp.so.1 and libxomp_boot.so are linked -z nodelete) must stay mapped
# while its pool threads live: no crash, every region right.  Both routes:
# the drop-in on the library path, and preloaded.  (The system libgomp
# crashes here.)  Usage: dlclose.sh BUILD_DIR
set -u

. "$(dirname "$0")/lib/setup.sh" "$@"

for l in libxomp.so libgomp.so.1 libxomp_boot.so; do
    readelf -d "$lib/$l" | grep -q 'FLAGS_1.*NODELETE' || bad "$l is not marked NODELETE"
done

cat >"$tmp/user.c" <<'LIB'
#include <omp.h>

/* A region of the requested size in which one member creates `ntasks`
 * tasks; returns the team size if every task ran once, else -1. */
int run_region(int ntasks)
{
    int members = 0, ran = 0;
#pragma omp parallel reduction(+ : members)
    {
        members++;
#pragma omp single
        for (int i = 0; i < ntasks; i++) {
#pragma omp task shared(ran)
#pragma omp atomic
            ran++;
        }
#pragma omp barrier
    }
    return ran == ntasks ? members : -1;
}
LIB

cat >"$tmp/prog.c" <<'PROG'
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *dir;
static int cycles;
/* Loading and unloading take turns (the loader orders them anyway, with a
 * lock ThreadSanitizer does not see); regions in one library still run
 * while the other is loaded or unloaded. */
static pthread_mutex_t loader = PTHREAD_MUTEX_INITIALIZER;

/* dlopen the library, run regions in it, dlclose it; `cycles` times.
 * Returns the number of failures. */
static int cycle(const char *name, const char **runtime)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int failures = 0;
    for (int c = 0; c < cycles; c++) {
        pthread_mutex_lock(&loader);
        void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
        if (!h) {
            fprintf(stderr, "dlopen %s: %s\n", path, dlerror());
            pthread_mutex_unlock(&loader);
            return failures + 1;
        }
        int (*run_region)(int) = (int (*)(int))dlsym(h, "run_region");
        /* Looked up through the library's dependencies: xomp if it ran. */
        if (runtime)
            *runtime = dlsym(h, "xomp_version") ? "xomp" : "gomp";
        pthread_mutex_unlock(&loader);
        for (int r = 0; r < 3; r++) {
            int got = run_region(50 + c);
            if (got < 1) {
                fprintf(stderr, "%s cycle %d: a task did not run exactly once\n", name, c);
                failures++;
            }
        }
        pthread_mutex_lock(&loader);
        if (dlclose(h)) {
            fprintf(stderr, "dlclose %s: %s\n", path, dlerror());
            failures++;
        }
        pthread_mutex_unlock(&loader);
        if (c % 4 == 3)
            usleep(2000); /* let the pool threads dock and sleep in between */
    }
    return failures;
}

static void *other(void *arg)
{
    return (void *)(long)cycle("libuser_b.so", NULL);
}

int main(int argc, char **argv)
{
    dir = argv[1];
    cycles = atoi(argv[2]);
    int concurrent = !strcmp(argv[3], "concurrent");
    const char *runtime = "?";
    pthread_t t;
    int failures = 0;
    if (concurrent && pthread_create(&t, NULL, other, NULL)) {
        fprintf(stderr, "pthread_create failed\n");
        return 1;
    }
    failures += cycle("libuser_a.so", &runtime);
    if (concurrent) {
        void *ret;
        pthread_join(t, &ret);
        failures += (int)(long)ret;
    }
    usleep(20000); /* pool threads spin, yield and sleep after the last close */
    printf("runtime=%s failures=%d\n", runtime, failures);
    return failures != 0;
}
PROG

cflags="-O1 $sanitizer_cflags"
for l in a b; do
    ${CC:-gcc} -fopenmp -fPIC -shared $cflags "$tmp/user.c" -o "$tmp/libuser_$l.so" ||
        { echo "FAIL: cannot build the library"; exit 1; }
done
# The program itself does not use OpenMP (no -fopenmp, no libgomp).
build_prog $cflags -pthread -ldl
if readelf -d "$tmp/prog" | grep -q libgomp; then
    bad "the program needs libgomp"
fi

for route in path preload; do
    for mode in serial concurrent; do
        for threads in 2 4; do
            label="$route, $mode, OMP_NUM_THREADS=$threads"
            if [ $route = path ]; then
                out=$(OMP_NUM_THREADS=$threads LD_LIBRARY_PATH="$lib" \
                    timeout 120 "$tmp/prog" "$tmp" 30 $mode 2>&1)
            else
                out=$(OMP_NUM_THREADS=$threads \
                    LD_PRELOAD="$(preload_value "$lib/libgomp.so.1")" \
                    timeout 120 "$tmp/prog" "$tmp" 30 $mode 2>&1)
            fi
            status=$?
            [ $status = 0 ] || bad "$label: exit status $status: $out"
            case "$out" in
            *"runtime=xomp failures=0"*) ;;
            *) bad "$label: expected runtime=xomp failures=0, got: $out" ;;
            esac
        done
    done
done

[ $fail = 0 ] && echo "ok: dlopen/dlclose of OpenMP libraries, both routes"
exit $fail
