/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * xomp's extension API.  Optional: a program that does not include this
 * header runs on xomp unchanged.  Test for xomp at run time with
 * `dlsym(RTLD_DEFAULT, "xomp_version")`, or declare the functions weak.
 */
#ifndef XOMP_H
#define XOMP_H

#ifdef __cplusplus
extern "C" {
#endif

/* The xomp version string, e.g. "0.1.0". */
const char *xomp_version(void);

/* The profiler (docs/profiling.md).  With XOMP_PROFILE=counters or events
 * the profile is written at exit anyway; these write it now, or discard what
 * was recorded so far (to leave out a warm-up phase).
 *
 * xomp_profile_dump writes the counters (and, with XOMP_PROFILE=events, the
 * events) into `dir`, creating it; NULL means XOMP_PROFILE_DIR, or
 * ./xomp-profile-PID.  Returns 0, or -1 after one line on stderr.  Call it
 * between parallel regions for exact counts (inside one, other threads'
 * counters may be slightly behind).
 *
 * xomp_profile_reset discards the counters and events recorded so far.  Call
 * it between parallel regions (inside one it is ignored, with a warning). */
int xomp_profile_dump(const char *dir);
void xomp_profile_reset(void);

#ifdef __cplusplus
}
#endif

#endif
