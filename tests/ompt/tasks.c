/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * OMPT conformance: explicit tasks (deferred, undeferred, final, untied,
 * with priorities, nested with taskwait), taskgroups (nested), taskyield,
 * taskloops (grainsize, num_tasks, nogroup), detachable tasks fulfilled
 * early and late, and dependences (in, out, inout, mutexinoutset,
 * inoutset, depend objects, undeferred tasks with dependences, taskwait
 * depend; GCC 12 cannot express omp_all_memory).  Run under tests/ompt/ompt_check.c: it
 * checks the events (and that no task starts before those it depends on
 * completed); each phase ends with a checkpoint of the counts the program
 * knows.
 */
#include "xomp_test.h" /* first: it defines _GNU_SOURCE */
#include "ompt_check.h"

#include <omp.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

static int fails;

/* LLVM libomp 14, the tool's sanity check, lacks a few of GCC 12's
 * features (below). */
static bool on_llvm(void)
{
    const char *rt = getenv("XOMP_TEST_RUNTIME");
    return rt && strcmp(rt, "llvm") == 0;
}

static void checkpoint(const char *phase, struct ompt_check_counts c)
{
    int v = ompt_check_point(&c);
    if (v) {
        fprintf(stderr, "FAIL: %s: the tool reports %d violations\n", phase, v);
        fails++;
    }
}

static long fib(int n)
{
    if (n < 2) {
        ompt_check_frames(0); /* deep in nested tasks, most run where created */
        return n;
    }
    long a, b;
#pragma omp task shared(a) untied
    a = fib(n - 1);
#pragma omp task shared(b) final(n < 6)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

/* Tasks fib(n) creates: two per call with n >= 2. */
static long fib_tasks(int n)
{
    return n < 2 ? 0 : 2 + fib_tasks(n - 1) + fib_tasks(n - 2);
}

static void tasks(void)
{
    struct ompt_check_counts c = OMPT_CHECK_ANY;
    long f = 0, undeferred = 0, prio = 0;
    int team = 0;
#pragma omp parallel
    {
#pragma omp single
        {
            team = omp_get_num_threads();
            f = fib(12);
            for (int i = 0; i < 10; i++) {
#pragma omp task if (0)
                {
                    undeferred++;
                    ompt_check_frames(0);
                }
#pragma omp task priority(i % 3)
                {
#pragma omp atomic
                    prio++;
                }
            }
#pragma omp taskyield
        }
        /* Every member creates tasks; the region's end barrier runs them. */
        for (int i = 0; i < 4; i++) {
#pragma omp task
            {
#pragma omp atomic
                prio++;
            }
        }
    }
    CHECK(f == 144 && undeferred == 10 && prio == 10 + 4 * team, "fib %ld undeferred %ld prio %ld",
          f, undeferred, prio);
    c.tasks = fib_tasks(12) + 20 + 4 * team;
    c.taskwaits = fib_tasks(12) / 2;
    c.dependences = 0;
    checkpoint("tasks", c);
}

static void taskgroups(void)
{
    struct ompt_check_counts c = OMPT_CHECK_ANY;
    long done = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup
        {
            for (int i = 0; i < 8; i++) {
#pragma omp task
                {
                    /* Grandchildren belong to the group too. */
#pragma omp task
                    {
#pragma omp atomic
                        done++;
                    }
#pragma omp taskgroup
                    {
#pragma omp task
                        {
#pragma omp atomic
                            done++;
                        }
                    }
                }
            }
        }
        CHECK(done == 16, "taskgroup ended with %ld of 16 tasks done", done);
    }
    c.tasks = 24;
    c.taskgroups = 9;
    checkpoint("taskgroups", c);
}

static void taskloops(void)
{
    struct ompt_check_counts c = OMPT_CHECK_ANY;
    long sum = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskloop grainsize(10) reduction(+ : sum)
        for (int i = 0; i < 100; i++)
            sum += i;
#pragma omp taskloop num_tasks(4) nogroup
        for (int i = 0; i < 100; i++) {
#pragma omp atomic
            sum += i;
            if (i % 25 == 0)
                ompt_check_frames(0);
        }
#pragma omp taskwait
    }
    CHECK(sum == 2 * 4950, "taskloops summed %ld", sum);
    c.tasks = 10 + 4;
    c.taskloops = 2;
    checkpoint("taskloops", c);
}

static void detached(void)
{
    struct ompt_check_counts c = OMPT_CHECK_ANY;
    _Atomic int ran = 0;
#pragma omp parallel
#pragma omp single
    {
        omp_event_handle_t events[6];
        for (int i = 0; i < 6; i++) {
            omp_event_handle_t ev;
#pragma omp task detach(ev) firstprivate(i) shared(ran)
            {
                atomic_fetch_add(&ran, 1);
                if (i % 2)
                    omp_fulfill_event(ev); /* early: before the body ends */
            }
            events[i] = ev;
        }
        /* Fulfil the others late, from another task. */
#pragma omp task shared(events)
        {
            for (int i = 0; i < 6; i += 2)
                omp_fulfill_event(events[i]);
        }
#pragma omp taskwait
        CHECK(atomic_load(&ran) == 6, "%d detachable tasks ran", atomic_load(&ran));
    }
    c.tasks = 7;
    checkpoint("detach", c);
}

static void dependences(void)
{
    struct ompt_check_counts c = OMPT_CHECK_ANY;
    int x = 0, y = 0, z = 0, bad = 0, m = 0;
    int chain[6] = {0};
    /* libomp rejects the depend object below; clang's depend objects have
     * a layout of their own (it is made by hand in GCC's). */
#if defined(__clang__)
    bool inoutset = false;
#else
    bool inoutset = !on_llvm();
#endif
#pragma omp parallel
#pragma omp single
    {
        /* A chain of writers and readers on x. */
        for (int i = 0; i < 6; i++) {
#pragma omp task depend(inout : x) shared(x, chain)
            chain[i] = ++x;
#pragma omp task depend(in : x) shared(x, bad) firstprivate(i)
            if (x < i + 1)
                bad++;
        }
#pragma omp task depend(out : y) shared(y)
        y = 1;
#pragma omp task depend(mutexinoutset : y) shared(y, m)
        {
#pragma omp atomic
            m += y;
        }
#pragma omp task depend(mutexinoutset : y) shared(y, m)
        {
#pragma omp atomic
            m += y;
        }
        /* inoutset: GCC 12 has no syntax for it, but passes depend objects
         * through as they are: one made by hand, as GCC 13 makes them
         * (address, then type 5). */
        omp_depend_t set;
        ((void **)&set)[0] = &z;
        ((void **)&set)[1] = (void *)(uintptr_t)5; /* GOMP_DEPEND_INOUTSET */
        for (int i = 0; i < 2; i++) {
            if (!inoutset) {
#pragma omp atomic
                z++;
                continue;
            }
#pragma omp task depend(depobj : set) shared(z)
            {
#pragma omp atomic
                z++;
            }
        }
        omp_depend_t obj;
#pragma omp depobj(obj) depend(inout : z)
#pragma omp task depend(depobj : obj) shared(z, bad)
        if (z != 2)
            bad++;
#pragma omp depobj(obj) destroy
        /* An undeferred task with dependences waits for its predecessors. */
#pragma omp task depend(in : x) if (0) shared(x, bad)
        if (x != 6)
            bad++;
#pragma omp task depend(inout : x, y, z) shared(x, y, z, bad)
        if (x != 6 || y != 1 || z != 2)
            bad++;
#pragma omp task depend(out : z) shared(z)
        z = 10;
#pragma omp taskwait depend(in : z)
        if (z != 10)
            bad++;
#pragma omp taskwait
    }
    CHECK(!bad && x == 6 && m == 2 && z == 10, "dependences: bad %d x %d m %d z %d", bad, x, m, z);
    for (int i = 0; i < 6; i++)
        CHECK(chain[i] == i + 1, "chain[%d] = %d", i, chain[i]);
    c.tasks = 12 + 3 + 2 * inoutset + 1 + 1 + 1 + 1;
    c.dependences = c.tasks + 1; /* and the taskwait depend */
    checkpoint("dependences", c);
}

int main(void)
{
    tasks();
    taskgroups();
    taskloops();
    /* LLVM libomp 14 lacks GCC's entry of omp_fulfill_event: the system
     * libgomp's is called, and crashes. */
    if (!on_llvm())
        detached();
    dependences();
    return fails || test_result();
}
