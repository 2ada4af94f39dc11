/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Resource relinquishing routines (OpenMP 5.1, 3.6).  xomp keeps nothing
 * that costs while idle (pool threads sleep on futexes), so a pause releases
 * nothing; like libgomp it succeeds (0) on the host outside any parallel
 * region and fails (-1) inside one or for a device that does not exist.
 * The kind is not checked, as in libgomp.
 */
#include <omp.h>

#include "../runtime/thread.h"
#include "abi.h"

static int pause_host(void)
{
    return xomp_self()->team ? -1 : 0;
}

XOMP_EXPORT int omp_pause_resource(omp_pause_resource_t kind, int device_num)
{
    (void)kind;
    return device_num == 0 ? pause_host() : -1;
}

XOMP_EXPORT int omp_pause_resource_all(omp_pause_resource_t kind)
{
    (void)kind;
    return pause_host();
}

/* The LLVM ABI's form (libomptarget calls it for the host): a pause level,
 * 0 to resume; the host has nothing to resume either. */
XOMP_EXPORT int __kmpc_pause_resource(int level)
{
    return level == 0 ? 0 : pause_host();
}
