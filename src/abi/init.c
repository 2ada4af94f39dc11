/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Library start-up and the version query. */
#include "../../include/xomp.h"
#include "../runtime/affinity_format.h"
#include "../runtime/allocator.h"
#include "../runtime/config.h"
#include "../runtime/target.h"
#include "../runtime/teams.h"
#include "../runtime/thread.h"
#include "../prof/dump.h"
#include "../prof/stats.h"
#include "../topo/cpus.h"
#include "../topo/numa.h"
#include "../tool/ompt.h"
#include "../topo/topo.h"
#include "abi.h"

#include <stdlib.h>

void xomp_thread_init(void);

XOMP_EXPORT const char *xomp_version(void)
{
    return XOMP_VERSION_STRING;
}

__attribute__((constructor)) static void xomp_init(void)
{
    /* The process's CPUs first: the CPU count, the places and the NUMA map
     * start from them.  Gives the initial thread its CPUs back if the
     * system libgomp, loaded too under LD_PRELOAD, bound it (topo/cpus.h). */
    xomp_cpus_init();
    xomp_config_init();
    xomp_wait_init(); /* the sleepers' process-wide fence (membarrier) */
    xomp_prof_init(); /* the clock, before the first thread state records */
    /* The variables of the allocator, affinity-format, teams and target
     * modules; before any thread exists or is bound. */
    xomp_allocator_env_init();
    xomp_affinity_env_init();
    xomp_teams_env_init();
    xomp_target_env_init();
    xomp_places_init();
    xomp_topology_init(); /* before the initial thread is bound below */
    if (xomp_places_count() > 0) {
        /* OMP_PLACES or GOMP_CPU_AFFINITY alone turns binding on (bind-var
         * true), as in libgomp. */
        if ((xomp_cfg.places || xomp_cfg.cpu_affinity) && !xomp_cfg.bind_list_len)
            xomp_cfg.icv.bind = XOMP_BIND_TRUE;
        xomp_cfg.icv.part_first = 0;
        xomp_cfg.icv.part_len = (uint16_t)xomp_places_count();
    }
    xomp_thread_init();
    /* With binding on, the initial thread sits on the first place. */
    if (xomp_cfg.icv.bind != XOMP_BIND_FALSE && xomp_places_count() > 0 &&
        xomp_place_bind_self(0))
        xomp_self()->place = 0;
    if (xomp_cfg.stats)
        atexit(xomp_stats_print);
    if (xomp_cfg.display_env)
        xomp_display_env(xomp_cfg.display_env == 2);
    /* Last: a tool sees a runtime that is ready (OMPT, src/tool). */
    xomp_ompt_init();
}
