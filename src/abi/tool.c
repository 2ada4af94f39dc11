/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * omp_control_tool (OpenMP 5.0, 3.8).  GCC 12's libgomp neither declares
 * nor exports it; xomp exports it (OMP_5.0) for programs written for other
 * runtimes, and forwards the command to the attached OMPT tool's
 * control_tool callback (src/tool): -2 (omp_control_tool_notool) with no
 * tool, -1 (omp_control_tool_nocallback) when it registered none.
 */
#include "../tool/ompt.h"
#include "abi.h"

XOMP_EXPORT int omp_control_tool(int command, int modifier, void *arg)
{
    XOMP_ENTRY_RETURN(int, xomp_ompt_control_tool((uint64_t)(int64_t)command,
                                                  (uint64_t)(int64_t)modifier, arg,
                                                  XOMP_CODEPTR()));
}
