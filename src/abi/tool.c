/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * omp_control_tool (OpenMP 5.0, 3.8).  GCC 12's libgomp neither declares
 * nor exports it; xomp exports it (OMP_5.0) for programs written for other
 * runtimes, and answers as a runtime with no tool attached.
 */
#include "abi.h"

enum { CONTROL_TOOL_NOTOOL = -2 }; /* omp_control_tool_notool */

XOMP_EXPORT int omp_control_tool(int command, int modifier, void *arg)
{
    (void)command;
    (void)modifier;
    (void)arg;
    return CONTROL_TOOL_NOTOOL;
}
