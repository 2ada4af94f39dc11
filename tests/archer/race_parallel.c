/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Archer must report this race: every member increments a shared counter
 * without synchronization. */
#include "archer_common.h"

int main(void)
{
    int counter = 0;
    _Atomic int started = 0, turn = 0;
#pragma omp parallel num_threads(2)
    {
        wait_turn(&turn, meet(&started, 2));
        counter++;
        pass_turn(&turn);
    }
    printf("counter %d\n", counter);
    return 0;
}
