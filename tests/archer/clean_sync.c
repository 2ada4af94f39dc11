/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * No race for Archer to report: members share data only across barriers,
 * critical and atomic regions, locks (simple and nestable), ordered
 * regions, single with copyprivate, loops and sections with their
 * implicit barriers, and reductions.  Without Archer, ThreadSanitizer
 * reports races here: it does not see the runtime's synchronization.
 */
#include "archer_common.h"

int main(void)
{
    enum { N = 4 };
    int slot[N] = {0};
    long counted = 0, counted_other = 0, locked = 0, nested = 0, in_order = 0, next = 0;
    long double atomic_ld = 0;
    int copied = 0, loop[256] = {0}, sections[3] = {0};
    long sum = 0;
    omp_lock_t lock;
    omp_nest_lock_t nest;
    omp_init_lock(&lock);
    omp_init_nest_lock(&nest);
#pragma omp parallel num_threads(N) reduction(+ : sum)
    {
        int me = omp_get_thread_num(), n = omp_get_num_threads();
        slot[me] = me + 1;
#pragma omp barrier
        for (int i = 0; i < n; i++)
            sum += slot[i] == i + 1;
#pragma omp barrier
#pragma omp critical
        counted++;
#pragma omp critical(other) /* another lock: another variable */
        counted_other++;
#pragma omp atomic
        atomic_ld += 1.0L; /* long double: through the runtime's lock */
        omp_set_lock(&lock);
        locked++;
        omp_unset_lock(&lock);
        omp_set_nest_lock(&nest);
        omp_set_nest_lock(&nest);
        nested++;
        omp_unset_nest_lock(&nest);
        omp_unset_nest_lock(&nest);
#pragma omp for schedule(dynamic, 4) ordered
        for (int i = 0; i < 64; i++) {
#pragma omp ordered
            {
                if (next == i)
                    in_order++;
                next++;
            }
        }
        int value;
#pragma omp single copyprivate(value)
        value = 7;
        if (value == 7) {
#pragma omp atomic
            copied++;
        }
#pragma omp for schedule(guided)
        for (int i = 0; i < 256; i++)
            loop[i] = i;
        /* After the loop's barrier, any member may read any element. */
        for (int i = 0; i < 256; i += 17)
            sum += loop[i];
#pragma omp sections
        {
#pragma omp section
            sections[0] = 1;
#pragma omp section
            sections[1] = 2;
#pragma omp section
            sections[2] = 3;
        }
        sum += sections[0] + sections[1] + sections[2];
    }
    omp_destroy_lock(&lock);
    omp_destroy_nest_lock(&nest);
    printf("counted %ld locked %ld nested %ld ordered %ld copied %d sum %ld ld %Lf\n", counted,
           locked, nested, in_order, copied, sum, atomic_ld);
    return counted != N || counted_other != N || locked != N || nested != N || in_order != 64 ||
           copied != N;
}
