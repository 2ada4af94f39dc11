/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * 20,000 back-to-back small parallel regions with team sizes cycling
 * through 1, 2, 3, 8: each region's reduction, thread count and team size
 * must be exact.  Exercises team reuse, growing and shrinking teams, and
 * the threads' dock between regions.  On the system libgomp
 * (which only validates the test) 1,000 regions: its idle threads spin
 * long enough that resizing an oversubscribed team costs milliseconds.
 */
#include "xomp_test.h"

#define REGIONS 20000

int main(void)
{
    static const int sizes[] = {1, 2, 3, 8};
    long total = 0, expected_total = 0;
    int wrong = 0;
    int regions = test_runtime_is_xomp() ? REGIONS : REGIONS / 20;
    for (int r = 0; r < regions; r++) {
        int want = sizes[r % 4];
        long sum = 0;
        int count = 0, size = 0;
#pragma omp parallel num_threads(want) reduction(+ : sum, count) shared(size)
        {
            sum += omp_get_thread_num() + r;
            count++;
            if (omp_get_thread_num() == 0)
                size = omp_get_num_threads();
        }
        long expect = (long)want * (want - 1) / 2 + (long)want * r;
        if (sum != expect || count != want || size != want) {
            if (wrong++ < 10)
                fprintf(stderr, "region %d (num_threads %d): sum %ld (expected %ld), %d threads "
                                "ran, team size %d\n",
                        r, want, sum, expect, count, size);
        }
        total += sum;
        expected_total += expect;
    }
    CHECK(wrong == 0, "%d of %d regions had wrong results", wrong, regions);
    CHECK(total == expected_total, "total %ld, expected %ld", total, expected_total);
    return test_result();
}
