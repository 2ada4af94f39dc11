/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * `cancel KIND if(false)` is only a cancellation point: it cancels nothing,
 * and it skips code only when KIND's region was cancelled already.  After
 * a cancelled `for` or `sections` the region goes on: the construct's end
 * (its barrier) does not report the region as cancelled, and neither do
 * the cancellation points after it (`cancel parallel if(false)`,
 * `cancellation point parallel`, the region's barriers, the cancellation
 * points of the next loop, sections or taskgroup).  Every cancel kind is
 * tried with if(false) -- a literal 0 and a value the compiler cannot see
 * -- after a cancelled loop, sections and taskgroup; then a real `cancel
 * parallel` still cancels.  Run with and without OMP_CANCELLATION (the
 * test re-executes itself with it set).
 */
#include "xomp_test.h"

static volatile int off = 0; /* if(off): false, unknown to the compiler */
static volatile int on = 1;

#define ADD(x)                                                                          \
    do {                                                                                \
        _Pragma("omp atomic") x++;                                                      \
    } while (0)

/* After a cancelled loop: every cancel kind with if(false), and the
 * cancellation points, in a region that also has a cancellable barrier. */
static void after_cancelled_loop(int dynamic)
{
    int threads = 0, after_loop = 0, after_if = 0, after_point = 0, after_barrier = 0;
    int loop2 = 0, sections = 0, tasks = 0, reached_end = 0;
    long ran = 0;
#pragma omp parallel shared(threads, after_loop, after_if, after_point, after_barrier, loop2, \
                                sections, tasks, reached_end, ran)
    {
#pragma omp single
        threads = omp_get_num_threads();
        if (dynamic) {
#pragma omp for schedule(dynamic, 1)
            for (int i = 0; i < 1000; i++) {
                if (i == 10) {
#pragma omp cancel for
                }
#pragma omp cancellation point for
                ADD(ran);
            }
        } else {
#pragma omp for schedule(static)
            for (int i = 0; i < 1000; i++) {
                if (i == 0) {
#pragma omp cancel for
                }
                ADD(ran);
            }
        }
        ADD(after_loop);
#pragma omp cancel parallel if (off)
#pragma omp cancel parallel if (0)
        ADD(after_if);
#pragma omp cancellation point parallel
        ADD(after_point);
#pragma omp barrier
        ADD(after_barrier);
        /* The next loop is not cancelled: none of its iterations is skipped. */
#pragma omp for schedule(dynamic, 3)
        for (int i = 0; i < 300; i++) {
#pragma omp cancel for if (off)
#pragma omp cancellation point for
            ADD(loop2);
        }
#pragma omp sections
        {
#pragma omp section
            {
#pragma omp cancel sections if (off)
#pragma omp cancellation point sections
                ADD(sections);
            }
#pragma omp section
            {
#pragma omp cancel sections if (0)
                ADD(sections);
            }
        }
#pragma omp single
#pragma omp taskgroup
        for (int t = 0; t < 8; t++) {
#pragma omp task shared(tasks)
            {
#pragma omp cancel taskgroup if (off)
#pragma omp cancellation point taskgroup
                ADD(tasks);
            }
        }
#pragma omp cancel parallel if (off)
        ADD(reached_end);
    }
    const char *how = dynamic ? "dynamic" : "static";
    if (omp_get_cancellation())
        CHECK(ran < 1000, "%s: cancel for did not cancel the loop (%ld iterations)", how, ran);
    else
        CHECK(ran == 1000, "%s: %ld of 1000 iterations without OMP_CANCELLATION", how, ran);
    CHECK(after_loop == threads, "%s: %d of %d threads went on after the cancelled loop", how,
          after_loop, threads);
    CHECK(after_if == threads, "%s: %d of %d threads passed cancel parallel if(false)", how,
          after_if, threads);
    CHECK(after_point == threads, "%s: %d of %d threads passed cancellation point parallel", how,
          after_point, threads);
    CHECK(after_barrier == threads, "%s: %d of %d threads passed the barrier", how,
          after_barrier, threads);
    CHECK(loop2 == 300, "%s: the next loop ran %d of 300 iterations", how, loop2);
    CHECK(sections == 2, "%s: %d of 2 sections ran", how, sections);
    CHECK(tasks == 8, "%s: %d of 8 tasks ran", how, tasks);
    CHECK(reached_end == threads, "%s: %d of %d threads reached the region's end", how,
          reached_end, threads);
}

/* After cancelled sections. */
static void after_cancelled_sections(void)
{
    int threads = 0, first = 0, second = 0, after = 0, next = 0, reached_end = 0;
#pragma omp parallel shared(threads, first, second, after, next, reached_end)
    {
#pragma omp single
        threads = omp_get_num_threads();
#pragma omp sections
        {
#pragma omp section
            {
                ADD(first);
#pragma omp cancel sections
            }
#pragma omp section
            {
#pragma omp cancellation point sections
                ADD(second);
            }
        }
        ADD(after);
#pragma omp cancel parallel if (off)
#pragma omp barrier
#pragma omp sections
        {
#pragma omp section
            {
#pragma omp cancel sections if (off)
                ADD(next);
            }
#pragma omp section
            {
#pragma omp cancellation point sections
                ADD(next);
            }
        }
#pragma omp cancellation point parallel
        ADD(reached_end);
    }
    CHECK(first == 1, "the first section ran %d times", first);
    CHECK(second <= 1, "the second section ran %d times", second);
    if (!omp_get_cancellation())
        CHECK(second == 1, "the second section did not run without OMP_CANCELLATION");
    CHECK(after == threads, "%d of %d threads went on after the cancelled sections", after,
          threads);
    CHECK(next == 2, "%d of the next construct's 2 sections ran", next);
    CHECK(reached_end == threads, "%d of %d threads reached the region's end", reached_end,
          threads);
}

/* After a cancelled taskgroup: the next taskgroup's tasks and the region. */
static void after_cancelled_taskgroup(void)
{
    int threads = 0, cancelled_ran = 0, next = 0, after = 0, reached_end = 0;
#pragma omp parallel shared(threads, cancelled_ran, next, after, reached_end)
    {
#pragma omp single
        {
            threads = omp_get_num_threads();
#pragma omp taskgroup
            {
#pragma omp task
                {
#pragma omp cancel taskgroup
                }
#pragma omp taskwait
                for (int t = 0; t < 8; t++) {
#pragma omp task shared(cancelled_ran)
                    ADD(cancelled_ran);
                }
            }
#pragma omp taskgroup
            for (int t = 0; t < 8; t++) {
#pragma omp task shared(next)
                {
#pragma omp cancel taskgroup if (off)
#pragma omp cancel taskgroup if (0)
#pragma omp cancellation point taskgroup
                    ADD(next);
                }
            }
        }
        ADD(after);
#pragma omp cancel parallel if (off)
#pragma omp barrier
#pragma omp cancellation point parallel
        ADD(reached_end);
    }
    if (omp_get_cancellation())
        CHECK(cancelled_ran == 0, "%d tasks of a cancelled taskgroup ran", cancelled_ran);
    CHECK(next == 8, "%d of the next taskgroup's 8 tasks ran", next);
    CHECK(after == threads && reached_end == threads,
          "%d and %d of %d threads went on after the cancelled taskgroup", after, reached_end,
          threads);
}

/* if(true) still cancels: every thread cancels and skips the rest. */
static void cancel_if_true(void)
{
    int passed = 0, reached_end = 0;
#pragma omp parallel shared(passed, reached_end)
    {
#pragma omp for
        for (int i = 0; i < 100; i++) {
            if (i == 0) {
#pragma omp cancel for
            }
        }
#pragma omp cancel parallel if (on)
        ADD(passed);
#pragma omp cancellation point parallel
        ADD(reached_end);
    }
    if (omp_get_cancellation())
        CHECK(passed == 0 && reached_end == 0,
              "cancel parallel if(true): %d threads went on, %d reached the end", passed,
              reached_end);
    else
        CHECK(passed == omp_get_max_threads() && reached_end == passed,
              "cancel parallel ignored: %d, %d of %d threads", passed, reached_end,
              omp_get_max_threads());
}

static void run_all(void)
{
    for (int round = 0; round < 20; round++) {
        after_cancelled_loop(0);
        after_cancelled_loop(1);
        after_cancelled_sections();
        after_cancelled_taskgroup();
        cancel_if_true();
    }
}

int main(int argc, char **argv)
{
    (void)argc;
    if (!getenv("XOMP_TEST_CANCEL_IF_EXEC")) {
        CHECK(!omp_get_cancellation(), "cancellation active without OMP_CANCELLATION");
        run_all();
        if (xomp_test_failures)
            return test_result();
        return test_exec_again(argv, "XOMP_TEST_CANCEL_IF_EXEC", "OMP_CANCELLATION", "true");
    }
    CHECK(omp_get_cancellation(), "OMP_CANCELLATION=true not honoured");
    run_all();
    return test_result();
}
