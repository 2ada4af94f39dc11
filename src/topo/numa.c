/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* NUMA nodes of the CPUs (numa.h). */
#include "numa.h"

#include "../runtime/log.h"

#include <hwloc.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>

bool xomp_numa_multi;
static unsigned node_count;
static uint16_t *node_of_cpu; /* [cpu_limit] */
static int cpu_limit;

void xomp_numa_init(void)
{
    if (node_count)
        return;
    hwloc_topology_t topo;
    if (hwloc_topology_init(&topo))
        return;
    if (hwloc_topology_load(topo)) {
        hwloc_topology_destroy(topo);
        xomp_warn("cannot read the machine topology (hwloc); the NUMA locality counters "
                  "stay 0 (meta.txt numa_nodes = 0)");
        return;
    }
    int nodes = hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE);
    int last = hwloc_bitmap_last(hwloc_topology_get_complete_cpuset(topo));
    if (nodes > 0 && last >= 0 && (node_of_cpu = calloc((size_t)last + 1, sizeof *node_of_cpu))) {
        cpu_limit = last + 1;
        for (int i = 0; i < nodes; i++) {
            hwloc_obj_t node = hwloc_get_obj_by_type(topo, HWLOC_OBJ_NUMANODE, (unsigned)i);
            unsigned cpu;
            hwloc_bitmap_foreach_begin(cpu, node->cpuset) {
                if ((int)cpu < cpu_limit)
                    node_of_cpu[cpu] = (uint16_t)node->logical_index;
            }
            hwloc_bitmap_foreach_end();
        }
        node_count = (unsigned)nodes;
        xomp_numa_multi = nodes > 1;
    }
    hwloc_topology_destroy(topo);
}

unsigned xomp_numa_nodes(void)
{
    return node_count;
}

unsigned xomp_numa_node_here(void)
{
    int cpu = sched_getcpu();
    return cpu >= 0 && cpu < cpu_limit ? node_of_cpu[cpu] : 0;
}
