/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "stats.h"

#include "../locality/ilan.h"
#include "../locality/replay.h"
#include "../runtime/thread.h"

#include <stdio.h>

static const char *const field_names[] = {
#define XOMP_STATS_NAME(name, text) #name,
    XOMP_STATS_FIELDS(XOMP_STATS_NAME)
#undef XOMP_STATS_NAME
};
static const char *const field_texts[] = {
#define XOMP_STATS_TEXT(name, text) text,
    XOMP_STATS_FIELDS(XOMP_STATS_TEXT)
#undef XOMP_STATS_TEXT
};
#define NFIELDS (sizeof field_names / sizeof field_names[0])

struct totals {
    uint64_t sum[NFIELDS];
    unsigned threads;
};

static void add_thread(struct xomp_thread *thr, void *arg)
{
    struct totals *tot = arg;
    if (!xomp_prof_thread_current(thr))
        return; /* counts from before xomp_profile_reset */
    const uint64_t *v = (const uint64_t *)&thr->stats;
    bool any = false;
    for (size_t i = 0; i < NFIELDS; i++)
        any |= v[i] != 0;
    if (!any)
        return;
    fprintf(stderr, "xomp stats: thread %u:", tot->threads++);
    for (size_t i = 0; i < NFIELDS; i++) {
        tot->sum[i] += v[i];
        if (v[i])
            fprintf(stderr, " %s=%llu", field_names[i], (unsigned long long)v[i]);
    }
    fputc('\n', stderr);
}

void xomp_stats_print(void)
{
    struct totals tot = {{0}, 0};
    /* Threads of teams the exiting thread did not lead (other user threads'
     * regions) may in principle still run; a slightly stale value then
     * only misreports a statistic. */
    /* Members of the exiting thread's last teams may still be leaving
     * their last region, counting its final idle polls: wait until they
     * have left, so that the totals add up (outside a region only; an exit
     * inside one reports the counts as they are). */
    struct xomp_thread *self = xomp_tls;
    if (self && !self->team)
        xomp_team_quiesce(self);
    xomp_threads_foreach(add_thread, &tot);
    fprintf(stderr, "xomp stats: totals over %u threads\n", tot.threads);
    for (size_t i = 0; i < NFIELDS; i++)
        fprintf(stderr, "xomp stats: %14llu  %-16s %s\n", (unsigned long long)tot.sum[i],
                field_names[i], field_texts[i]);
    if (xomp_cfg.taskloop == XOMP_TASKLOOP_ILAN)
        xomp_ilan_stats_print(stderr);
    xomp_replay_stats_print(stderr);
}
