/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The OMPT test tool (ompt_check.c) and the programs it watches talk
 * through omp_control_tool with tool-specific commands (64 and up, OpenMP
 * 5.2, 18.14): a program announces what it is about to do and asks the
 * tool to compare what it saw with what it was told.
 *
 * A program includes this header; it declares omp_control_tool weak (GCC
 * 12's omp.h does not declare it and its libgomp does not define it), so
 * that the same binary runs on any runtime.
 */
#ifndef XOMP_OMPT_CHECK_H
#define XOMP_OMPT_CHECK_H

#include <stdio.h>
#include <stdlib.h>

/* The next parallel region this thread starts must request `modifier`
 * threads (parallel_begin's requested_parallelism). */
#define OMPT_CHECK_EXPECT_REQUESTED 64
/* Checkpoint: compare the events since the last checkpoint with the
 * counts of the struct ompt_check_counts that `arg` points to (-1: any),
 * and check that every explicit task created so far has completed.
 * Returns the number of violations the tool has found so far. */
#define OMPT_CHECK_POINT 65

/* Check the frames (ompt_frame_t) of the calling task and of the tasks
 * suspended beneath it on this thread: `arg` is the caller's own frame
 * address, which must lie between the task's exit_frame (above: the
 * runtime called its body there) and its enter_frame (below: it entered
 * the runtime at omp_control_tool); `modifier` 1: the caller is the
 * initial task outside any region (exit_frame 0, no ancestor). */
#define OMPT_CHECK_FRAMES 66

struct ompt_check_counts {
    long tasks;           /* explicit tasks created (not taskwait stand-ins) */
    long dependences;     /* dependences callbacks (tasks with a depend clause) */
    long locks;           /* locks acquired (simple and nestable, first level) */
    long nested_locks;    /* nest_lock begins (an owner sets its nestable lock again) */
    long criticals;       /* critical regions entered */
    long atomics;         /* atomic regions entered through the runtime's lock */
    long ordered;         /* ordered regions entered */
    long loops;           /* worksharing-loop regions begun, summed over threads */
    long sections;        /* sections regions begun, summed over threads */
    long singles;         /* single regions executed (one per construct and team) */
    long taskwaits;       /* taskwait regions */
    long taskgroups;      /* taskgroup regions */
    long taskloops;       /* taskloop regions */
    long regions;         /* parallel regions */
    long cancels;         /* cancel callbacks with ompt_cancel_activated */
    long reductions;      /* reduction begins (the runtime's part of a reduction) */
};

/* Every count unknown. */
#define OMPT_CHECK_ANY                                                                   \
    {                                                                                    \
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1                   \
    }

int omp_control_tool(int command, int modifier, void *arg) __attribute__((weak));

/* Is the tool expected (the test driver sets OMPT_CHECK_TOOL=1)? */
static inline int ompt_check_tool_expected(void)
{
    const char *v = getenv("OMPT_CHECK_TOOL");
    return v && *v == '1';
}

/* Ask the tool for a checkpoint.  Returns the violations it reports, or,
 * when no tool is expected, 0 if the runtime answers "no tool" (-2, or no
 * omp_control_tool at all). */
static inline int ompt_check_point(const struct ompt_check_counts *expect)
{
    int r = omp_control_tool ? omp_control_tool(OMPT_CHECK_POINT, 0, (void *)expect) : -2;
    if (!ompt_check_tool_expected()) {
        if (r != -2)
            fprintf(stderr, "FAIL: no tool is attached, but omp_control_tool answered %d\n", r);
        return r != -2;
    }
    if (r < 0)
        fprintf(stderr, "FAIL: the tool is not attached (omp_control_tool answered %d)\n", r);
    return r < 0 ? 1 : r;
}

/* OMPT_CHECK_FRAMES from a frame of its own (noinline, a frame pointer
 * from __builtin_frame_address, and no tail call to omp_control_tool,
 * whose frame must lie below this one). */
__attribute__((noinline, unused)) static void ompt_check_frames(int outside)
{
    if (omp_control_tool)
        omp_control_tool(OMPT_CHECK_FRAMES, outside, __builtin_frame_address(0));
    __asm__ volatile("" ::: "memory");
}

static inline void ompt_check_expect_requested(int n)
{
    if (omp_control_tool)
        omp_control_tool(OMPT_CHECK_EXPECT_REQUESTED, n, NULL);
}

#endif
