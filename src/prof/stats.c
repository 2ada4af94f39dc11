/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "stats.h"

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
    /* Counters are read while other threads may (in principle) still run;
     * at exit they are docked or asleep, and a slightly stale value only
     * misreports a statistic. */
    xomp_threads_foreach(add_thread, &tot);
    fprintf(stderr, "xomp stats: totals over %u threads\n", tot.threads);
    for (size_t i = 0; i < NFIELDS; i++)
        fprintf(stderr, "xomp stats: %14llu  %-16s %s\n", (unsigned long long)tot.sum[i],
                field_names[i], field_texts[i]);
}
