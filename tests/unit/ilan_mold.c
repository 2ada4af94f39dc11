/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * ILAN's moldability search (src/locality/mold.c), deterministic:
 *
 *   - the search alone, driven by a synthetic time per unit count: the
 *     seed's sequence (warm-up, all, half, one, bisection between the two
 *     fastest counts until adjacent, one `full` trial), its choice, the
 *     fastest units first, never more units than tasks, re-exploration
 *     when the chosen configuration's time drifts, and no search when it
 *     is off;
 *   - the same through the real runtime: a taskloop run over and over
 *     (GOMP_taskloop, 8 members on a virtual topology of 4 nodes) whose
 *     measured time is replaced by the test hook xomp_ilan_time_hook, so
 *     the sequence cannot depend on the machine's load; every iteration
 *     runs exactly once, only selected nodes run tasks, and when the time
 *     function changes so that the chosen count gets slower the search
 *     runs again and finds the new best count.
 */
#include "locality/ilan.h"
#include "locality/mold.h"
#include "runtime/config.h"
#include "runtime/thread.h"
#include "task/task_core.h"
#include "topo/numa.h"

#include "check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void GOMP_parallel(void (*fn)(void *), void *data, unsigned num_threads, unsigned flags);
void GOMP_taskloop(void (*fn)(void *), void *data, void (*cpyfn)(void *, void *), long arg_size,
                   long arg_align, unsigned flags, unsigned long num_tasks, int priority,
                   long start, long end, long step);

/* ---- the search alone ---- */

/* Time of k units: best at `best`, growing by 1 per unit away from it;
 * `full` costs `full_extra` more. */
static double synthetic(unsigned k, bool full, unsigned best, double full_extra)
{
    return 1.0 + fabs((double)k - (double)best) + (full ? full_extra : 0.0);
}

/* Run the search until it exploits (at most 40 executions); the unit
 * counts (negative: `full`) of every execution go to seq[]. */
static int drive(struct xomp_mold *m, unsigned best, double full_extra, int *seq, int room,
                 const double *unit_times)
{
    int n = 0;
    while (m->phase != XOMP_MOLD_EXPLOIT && n < room) {
        struct xomp_mold_config c = xomp_mold_next(m);
        seq[n++] = c.full ? -(int)c.units : (int)c.units;
        xomp_mold_record(m, synthetic(c.units, c.full, best, full_extra), unit_times);
    }
    return n;
}

static void expect_seq(const char *what, const int *got, int n, const int *want, int wn)
{
    char g[256] = "", w[256] = "";
    for (int i = 0; i < n; i++)
        snprintf(g + strlen(g), sizeof g - strlen(g), "%d ", got[i]);
    for (int i = 0; i < wn; i++)
        snprintf(w + strlen(w), sizeof w - strlen(w), "%d ", want[i]);
    CHECK(n == wn && !memcmp(got, want, (size_t)n * sizeof *got), "%s: sequence %s, expected %s",
          what, g, w);
}

static void search_alone(void)
{
    struct xomp_mold m;
    int seq[64], n;

    /* 8 units, best at 2: warm-up 8, then 8, 4, 1 (4 beat 8), bisection
     * between 1 and 4 gives 2, then 2 and 1 are adjacent: 2, and its full
     * trial, which is slower. */
    xomp_mold_init(&m, 8, 1000, true);
    n = drive(&m, 2, 0.5, seq, 64, NULL);
    expect_seq("8 units, best 2", seq, n, (int[]){8, 8, 4, 1, 2, -2}, 6);
    CHECK(m.chosen.units == 2 && !m.chosen.full, "8 units, best 2: chose %u%s", m.chosen.units,
          m.chosen.full ? " full" : "");

    /* Best at 7 (half is slower than all): 8, 4, then bisection 8/4 -> 6,
     * 6/8 (equal times: the smaller count first) -> 7, then 7 and 6 are
     * adjacent: 7; full is faster and kept. */
    xomp_mold_init(&m, 8, 1000, true);
    n = drive(&m, 7, -0.25, seq, 64, NULL);
    expect_seq("8 units, best 7", seq, n, (int[]){8, 8, 4, 6, 7, -7}, 6);
    CHECK(m.chosen.units == 7 && m.chosen.full, "8 units, best 7: chose %u%s", m.chosen.units,
          m.chosen.full ? " full" : "");

    /* One unit is best: no full trial (nobody to share with). */
    xomp_mold_init(&m, 4, 1000, true);
    n = drive(&m, 1, 0.0, seq, 64, NULL);
    expect_seq("4 units, best 1", seq, n, (int[]){4, 4, 2, 1}, 4);
    CHECK(m.chosen.units == 1, "4 units, best 1: chose %u", m.chosen.units);

    /* The fastest units first: after the all-unit run with these unit
     * times, two units are units 1 and 3. */
    double unit_times[8] = {5, 1, 4, 2, 6, 7, 8, 9};
    xomp_mold_init(&m, 8, 1000, true);
    xomp_mold_record(&m, 1.0, NULL);        /* warm-up */
    xomp_mold_record(&m, 9.0, unit_times); /* all units */
    CHECK(xomp_mold_fastest(&m, 2) == ((1u << 1) | (1u << 3)), "fastest 2 units: mask %#llx",
          (unsigned long long)xomp_mold_fastest(&m, 2));
    CHECK(xomp_mold_next(&m).mask == 0xf /* units 1, 3, 2, 0 */,
          "half of 8 units after those times: mask %#llx",
          (unsigned long long)xomp_mold_next(&m).mask);

    /* Never more units than tasks. */
    xomp_mold_init(&m, 8, 3, true);
    CHECK(xomp_mold_next(&m).units == 3 && xomp_mold_next(&m).mask == 7,
          "3 tasks on 8 units: first configuration %u units", xomp_mold_next(&m).units);

    /* Drift: the first 3 executions of the choice (2) set its reference,
     * their median (1.1); later, a streak of 2 executions 50% slower does
     * not count, 3 start the search again, which finds the new best, 5:
     * all, half (faster), one (slower), bisection 4/8 -> 6, 4/6 (equal:
     * the smaller first) -> 5. */
    xomp_mold_init(&m, 8, 1000, true);
    drive(&m, 2, 0.5, seq, 64, NULL);
    xomp_mold_record(&m, 1.0, NULL);
    xomp_mold_record(&m, 1.6, NULL);
    xomp_mold_record(&m, 1.1, NULL);
    CHECK(m.reference == 1.1, "reference time %g, expected the median 1.1", m.reference);
    for (int k = 0; k < 2; k++)
        xomp_mold_record(&m, 1.7, NULL);
    xomp_mold_record(&m, 1.0, NULL);
    CHECK(m.phase == XOMP_MOLD_EXPLOIT, "a streak of 2 slow runs started a new search");
    for (int k = 0; k < 3; k++)
        xomp_mold_record(&m, 1.7, NULL);
    CHECK(m.phase == XOMP_MOLD_EXPLORE && m.searches == 2 && xomp_mold_next(&m).units == 8,
          "3 slow runs: phase %s, %u searches", xomp_mold_phase_name(m.phase), m.searches);
    n = drive(&m, 5, 0.5, seq, 64, NULL);
    expect_seq("re-exploration, best 5", seq, n, (int[]){8, 4, 1, 6, 5, -5}, 6);
    CHECK(m.chosen.units == 5, "re-exploration: chose %u", m.chosen.units);

    /* Search off: always all units, strict. */
    xomp_mold_init(&m, 4, 1000, false);
    for (int k = 0; k < 5; k++)
        xomp_mold_record(&m, 1.0 + k, NULL);
    CHECK(m.phase == XOMP_MOLD_EXPLOIT && xomp_mold_next(&m).units == 4 &&
              !xomp_mold_next(&m).full,
          "search off: %u units", xomp_mold_next(&m).units);
}

/* ---- the search in the runtime ---- */

#define MEMBERS 8
#define ITERS 4096
#define LIVE_RUNS 40

struct loop_args {
    long start, end;
    _Atomic int *hits;
    _Atomic int *node_ran; /* iterations run per NUMA node */
};

static _Atomic int hits[ITERS];
static _Atomic int node_ran[4];
static unsigned live_best = 1; /* the synthetic function's best unit count */

static double live_time(const struct xomp_mold_config *cfg, unsigned unit)
{
    (void)unit;
    return 1e-3 * synthetic(cfg->units, cfg->full, live_best, 0.5);
}

static void body(void *p)
{
    struct loop_args *a = p;
    unsigned node = xomp_self()->worker->map.node;
    for (long i = a->start; i < a->end; i++) {
        atomic_fetch_add(&a->hits[i], 1);
        atomic_fetch_add(&a->node_ran[node], 1);
    }
}

static void region(void *arg)
{
    (void)arg;
    if (xomp_self()->team_id != 0)
        return;
    struct loop_args a = {0, 0, hits, node_ran};
    GOMP_taskloop(body, &a, NULL, sizeof a, _Alignof(struct loop_args), GOMP_TASK_FLAG_IF, 0, 0,
                  0, ITERS, 1);
}

static void set_topology(const char *spec)
{
    snprintf(xomp_cfg.topology, sizeof xomp_cfg.topology, "%s", spec);
    xomp_cfg.topology_set = true;
    xomp_topology_init();
}

/* Run the taskloop `runs` times; the unit counts of the configurations it
 * ran go to seq[] (negative: full).  Checks every execution. */
static void run_live(int runs, int *seq)
{
    for (int r = 0; r < runs; r++) {
        struct xomp_mold_config next = {0xf, 4, false};
        enum xomp_mold_phase phase;
        unsigned searches;
        xomp_ilan_peek(body, &next, &phase, &searches);
        for (int i = 0; i < ITERS; i++)
            atomic_store(&hits[i], 0);
        for (int k = 0; k < 4; k++)
            atomic_store(&node_ran[k], 0);
        GOMP_parallel(region, NULL, MEMBERS, 0);
        int bad = 0;
        for (int i = 0; i < ITERS; i++)
            bad += atomic_load(&hits[i]) != 1;
        CHECK(!bad, "execution %d: %d iterations did not run exactly once", r, bad);
        for (int k = 0; k < 4; k++)
            CHECK(((next.mask >> k) & 1) || atomic_load(&node_ran[k]) == 0,
                  "execution %d (units %#llx): node %d, not selected, ran %d iterations", r,
                  (unsigned long long)next.mask, k, atomic_load(&node_ran[k]));
        seq[r] = next.full ? -(int)next.units : (int)next.units;
    }
}

static void search_live(void)
{
    set_topology("4x2");
    xomp_cfg.taskloop = XOMP_TASKLOOP_ILAN;
    xomp_cfg.ilan_mold = true;
    xomp_cfg.home_lapse_ns = 600ull * 1000000000ull; /* no lapse: a loaded machine is slow */
    xomp_ilan_time_hook = live_time;

    int seq[LIVE_RUNS];
    live_best = 1;
    run_live(10, seq);
    expect_seq("live, best 1", seq, 10, (int[]){4, 4, 2, 1, 1, 1, 1, 1, 1, 1}, 10);

    /* The function changes: one unit is now the slowest.  3 slow runs
     * (the reference is set: 6 executions of the choice so far), then 4,
     * 2, 3 (bisection of 4 and 2), 4 full, then 4 strict. */
    live_best = 4;
    run_live(10, seq);
    expect_seq("live, best changed to 4", seq, 10, (int[]){1, 1, 1, 4, 2, 3, -4, 4, 4, 4}, 10);
    struct xomp_mold_config next;
    enum xomp_mold_phase phase;
    unsigned searches = 0;
    CHECK(xomp_ilan_peek(body, &next, &phase, &searches) && phase == XOMP_MOLD_EXPLOIT &&
              next.units == 4 && !next.full && searches == 2,
          "live: after the change, %u units (%s), %u searches", next.units,
          xomp_mold_phase_name(phase), searches);
}

int main(void)
{
    search_alone();
    search_live();
    xomp_ilan_stats_print(stdout);
    if (xomp_test_failures) {
        printf("FAIL: %d check(s) failed\n", xomp_test_failures);
        return 1;
    }
    printf("ok\n");
    return 0;
}
