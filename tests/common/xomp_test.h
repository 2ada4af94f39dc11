/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared by the OpenMP test programs.  Each test is an ordinary
 * `gcc -fopenmp` program, most also a `clang -fopenmp` one; the test driver
 * runs it on xomp (through lib/libgomp.so.1 or lib/libomp.so.5 on
 * LD_LIBRARY_PATH, or LD_PRELOAD) and on the compiler's own runtime, the
 * system libgomp or LLVM libomp (a test that fails there is a wrong test).
 *
 * XOMP_TEST_RUNTIME names the runtime the test must be running on ("xomp",
 * "gomp", or "llvm" for LLVM libomp (a test built with clang or gcc run on
 * the system's libomp); default "xomp").  The check runs before main, so a
 * test that silently ran on the wrong runtime fails instead of passing.
 */
#ifndef XOMP_TEST_H
#define XOMP_TEST_H

#define _GNU_SOURCE
#include <dlfcn.h>
#include <omp.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

static inline int test_runtime_is_xomp(void)
{
    return dlsym(RTLD_DEFAULT, "xomp_version") != NULL;
}

/* LLVM's libomp: the LLVM entry points without xomp (a clang-built test
 * run on the system's libomp). */
static inline int test_runtime_is_libomp(void)
{
    return !test_runtime_is_xomp() && dlsym(RTLD_DEFAULT, "__kmpc_fork_call") != NULL;
}

/* What the compiler building the test can express.  The tests are also
 * built with clang (tests/CMakeLists.txt); a check that needs a construct
 * the compiler lacks or miscompiles is left out of that build, here in
 * one place with the reason. */
#if defined(__clang__) && __clang_major__ < 16
/* scope, the strict modifier of grainsize/num_tasks, thread_limit on
 * target: OpenMP 5.1, which clang 14 does not parse. */
#define XOMP_TEST_HAVE_OMP51 0
#else
#define XOMP_TEST_HAVE_OMP51 1
#endif
#if defined(__clang__)
/* firstprivate of a variable-length array on a task: clang rejects it. */
#define XOMP_TEST_HAVE_VLA_FIRSTPRIVATE 0
/* A region cancelled while other members run a loop with
 * reduction(task, ...): clang's code waits at the reduction's end for the
 * member that left (on libomp too). */
#define XOMP_TEST_HAVE_CANCELLED_TASK_REDUCTION 0
/* The alignment a task's firstprivates are sure to get: clang passes the
 * runtime only their size, and libomp and xomp align them to 64 bytes. */
#define XOMP_TEST_TASK_PRIVATE_ALIGN 64
/* lastprivate(conditional:): clang 14 treats it as a plain lastprivate
 * (the thread that ran the last iteration gives its value), on libomp as
 * well. */
#define XOMP_TEST_HAVE_CONDITIONAL_LASTPRIVATE 0
#else
#define XOMP_TEST_HAVE_VLA_FIRSTPRIVATE 1
#define XOMP_TEST_TASK_PRIVATE_ALIGN 4096
#define XOMP_TEST_HAVE_CANCELLED_TASK_REDUCTION 1
#define XOMP_TEST_HAVE_CONDITIONAL_LASTPRIVATE 1
#endif

/* Built with AddressSanitizer or ThreadSanitizer: tests use smaller sizes
 * and leave out memory bounds (the sanitizers' shadow memory and caches).
 * gcc says so with __SANITIZE_*__, clang 14 only through __has_feature. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define XOMP_TEST_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define XOMP_TEST_SANITIZED 1
#endif
#endif
#ifndef XOMP_TEST_SANITIZED
#define XOMP_TEST_SANITIZED 0
#endif

__attribute__((constructor)) static void xomp_test_check_runtime(void)
{
    const char *want = getenv("XOMP_TEST_RUNTIME");
    if (!want || !*want)
        want = "xomp";
    int on_xomp = test_runtime_is_xomp();
    if (strcmp(want, "xomp") == 0 && !on_xomp) {
        fprintf(stderr, "FAIL: this test must run on xomp, but xomp_version is not defined "
                        "(the system libgomp was loaded)\n");
        exit(99);
    }
    if (strcmp(want, "gomp") == 0 && on_xomp) {
        fprintf(stderr, "FAIL: this test must run on libgomp, but xomp was loaded\n");
        exit(99);
    }
    if (strcmp(want, "llvm") == 0 && !test_runtime_is_libomp()) {
        fprintf(stderr, "FAIL: this test must run on LLVM libomp, but %s was loaded\n",
                on_xomp ? "xomp" : "another runtime");
        exit(99);
    }
    if (on_xomp) {
        const char *(*version)(void) = (const char *(*)(void))dlsym(RTLD_DEFAULT, "xomp_version");
        if (getenv("XOMP_TEST_VERBOSE"))
            fprintf(stderr, "running on xomp %s\n", version());
    }
}

/* Run this program again with `var=value` in the environment (the runtime
 * reads it at start-up) and `marker=1`, which the second run tests with
 * getenv to know it is the second.  Returns only on failure (status 1). */
static inline int test_exec_again(char **argv, const char *marker, const char *var,
                                  const char *value)
{
    setenv(marker, "1", 1);
    setenv(var, value, 1);
    execv("/proc/self/exe", argv);
    perror("execv /proc/self/exe");
    return 1;
}

/* A test that runs itself again under several settings: the number of
 * this run (0 for the first), and running again as run `next` with
 * whatever the caller put in the environment (returns only on failure). */
static inline int test_stage(void)
{
    const char *s = getenv("XOMP_TEST_STAGE");
    return s ? atoi(s) : 0;
}

static inline int test_run_stage(char **argv, int next)
{
    char text[16];
    snprintf(text, sizeof text, "%d", next);
    setenv("XOMP_TEST_STAGE", text, 1);
    execv("/proc/self/exe", argv);
    perror("execv /proc/self/exe");
    return 1;
}

/* The CPUs the calling thread may run on, in increasing order, into cpus
 * (CPU_SETSIZE entries); returns how many. */
static inline int test_thread_cpus(int *cpus)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0)
        return 0;
    int n = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &set))
            cpus[n++] = cpu;
    return n;
}

/* Monotonic time in seconds (for deadlines and elapsed times). */
static inline double test_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Exit status of a test: 0 when every CHECK held. */
static inline int test_result(void)
{
    if (xomp_test_failures) {
        fprintf(stderr, "FAIL: %d check(s) failed\n", xomp_test_failures);
        return 1;
    }
    return 0;
}

#endif
