/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The OMPT state that lives inside the runtime's own objects (threads,
 * teams, tasks): small, so that the structures that carry it do not grow
 * much, and only written while a tool is attached.  The types come from
 * omp-tools.h (LLVM's, found by the build: src/CMakeLists.txt).  How the
 * tool layer uses them: src/tool/README.md.
 */
#ifndef XOMP_OMPT_TYPES_H
#define XOMP_OMPT_TYPES_H

#include <omp-tools.h>

#include <stdbool.h>
#include <stdint.h>

/* ompt_data_none as a value (the header's is an initializer). */
#define XOMP_OMPT_DATA_NONE ((ompt_data_t){.value = 0})

/* The flags of every frame address xomp gives: the canonical frame
 * address (CFA) of a runtime function (src/tool/README.md, "Frames"). */
#define XOMP_OMPT_FRAME_FLAGS (ompt_frame_runtime | ompt_frame_cfa)

/* Per team member (struct xomp_worker): a worksharing region whose end
 * the ABI does not announce (single's executor, scope), ended at the
 * member's next worksharing construct, barrier or implicit-task end. */
struct xomp_ompt_member {
    int open_work;          /* ompt_work_t, or 0: none open */
    const void *open_codeptr;
};

/* Per thread (struct xomp_thread).  Written by its own thread only; read
 * by the entry points a tool calls on that thread (ompt_get_state may be
 * called from a signal handler: plain fields of the own thread). */
struct xomp_ompt_thread {
    ompt_data_t thread_data;
    /* The implicit parallel region of the thread's initial task (an
     * initial thread's; also what a pool thread reports between regions). */
    ompt_data_t initial_parallel;
    int state;              /* ompt_state_t */
    ompt_wait_id_t wait_id; /* what a thread in a wait state waits for */
    /* The prior task's status for the next task started on this thread:
     * ompt_task_switch, or ompt_task_yield inside taskyield. */
    int switch_status;
    uint8_t type;           /* ompt_thread_t; 0 before thread_begin */
    bool ended;             /* thread_end dispatched */
    struct xomp_ompt_member solo; /* an open worksharing region outside any team */
    /* A host teams construct's league, whose teams run one after another
     * on this thread: the number of teams (0: none running), the
     * construct's address, and the implicit region's and the encountering
     * task's data, which the league's and each team's initial task
     * replace until the league ends. */
    unsigned league_size;
    const void *league_codeptr;
    ompt_data_t league_outer_parallel;
    ompt_data_t league_outer_task;
    ompt_frame_t league_outer_frame;
};

/* Per parallel region (struct xomp_team, reset at each region). */
struct xomp_ompt_region {
    ompt_data_t parallel_data;
    const void *codeptr;    /* of the parallel construct */
    int flags;              /* ompt_parallel_flag_t of its begin */
};

#endif
