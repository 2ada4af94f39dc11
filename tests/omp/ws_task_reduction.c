/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Task reductions on worksharing constructs: `for`, `sections` and `scope`
 * with reduction(task, ...), whose in_reduction tasks (run by any member)
 * and whose own bodies (on every member) all contribute to one set of
 * private copies that member 0 combines at the end.  A member that got
 * copies of its own would lose its contributions, so the sums check that
 * every member shares the first member's registration.
 *
 * Covered: every schedule (GOMP_loop_start), unsigned long long loops
 * (GOMP_loop_ull_start), ordered and doacross loops
 * (GOMP_loop_ordered_start, GOMP_loop_doacross_start), sections2, scope,
 * a loop nested in a taskgroup task_reduction (lookups along the chain),
 * an orphaned loop outside any parallel region, more constructs in a row
 * than a team has work-share slots, and (re-executed with
 * OMP_CANCELLATION=true) `cancel parallel` before and inside such a loop.
 */
#include "xomp_test.h"

#define N 300

#define PRAGMA(x) _Pragma(#x)

/* The loop of loop_sum with the given schedule: every iteration adds to sum
 * in the member's copy and in a task's. */
#define SUM_LOOP(...)                                                                    \
    PRAGMA(omp for reduction(task, + : sum) schedule(__VA_ARGS__))                       \
    for (int i = 0; i < N; i++) {                                                        \
        PRAGMA(omp task in_reduction(+ : sum) firstprivate(i))                          \
        sum += i;                                                                        \
        sum += 1;                                                                        \
    }

static long loop_sum(int which)
{
    long sum = 0;
#pragma omp parallel
    {
        if (which == 0)
            SUM_LOOP(static)
        else if (which == 1)
            SUM_LOOP(dynamic, 3)
        else if (which == 2)
            SUM_LOOP(guided, 2)
        else
            SUM_LOOP(runtime)
    }
    return sum;
}

static void schedules(void)
{
    const long want = (long)N * (N - 1) / 2 + N;
    for (int which = 0; which < 4; which++) {
        long got = loop_sum(which);
        CHECK(got == want, "for reduction(task) schedule %d: %ld, expected %ld", which, got, want);
    }
}

/* Several operators and types at once, on an unsigned long long loop. */
static void ull_loop(void)
{
    unsigned long long sum = 0;
    double prod = 1.0;
    int maxv = -1;
#pragma omp parallel
#pragma omp for reduction(task, + : sum) reduction(task, * : prod) reduction(task, max : maxv) \
    schedule(dynamic)
    for (unsigned long long i = 1; i <= 40; i++) {
#pragma omp task in_reduction(+ : sum) in_reduction(* : prod) in_reduction(max : maxv) \
    firstprivate(i)
        {
            sum += i;
            if (i % 4 == 0)
                prod *= 2.0;
            if ((int)i > maxv)
                maxv = (int)i;
        }
    }
    CHECK(sum == 40ULL * 41 / 2, "ull loop sum %llu", sum);
    CHECK(prod == 1024.0, "ull loop product %g", prod);
    CHECK(maxv == 40, "ull loop max %d", maxv);
}

static void ordered_and_doacross(void)
{
    long sum = 0;
    int next = 0, in_order = 1;
#pragma omp parallel
#pragma omp for ordered reduction(task, + : sum) schedule(dynamic, 2)
    for (int i = 0; i < 64; i++) {
#pragma omp task in_reduction(+ : sum) firstprivate(i)
        sum += i;
#pragma omp ordered
        {
            if (next != i)
                in_order = 0;
            next = i + 1;
        }
    }
    CHECK(sum == 64 * 63 / 2, "ordered loop sum %ld", sum);
    CHECK(in_order, "ordered loop with task reduction ran out of order");

    long dsum = 0;
    int a[65] = {0};
    a[0] = 1;
#pragma omp parallel
#pragma omp for ordered(1) reduction(task, + : dsum) schedule(static, 1)
    for (int i = 1; i <= 64; i++) {
#pragma omp ordered depend(sink : i - 1)
        a[i] = a[i - 1] + 1;
#pragma omp ordered depend(source)
#pragma omp task in_reduction(+ : dsum) firstprivate(i)
        dsum += i;
    }
    CHECK(dsum == 64 * 65 / 2, "doacross loop sum %ld", dsum);
    CHECK(a[64] == 65, "doacross chain %d", a[64]);
}

static void sections_and_scope(void)
{
    long s = 0, z = 0;
    int threads = 1;
#pragma omp parallel
    {
#pragma omp single
        threads = omp_get_num_threads();
#pragma omp sections reduction(task, + : s)
        {
#pragma omp section
            {
                for (int i = 0; i < 20; i++) {
#pragma omp task in_reduction(+ : s)
                    s += 1;
                }
            }
#pragma omp section
            s += 100;
#pragma omp section
            {
#pragma omp task in_reduction(+ : s)
                s += 1000;
            }
        }
#if XOMP_TEST_HAVE_OMP51
        /* Every member takes part in a scope. */
#pragma omp scope reduction(task, + : z)
        {
#pragma omp task in_reduction(+ : z)
            z += 10;
            z += 1;
        }
#else
        __atomic_add_fetch(&z, 11, __ATOMIC_RELAXED);
#endif
    }
    CHECK(s == 1120, "sections reduction(task) %ld", s);
    CHECK(z == 11L * threads, "scope reduction(task) %ld, expected %d", z, 11 * threads);
}

/* A worksharing registration chained under each member's own taskgroup
 * registration: the tasks, run by any member, reduce into both. */
static void nested_in_taskgroup(void)
{
    long outer = 0, inner = 0;
#pragma omp parallel
    {
        long mine = 0;
#pragma omp taskgroup task_reduction(+ : mine)
        {
#pragma omp for reduction(task, + : inner) schedule(dynamic)
            for (int i = 0; i < 50; i++) {
#pragma omp task in_reduction(+ : inner) in_reduction(+ : mine)
                {
                    inner += 2;
                    mine += 3;
                }
            }
        }
#pragma omp atomic
        outer += mine;
    }
    CHECK(inner == 100, "loop reduction inside a taskgroup %ld", inner);
    CHECK(outer == 150, "taskgroup reductions around a loop %ld", outer);
}

/* Outside any parallel region the encountering thread is the team. */
static long orphan_sum;

static long orphaned(void)
{
    orphan_sum = 0;
#pragma omp for reduction(task, + : orphan_sum) schedule(dynamic)
    for (int i = 0; i < 10; i++) {
#pragma omp task in_reduction(+ : orphan_sum) firstprivate(i)
        orphan_sum += i;
    }
    return orphan_sum;
}

/* More constructs in one region than there are work-share slots, with
 * members running ahead of each other between them. */
static void many_in_a_row(void)
{
    long sums[40] = {0}, s = 0;
#pragma omp parallel
    for (int k = 0; k < 40; k++) {
#pragma omp for reduction(task, + : s) schedule(dynamic)
        for (int i = 0; i < k; i++) {
#pragma omp task in_reduction(+ : s) firstprivate(i)
            s += i;
        }
        /* Member 0 combines into s before the construct's last barrier
         * and the next one's combination comes after the next loop's
         * barrier, which this member must reach too. */
#pragma omp single nowait
        {
            sums[k] = s;
            s = 0;
        }
    }
    for (int k = 0; k < 40; k++)
        CHECK(sums[k] == (long)k * (k - 1) / 2, "construct %d: %ld", k, sums[k]);
}

/* `cancel parallel` by one member (member 0 in some rounds, which then
 * never meets the loop and so cannot be the one that frees the copies)
 * while the others register and run the loop: no crash, no leak
 * (AddressSanitizer), no hang. */
static void cancelled(void)
{
    for (int round = 0; round < 20; round++) {
        long sum = 0;
#pragma omp parallel
        {
            if (omp_get_thread_num() == round % omp_get_num_threads()) {
#pragma omp cancel parallel
            }
#pragma omp for reduction(task, + : sum) schedule(dynamic)
            for (int i = 0; i < 200; i++) {
#pragma omp task in_reduction(+ : sum) firstprivate(i)
                sum += i;
            }
        }
        (void)sum; /* unspecified after cancellation */
    }
    /* The runtime is still sound afterwards. */
    CHECK(loop_sum(1) == (long)N * (N - 1) / 2 + N, "loop after cancelled ones");
}

int main(int argc, char **argv)
{
    (void)argc;
    if (getenv("XOMP_TEST_CANCEL_EXEC")) {
        CHECK(omp_get_cancellation(), "OMP_CANCELLATION=true not honoured");
        cancelled();
        return test_result();
    }
    schedules();
    ull_loop();
    ordered_and_doacross();
    sections_and_scope();
    nested_in_taskgroup();
    CHECK(orphaned() == 45, "orphaned loop reduction(task)");
    many_in_a_row();
    if (test_result() || !XOMP_TEST_HAVE_CANCELLED_TASK_REDUCTION)
        return test_result();
    return test_exec_again(argv, "XOMP_TEST_CANCEL_EXEC", "OMP_CANCELLATION", "true");
}
