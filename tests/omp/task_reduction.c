/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Task reductions: taskgroup task_reduction with in_reduction tasks (also
 * nested taskgroups reducing different variables), parallel
 * reduction(task, ...), and taskloop in_reduction.
 */
#include "xomp_test.h"

int main(void)
{
    long sum = 0, prod = 1, other = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp taskgroup task_reduction(+ : sum) task_reduction(* : prod)
        {
            for (int i = 1; i <= 200; i++) {
#pragma omp task in_reduction(+ : sum) firstprivate(i)
                sum += i;
            }
            for (int i = 1; i <= 10; i++) {
#pragma omp task in_reduction(* : prod) firstprivate(i)
                prod *= 2;
            }
#pragma omp taskgroup task_reduction(+ : other)
            {
                for (int i = 0; i < 50; i++) {
#pragma omp task in_reduction(+ : other, sum)
                    {
                        other += 2;
                        sum += 1;
                    }
                }
            }
        }
    }
    CHECK(sum == 200 * 201 / 2 + 50, "task_reduction sum %ld", sum);
    CHECK(prod == 1024, "task_reduction product %ld", prod);
    CHECK(other == 100, "nested task_reduction %ld", other);

    long psum = 0;
#pragma omp parallel reduction(task, + : psum)
    {
#pragma omp single
        for (int i = 0; i < 100; i++) {
#pragma omp task in_reduction(+ : psum)
            psum += 3;
        }
        psum += 1; /* every implicit task contributes too */
    }
    int threads = omp_get_max_threads();
    CHECK(psum == 300 + threads, "parallel reduction(task): %ld, expected %d", psum, 300 + threads);

    long tl = 0;
#pragma omp parallel
#pragma omp single
#pragma omp taskgroup task_reduction(+ : tl)
    {
#pragma omp taskloop in_reduction(+ : tl) grainsize(5)
        for (int i = 0; i < 100; i++)
            tl += i;
    }
    CHECK(tl == 4950, "taskloop in_reduction %ld", tl);
    return test_result();
}
