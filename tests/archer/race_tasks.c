/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Archer must report this race: two sibling tasks without dependences
 * write the same variable.  Each waits (relaxed: no happens-before) until
 * the other has started, so that they run on two threads at once. */
#include "archer_common.h"

int main(void)
{
    int shared = 0;
    _Atomic int started = 0, turn = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        for (int i = 0; i < 2; i++) {
#pragma omp task shared(shared, started, turn)
            {
                wait_turn(&turn, meet(&started, 2));
                shared++;
                pass_turn(&turn);
            }
        }
    }
    printf("shared %d\n", shared);
    return 0;
}
