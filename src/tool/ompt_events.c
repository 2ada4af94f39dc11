/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The event sites' side of OMPT: each function is called from an XOMP_HOOK
 * block of the runtime (so only while hooks are on), dispatches the
 * callback if the tool registered it, and keeps the thread's state for
 * ompt_get_state.  States nest as the waits do (a task run inside a
 * barrier, a taskwait inside that task): a wait's begin returns the state
 * it replaced and its end puts it back.  See README.md.
 */
#include "ompt_internal.h"

#include "../runtime/team.h"
#include "../runtime/thread.h"
#include "../task/task.h"

ompt_data_t *xomp_ompt_parallel_of(struct xomp_thread *thr, struct xomp_task *t)
{
    if (t->team)
        return &t->team->ompt.parallel_data;
    /* An initial task, or a task created outside any region: the implicit
     * parallel region of the initial thread that runs it. */
    return &(t->owner ? t->owner : thr)->ompt.initial_parallel;
}

static ompt_data_t *current_parallel(struct xomp_thread *thr)
{
    return thr->team ? &thr->team->ompt.parallel_data : &thr->ompt.initial_parallel;
}

/* The state of a thread running a task's own code. */
static int work_state(const struct xomp_thread *thr)
{
    return thr->team ? ompt_state_work_parallel : ompt_state_work_serial;
}

static int set_state(struct xomp_thread *thr, int state, ompt_wait_id_t wait_id)
{
    int before = thr->ompt.state;
    thr->ompt.state = state;
    thr->ompt.wait_id = wait_id;
    return before;
}

int xomp_ompt_task_flags(const struct xomp_task *t)
{
    if (t->flags & XOMP_TASK_IMPLICIT)
        return t->team ? ompt_task_implicit : ompt_task_initial;
    int f = ompt_task_explicit;
    if (t->flags & XOMP_TASK_TASKWAIT)
        f |= ompt_task_taskwait;
    if (t->flags & XOMP_TASK_UNDEFERRED)
        f |= ompt_task_undeferred;
    if (t->flags & XOMP_TASK_UNTIED)
        f |= ompt_task_untied;
    if (t->flags & XOMP_TASK_FINAL)
        f |= ompt_task_final;
    return f;
}

/* ---- frames ---- */

struct xomp_task *xomp_ompt_enter_runtime(void *cfa)
{
    if (!atomic_load_explicit(&xomp_ompt_active, memory_order_relaxed))
        return NULL;
    struct xomp_task *t = xomp_self()->task;
    /* An entry point reached from inside the runtime (a tool's callback
     * calling one) keeps the outer entry's frame. */
    if (!t || t->frame.enter_frame.ptr)
        return NULL;
    t->frame.enter_frame.ptr = cfa;
    t->frame.enter_frame_flags = XOMP_OMPT_FRAME_FLAGS;
    return t;
}

void xomp_ompt_leave_runtime(struct xomp_task *entered)
{
    if (entered) {
        entered->frame.enter_frame.ptr = NULL;
        entered->frame.enter_frame_flags = 0;
    }
}

void xomp_ompt_leave_region(void)
{
    struct xomp_thread *thr = xomp_tls;
    if (thr && thr->task)
        xomp_ompt_leave_runtime(thr->task);
}

/* The task's body starts: called by the runtime function whose CFA is
 * `exit_cfa`. */
static void set_exit_frame(struct xomp_task *t, void *exit_cfa)
{
    t->frame.exit_frame.ptr = exit_cfa;
    t->frame.exit_frame_flags = exit_cfa ? XOMP_OMPT_FRAME_FLAGS : 0;
    t->frame.enter_frame.ptr = NULL;
    t->frame.enter_frame_flags = 0;
}

/* ---- threads ---- */

void xomp_ompt_thread_begin(struct xomp_thread *thr, ompt_thread_t type)
{
    if (!atomic_load_explicit(&xomp_ompt_active, memory_order_relaxed) || thr->ompt.type)
        return;
    thr->ompt.type = (uint8_t)type;
    thr->ompt.thread_data = XOMP_OMPT_DATA_NONE;
    thr->ompt.switch_status = ompt_task_switch;
    set_state(thr, type == ompt_thread_worker ? ompt_state_idle : ompt_state_work_serial, 0);
    ompt_callback_thread_begin_t begin = XOMP_OMPT_CB(thread_begin, ompt_callback_thread_begin_t);
    /* An initial task's body is the program's: no runtime frame calls it
     * (a pool thread's is current between regions). */
    thr->initial_task.frame = (ompt_frame_t){0};
    if (begin)
        begin(type, &thr->ompt.thread_data);
    if (type != ompt_thread_initial)
        return;
    /* An initial thread runs its initial task, in an implicit parallel
     * region of one thread (OpenMP 5.2, 12.8). */
    thr->ompt.initial_parallel = XOMP_OMPT_DATA_NONE;
    thr->initial_task.tool_data = XOMP_OMPT_DATA_NONE;
    ompt_callback_implicit_task_t implicit =
        XOMP_OMPT_CB(implicit_task, ompt_callback_implicit_task_t);
    if (implicit)
        implicit(ompt_scope_begin, &thr->ompt.initial_parallel, &thr->initial_task.tool_data, 1, 1,
                 ompt_task_initial);
}

static void work_close(struct xomp_thread *thr);

void xomp_ompt_thread_end(struct xomp_thread *thr)
{
    if (!thr->ompt.type || thr->ompt.ended)
        return;
    thr->ompt.ended = true;
    if (thr->ompt.type == ompt_thread_initial) {
        work_close(thr); /* a single its initial task executed last */
        ompt_callback_implicit_task_t implicit =
            XOMP_OMPT_CB(implicit_task, ompt_callback_implicit_task_t);
        /* The initial task's region outlives it: its data is passed (as
         * LLVM libomp does; LLVM 14's Archer reads it). */
        if (implicit)
            implicit(ompt_scope_end, &thr->ompt.initial_parallel, &thr->initial_task.tool_data, 0,
                     1, ompt_task_initial);
    }
    ompt_callback_thread_end_t end = XOMP_OMPT_CB(thread_end, ompt_callback_thread_end_t);
    if (end)
        end(&thr->ompt.thread_data);
    set_state(thr, ompt_state_undefined, 0);
}

/* ---- parallel regions ---- */

void xomp_ompt_parallel_begin(struct xomp_thread *thr, struct xomp_team *team,
                              unsigned num_threads, bool runtime_invokes, const void *codeptr)
{
    /* The team size asked for: the clause, else the encountering task's
     * nthreads-var (before any limit). */
    unsigned requested = num_threads ? num_threads : thr->task->icv.nthreads;
    xomp_ompt_exit_handler();
    team->ompt.parallel_data = XOMP_OMPT_DATA_NONE;
    team->ompt.codeptr = codeptr;
    team->ompt.flags = ompt_parallel_team | (runtime_invokes ? ompt_parallel_invoker_runtime
                                                             : ompt_parallel_invoker_program);
    set_state(thr, ompt_state_overhead, 0);
    ompt_callback_parallel_begin_t cb =
        XOMP_OMPT_CB(parallel_begin, ompt_callback_parallel_begin_t);
    if (cb)
        cb(&thr->task->tool_data, &thr->task->frame, &team->ompt.parallel_data,
           requested ? requested : 1, team->ompt.flags, codeptr);
}

void xomp_ompt_implicit_begin(struct xomp_thread *thr, struct xomp_team *team, unsigned id,
                              void *exit_cfa)
{
    struct xomp_task *t = thr->task;
    t->tool_data = XOMP_OMPT_DATA_NONE;
    /* The master's body is called below the entry point that began the
     * region (GOMP_parallel, __kmpc_fork_call), or by the program right
     * after it returned (GOMP_parallel_start): that entry's frame, which
     * is its encountering task's enter_frame. */
    void *entry = id == 0 ? team->parent_task->frame.enter_frame.ptr : NULL;
    set_exit_frame(t, entry ? entry : exit_cfa);
    set_state(thr, ompt_state_work_parallel, 0);
    ompt_callback_implicit_task_t cb = XOMP_OMPT_CB(implicit_task, ompt_callback_implicit_task_t);
    if (cb)
        cb(ompt_scope_begin, &team->ompt.parallel_data, &t->tool_data, team->nthreads, id,
           ompt_task_implicit);
}

void xomp_ompt_implicit_end(struct xomp_thread *thr, struct xomp_team *team, unsigned id)
{
    (void)team;
    work_close(thr);
    set_state(thr, ompt_state_overhead, 0);
    ompt_callback_implicit_task_t cb = XOMP_OMPT_CB(implicit_task, ompt_callback_implicit_task_t);
    /* The region may be gone for a member that ends after the master:
     * parallel_data is NULL and actual_parallelism 0 at the end. */
    if (cb)
        cb(ompt_scope_end, NULL, &thr->task->tool_data, 0, id, ompt_task_implicit);
    if (thr->is_pool_thread && team->workers[0].thread != thr)
        set_state(thr, ompt_state_idle, 0);
}

void xomp_ompt_parallel_end(struct xomp_thread *thr, struct xomp_team *team)
{
    ompt_callback_parallel_end_t cb = XOMP_OMPT_CB(parallel_end, ompt_callback_parallel_end_t);
    if (cb)
        cb(&team->ompt.parallel_data, &thr->task->tool_data, team->ompt.flags, team->ompt.codeptr);
    set_state(thr, work_state(thr), 0);
}

/* ---- host teams: a league run by one thread ---- */

#define LEAGUE_FLAGS (ompt_parallel_league | ompt_parallel_invoker_program)

void xomp_ompt_league_begin(struct xomp_thread *thr, unsigned num_teams, const void *codeptr)
{
    if (!thr->ompt.type || thr->ompt.league_size)
        return; /* no tool; or a league inside a league's team (not allowed) */
    xomp_ompt_exit_handler();
    thr->ompt.league_size = num_teams ? num_teams : 1;
    thr->ompt.league_codeptr = codeptr;
    thr->ompt.league_outer_parallel = thr->ompt.initial_parallel;
    thr->ompt.league_outer_task = thr->task->tool_data;
    thr->ompt.initial_parallel = XOMP_OMPT_DATA_NONE;
    ompt_callback_parallel_begin_t cb =
        XOMP_OMPT_CB(parallel_begin, ompt_callback_parallel_begin_t);
    if (cb)
        cb(&thr->task->tool_data, &thr->task->frame, &thr->ompt.initial_parallel,
           thr->ompt.league_size, LEAGUE_FLAGS, codeptr);
    /* The teams' initial tasks take the encountering task's place (its
     * data, its frames) until the league ends. */
    thr->ompt.league_outer_frame = thr->task->frame;
}

void xomp_ompt_league_team_begin(struct xomp_thread *thr, unsigned team_num)
{
    if (!thr->ompt.league_size)
        return;
    thr->task->tool_data = XOMP_OMPT_DATA_NONE;
    /* Its body is called below the teams construct's entry point. */
    set_exit_frame(thr->task, thr->ompt.league_outer_frame.enter_frame.ptr);
    set_state(thr, ompt_state_work_serial, 0);
    ompt_callback_implicit_task_t cb = XOMP_OMPT_CB(implicit_task, ompt_callback_implicit_task_t);
    if (cb)
        cb(ompt_scope_begin, &thr->ompt.initial_parallel, &thr->task->tool_data,
           thr->ompt.league_size, team_num, ompt_task_initial);
}

void xomp_ompt_league_team_end(struct xomp_thread *thr, unsigned team_num)
{
    if (!thr->ompt.league_size)
        return;
    work_close(thr);
    ompt_callback_implicit_task_t cb = XOMP_OMPT_CB(implicit_task, ompt_callback_implicit_task_t);
    /* An initial task's end passes its region (the league, still running),
     * as for the thread's own initial task: LLVM 14's Archer reads it. */
    if (cb)
        cb(ompt_scope_end, &thr->ompt.initial_parallel, &thr->task->tool_data,
           thr->ompt.league_size, team_num, ompt_task_initial);
}

void xomp_ompt_league_end(struct xomp_thread *thr)
{
    if (!thr->ompt.league_size)
        return;
    thr->task->tool_data = thr->ompt.league_outer_task;
    thr->task->frame = thr->ompt.league_outer_frame;
    set_state(thr, ompt_state_overhead, 0);
    ompt_callback_parallel_end_t cb = XOMP_OMPT_CB(parallel_end, ompt_callback_parallel_end_t);
    if (cb)
        cb(&thr->ompt.initial_parallel, &thr->task->tool_data, LEAGUE_FLAGS,
           thr->ompt.league_codeptr);
    thr->ompt.initial_parallel = thr->ompt.league_outer_parallel;
    thr->ompt.league_size = 0;
    set_state(thr, work_state(thr), 0);
}

/* ---- target regions on the host ---- */

void xomp_ompt_target_initial_begin(struct xomp_thread *thr, ompt_data_t *outer)
{
    *outer = thr->ompt.initial_parallel;
    if (!thr->ompt.type)
        return;
    thr->ompt.initial_parallel = XOMP_OMPT_DATA_NONE;
    thr->task->tool_data = XOMP_OMPT_DATA_NONE;
    thr->task->frame = (ompt_frame_t){0}; /* an initial task, as the thread's own */
    set_state(thr, ompt_state_work_serial, 0);
    ompt_callback_implicit_task_t cb = XOMP_OMPT_CB(implicit_task, ompt_callback_implicit_task_t);
    if (cb)
        cb(ompt_scope_begin, &thr->ompt.initial_parallel, &thr->task->tool_data, 1, 1,
           ompt_task_initial);
}

void xomp_ompt_target_initial_end(struct xomp_thread *thr, const ompt_data_t *outer)
{
    if (thr->ompt.type) {
        work_close(thr);
        ompt_callback_implicit_task_t cb =
            XOMP_OMPT_CB(implicit_task, ompt_callback_implicit_task_t);
        /* An initial task's end passes its region, as the thread's own. */
        if (cb)
            cb(ompt_scope_end, &thr->ompt.initial_parallel, &thr->task->tool_data, 0, 1,
               ompt_task_initial);
    }
    thr->ompt.initial_parallel = *outer;
}

/* ---- synchronization regions ---- */

static int wait_state_of(ompt_sync_region_t kind)
{
    switch (kind) {
    case ompt_sync_region_barrier_explicit: return ompt_state_wait_barrier_explicit;
    case ompt_sync_region_barrier_implicit_workshare:
        return ompt_state_wait_barrier_implicit_workshare;
    case ompt_sync_region_barrier_implicit_parallel:
        return ompt_state_wait_barrier_implicit_parallel;
    case ompt_sync_region_barrier_implementation: return ompt_state_wait_barrier_implementation;
    case ompt_sync_region_taskwait: return ompt_state_wait_taskwait;
    case ompt_sync_region_taskgroup: return ompt_state_wait_taskgroup;
    default: return ompt_state_overhead;
    }
}

static bool is_barrier(ompt_sync_region_t kind)
{
    return kind != ompt_sync_region_taskwait && kind != ompt_sync_region_taskgroup &&
           kind != ompt_sync_region_reduction;
}

/* The barrier at a region's end has its construct's code address. */
static const void *sync_codeptr(struct xomp_thread *thr, ompt_sync_region_t kind,
                                const void *codeptr)
{
    return kind == ompt_sync_region_barrier_implicit_parallel ? thr->team->ompt.codeptr : codeptr;
}

/* In the state a wait's begin returns (sync_begin, mutex_acquire): the
 * wait set the task's enter_frame, which its end clears.  States are
 * small. */
#define WAIT_ENTERED (1 << 30)

/* A wait begins in the function whose CFA is `cfa`: the task's
 * enter_frame if its entry point set none. */
static int wait_enter(struct xomp_thread *thr, void *cfa)
{
    struct xomp_task *t = thr->task;
    if (!thr->ompt.type || !t || t->frame.enter_frame.ptr)
        return 0;
    t->frame.enter_frame.ptr = cfa;
    t->frame.enter_frame_flags = XOMP_OMPT_FRAME_FLAGS;
    return WAIT_ENTERED;
}

/* The wait ends: its saved state, without the flag. */
static int wait_leave(struct xomp_thread *thr, int saved_state)
{
    if (saved_state & WAIT_ENTERED)
        xomp_ompt_leave_runtime(thr->task);
    return saved_state & ~WAIT_ENTERED;
}

int xomp_ompt_sync_begin(struct xomp_thread *thr, ompt_sync_region_t kind, const void *codeptr,
                         void *cfa)
{
    xomp_ompt_exit_handler();
    /* (Not a region's end: the implicit task's body has returned.) */
    int entered =
        kind == ompt_sync_region_barrier_implicit_parallel ? 0 : wait_enter(thr, cfa);
    codeptr = sync_codeptr(thr, kind, codeptr);
    if (is_barrier(kind))
        work_close(thr);
    /* A region's end barrier: the implicit task's body has returned. */
    if (kind == ompt_sync_region_barrier_implicit_parallel)
        set_exit_frame(thr->task, NULL);
    ompt_data_t *pd = current_parallel(thr), *td = &thr->task->tool_data;
    int before = set_state(thr, wait_state_of(kind), 0);
    /* A taskgroup's region began at its start (xomp_ompt_taskgroup_begin):
     * its end only waits. */
    ompt_callback_sync_region_t region = XOMP_OMPT_CB(sync_region, ompt_callback_sync_region_t);
    if (region && kind != ompt_sync_region_taskgroup)
        region(kind, ompt_scope_begin, pd, td, codeptr);
    ompt_callback_sync_region_t wait = XOMP_OMPT_CB(sync_region_wait, ompt_callback_sync_region_t);
    if (wait)
        wait(kind, ompt_scope_begin, pd, td, codeptr);
    return before | entered;
}

void xomp_ompt_sync_end(struct xomp_thread *thr, ompt_sync_region_t kind, const void *codeptr,
                        int saved_state)
{
    /* The end of a region's closing barrier: the region may already be
     * gone for the other members (parallel_data NULL, as the
     * specification has it). */
    ompt_data_t *pd =
        kind == ompt_sync_region_barrier_implicit_parallel ? NULL : current_parallel(thr);
    ompt_data_t *td = &thr->task->tool_data;
    codeptr = sync_codeptr(thr, kind, codeptr);
    ompt_callback_sync_region_t wait = XOMP_OMPT_CB(sync_region_wait, ompt_callback_sync_region_t);
    if (wait)
        wait(kind, ompt_scope_end, pd, td, codeptr);
    ompt_callback_sync_region_t region = XOMP_OMPT_CB(sync_region, ompt_callback_sync_region_t);
    if (region)
        region(kind, ompt_scope_end, pd, td, codeptr);
    set_state(thr, wait_leave(thr, saved_state), 0);
}

void xomp_ompt_taskgroup_begin(struct xomp_thread *thr, const void *codeptr)
{
    ompt_callback_sync_region_t region = XOMP_OMPT_CB(sync_region, ompt_callback_sync_region_t);
    if (region)
        region(ompt_sync_region_taskgroup, ompt_scope_begin, current_parallel(thr),
               &thr->task->tool_data, codeptr);
}

/* ---- tasks ---- */

void xomp_ompt_task_create(struct xomp_thread *thr, struct xomp_task *parent, struct xomp_task *t,
                           bool has_deps, const void *codeptr)
{
    xomp_ompt_exit_handler();
    t->tool_data = XOMP_OMPT_DATA_NONE;
    t->frame = (ompt_frame_t){0}; /* (a reused block) */
    ompt_callback_task_create_t cb = XOMP_OMPT_CB(task_create, ompt_callback_task_create_t);
    if (cb)
        cb(&parent->tool_data, &parent->frame, &t->tool_data, xomp_ompt_task_flags(t),
           has_deps, codeptr);
    (void)thr;
}

int xomp_ompt_task_begin(struct xomp_thread *thr, struct xomp_task *prior, struct xomp_task *t,
                         void *exit_cfa)
{
    set_exit_frame(t, exit_cfa);
    int status = thr->ompt.switch_status ? thr->ompt.switch_status : ompt_task_switch;
    thr->ompt.switch_status = ompt_task_switch; /* the tasks it starts switch */
    int before = set_state(thr, work_state(thr), 0);
    ompt_callback_task_schedule_t cb = XOMP_OMPT_CB(task_schedule, ompt_callback_task_schedule_t);
    if (cb)
        cb(&prior->tool_data, (ompt_task_status_t)status, &t->tool_data);
    return before;
}

void xomp_ompt_task_end(struct xomp_thread *thr, struct xomp_task *t, ompt_task_status_t status,
                        struct xomp_task *next, int saved_state)
{
    if (status == ompt_task_cancel) {
        /* Discarded unstarted: its region or its taskgroup was cancelled.
         * acquire: pairs with GOMP_cancel's release store. */
        int what = t->team && atomic_load_explicit(&t->team->cancelled, memory_order_acquire)
                       ? ompt_cancel_parallel
                       : ompt_cancel_taskgroup;
        ompt_callback_cancel_t cancel = XOMP_OMPT_CB(cancel, ompt_callback_cancel_t);
        if (cancel)
            cancel(&t->tool_data, ompt_cancel_discarded_task | what, NULL);
    }
    set_exit_frame(t, NULL); /* its body returned, or never began */
    ompt_callback_task_schedule_t cb = XOMP_OMPT_CB(task_schedule, ompt_callback_task_schedule_t);
    if (cb)
        cb(&t->tool_data, status, &next->tool_data);
    set_state(thr, saved_state, 0);
}

void xomp_ompt_task_fulfill(struct xomp_thread *thr, struct xomp_task *t, bool late)
{
    (void)thr;
    ompt_callback_task_schedule_t cb = XOMP_OMPT_CB(task_schedule, ompt_callback_task_schedule_t);
    if (cb)
        cb(&t->tool_data, late ? ompt_task_late_fulfill : ompt_task_early_fulfill, NULL);
}

void xomp_ompt_taskwait_task_done(struct xomp_thread *thr, struct xomp_task *t)
{
    (void)thr;
    ompt_callback_task_schedule_t cb = XOMP_OMPT_CB(task_schedule, ompt_callback_task_schedule_t);
    /* next: the encountering task, which goes on (LLVM 14's Archer reads
     * the next task's data for every status and crashes on NULL). */
    if (cb)
        cb(&t->tool_data, ompt_taskwait_complete, &t->parent->tool_data);
}

void xomp_ompt_dependences(struct xomp_thread *thr, struct xomp_task *t,
                           const ompt_dependence_t *deps, int ndeps)
{
    (void)thr;
    ompt_callback_dependences_t cb = XOMP_OMPT_CB(dependences, ompt_callback_dependences_t);
    if (cb)
        cb(&t->tool_data, deps, ndeps);
}

void xomp_ompt_task_dependence(ompt_data_t src, struct xomp_task *sink)
{
    ompt_callback_task_dependence_t cb =
        XOMP_OMPT_CB(task_dependence, ompt_callback_task_dependence_t);
    if (cb)
        cb(&src, &sink->tool_data);
}

/* ---- worksharing ---- */

/* The member's record of an open worksharing region: per team member, or
 * the thread's own outside any team. */
static struct xomp_ompt_member *open_work_of(struct xomp_thread *thr)
{
    return thr->worker ? &thr->worker->ompt : &thr->ompt.solo;
}

static void work_dispatch(struct xomp_thread *thr, ompt_work_t kind,
                          ompt_scope_endpoint_t endpoint, uint64_t count, const void *codeptr)
{
    xomp_ompt_exit_handler();
    ompt_callback_work_t cb = XOMP_OMPT_CB(work, ompt_callback_work_t);
    if (cb)
        cb(kind, endpoint, current_parallel(thr), &thr->task->tool_data, count, codeptr);
}

static void work_close(struct xomp_thread *thr)
{
    struct xomp_ompt_member *m = open_work_of(thr);
    if (!m->open_work)
        return;
    int kind = m->open_work;
    m->open_work = 0;
    work_dispatch(thr, (ompt_work_t)kind, ompt_scope_end, 1, m->open_codeptr);
}

void xomp_ompt_work(struct xomp_thread *thr, ompt_work_t kind, ompt_scope_endpoint_t endpoint,
                    uint64_t count, const void *codeptr)
{
    if (endpoint == ompt_scope_begin)
        work_close(thr);
    work_dispatch(thr, kind, endpoint, count, codeptr);
}

void xomp_ompt_work_open(struct xomp_thread *thr, ompt_work_t kind, const void *codeptr)
{
    work_close(thr);
    work_dispatch(thr, kind, ompt_scope_begin, 1, codeptr);
    struct xomp_ompt_member *m = open_work_of(thr);
    m->open_work = kind;
    m->open_codeptr = codeptr;
}

bool xomp_ompt_wants_dispatch(void)
{
    return xomp_ompt_callback(ompt_callback_dispatch) != NULL;
}

static void dispatch_chunk(struct xomp_thread *thr, int kind, uint64_t lo, uint64_t hi)
{
    ompt_callback_dispatch_t cb = XOMP_OMPT_CB(dispatch, ompt_callback_dispatch_t);
    if (!cb)
        return;
    struct xomp_ompt_dispatch_chunk chunk = {lo, hi - lo};
    ompt_data_t instance = {.ptr = &chunk};
    cb(current_parallel(thr), &thr->task->tool_data, (ompt_dispatch_t)kind, instance);
}

void xomp_ompt_dispatch_chunk(struct xomp_thread *thr, uint64_t lo, uint64_t hi)
{
    dispatch_chunk(thr, XOMP_OMPT_DISPATCH_WS_LOOP_CHUNK, lo, hi);
}

void xomp_ompt_dispatch_distribute_chunk(struct xomp_thread *thr, uint64_t lo, uint64_t hi)
{
    dispatch_chunk(thr, XOMP_OMPT_DISPATCH_DISTRIBUTE_CHUNK, lo, hi);
}

void xomp_ompt_dispatch_section(struct xomp_thread *thr, uint64_t number)
{
    ompt_callback_dispatch_t cb = XOMP_OMPT_CB(dispatch, ompt_callback_dispatch_t);
    if (cb)
        cb(current_parallel(thr), &thr->task->tool_data, ompt_dispatch_section,
           (ompt_data_t){.value = number});
}

void xomp_ompt_masked(struct xomp_thread *thr, ompt_scope_endpoint_t endpoint,
                      const void *codeptr)
{
    ompt_callback_masked_t cb = XOMP_OMPT_CB(masked, ompt_callback_masked_t);
    if (cb)
        cb(endpoint, current_parallel(thr), &thr->task->tool_data, codeptr);
}

/* ---- mutual exclusion ---- */

static int mutex_wait_state(ompt_mutex_t kind)
{
    switch (kind) {
    case ompt_mutex_lock:
    case ompt_mutex_test_lock:
    case ompt_mutex_nest_lock:
    case ompt_mutex_test_nest_lock: return ompt_state_wait_lock;
    case ompt_mutex_critical: return ompt_state_wait_critical;
    case ompt_mutex_atomic: return ompt_state_wait_atomic;
    case ompt_mutex_ordered: return ompt_state_wait_ordered;
    default: return ompt_state_wait_mutex;
    }
}

int xomp_ompt_mutex_acquire(struct xomp_thread *thr, ompt_mutex_t kind, unsigned hint,
                            unsigned impl, const void *id, const void *codeptr, void *cfa)
{
    xomp_ompt_exit_handler();
    int entered = wait_enter(thr, cfa);
    int before = set_state(thr, mutex_wait_state(kind), (ompt_wait_id_t)(uintptr_t)id);
    ompt_callback_mutex_acquire_t cb = XOMP_OMPT_CB(mutex_acquire, ompt_callback_mutex_acquire_t);
    if (cb)
        cb(kind, hint, impl, (ompt_wait_id_t)(uintptr_t)id, codeptr);
    return before | entered;
}

void xomp_ompt_mutex_acquired(struct xomp_thread *thr, ompt_mutex_t kind, const void *id,
                              const void *codeptr, int saved_state)
{
    set_state(thr, wait_leave(thr, saved_state), 0);
    ompt_callback_mutex_t cb = XOMP_OMPT_CB(mutex_acquired, ompt_callback_mutex_t);
    if (cb)
        cb(kind, (ompt_wait_id_t)(uintptr_t)id, codeptr);
}

void xomp_ompt_mutex_not_acquired(struct xomp_thread *thr, int saved_state)
{
    set_state(thr, wait_leave(thr, saved_state), 0);
}

void xomp_ompt_mutex_released(struct xomp_thread *thr, ompt_mutex_t kind, const void *id,
                              const void *codeptr)
{
    (void)thr;
    ompt_callback_mutex_t cb = XOMP_OMPT_CB(mutex_released, ompt_callback_mutex_t);
    if (cb)
        cb(kind, (ompt_wait_id_t)(uintptr_t)id, codeptr);
}

void xomp_ompt_lock_init(struct xomp_thread *thr, ompt_mutex_t kind, unsigned hint,
                         const void *id, const void *codeptr)
{
    (void)thr;
    xomp_ompt_exit_handler();
    ompt_callback_mutex_acquire_t cb = XOMP_OMPT_CB(lock_init, ompt_callback_mutex_acquire_t);
    if (cb)
        cb(kind, hint, XOMP_OMPT_IMPL_FUTEX, (ompt_wait_id_t)(uintptr_t)id, codeptr);
}

void xomp_ompt_lock_destroy(struct xomp_thread *thr, ompt_mutex_t kind, const void *id,
                            const void *codeptr)
{
    (void)thr;
    ompt_callback_mutex_t cb = XOMP_OMPT_CB(lock_destroy, ompt_callback_mutex_t);
    if (cb)
        cb(kind, (ompt_wait_id_t)(uintptr_t)id, codeptr);
}

void xomp_ompt_nest_lock(struct xomp_thread *thr, ompt_scope_endpoint_t endpoint, const void *id,
                         const void *codeptr)
{
    (void)thr;
    ompt_callback_nest_lock_t cb = XOMP_OMPT_CB(nest_lock, ompt_callback_nest_lock_t);
    if (cb)
        cb(endpoint, (ompt_wait_id_t)(uintptr_t)id, codeptr);
}

/* ---- the rest ---- */

void xomp_ompt_cancel(struct xomp_thread *thr, int flags, const void *codeptr)
{
    ompt_callback_cancel_t cb = XOMP_OMPT_CB(cancel, ompt_callback_cancel_t);
    if (cb)
        cb(&thr->task->tool_data, flags, codeptr);
}

void xomp_ompt_flush(struct xomp_thread *thr, const void *codeptr)
{
    ompt_callback_flush_t cb = XOMP_OMPT_CB(flush, ompt_callback_flush_t);
    if (cb)
        cb(&thr->ompt.thread_data, codeptr);
}

void xomp_ompt_reduction(struct xomp_thread *thr, ompt_scope_endpoint_t endpoint,
                         const void *codeptr)
{
    if (endpoint == ompt_scope_begin)
        set_state(thr, ompt_state_work_reduction, 0);
    else
        set_state(thr, work_state(thr), 0);
    ompt_callback_sync_region_t cb = XOMP_OMPT_CB(reduction, ompt_callback_sync_region_t);
    if (cb)
        cb(ompt_sync_region_reduction, endpoint, current_parallel(thr), &thr->task->tool_data,
           codeptr);
}

void xomp_ompt_error(ompt_severity_t severity, const char *message, size_t length,
                     const void *codeptr)
{
    ompt_callback_error_t cb = XOMP_OMPT_CB(error, ompt_callback_error_t);
    if (cb)
        cb(severity, message, length, codeptr);
}

int xomp_ompt_control_tool(uint64_t command, uint64_t modifier, void *arg, const void *codeptr)
{
    if (!atomic_load_explicit(&xomp_ompt_active, memory_order_relaxed))
        return -2; /* omp_control_tool_notool */
    xomp_ompt_exit_handler();
    ompt_callback_control_tool_t cb = XOMP_OMPT_CB(control_tool, ompt_callback_control_tool_t);
    if (!cb)
        return -1; /* omp_control_tool_nocallback */
    return cb(command, modifier, arg, codeptr);
}
