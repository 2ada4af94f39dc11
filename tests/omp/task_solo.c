/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Tasks in a team of one, which xomp runs at their creation by default
 * (XOMP_SOLO=run, as LLVM libomp does in a serialized team) and queues
 * with XOMP_SOLO=queue.  With either, and on any runtime:
 *  - every task runs exactly once, in a team of one made by num_threads(1)
 *    inside a larger team too;
 *  - a task that leaves deferred children behind (a detachable task and a
 *    dependant of it: neither may run at creation) outlives its body until
 *    they complete, and taskgroup waits for them;
 *  - argument blocks copied by value (a VLA through GCC's cpyfn, a block
 *    of 4 KB) hold the values at creation;
 *  - omp_in_final, and ICVs set inside a task stay inside it;
 *  - taskloop with a reduction.
 * On xomp with XOMP_SOLO=run a task has run when its creator goes on; with
 * XOMP_SOLO=queue it has not (it waits in the queue for the taskwait).
 */
#include "xomp_test.h"

#define NT 300

static int runs[NT];

static void expect_each_once(const char *what)
{
    for (int i = 0; i < NT; i++) {
        CHECK(runs[i] == 1, "%s: task %d ran %d times", what, i, runs[i]);
        runs[i] = 0;
    }
}

/* How xomp treats a team of one here: 'r' run at creation, 'q' queue,
 * 0 another runtime (no expectation). */
static char solo_mode(void)
{
    if (!test_runtime_is_xomp())
        return 0;
    const char *v = getenv("XOMP_SOLO");
    return v && strcmp(v, "queue") == 0 ? 'q' : 'r';
}

static int fib(int n)
{
    if (n < 2)
        return n;
    int x, y;
#pragma omp task shared(x) firstprivate(n)
    x = fib(n - 1);
#pragma omp task shared(y) firstprivate(n)
    y = fib(n - 2);
#pragma omp taskwait
    return x + y;
}

/* A team of one: each task once; when it runs (solo_mode). */
static void run_in_team_of_one(const char *what)
{
    int ran_before_next = 0, fib_result = 0;
#pragma omp parallel num_threads(1) shared(ran_before_next, fib_result)
    {
        CHECK(omp_get_num_threads() == 1, "%s: num_threads(1) gave %d threads", what,
              omp_get_num_threads());
        for (int i = 0; i < NT; i++) {
            int flag = 0;
#pragma omp task firstprivate(i) shared(flag)
            {
                runs[i]++;
                flag = 1;
            }
            ran_before_next += flag; /* same thread: no race */
#pragma omp taskwait
        }
        fib_result = fib(20);
    }
    expect_each_once(what);
    CHECK(fib_result == 6765, "%s: fib(20) = %d", what, fib_result);
    char mode = solo_mode();
    if (mode == 'r')
        CHECK(ran_before_next == NT, "%s: %d of %d tasks ran at creation (XOMP_SOLO=run)",
              what, ran_before_next, NT);
    if (mode == 'q')
        CHECK(ran_before_next == 0, "%s: %d tasks ran at creation with XOMP_SOLO=queue", what,
              ran_before_next);
}

/* Children that cannot run at creation outlive their parent's body. */
static void deferred_grandchildren(void)
{
    int detached_ran = 0, dependant_ran = 0, order_ok = 0;
#pragma omp parallel num_threads(1) shared(detached_ran, dependant_ran, order_ok)
#pragma omp taskgroup
    {
#pragma omp task shared(detached_ran, dependant_ran, order_ok)
        {
            int x = 0;
            (void)x;
            omp_event_handle_t ev;
#pragma omp task detach(ev) depend(out : x) shared(detached_ran)
            {
                detached_ran++;
                omp_fulfill_event(ev);
            }
#pragma omp task depend(in : x) shared(detached_ran, dependant_ran, order_ok)
            {
                order_ok = detached_ran == 1;
                dependant_ran++;
            }
            /* No taskwait: the parent's body ends with both pending. */
        }
    }
    CHECK(detached_ran == 1, "a detached grandchild ran %d times", detached_ran);
    CHECK(dependant_ran == 1, "its dependant ran %d times", dependant_ran);
    CHECK(order_ok, "the dependant ran before the task it depends on");
}

struct block {
    int v[1024]; /* 4 KB: copied into the task on creation */
};

#define VLA_MAX 64

static void copied_arguments(int n)
{
    int bad = 0;
#pragma omp parallel num_threads(1) shared(bad)
    {
#if XOMP_TEST_HAVE_VLA_FIRSTPRIVATE
        int vla[n];
#else
        int vla[VLA_MAX]; /* a fixed array, as large as any n used */
#endif
        struct block b;
        for (int i = 0; i < n; i++)
            vla[i] = i;
        for (int i = 0; i < 1024; i++)
            b.v[i] = 3 * i;
#pragma omp task firstprivate(vla, b) shared(bad)
        {
            for (int i = 0; i < n; i++)
                bad += vla[i] != i;
            for (int i = 0; i < 1024; i++)
                bad += b.v[i] != 3 * i;
        }
        /* Changes after creation must not reach a task that was queued. */
        for (int i = 0; i < n; i++)
            vla[i] = -1;
        b.v[5] = -1;
#pragma omp taskwait
    }
    CHECK(bad == 0, "%d values of copied arguments were wrong", bad);
}

static void final_and_icvs(void)
{
    int in_final_plain = -1, in_final_final = -1, inner_threads = 0, outer_threads = 0;
#pragma omp parallel num_threads(1) shared(in_final_plain, in_final_final, inner_threads,   \
                                               outer_threads)
    {
        omp_set_num_threads(3);
#pragma omp task shared(in_final_plain)
        in_final_plain = omp_in_final();
#pragma omp task final(1) shared(in_final_final, inner_threads)
        {
#pragma omp task shared(in_final_final)
            in_final_final = omp_in_final();
            omp_set_num_threads(5);
            inner_threads = omp_get_max_threads();
        }
#pragma omp taskwait
        outer_threads = omp_get_max_threads();
    }
    CHECK(in_final_plain == 0, "omp_in_final() = %d in a plain task", in_final_plain);
    CHECK(in_final_final == 1, "omp_in_final() = %d in a final task's child", in_final_final);
    CHECK(inner_threads == 5, "omp_set_num_threads(5) in a task: max threads %d",
          inner_threads);
    CHECK(outer_threads == 3, "a task's omp_set_num_threads leaked out: %d", outer_threads);
}

static void taskloop_reduction(void)
{
    long sum = 0;
#pragma omp parallel num_threads(1) shared(sum)
#pragma omp taskloop grainsize(7) reduction(+ : sum)
    for (int i = 0; i < 1000; i++)
        sum += i;
    CHECK(sum == 499500, "taskloop reduction in a team of one: %ld", sum);
}

int main(int argc, char **argv)
{
    (void)argv;
    run_in_team_of_one("team of one");
    /* A team of one nested in a larger team: each outer member makes one. */
    omp_set_max_active_levels(2);
    int outer_bad = 0;
#pragma omp parallel num_threads(2) reduction(+ : outer_bad)
    {
        int mine[64] = {0};
#pragma omp parallel num_threads(1) shared(mine)
        for (int i = 0; i < 64; i++) {
#pragma omp task firstprivate(i) shared(mine)
            mine[i]++;
        }
        for (int i = 0; i < 64; i++)
            outer_bad += mine[i] != 1;
    }
    CHECK(outer_bad == 0, "%d tasks of nested teams of one did not run exactly once",
          outer_bad);
    deferred_grandchildren();
    copied_arguments(argc + 40);
    final_and_icvs();
    taskloop_reduction();
    return test_result();
}
