/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * XOMP_* variables that xomp does not know: most likely a typo of one it
 * does (XOMP_DLB_STEEL), which would otherwise be ignored without a word.
 * One line each, naming the nearest known setting when one is close.
 */
#include "config.h"
#include "log.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

extern char **environ;

/* Every XOMP_* setting the runtime reads (env.c, wait.c, prof/; a new one
 * goes here too, or it is reported as unknown), and the retired ones that
 * get their own line (env.c). */
static const char *const known[] = {
    "XOMP_BARRIER",       "XOMP_BARRIER_ARITY",  "XOMP_DLB",
    "XOMP_DLB_PLOCAL",    "XOMP_DLB_STEAL",      "XOMP_MAX_DEPTH",
    "XOMP_PROFILE",       "XOMP_PROFILE_DIR",    "XOMP_PROFILE_EVENTS",
    "XOMP_PUBLISH_FENCE", "XOMP_QUEUE_SIZE",     "XOMP_SOLO",
    "XOMP_SPIN_US",       "XOMP_SPIN_US_OVERSUBSCRIBED",
    "XOMP_STATS",         "XOMP_TOPOLOGY",       "XOMP_TASKLOOP",
    "XOMP_ILAN_MOLD",     "XOMP_ILAN_STRICT",    "XOMP_HOME_LAPSE_MS",
    "XOMP_REPLAY",        "XOMP_REPLAY_PRUNE",   "XOMP_REPLAY_PRUNE_RUNS",
    "XOMP_YIELD_HANDS_OVER",
    /* retired */
    "XOMP_DLB_INTERVAL",  "XOMP_DLB_ROUND_START", "XOMP_DLB_VICTIMS",
    "XOMP_PLACEMENT",
};

/* Not settings of the runtime: what xomp's own build and test tools put
 * in the environment of the programs they run. */
static bool tool_variable(const char *name, size_t len)
{
    static const char *const tools[] = {"XOMP_SANITIZE", "XOMP_JOBS", "XOMP_SCRATCH",
                                         "XOMP_MPI_TEST_TIMEOUT"};
    if (len >= 10 && !strncmp(name, "XOMP_TEST_", 10))
        return true;
    for (size_t i = 0; i < sizeof tools / sizeof tools[0]; i++)
        if (strlen(tools[i]) == len && !strncmp(name, tools[i], len))
            return true;
    return false;
}

/* Edit distance (insertions, deletions, substitutions and swaps of two
 * neighbours) between a[0..la) and b[0..lb), both at most 63 long. */
static unsigned edit_distance(const char *a, size_t la, const char *b, size_t lb)
{
    unsigned d[64][64];
    for (size_t i = 0; i <= la; i++)
        d[i][0] = (unsigned)i;
    for (size_t j = 0; j <= lb; j++)
        d[0][j] = (unsigned)j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            unsigned cost = a[i - 1] != b[j - 1];
            unsigned best = d[i - 1][j - 1] + cost;
            if (d[i - 1][j] + 1 < best)
                best = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < best)
                best = d[i][j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                d[i - 2][j - 2] + 1 < best)
                best = d[i - 2][j - 2] + 1;
            d[i][j] = best;
        }
    return d[la][lb];
}

/* The known name nearest to name[0..len), if it is near enough to be what
 * was meant: at most a third of the edits the part after "XOMP_" has
 * letters (at least 1); else NULL. */
static const char *nearest_known(const char *name, size_t len)
{
    const char *best = NULL;
    unsigned best_distance = ~0u;
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
        unsigned d = edit_distance(name + 5, len - 5, known[i] + 5, strlen(known[i]) - 5);
        if (d < best_distance) {
            best_distance = d;
            best = known[i];
        }
    }
    unsigned near = (len - 5) / 3 > 1 ? (unsigned)((len - 5) / 3) : 1;
    return best_distance <= near ? best : NULL;
}

void xomp_env_check_names(void)
{
    for (char **e = environ; e && *e; e++) {
        const char *entry = *e;
        if (strncmp(entry, "XOMP_", 5))
            continue;
        const char *eq = strchr(entry, '=');
        size_t len = eq ? (size_t)(eq - entry) : strlen(entry);
        bool is_known = false;
        for (size_t i = 0; i < sizeof known / sizeof known[0] && !is_known; i++)
            is_known = strlen(known[i]) == len && !strncmp(entry, known[i], len);
        if (is_known || tool_variable(entry, len))
            continue;
        const char *meant = len < 64 ? nearest_known(entry, len) : NULL;
        if (meant)
            xomp_warn("unknown environment variable %.*s ignored; did you mean %s?", (int)len,
                      entry, meant);
        else
            xomp_warn("unknown environment variable %.*s ignored (OMP_DISPLAY_ENV=true lists "
                      "xomp's settings)",
                      (int)len, entry);
    }
}
