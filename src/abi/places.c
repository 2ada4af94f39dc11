/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Place queries (OpenMP 4.5). */
#include <omp.h>

#include "../runtime/thread.h"
#include "../topo/topo.h"
#include "abi.h"

XOMP_EXPORT int omp_get_num_places(void)
{
    return xomp_places_count();
}

XOMP_EXPORT int omp_get_place_num_procs(int place)
{
    return xomp_place_num_procs(place);
}

XOMP_EXPORT void omp_get_place_proc_ids(int place, int *ids)
{
    xomp_place_proc_ids(place, ids);
}

XOMP_EXPORT int omp_get_place_num(void)
{
    return xomp_self()->place;
}

XOMP_EXPORT int omp_get_partition_num_places(void)
{
    return xomp_self()->task->icv.part_len;
}

XOMP_EXPORT void omp_get_partition_place_nums(int *place_nums)
{
    const struct xomp_icv *icv = &xomp_self()->task->icv;
    for (unsigned i = 0; i < icv->part_len; i++)
        place_nums[i] = (int)(icv->part_first + i);
}
