/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* OMP_DISPLAY_ENV / omp_display_env(): libgomp's layout, plus xomp's banner
 * and its own XOMP_* settings. */
#include "config.h"
#include "../prof/dump.h"
#include "../topo/numa.h"
#include "../tool/ompt.h"
#include "../topo/topo.h"
#include "affinity_format.h"
#include "allocator.h"
#include "target.h"
#include "teams.h"

#include <limits.h>
#include <stdio.h>

static const char *bool_word(bool b)
{
    return b ? "TRUE" : "FALSE";
}

/* GCC 12's libgomp shows primary by its old name. */
static const char *bind_word(unsigned b)
{
    static const char *const words[] = {"FALSE", "TRUE", "MASTER", "CLOSE", "SPREAD"};
    return b < 5 ? words[b] : "?";
}

/* The modifier is shown where it is not the kind's default (monotonic for
 * static, nonmonotonic for the others), as libgomp does. */
static void print_schedule(FILE *f, const struct xomp_icv *icv)
{
    static const char *const kinds[] = {"?", "STATIC", "DYNAMIC", "GUIDED", "AUTO"};
    int kind = icv->run_sched_kind & ~XOMP_SCHED_MONOTONIC;
    bool monotonic = (icv->run_sched_kind & XOMP_SCHED_MONOTONIC) != 0;
    const char *modifier = "";
    if (kind == XOMP_SCHED_STATIC && !monotonic)
        modifier = "NONMONOTONIC:";
    else if (kind != XOMP_SCHED_STATIC && monotonic)
        modifier = "MONOTONIC:";
    fprintf(f, "  OMP_SCHEDULE = '%s%s", modifier, kinds[kind >= 1 && kind <= 4 ? kind : 0]);
    if (kind != XOMP_SCHED_AUTO && icv->run_sched_chunk > (kind == XOMP_SCHED_STATIC ? 0 : 1))
        fprintf(f, ",%d", icv->run_sched_chunk);
    fputs("'\n", f);
}

void xomp_display_env(bool verbose)
{
    const struct xomp_config *c = &xomp_cfg;
    const struct xomp_icv *icv = &c->icv;
    FILE *f = stderr;
    flockfile(f);
    fputs("\nOPENMP DISPLAY ENVIRONMENT BEGIN\n", f);
    fprintf(f, "  XOMP = 'xomp %s, a lock-less OpenMP runtime (GNU libgomp ABI)'\n",
            XOMP_VERSION_STRING);
    fputs("  _OPENMP = '201511'\n", f);
    fprintf(f, "  OMP_DYNAMIC = '%s'\n", bool_word(icv->dyn));
    fprintf(f, "  OMP_NESTED = '%s'\n", bool_word(icv->max_active_levels > 1));
    fputs("  OMP_NUM_THREADS = '", f);
    if (c->nthreads_list_len)
        for (unsigned i = 0; i < c->nthreads_list_len; i++)
            fprintf(f, "%s%u", i ? "," : "", c->nthreads_list[i]);
    else
        fprintf(f, "%u", icv->nthreads);
    fputs("'\n", f);
    print_schedule(f, icv);
    fputs("  OMP_PROC_BIND = '", f);
    if (c->bind_list_len)
        for (unsigned i = 0; i < c->bind_list_len; i++)
            fprintf(f, "%s%s", i ? "," : "", bind_word(c->bind_list[i]));
    else
        fputs(bind_word(icv->bind), f);
    fputs("'\n  OMP_PLACES = '", f);
    xomp_places_print(f);
    fputs("'\n", f);
    fprintf(f, "  OMP_STACKSIZE = '%zu'\n", c->stacksize);
    fprintf(f, "  OMP_WAIT_POLICY = '%s'\n",
            c->wait_policy == XOMP_WAIT_ACTIVE ? "ACTIVE" : "PASSIVE");
    /* libgomp shows "no limit" as UINT_MAX. */
    fprintf(f, "  OMP_THREAD_LIMIT = '%u'\n",
            icv->thread_limit == INT_MAX ? UINT_MAX : icv->thread_limit);
    fprintf(f, "  OMP_MAX_ACTIVE_LEVELS = '%u'\n", icv->max_active_levels);
    fprintf(f, "  OMP_NUM_TEAMS = '%d'\n", xomp_nteams());
    fprintf(f, "  OMP_TEAMS_THREAD_LIMIT = '%d'\n", xomp_teams_thread_limit());
    fprintf(f, "  OMP_CANCELLATION = '%s'\n", bool_word(c->cancellation));
    fprintf(f, "  OMP_DEFAULT_DEVICE = '%d'\n", icv->default_device);
    fprintf(f, "  OMP_MAX_TASK_PRIORITY = '%u'\n", c->max_task_priority);
    fprintf(f, "  OMP_DISPLAY_AFFINITY = '%s'\n", bool_word(xomp_display_affinity));
    fprintf(f, "  OMP_AFFINITY_FORMAT = '%s'\n", xomp_affinity_format());
    const char *allocator = xomp_allocator_name(icv->def_allocator);
    fprintf(f, "  OMP_ALLOCATOR = '%s'\n", allocator ? allocator : "omp_default_mem_alloc");
    fprintf(f, "  OMP_TARGET_OFFLOAD = '%s'\n", xomp_target_offload_name());
    xomp_ompt_display_env(f); /* OMP_TOOL, OMP_TOOL_LIBRARIES, OMP_TOOL_VERBOSE_INIT */
    if (verbose) {
        fputs("  GOMP_CPU_AFFINITY = ''\n", f);
        fprintf(f, "  GOMP_STACKSIZE = '%zu'\n", c->stacksize);
        if (c->spin_ns == UINT64_MAX)
            fputs("  GOMP_SPINCOUNT = 'INFINITE'\n", f);
        else
            fprintf(f, "  GOMP_SPINCOUNT = '%llu'\n",
                    (unsigned long long)(c->spin_ns / XOMP_NS_PER_GOMP_SPIN));
    }
    fprintf(f, "  XOMP_QUEUE_SIZE = '%u'\n", c->queue_size);
    fprintf(f, "  XOMP_SOLO = '%s'\n", c->solo == XOMP_SOLO_RUN ? "run" : "queue");
    fprintf(f, "  XOMP_BARRIER = '%s'\n", c->barrier == XOMP_BARRIER_TREE ? "tree" : "central");
    if (c->barrier_arity)
        fprintf(f, "  XOMP_BARRIER_ARITY = '%u'\n", c->barrier_arity);
    else
        fputs("  XOMP_BARRIER_ARITY = 'auto'\n", f);
    fprintf(f, "  XOMP_MAX_DEPTH = '%u'\n", c->max_depth);
    fprintf(f, "  XOMP_DLB = '%s'\n", xomp_dlb_name(c->dlb));
    if (c->dlb_steal == XOMP_DLB_STEAL_HALF)
        fputs("  XOMP_DLB_STEAL = 'half'\n", f);
    else
        fprintf(f, "  XOMP_DLB_STEAL = '%u'\n", c->dlb_steal);
    fprintf(f, "  XOMP_DLB_PLOCAL = '%g'\n", c->dlb_plocal);
    fputs("  XOMP_TOPOLOGY = '", f);
    xomp_topology_print(f);
    fputs("'\n", f);
    if (c->spin_ns == UINT64_MAX)
        fputs("  XOMP_SPIN_US = 'INFINITE'\n", f);
    else
        fprintf(f, "  XOMP_SPIN_US = '%llu'\n", (unsigned long long)(c->spin_ns / 1000));
    /* What OMP_WAIT_POLICY=active and GOMP_SPINCOUNT come to once threads
     * outnumber CPUs (wait.c). */
    fprintf(f, "  XOMP_SPIN_US_OVERSUBSCRIBED = '%llu'\n",
            (unsigned long long)(c->spin_ns_oversubscribed / 1000));
    fprintf(f, "  XOMP_TASKLOOP = '%s'\n", xomp_taskloop_mode_name(c->taskloop));
    fprintf(f, "  XOMP_ILAN_MOLD = '%s'\n", c->ilan_mold ? "on" : "off");
    fprintf(f, "  XOMP_ILAN_STRICT = '%g'\n", c->ilan_strict);
    if (c->ilan_bound)
        fputs("  XOMP_ILAN_BIND = 'TRUE (XOMP_TASKLOOP=ilan and no binding was asked for: "
              "threads are bound, one per place)'\n", f);
    fprintf(f, "  XOMP_HOME_LAPSE_MS = '%llu'\n",
            (unsigned long long)(c->home_lapse_ns / 1000000));
    fprintf(f, "  XOMP_REPLAY = '%s'\n", xomp_replay_auto_name(c->replay));
    fprintf(f, "  XOMP_REPLAY_PRUNE = '%u'\n", c->replay_prune);
    fprintf(f, "  XOMP_REPLAY_PRUNE_RUNS = '%u'\n", c->replay_prune_runs);
    fprintf(f, "  XOMP_PROFILE = '%s'\n", xomp_profile_mode_name(c->profile));
    if (verbose) {
        char dir[4096];
        xomp_prof_default_dir(dir, sizeof dir);
        fprintf(f, "  XOMP_PROFILE_EVENTS = '%u'\n", c->profile_events);
        fprintf(f, "  XOMP_PROFILE_DIR = '%s'\n", dir);
    }
    fputs("OPENMP DISPLAY ENVIRONMENT END\n", f);
    funlockfile(f);
}
