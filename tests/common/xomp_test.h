/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared by the OpenMP test programs.  Each test is an ordinary
 * `gcc -fopenmp` program; the test driver runs it on xomp (through
 * lib/libgomp.so.1 on LD_LIBRARY_PATH, or LD_PRELOAD) and on the system
 * libgomp (a test that fails there is a wrong test).
 *
 * XOMP_TEST_RUNTIME names the runtime the test must be running on ("xomp",
 * "gomp", or "llvm" for LLVM libomp; default "xomp").  The check runs
 * before main, so a test that silently ran on the wrong runtime fails
 * instead of passing.
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
#include <unistd.h>

#include "check.h"

static inline int test_runtime_is_xomp(void)
{
    return dlsym(RTLD_DEFAULT, "xomp_version") != NULL;
}

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
    if (strcmp(want, "llvm") == 0 &&
        (on_xomp || !dlsym(RTLD_DEFAULT, "__kmpc_fork_call") ||
         !dlsym(RTLD_DEFAULT, "kmp_set_stacksize"))) {
        fprintf(stderr, "FAIL: this test must run on LLVM libomp, which was not loaded\n");
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
