/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The affinity-format routines with the fields every runtime writes the
 * same way (OpenMP 5.1: thread_num, num_threads, nesting_level, written
 * short or long): set, get (the length, and a short buffer truncated),
 * capture in a parallel region (each member's own numbers), display.
 * Also built with clang, whose omp.h renames these routines to libomp's
 * ompc_* names: the clang binary must load and run on xomp too.
 * (tests/omp/affinity_format.c checks libgomp's own fields, gcc only.)
 */
#include "xomp_test.h"

#include <stdio.h>

int main(void)
{
    const char *format = "T%n/%N L%{nesting_level}";
    omp_set_affinity_format(format);
    char got[64];
    size_t len = omp_get_affinity_format(got, sizeof got);
    CHECK(len == strlen(format) && !strcmp(got, format),
          "omp_get_affinity_format: %zu '%s' (expected %zu '%s')", len, got, strlen(format),
          format);
    char small[4];
    len = omp_get_affinity_format(small, sizeof small);
    CHECK(len == strlen(format) && !strcmp(small, "T%n"),
          "omp_get_affinity_format into 4 bytes: %zu '%s'", len, small);

    int bad = 0, members = 0;
#pragma omp parallel num_threads(2) reduction(+ : bad, members)
    {
        char line[64], want[64];
        snprintf(want, sizeof want, "T%d/%d L1", omp_get_thread_num(), omp_get_num_threads());
        size_t n = omp_capture_affinity(line, sizeof line, NULL);
        if (n != strlen(want) || strcmp(line, want)) {
            fprintf(stderr, "omp_capture_affinity: %zu '%s' (expected '%s')\n", n, line, want);
            bad++;
        }
        n = omp_capture_affinity(line, sizeof line, "%{thread_num}");
        snprintf(want, sizeof want, "%d", omp_get_thread_num());
        if (strcmp(line, want)) {
            fprintf(stderr, "omp_capture_affinity('%%{thread_num}'): '%s'\n", line);
            bad++;
        }
        members++;
    }
    CHECK(bad == 0, "%d captures differed", bad);
    CHECK(members >= 1, "no member ran");
    omp_display_affinity("display: %n of %N"); /* one line on stdout, no check */
    return test_result();
}
