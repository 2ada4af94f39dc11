/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Reports of the recorded regions (replay.h): XOMP_STATS=1 at exit, and
 * the profile dump's replay.csv (docs/profiling.md).
 */
#include "replay_ctx.h"

#include <inttypes.h>

static const char *const mode_names[] = {"record", "stows", "stuws", "relws"};

static const char *kind_name(enum xomp_tree_kind k)
{
    return k == XOMP_TREE_PARALLEL ? "parallel" : "taskgroup";
}

/* The affinity of an execution, or -1 when it had nothing to compare with. */
static double affinity_of(const struct xomp_replay_counts *k)
{
    if (!k->expected || !k->tasks)
        return -1;
    uint64_t mis = k->mismatched < k->tasks ? k->mismatched : k->tasks;
    return 1.0 - (double)mis / (double)k->tasks;
}

/* Row j (0: the oldest kept) of entry e. */
static const struct xomp_rp_row *row_at(const struct xomp_rp_entry *e, unsigned j)
{
    uint64_t first = e->executions - e->nhistory; /* executions before the kept ones */
    return &e->history[(first + j) % XOMP_RP_HISTORY];
}

bool xomp_replay_recorded_any(void)
{
    xomp_rp_table_lock();
    bool any = xomp_rp_table_size() != 0;
    xomp_rp_table_unlock();
    return any;
}

void xomp_replay_stats_print(FILE *f)
{
    xomp_rp_table_lock();
    unsigned n = xomp_rp_table_size();
    for (unsigned i = 0; i < n; i++) {
        const struct xomp_rp_entry *e = xomp_rp_table_at(i);
        if (!e->executions)
            continue;
        struct xomp_replay_counts sum = {0};
        for (unsigned j = 0; j < e->nhistory; j++) {
            const struct xomp_replay_counts *k = &row_at(e, j)->counts;
            sum.recorded += k->recorded;
            sum.honoured += k->honoured;
            sum.overridden += k->overridden;
            sum.unrecorded += k->unrecorded;
            sum.applied += k->applied;
        }
        fprintf(f,
                "xomp stats: replay %s %s: %" PRIu64 " executions (last %u: steal points "
                "recorded %" PRIu64 ", applied %" PRIu64 ", honoured %" PRIu64
                ", overridden %" PRIu64 ", unrecorded %" PRIu64 ")\n",
                kind_name(e->kind), e->name, e->executions, e->nhistory, sum.recorded,
                sum.applied, sum.honoured, sum.overridden, sum.unrecorded);
        fprintf(f, "xomp stats: replay %s affinity over executions:", e->name);
        unsigned shown = e->nhistory < 32 ? e->nhistory : 32;
        for (unsigned j = e->nhistory - shown; j < e->nhistory; j++) {
            const struct xomp_rp_row *r = row_at(e, j);
            double a = affinity_of(&r->counts);
            if (a < 0)
                fprintf(f, " %" PRIu64 ":-", r->execution);
            else
                fprintf(f, " %" PRIu64 ":%.3f", r->execution, a);
        }
        fputc('\n', f);
    }
    xomp_rp_table_unlock();
}

bool xomp_replay_write_csv(FILE *f)
{
    fprintf(f, "region,kind,execution,mode,threads,tasks,applied,recorded,honoured,"
               "overridden,unrecorded,affinity,seconds\n");
    xomp_rp_table_lock();
    unsigned n = xomp_rp_table_size();
    for (unsigned i = 0; i < n; i++) {
        const struct xomp_rp_entry *e = xomp_rp_table_at(i);
        for (unsigned j = 0; j < e->nhistory; j++) {
            const struct xomp_rp_row *r = row_at(e, j);
            const struct xomp_replay_counts *k = &r->counts;
            double a = affinity_of(k);
            /* Names are symbols (no comma or quote) or addresses. */
            fprintf(f,
                    "%s,%s,%" PRIu64 ",%s,%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
                    ",%" PRIu64 ",%" PRIu64 ",",
                    e->name, kind_name(e->kind), r->execution, mode_names[r->mode], r->nthreads,
                    k->tasks, k->applied, k->recorded, k->honoured, k->overridden,
                    k->unrecorded);
            if (a < 0)
                fputc(',', f);
            else
                fprintf(f, "%.6f,", a);
            fprintf(f, "%.9f\n", r->seconds);
        }
    }
    xomp_rp_table_unlock();
    return !ferror(f);
}
