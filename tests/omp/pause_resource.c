/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * omp_pause_resource / omp_pause_resource_all: libgomp's return values (0
 * on the host outside parallel regions, -1 inside one or for a device that
 * does not exist), and regions keep working after a pause.  Also
 * omp_control_tool, which only xomp exports: no tool, -2.
 */
#include "xomp_test.h"

static long fib(int n)
{
    if (n < 2)
        return n;
    long a, b;
#pragma omp task shared(a)
    a = fib(n - 1);
#pragma omp task shared(b)
    b = fib(n - 2);
#pragma omp taskwait
    return a + b;
}

static void work(const char *after)
{
    long sum = 0, f = 0;
#pragma omp parallel reduction(+ : sum) shared(f)
    {
        sum += omp_get_thread_num() + 1;
#pragma omp single
        f = fib(15);
    }
    int n = omp_get_max_threads();
    CHECK(sum == (long)n * (n + 1) / 2 && f == 610, "after %s: sum %ld, fib %ld", after, sum, f);
}

int main(void)
{
    work("start");
    int host = omp_get_initial_device();
    CHECK(omp_pause_resource(omp_pause_soft, host) == 0, "soft pause of the host");
    work("a soft pause");
    CHECK(omp_pause_resource(omp_pause_hard, host) == 0, "hard pause of the host");
    work("a hard pause");
    CHECK(omp_pause_resource_all(omp_pause_soft) == 0, "soft pause of all");
    /* (LLVM libomp refuses a hard pause of all, accepts devices that do
     * not exist and pauses inside a parallel region: libgomp's and xomp's
     * answers are checked.) */
    int libomp = test_runtime_is_libomp();
    CHECK(omp_pause_resource_all(omp_pause_hard) == 0 || libomp, "hard pause of all");
    work("pausing all");
    CHECK(omp_pause_resource(omp_pause_soft, 1) == -1 || libomp, "pause of device 1");
    CHECK(omp_pause_resource(omp_pause_soft, -1) == -1 || libomp, "pause of device -1");

    int inside = 0, inside_all = 0;
#pragma omp parallel num_threads(2)
    {
#pragma omp master
        {
            inside = omp_pause_resource(omp_pause_soft, host);
            inside_all = omp_pause_resource_all(omp_pause_hard);
        }
    }
    CHECK((inside == -1 && inside_all == -1) || libomp, "pause inside a parallel region: %d %d",
          inside, inside_all);
    work("refused pauses");

    /* A task outside any parallel region is at level 0: the pause is fine. */
    int in_task = 5;
#pragma omp task shared(in_task)
    in_task = omp_pause_resource_all(omp_pause_soft);
#pragma omp taskwait
    CHECK(in_task == 0, "pause in a task at level 0: %d", in_task);

    int (*control_tool)(int, int, void *) =
        (int (*)(int, int, void *))dlsym(RTLD_DEFAULT, "omp_control_tool");
    if (test_runtime_is_xomp())
        CHECK(control_tool && control_tool(1, 0, NULL) == -2 && control_tool(3, 1, NULL) == -2,
              "omp_control_tool: %p", (void *)control_tool);
    return test_result();
}
