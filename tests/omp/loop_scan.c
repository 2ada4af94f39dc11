/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* XOMP_TEST_GCC_ONLY: clang 14 miscompiles these scans (they crash on libomp too). */
/*
 * Scans: worksharing loops with reduction(inscan, ...) and `scan
 * inclusive` / `scan exclusive`.  GCC lowers them to GOMP_loop_start with
 * only the `mem` argument (a buffer shared by the team, holding each
 * member's partial sum) and a static schedule it computes itself, with
 * barriers between its phases.  Checked against the sequential prefix
 * sums, for several loop lengths (fewer iterations than members too),
 * in a parallel region, as a combined `parallel for`, and several scans
 * in a row in one region (the buffer of one construct must not leak into
 * the next).
 */
#include "xomp_test.h"

#define MAXN 5000

static int in[MAXN];
static long inclusive[MAXN], exclusive[MAXN];
static double dincl[MAXN];

static long want_incl[MAXN], want_excl[MAXN];

/* The sequential prefix sums of in[0 .. n-1]. */
static void expected(int n)
{
    long s = 0;
    for (int i = 0; i < n; i++) {
        want_excl[i] = s;
        s += in[i];
        want_incl[i] = s;
    }
}

/* Prefix sums that differ from the sequential ones (excl, d: if given). */
static int count_wrong(int n, const long *excl, const double *d)
{
    expected(n);
    int bad = 0;
    for (int i = 0; i < n; i++)
        bad += inclusive[i] != want_incl[i] || (excl && excl[i] != want_excl[i]) ||
               (d && d[i] != want_incl[i] * 0.5);
    return bad;
}

static int scans_in_region(int n)
{
    long x = 0, y = 0;
    double d = 0;
#pragma omp parallel
    {
#pragma omp for reduction(inscan, + : x)
        for (int i = 0; i < n; i++) {
            x += in[i];
#pragma omp scan inclusive(x)
            inclusive[i] = x;
        }
#pragma omp for reduction(inscan, + : y)
        for (int i = 0; i < n; i++) {
            exclusive[i] = y;
#pragma omp scan exclusive(y)
            y += in[i];
        }
#pragma omp for reduction(inscan, + : d)
        for (int i = 0; i < n; i++) {
            d += in[i] * 0.5;
#pragma omp scan inclusive(d)
            dincl[i] = d;
        }
    }
    int bad = count_wrong(n, exclusive, dincl);
    CHECK(!n || x == want_incl[n - 1], "n=%d: inclusive scan total %ld", n, x);
    CHECK(!n || y == want_incl[n - 1], "n=%d: exclusive scan total %ld", n, y);
    return bad;
}

static int combined_scan(int n)
{
    long x = 0;
#pragma omp parallel for reduction(inscan, + : x)
    for (int i = 0; i < n; i++) {
        x += in[i];
#pragma omp scan inclusive(x)
        inclusive[i] = x;
    }
    return count_wrong(n, NULL, NULL);
}

int main(void)
{
    for (int i = 0; i < MAXN; i++)
        in[i] = (i * 37) % 11 - 3;
    static const int lengths[] = {0, 1, 3, 7, 64, 1000, MAXN};
    for (unsigned k = 0; k < sizeof lengths / sizeof lengths[0]; k++) {
        int n = lengths[k];
        int bad = scans_in_region(n);
        CHECK(bad == 0, "n=%d: %d prefix sums wrong in a region", n, bad);
        bad = combined_scan(n);
        CHECK(bad == 0, "n=%d: %d prefix sums wrong in parallel for", n, bad);
    }
    return test_result();
}
