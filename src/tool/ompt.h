/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * OMPT, the OpenMP tools interface (OpenMP 5.2, chapter 19): what the
 * runtime layers call at their event sites.  Every site sits inside an
 * XOMP_HOOK block (runtime/config.h): with no tool attached (and no
 * profile recorded) it costs one well-predicted branch, and the task and
 * loop fast paths have none (a tool turns them off).  The functions below
 * check that a tool is attached and has registered the callback, translate
 * xomp's state into the callback's arguments and keep the thread's OMPT
 * state (ompt_get_state).  Design, data placement, ancestry, thread
 * safety: src/tool/README.md.
 */
#ifndef XOMP_OMPT_H
#define XOMP_OMPT_H

#include "ompt_types.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* OpenMP 5.2 values that LLVM 14's omp-tools.h predates. */
#define XOMP_OMPT_DEPENDENCE_OUT_ALL_MEMORY 34   /* ompt_dependence_type_out_all_memory */
#define XOMP_OMPT_DEPENDENCE_INOUT_ALL_MEMORY 35 /* ompt_dependence_type_inout_all_memory */

struct xomp_thread;
struct xomp_team;
struct xomp_task;
struct xomp_ws;

/* A tool is attached: its initializer returned non-zero and its finalizer
 * has not been called.  relaxed loads: a callback registered or a tool
 * finalized while other threads run is seen by them shortly after, as the
 * specification allows. */
extern _Atomic bool xomp_ompt_active;

/* ---- start-up and exit (ompt_init.c) ---- */

/* Look for a tool (OMP_TOOL, ompt_start_tool in the program, then
 * OMP_TOOL_LIBRARIES) and initialize it.  Called once, at the end of the
 * library constructor, on the initial thread, before any other thread
 * exists. */
void xomp_ompt_init(void);
/* Finalize the tool now (ompt_finalize_tool, or at exit). */
void xomp_ompt_finalize(void);
/* OMP_DISPLAY_ENV's lines for tool-var, tool-libraries-var and
 * tool-verbose-init-var. */
void xomp_ompt_display_env(FILE *f);

/* ---- frames (ompt_frame_t; src/tool/README.md, "Frames") ---- */

/* The program enters the runtime at an entry point whose canonical frame
 * address is `cfa` (__builtin_dwarf_cfa(), which needs no frame pointer):
 * the current task's enter_frame, unless an outer entry set it already.
 * Returns the task whose frame it set (NULL: none), for
 * xomp_ompt_leave_runtime when the entry point returns. */
struct xomp_task *xomp_ompt_enter_runtime(void *cfa);
void xomp_ompt_leave_runtime(struct xomp_task *entered);
/* The encountering task stays in the runtime after the entry point
 * returns (the legacy GOMP_parallel_start, __kmpc_serialized_parallel):
 * its enter_frame is cleared by the matching end's entry (this call). */
void xomp_ompt_leave_region(void);

/* ---- threads ---- */

/* A thread starts (a pool thread: worker; another program thread that
 * calls into xomp: initial, with its initial task's begin). */
void xomp_ompt_thread_begin(struct xomp_thread *thr, ompt_thread_t type);
/* A pool thread asked to exit at finalization: thread_end. */
void xomp_ompt_thread_end(struct xomp_thread *thr);

/* ---- parallel regions and implicit tasks ---- */

/* The master, before any member starts and while its task is still the
 * encountering one: parallel_begin.  `num_threads`: the clause (0: none;
 * the requested size is then nthreads-var); `runtime_invokes`: the runtime
 * calls the region's function for the master too (GOMP_parallel), not the
 * program (GOMP_parallel_start). */
void xomp_ompt_parallel_begin(struct xomp_thread *thr, struct xomp_team *team,
                              unsigned num_threads, bool runtime_invokes, const void *codeptr);
/* Each member, once its implicit task is current; and after the region's
 * end barrier, while it still is.  `exit_cfa`: the CFA of the runtime
 * function that calls the region's function on this member (the master's
 * is its encountering task's enter_frame when the entry point set one). */
void xomp_ompt_implicit_begin(struct xomp_thread *thr, struct xomp_team *team, unsigned id,
                              void *exit_cfa);
void xomp_ompt_implicit_end(struct xomp_thread *thr, struct xomp_team *team, unsigned id);
/* The master, back in the encountering task: parallel_end. */
void xomp_ompt_parallel_end(struct xomp_thread *thr, struct xomp_team *team);

/* A host teams construct (its teams run one after another on this thread,
 * outside any team): the league's parallel_begin (flag league); each
 * team's initial task begins and ends (implicit_task, flag initial, index
 * the team number); the league's parallel_end.  For the duration, the
 * league stands for the thread's implicit parallel region and each team's
 * initial task for the encountering task. */
void xomp_ompt_league_begin(struct xomp_thread *thr, unsigned num_teams, const void *codeptr);
void xomp_ompt_league_team_begin(struct xomp_thread *thr, unsigned team_num);
void xomp_ompt_league_team_end(struct xomp_thread *thr, unsigned team_num);
void xomp_ompt_league_end(struct xomp_thread *thr);

/* A target region run on the host: its body is a new initial task, in an
 * implicit parallel region of its own (OpenMP 5.2, 13.8).  Begin saves the
 * thread's implicit region data in *outer; end puts it back. */
void xomp_ompt_target_initial_begin(struct xomp_thread *thr, ompt_data_t *outer);
void xomp_ompt_target_initial_end(struct xomp_thread *thr, const ompt_data_t *outer);

/* ---- synchronization regions ---- */

/* A barrier, taskwait or taskgroup end: the sync_region begin and its
 * wait's begin; returns the thread's state before, for the end.  A
 * barrier also ends the member's open worksharing region first.  `cfa`:
 * the canonical frame address of the function with the event site, the
 * task's enter_frame if its entry point set none (the entry point's own
 * when it tail-calls or inlines that function: GOMP_barrier,
 * GOMP_taskwait), which the end clears. */
int xomp_ompt_sync_begin(struct xomp_thread *thr, ompt_sync_region_t kind, const void *codeptr,
                         void *cfa);
void xomp_ompt_sync_end(struct xomp_thread *thr, ompt_sync_region_t kind, const void *codeptr,
                        int saved_state);
/* A taskgroup region begins; its end is a sync_begin/sync_end pair of
 * kind ompt_sync_region_taskgroup (the wait, then the region's end). */
void xomp_ompt_taskgroup_begin(struct xomp_thread *thr, const void *codeptr);

/* ---- tasks ---- */

/* A new explicit task `t` of `parent` is initialized, not yet queued or
 * run: task_create (its tool data is set to none first). */
void xomp_ompt_task_create(struct xomp_thread *thr, struct xomp_task *parent, struct xomp_task *t,
                           bool has_deps, const void *codeptr);
/* `t` (explicit) begins on this thread, suspending `prior`; returns the
 * thread's state before, for xomp_ompt_task_end.  `exit_cfa`: the CFA of
 * the runtime function that calls its body (its exit_frame). */
int xomp_ompt_task_begin(struct xomp_thread *thr, struct xomp_task *prior, struct xomp_task *t,
                         void *exit_cfa);
/* `t`'s body returned (status ompt_task_complete or ompt_task_detach),
 * or `t` was discarded without starting (ompt_task_cancel, after its
 * cancel callback); `next` resumes. */
void xomp_ompt_task_end(struct xomp_thread *thr, struct xomp_task *t, ompt_task_status_t status,
                        struct xomp_task *next, int saved_state);
/* omp_fulfill_event on `t`: before its body ended (early) or after
 * (late: the fulfilment completes it). */
void xomp_ompt_task_fulfill(struct xomp_thread *thr, struct xomp_task *t, bool late);
/* The dependences of `t`, before it can start. */
void xomp_ompt_dependences(struct xomp_thread *thr, struct xomp_task *t,
                           const ompt_dependence_t *deps, int ndeps);
/* `sink` waits for the task whose tool data was `src` (a copy, read while
 * that task could not complete). */
void xomp_ompt_task_dependence(ompt_data_t src, struct xomp_task *sink);
/* taskwait depend(...): the stand-in task `t` for the wait was created
 * (task_create, flags taskwait) and its dependences are met. */
void xomp_ompt_taskwait_task_done(struct xomp_thread *thr, struct xomp_task *t);

/* ---- worksharing ---- */

/* A worksharing region begins or ends on this member; a begin first ends
 * the member's open one, if any. */
void xomp_ompt_work(struct xomp_thread *thr, ompt_work_t kind, ompt_scope_endpoint_t endpoint,
                    uint64_t count, const void *codeptr);
/* A region whose end the ABI does not announce (single's executor, scope
 * with task reductions): begins now, ends at the member's next
 * worksharing construct, barrier or implicit-task end. */
void xomp_ompt_work_open(struct xomp_thread *thr, ompt_work_t kind, const void *codeptr);
/* Should loops of this member report their chunks (dispatch)?  Decided
 * when a loop begins: the chunks then go through the general claim path. */
bool xomp_ompt_wants_dispatch(void);
/* A chunk of a loop (iterations [lo, hi)) or section `number` starts. */
void xomp_ompt_dispatch_chunk(struct xomp_thread *thr, uint64_t lo, uint64_t hi);
/* A team's chunk of a distribute construct (iterations [lo, hi)). */
void xomp_ompt_dispatch_distribute_chunk(struct xomp_thread *thr, uint64_t lo, uint64_t hi);
void xomp_ompt_dispatch_section(struct xomp_thread *thr, uint64_t number);
/* masked construct (for entry points that announce it; GCC inlines it). */
void xomp_ompt_masked(struct xomp_thread *thr, ompt_scope_endpoint_t endpoint,
                      const void *codeptr);

/* ---- mutual exclusion ---- */

/* Implementations, for ompt_enumerate_mutex_impls and the impl arguments. */
enum xomp_ompt_mutex_impl {
    XOMP_OMPT_IMPL_NONE = 0,
    XOMP_OMPT_IMPL_FUTEX = 1,   /* runtime/mutex.h: spin, yield, sleep */
    XOMP_OMPT_IMPL_TURN = 2,    /* ordered: a turn passed in iteration order */
};

/* The thread starts waiting for a mutex; returns its state before, for
 * acquired (or, for a failed test, xomp_ompt_mutex_not_acquired).  `cfa`:
 * as for xomp_ompt_sync_begin, the task's enter_frame until then. */
int xomp_ompt_mutex_acquire(struct xomp_thread *thr, ompt_mutex_t kind, unsigned hint,
                            unsigned impl, const void *id, const void *codeptr, void *cfa);
void xomp_ompt_mutex_acquired(struct xomp_thread *thr, ompt_mutex_t kind, const void *id,
                              const void *codeptr, int saved_state);
void xomp_ompt_mutex_not_acquired(struct xomp_thread *thr, int saved_state);
void xomp_ompt_mutex_released(struct xomp_thread *thr, ompt_mutex_t kind, const void *id,
                              const void *codeptr);
void xomp_ompt_lock_init(struct xomp_thread *thr, ompt_mutex_t kind, unsigned hint,
                         const void *id, const void *codeptr);
void xomp_ompt_lock_destroy(struct xomp_thread *thr, ompt_mutex_t kind, const void *id,
                            const void *codeptr);
/* An owner sets (begin) or unsets (end, still owned) a nestable lock. */
void xomp_ompt_nest_lock(struct xomp_thread *thr, ompt_scope_endpoint_t endpoint, const void *id,
                         const void *codeptr);

/* ---- the rest ---- */

/* cancel callback: `flags` of ompt_cancel_flag_t, for the current task. */
void xomp_ompt_cancel(struct xomp_thread *thr, int flags, const void *codeptr);
/* flush (for entry points that announce it; GCC inlines it). */
void xomp_ompt_flush(struct xomp_thread *thr, const void *codeptr);
/* A reduction the runtime performs on the program's data. */
void xomp_ompt_reduction(struct xomp_thread *thr, ompt_scope_endpoint_t endpoint,
                         const void *codeptr);
/* The error directive at execution time. */
void xomp_ompt_error(ompt_severity_t severity, const char *message, size_t length,
                     const void *codeptr);
/* omp_control_tool: the tool's answer, or -2 (no tool), -1 (no callback). */
int xomp_ompt_control_tool(uint64_t command, uint64_t modifier, void *arg, const void *codeptr);

/* The OMPT flags of a task (ompt_task_flag_t). */
int xomp_ompt_task_flags(const struct xomp_task *t);

#endif
