/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* The moldability search (mold.h). */
#include "mold.h"

#include <string.h>

const char *xomp_mold_phase_name(enum xomp_mold_phase p)
{
    static const char *const names[] = {"warm-up", "explore", "steal", "exploit"};
    return (unsigned)p < 4 ? names[p] : "?";
}

static uint64_t low_units(unsigned k)
{
    return k >= 64 ? UINT64_MAX : (UINT64_C(1) << k) - 1;
}

uint64_t xomp_mold_fastest(const struct xomp_mold *m, unsigned k)
{
    if (k >= m->max_units || !m->have_unit_times)
        return low_units(k);
    /* k rounds of "the fastest unit not taken yet" (k <= 64). */
    uint64_t mask = 0;
    for (unsigned round = 0; round < k; round++) {
        int best = -1;
        for (unsigned u = 0; u < m->max_units; u++)
            if (!((mask >> u) & 1) && (best < 0 || m->unit_time[u] < m->unit_time[best]))
                best = (int)u;
        mask |= UINT64_C(1) << best;
    }
    return mask;
}

static struct xomp_mold_config config_of(const struct xomp_mold *m, unsigned k, bool full)
{
    struct xomp_mold_config c = {xomp_mold_fastest(m, k), (uint16_t)k, full};
    return c;
}

static void start_search(struct xomp_mold *m, enum xomp_mold_phase first)
{
    for (unsigned k = 0; k <= XOMP_MOLD_MAX_UNITS; k++)
        m->strict_time[k] = -1.0;
    m->phase = first;
    m->next = config_of(m, m->max_units, false);
    m->drift = 0;
    m->reference = 0;
    m->nbaseline = 0;
    m->searches++;
}

void xomp_mold_init(struct xomp_mold *m, unsigned nunits, uint64_t tasks, bool search)
{
    memset(m, 0, sizeof *m);
    if (nunits > XOMP_MOLD_MAX_UNITS)
        nunits = XOMP_MOLD_MAX_UNITS;
    if (nunits < 1)
        nunits = 1;
    m->nunits = nunits;
    m->max_units = tasks < nunits ? (unsigned)(tasks ? tasks : 1) : nunits;
    m->search = search && m->max_units > 1;
    if (m->search) {
        start_search(m, XOMP_MOLD_WARMUP);
    } else {
        m->phase = XOMP_MOLD_EXPLOIT;
        m->next = config_of(m, m->max_units, false);
    }
    m->chosen = m->next;
    m->chosen_seconds = -1.0;
}

/* The search is over: `count` units, strict, unless the steal trial says
 * otherwise. */
static void finish(struct xomp_mold *m, unsigned count)
{
    m->chosen = config_of(m, count, false);
    m->chosen_seconds = m->strict_time[count];
    if (count > 1) {
        m->phase = XOMP_MOLD_STEAL;
        m->next = m->chosen;
        m->next.full = true;
    } else {
        m->phase = XOMP_MOLD_EXPLOIT; /* one unit: nobody to share open tasks with */
        m->next = m->chosen;
    }
}

/* The counts with the smallest and second smallest strict times (ties: the
 * smaller count first). */
static void two_fastest(const struct xomp_mold *m, unsigned *a, unsigned *b)
{
    *a = *b = 0;
    for (unsigned k = 1; k <= m->max_units; k++) {
        double t = m->strict_time[k];
        if (t < 0)
            continue;
        if (!*a || t < m->strict_time[*a]) {
            *b = *a;
            *a = k;
        } else if (!*b || t < m->strict_time[*b]) {
            *b = k;
        }
    }
}

static void explore_step(struct xomp_mold *m)
{
    unsigned all = m->max_units, half = all / 2 ? all / 2 : 1;
    if (m->strict_time[half] < 0) {
        m->next = config_of(m, half, false);
        return;
    }
    if (m->strict_time[half] < m->strict_time[all] && m->strict_time[1] < 0) {
        m->next = config_of(m, 1, false);
        return;
    }
    unsigned a, b;
    two_fastest(m, &a, &b);
    unsigned lo = a < b ? a : b, hi = a < b ? b : a;
    if (!b || hi - lo <= 1) {
        finish(m, a);
        return;
    }
    unsigned mid = lo + (hi - lo) / 2;
    if (m->strict_time[mid] >= 0) {
        finish(m, a);
        return;
    }
    m->next = config_of(m, mid, false);
}

static double median_of_baseline(const struct xomp_mold *m)
{
    double v[XOMP_MOLD_DRIFT_RUNS];
    unsigned n = m->nbaseline;
    memcpy(v, m->baseline, n * sizeof *v);
    for (unsigned i = 1; i < n; i++) /* insertion sort: a few values */
        for (unsigned k = i; k > 0 && v[k] < v[k - 1]; k--) {
            double x = v[k];
            v[k] = v[k - 1];
            v[k - 1] = x;
        }
    return v[n / 2];
}

void xomp_mold_record(struct xomp_mold *m, double seconds, const double *unit_seconds)
{
    struct xomp_mold_config ran = m->next;
    m->executions++;
    if (m->phase != XOMP_MOLD_EXPLOIT && m->nlog < XOMP_MOLD_LOG)
        m->log[m->nlog++] = (struct xomp_mold_entry){ran, seconds, (uint8_t)m->phase};
    switch (m->phase) {
    case XOMP_MOLD_WARMUP:
        m->search_runs++;
        m->phase = XOMP_MOLD_EXPLORE;
        return;
    case XOMP_MOLD_EXPLORE:
        m->search_runs++;
        m->strict_time[ran.units] = seconds;
        if (ran.units == m->max_units && unit_seconds) {
            for (unsigned u = 0; u < m->max_units; u++)
                m->unit_time[u] = unit_seconds[u];
            m->have_unit_times = true;
        }
        explore_step(m);
        return;
    case XOMP_MOLD_STEAL:
        m->search_runs++;
        if (seconds < m->chosen_seconds) {
            m->chosen.full = true;
            m->chosen_seconds = seconds;
        }
        m->phase = XOMP_MOLD_EXPLOIT;
        m->next = m->chosen;
        return;
    case XOMP_MOLD_EXPLOIT:
        if (!m->search)
            return;
        if (m->nbaseline < XOMP_MOLD_DRIFT_RUNS) {
            m->baseline[m->nbaseline++] = seconds;
            if (m->nbaseline == XOMP_MOLD_DRIFT_RUNS)
                m->reference = median_of_baseline(m);
            return;
        }
        m->drift = seconds > XOMP_MOLD_DRIFT_FACTOR * m->reference ? m->drift + 1 : 0;
        if (m->drift >= XOMP_MOLD_DRIFT_RUNS)
            start_search(m, XOMP_MOLD_EXPLORE); /* no warm-up: the data is warm */
        return;
    }
}
