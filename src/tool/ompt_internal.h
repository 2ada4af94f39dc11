/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Shared by the files of the tool layer (src/tool), not by the runtime. */
#ifndef XOMP_OMPT_INTERNAL_H
#define XOMP_OMPT_INTERNAL_H

#include "ompt.h"

struct xomp_thread;
struct xomp_task;

/* The callbacks a tool registered, by ompt_callbacks_t value (NULL: none).
 * Written by ompt_set_callback (release), read at every event (acquire:
 * whatever the tool prepared before registering is visible to the thread
 * that calls it).  Cleared when the tool is finalized. */
#define XOMP_OMPT_EVENTS 64
extern _Atomic(ompt_callback_t) xomp_ompt_callbacks[XOMP_OMPT_EVENTS];

static inline ompt_callback_t xomp_ompt_callback(int event)
{
    return atomic_load_explicit(&xomp_ompt_callbacks[event], memory_order_acquire);
}

/* The registered callback for `event`, as its type (NULL when none). */
#define XOMP_OMPT_CB(event, type) ((type)xomp_ompt_callback(ompt_callback_##event))

/* An OpenMP 5.2 value that LLVM 14's omp-tools.h predates. */
#define XOMP_OMPT_DISPATCH_WS_LOOP_CHUNK 3          /* ompt_dispatch_ws_loop_chunk */
#define XOMP_OMPT_DISPATCH_DISTRIBUTE_CHUNK 4       /* ompt_dispatch_distribute_chunk */
/* ompt_dispatch_chunk_t: a chunk of a loop, for ompt_dispatch_ws_loop_chunk
 * and ompt_dispatch_distribute_chunk. */
struct xomp_ompt_dispatch_chunk {
    uint64_t start;      /* first logical iteration */
    uint64_t iterations; /* iterations in the chunk */
};

/* The entry points' lookup function passed to the tool's initializer
 * (ompt_entry.c), and what ompt_set_callback answers for an event. */
ompt_interface_fn_t xomp_ompt_lookup(const char *name);
ompt_set_result_t xomp_ompt_event_support(int event);

/* The parallel region a task binds to: its team's, or for the tasks of an
 * initial thread outside any region, that thread's implicit one. */
ompt_data_t *xomp_ompt_parallel_of(struct xomp_thread *thr, struct xomp_task *t);

/* Make sure the tool is finalized at exit: registers the exit handler at
 * the first event, which comes from the program's own code (see
 * ompt_init.c); cheap after the first call. */
void xomp_ompt_exit_handler(void);

/* The address of `ompt_start_tool` defined by the executable, found in its
 * symbol table when it is not exported (a program linked without
 * -rdynamic); NULL if there is none (ompt_symtab.c). */
void *xomp_ompt_executable_symbol(const char *name);

#endif
