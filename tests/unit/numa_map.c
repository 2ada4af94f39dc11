/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The NUMA map (topo/numa.c, sched/steal.c, xomp_sched_plan):
 *   - hwloc's NUMA nodes group the CPUs exactly as the kernel's
 *     /sys/devices/system/node/nodeN/cpulist do;
 *   - virtual topologies (XOMP_TOPOLOGY "NxC" and lists) give members the
 *     nodes of their cores (member id, or place when bound, modulo the
 *     cores), and the plan groups members by node, each knowing its group;
 *   - invalid values leave the machine's topology.
 */
#include "runtime/config.h"
#include "runtime/team.h"
#include "sched/sched.h"
#include "topo/numa.h"

#include "check.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_topology(const char *spec)
{
    snprintf(xomp_cfg.topology, sizeof xomp_cfg.topology, "%s", spec);
    xomp_cfg.topology_set = true;
    xomp_topology_init();
}

/* Node of each CPU according to sysfs; returns the node count, 0 if the
 * kernel does not show nodes. */
static int sysfs_nodes(int *node_of)
{
    int nodes = 0;
    for (int n = 0; n < 1024; n++) {
        char path[96];
        snprintf(path, sizeof path, "/sys/devices/system/node/node%d/cpulist", n);
        FILE *f = fopen(path, "r");
        if (!f)
            continue;
        nodes++;
        int a, b;
        char sep;
        while (fscanf(f, "%d", &a) == 1) {
            b = a;
            if (fscanf(f, "%c", &sep) == 1 && sep == '-') {
                if (fscanf(f, "%d", &b) != 1)
                    break;
                if (fscanf(f, "%c", &sep) != 1)
                    sep = '\n';
            }
            for (int cpu = a; cpu <= b && cpu < CPU_SETSIZE; cpu++)
                node_of[cpu] = n;
            if (sep != ',')
                break;
        }
        fclose(f);
    }
    return nodes;
}

static void test_hwloc_matches_kernel(void)
{
    static uint16_t hw[CPU_SETSIZE];
    static int kernel[CPU_SETSIZE];
    for (int i = 0; i < CPU_SETSIZE; i++)
        kernel[i] = -1;
    int hw_nodes = xomp_topology_discover_hwloc(hw, CPU_SETSIZE);
    CHECK(hw_nodes >= 1, "hwloc found %d NUMA nodes", hw_nodes);
    int k_nodes = sysfs_nodes(kernel);
    if (k_nodes == 0) {
        printf("note: the kernel shows no NUMA nodes here; hwloc found %d\n", hw_nodes);
        return;
    }
    CHECK(hw_nodes == k_nodes, "hwloc found %d nodes, the kernel %d", hw_nodes, k_nodes);
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    for (int a = 0; a < CPU_SETSIZE; a++)
        for (int b = a + 1; b < CPU_SETSIZE; b++)
            if (CPU_ISSET(a, &set) && CPU_ISSET(b, &set) && kernel[a] >= 0 && kernel[b] >= 0)
                CHECK((hw[a] == hw[b]) == (kernel[a] == kernel[b]),
                      "CPUs %d and %d: hwloc nodes %u/%u, kernel nodes %d/%d", a, b, hw[a], hw[b],
                      kernel[a], kernel[b]);
    printf("ok   hwloc: %d NUMA node(s), grouped as the kernel groups them\n", hw_nodes);
}

/* Plan a region of n members (bound to `places` if not NULL) and check
 * each member's node and its group in node_members. */
static void check_plan(const char *spec, unsigned n, const int *places, const unsigned *want_node)
{
    set_topology(spec);
    struct xomp_team *team = xomp_team_create(n, 1);
    team->nthreads = n;
    team->binding = places != NULL;
    for (unsigned i = 0; places && i < n; i++)
        team->member_place[i] = places[i];
    xomp_sched_plan(team);
    for (unsigned i = 0; i < n; i++) {
        const struct xomp_member_map *m = &team->member_map[i];
        CHECK(m->node == want_node[i], "%s: member %u in node %u, expected %u", spec, i, m->node,
              want_node[i]);
        CHECK(team->node_members[m->slot] == i, "%s: member %u not at its slot %u", spec, i,
              m->slot);
        CHECK(m->slot >= m->first && m->slot < m->first + m->len, "%s: member %u outside its group",
              spec, i);
        unsigned same = 0;
        for (unsigned j = 0; j < n; j++)
            same += want_node[j] == want_node[i];
        CHECK(m->len == same, "%s: member %u's group has %u members, expected %u", spec, i, m->len,
              same);
        for (unsigned k = m->first; k < m->first + m->len; k++)
            CHECK(want_node[team->node_members[k]] == want_node[i],
                  "%s: member %u of another node in member %u's group", spec,
                  team->node_members[k], i);
    }
    xomp_team_destroy(team);
    printf("ok   XOMP_TOPOLOGY=%s, %u members%s\n", spec, n, places ? ", bound" : "");
}

static void check_invalid(const char *spec)
{
    set_topology(spec);
    char buf[64] = "";
    FILE *f = fmemopen(buf, sizeof buf, "w");
    xomp_topology_print(f);
    fclose(f);
    CHECK(!strcmp(buf, "machine"), "XOMP_TOPOLOGY=%s accepted (shown as '%s')", spec, buf);
}

int main(void)
{
    test_hwloc_matches_kernel();

    static const unsigned grid[] = {0, 0, 1, 1, 2, 2, 3, 3, 0, 0};
    check_plan("4x2", 10, NULL, grid);
    static const unsigned list[] = {0, 1, 0, 2, 2, 0, 1};
    check_plan("0,1,0,2,2", 7, NULL, list);
    static const unsigned uneven[] = {5, 5, 5, 1, 0, 0};
    check_plan(" 5, 5,5,1 ,0,0 ", 6, NULL, uneven);
    static const int places[] = {3, 2, 1, 0, 5};
    static const unsigned bound[] = {1, 1, 0, 0, 0};
    check_plan("2x2", 5, places, bound);
    static const unsigned one[] = {0, 0, 0};
    check_plan("1x1", 3, NULL, one);

    const char *invalid[] = {"0x3", "3x0", "3x", "x2", "1,2,", ",1", "1,,2", "", "a", "4x2x1",
                             "5000x1", "1,4096", "-1,0"};
    for (size_t i = 0; i < sizeof invalid / sizeof invalid[0]; i++)
        check_invalid(invalid[i]);
    printf("ok   %zu invalid values refused\n", sizeof invalid / sizeof invalid[0]);

    if (xomp_test_failures) {
        fprintf(stderr, "FAIL: %d check(s) failed\n", xomp_test_failures);
        return 1;
    }
    return 0;
}
