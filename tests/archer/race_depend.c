/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Archer must report this race: two sibling tasks write x, but both only
 * declare depend(in: x), which orders neither after the other. */
#include "archer_common.h"

int main(void)
{
    int x = 0;
    _Atomic int started = 0, turn = 0;
#pragma omp parallel num_threads(2)
#pragma omp single
    {
        for (int i = 0; i < 2; i++) {
#pragma omp task depend(in : x) shared(x, started, turn)
            {
                wait_turn(&turn, meet(&started, 2));
                x += 1;
                pass_turn(&turn);
            }
        }
    }
    printf("x %d\n", x);
    return 0;
}
