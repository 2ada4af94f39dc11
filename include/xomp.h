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

#ifdef __cplusplus
}
#endif

#endif
