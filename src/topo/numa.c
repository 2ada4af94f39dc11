/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* The NUMA map (see numa.h): XOMP_TOPOLOGY, and the machine's nodes. */
#include "numa.h"

#include "../runtime/config.h"
#include "../runtime/log.h"
#include "../runtime/team.h"
#include "cpus.h"
#include "hwloc_lazy.h"
#include "topo.h"

#include <ctype.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define MAX_VIRTUAL_CORES 65536
#define MAX_VIRTUAL_NODES 4096

/* Virtual topology: node of each virtual core (NULL: the machine's). */
static uint16_t *virtual_node;
static unsigned virtual_cores;

/* The machine: the CPUs the process may use (its CPU set, cpus.h), and the
 * node of every CPU. */
static int machine_cpu[CPU_SETSIZE];
static int machine_ncpus;
static uint16_t machine_node[CPU_SETSIZE];
static pthread_once_t machine_once = PTHREAD_ONCE_INIT;

/* ---- XOMP_TOPOLOGY ---- */

static const char *skip_blanks(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* A decimal number in [0, max]; advances *s past it and trailing blanks. */
static bool read_number(const char **s, unsigned long max, unsigned long *out)
{
    const char *p = skip_blanks(*s);
    if (!isdigit((unsigned char)*p))
        return false;
    char *end;
    unsigned long v = strtoul(p, &end, 10);
    if (v > max)
        return false;
    *out = v;
    *s = skip_blanks(end);
    return true;
}

/* "NxC" */
static bool parse_grid(const char *s)
{
    unsigned long nodes, cores;
    if (!read_number(&s, MAX_VIRTUAL_NODES, &nodes) || nodes == 0 || (*s != 'x' && *s != 'X'))
        return false;
    s++;
    if (!read_number(&s, MAX_VIRTUAL_CORES, &cores) || cores == 0 || *s ||
        nodes * cores > MAX_VIRTUAL_CORES)
        return false;
    virtual_cores = (unsigned)(nodes * cores);
    virtual_node = malloc(virtual_cores * sizeof *virtual_node);
    if (!virtual_node)
        return false;
    for (unsigned k = 0; k < virtual_cores; k++)
        virtual_node[k] = (uint16_t)(k / cores);
    return true;
}

/* "a,b,c,..." */
static bool parse_list(const char *s)
{
    size_t count = 1;
    for (const char *p = s; *p; p++)
        count += *p == ',';
    if (count > MAX_VIRTUAL_CORES)
        return false;
    uint16_t *nodes = malloc(count * sizeof *nodes);
    if (!nodes)
        return false;
    for (size_t k = 0; k < count; k++) {
        unsigned long v;
        if (!read_number(&s, MAX_VIRTUAL_NODES - 1, &v) || (k + 1 < count ? *s != ',' : *s != 0)) {
            free(nodes);
            return false;
        }
        nodes[k] = (uint16_t)v;
        s++;
    }
    virtual_node = nodes;
    virtual_cores = (unsigned)count;
    return true;
}

void xomp_topology_init(void)
{
    /* (Called once at start-up; unit tests call it again with other
     * settings.) */
    free(virtual_node);
    virtual_node = NULL;
    virtual_cores = 0;
    machine_ncpus = 0;
    const cpu_set_t *set = xomp_cpus();
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, set))
            machine_cpu[machine_ncpus++] = cpu;
    if (machine_ncpus == 0)
        machine_cpu[machine_ncpus++] = 0;

    if (!xomp_cfg.topology_set)
        return;
    const char *s = skip_blanks(xomp_cfg.topology);
    size_t len = strlen(s);
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    if (len == 7 && !strncasecmp(s, "machine", 7))
        return;
    bool ok = strchr(s, 'x') || strchr(s, 'X') ? parse_grid(s) : parse_list(s);
    if (!ok) {
        free(virtual_node);
        virtual_node = NULL;
        virtual_cores = 0;
        xomp_env_invalid("XOMP_TOPOLOGY", xomp_cfg.topology, "the machine's topology");
        xomp_cfg.topology_set = false;
    }
}

void xomp_topology_print(FILE *f)
{
    fputs(virtual_cores ? xomp_cfg.topology : "machine", f);
}

/* ---- the machine, with hwloc ---- */

int xomp_topology_discover_hwloc(uint16_t *cpu_node, int ncpu)
{
    const struct xomp_hwloc *h = xomp_hwloc(NULL);
    hwloc_topology_t topo;
    if (!h || h->topology_init(&topo))
        return -1;
    /* Only NUMA nodes and CPUs (PUs) are needed; leaving out caches, cores,
     * I/O and the x86 CPUID backend makes loading several times faster. */
    h->topology_set_all_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE);
    h->topology_set_type_filter(topo, HWLOC_OBJ_PU, HWLOC_TYPE_FILTER_KEEP_ALL);
    h->topology_set_type_filter(topo, HWLOC_OBJ_NUMANODE, HWLOC_TYPE_FILTER_KEEP_ALL);
#if HWLOC_API_VERSION >= 0x00020100
    if (h->topology_set_components)
        h->topology_set_components(topo, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
#endif
    if (h->topology_load(topo)) {
        h->topology_destroy(topo);
        return -1;
    }
    int depth = h->get_type_depth(topo, HWLOC_OBJ_NUMANODE);
    int nodes = depth == HWLOC_TYPE_DEPTH_UNKNOWN ? 0 : h->get_nbobjs_by_depth(topo, depth);
    for (int i = 0; i < nodes; i++) {
        hwloc_obj_t node = h->get_obj_by_depth(topo, depth, (unsigned)i);
        for (int cpu = h->bitmap_first(node->cpuset); cpu >= 0 && cpu < ncpu;
             cpu = h->bitmap_next(node->cpuset, cpu))
            cpu_node[cpu] = (uint16_t)i;
    }
    h->topology_destroy(topo);
    return nodes > 0 ? nodes : 1;
}

static void discover_machine(void)
{
    /* A machine whose kernel shows no second node has one: every CPU is in
     * node 0 (machine_node is zeroed), and hwloc's few milliseconds of
     * loading are saved.  Otherwise hwloc tells. */
    if (access("/sys/devices/system/node/node1", F_OK) != 0)
        return;
    if (xomp_topology_discover_hwloc(machine_node, CPU_SETSIZE) < 0) {
        memset(machine_node, 0, sizeof machine_node);
        xomp_warn("cannot read the NUMA topology (hwloc); load balancing treats the machine "
                  "as one node");
    }
}

unsigned xomp_topology_member_node(const struct xomp_team *team, unsigned id)
{
    if (virtual_cores) {
        unsigned core = team->binding ? (unsigned)team->member_place[id] : id;
        return virtual_node[core % virtual_cores];
    }
    pthread_once(&machine_once, discover_machine);
    int cpu = team->binding ? xomp_place_first_cpu(team->member_place[id])
                            : machine_cpu[id % (unsigned)machine_ncpus];
    return cpu >= 0 && cpu < CPU_SETSIZE ? machine_node[cpu] : 0;
}

unsigned xomp_topology_nodes(void)
{
    unsigned last = 0;
    if (virtual_cores) {
        for (unsigned k = 0; k < virtual_cores; k++)
            last = virtual_node[k] > last ? virtual_node[k] : last;
        return last + 1;
    }
    pthread_once(&machine_once, discover_machine);
    for (int i = 0; i < machine_ncpus; i++)
        last = machine_node[machine_cpu[i]] > last ? machine_node[machine_cpu[i]] : last;
    return last + 1;
}
