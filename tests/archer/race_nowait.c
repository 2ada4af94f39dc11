/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Archer must report this race: a loop with nowait, then each member reads
 * the elements another member wrote, with no barrier in between. */
#include "archer_common.h"

int main(void)
{
    int a[64] = {0};
    long sum = 0;
#pragma omp parallel num_threads(2) reduction(+ : sum)
    {
#pragma omp for schedule(static) nowait
        for (int i = 0; i < 64; i++)
            a[i] = i;
        int me = omp_get_thread_num();
        for (int i = 0; i < 64; i++)
            if ((i < 32) != (me == 0))
                sum += a[i];
    }
    printf("sum %ld\n", sum);
    return 0;
}
