/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * ompt_check: an OMPT tool that registers every host callback, follows
 * the program through them and checks the specification's invariants:
 *
 *   threads   one thread_begin per thread (and OS thread), thread_end at
 *             the end, no event on a thread outside them;
 *   regions   parallel_begin before its implicit tasks, with the size
 *             the program requested; one implicit task per index below
 *             actual_parallelism; parallel_end after all began, with the
 *             same encountering task; every task of the region completed;
 *             a host teams construct: a league, with one initial task per
 *             team;
 *   tasks     task_create before the task is scheduled, from the task
 *             running on that thread; dependences reported before the
 *             first schedule; a task never starts before the tasks its
 *             task_dependence events name have completed; schedule
 *             events nest on each thread (a task completes on top of the
 *             thread's stack and the task below resumes); created ==
 *             completed; parent/child links through ompt_get_task_info;
 *   sync      sync_region and sync_region_wait pair and nest; a taskwait
 *             ends after its children, a taskgroup after its members;
 *   work      work regions pair; one executor per single; the chunks a
 *             loop dispatches cover its iterations exactly;
 *   mutexes   acquire, then acquired (or nothing, for a failed test),
 *             then released by the same thread; nest_lock only by the
 *             owner; lock_destroy of an initialized, free lock;
 *   inquiry   ompt_get_thread_data, ompt_get_parallel_info,
 *             ompt_get_task_info and ompt_get_state agree with the
 *             callbacks.
 *
 * The program talks to it through omp_control_tool (ompt_check.h): it
 * announces requested team sizes and asks for checkpoints with the counts
 * it expects.  At finalize the tool prints a summary to stderr and, if
 * anything was violated, exits with status 3.  A library destructor fails
 * the run if the tool was initialized but never finalized.
 *
 * Runs on any OMPT runtime.  LLVM libomp (the sanity check of this test)
 * differs from the specification in a few places; with that runtime (its
 * version string starts with "LLVM") the tool lets them pass: the end of a
 * single region's executor is never reported (its open region is closed
 * by the next barrier or end of its task); sections are reported as loops
 * and single with copyprivate not at all (the checkpoint counts of loops,
 * sections and singles are not compared); ompt_get_num_procs and
 * ompt_get_callback do not answer during the tool's initializer; a tool
 * inside the program is finalized after the program's destructors; the
 * ancestors ompt_get_task_info gives are the tasks beneath on the thread,
 * not the generating ones (the parent/child links are not checked); the
 * task of a taskwait with dependences is created before its region; a task
 * that cancels its taskgroup ends with the status of a discarded one; a
 * cancelled loop's work region does not end; omp_test_lock's attempt is
 * reported as an ompt_mutex_lock acquire, with no acquired when it fails.
 */
#define _GNU_SOURCE
#include "ompt_check.h"

#include <omp-tools.h>

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- state ---- */

enum { MAGIC_THREAD = 0x7e1, MAGIC_REGION = 0x7e2, MAGIC_TASK = 0x7e3 };
enum task_state { CREATED = 1, RUNNING, DETACHED, COMPLETED };
enum frame_kind { FR_TASK = 1, FR_SYNC, FR_WAIT, FR_WORK, FR_MASKED };

struct taskgroup;
struct region;

struct task {
    int magic;
    long id;
    int flags;
    enum task_state state;
    struct task *parent;
    struct region *region;
    bool has_deps, deps_seen, fulfilled;
    struct task **preds; /* task_dependence sources */
    int npreds, cap;
    long children_created, children_completed;
    /* Taskgroups: the one it belongs to (innermost; their `outer` links
     * give the rest) and the innermost one it opened itself. */
    struct taskgroup *member_of, *open_tg;
    unsigned index;        /* implicit task: its thread number */
    unsigned ws_count;     /* implicit task: worksharing regions begun */
};

struct taskgroup {
    long pending;
    struct taskgroup *outer;     /* next group a member belongs to */
    struct taskgroup *prev_open; /* the task's previous open group */
};

/* A worksharing construct instance of a region: the k-th one every
 * member meets (static loops GCC compiles inline are unseen by all). */
struct ws_instance {
    int kind;
    uint64_t count;       /* iterations or sections */
    uint64_t dispatched;  /* iterations dispatched, summed over members */
    bool dispatching;
    bool cancelled;       /* a member reported its cancellation */
    int executors;        /* single */
};

struct region {
    int magic;
    long id;
    struct task *encountering;
    unsigned requested, actual;
    int flags;
    int begun, ended_tasks;
    bool ended, initial;
    unsigned char seen[512];
    long tasks_created, tasks_completed;
    struct ws_instance *ws;
    unsigned nws;
};

struct frame {
    enum frame_kind kind;
    int sub;       /* sync kind or work type */
    void *obj;     /* task, or for FR_SYNC the task it is in */
    bool taskwait_depend;
};

/* A mutex a thread holds (its acquired seen, its released not yet). */
struct held {
    ompt_wait_id_t id;
    int kind;
    int nesting;
};

struct thread {
    int magic;
    long id;
    int type;
    pid_t tid;
    bool ended;
    struct held held[64];
    int nheld;
    struct frame stack[512];
    int depth;
    bool acquiring; /* a mutex_acquire without its acquired yet */
    int acq_kind;
    ompt_wait_id_t acq_id;
    int expect_requested; /* -1: none */
    bool taskwait_task_made; /* lenient: a taskwait task before its region */
};

/* Locks the program initialized.  Who holds what is kept per thread: a
 * runtime may tell a release after another thread's acquisition of the
 * same mutex (both runtimes dispatch mutex_released after the unlock). */
struct lock_rec {
    ompt_wait_id_t id;
    bool used, initialized;
};

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static bool lenient; /* LLVM libomp: see the top */
static bool dispatch_supported;
static int violations;
static long nevents, next_id = 1;
static long threads_begun, threads_ended, regions_begun, tasks_created, tasks_completed;
static struct ompt_check_counts seen; /* since the last checkpoint */
static bool initialized, finalized;

static struct thread *all_threads[4096];
static long nthreads_all;

#define LOCKS_MAX 4096
static struct lock_rec locks[LOCKS_MAX];

static ompt_get_thread_data_t get_thread_data;
static ompt_get_task_info_t get_task_info;
static ompt_get_parallel_info_t get_parallel_info;
static ompt_get_state_t get_state;
static ompt_enumerate_states_t enumerate_states;

static void violation(int line, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void violation(int line, const char *fmt, ...)
{
    if (++violations <= 40) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "ompt_check: violation (ompt_check.c:%d): ", line);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
}

#define EXPECT(cond, ...)                                                                \
    do {                                                                                 \
        if (!(cond))                                                                     \
            violation(__LINE__, __VA_ARGS__);                                            \
    } while (0)

/* Records live until the process ends; each is also linked from here, so
 * that a leak checker sees them reachable once the runtime forgets the
 * data that pointed to them. */
struct allocation {
    struct allocation *next;
    _Alignas(16) unsigned char bytes[];
};
static struct allocation *allocations;

static void *xcalloc(size_t n, size_t size)
{
    struct allocation *a = calloc(1, sizeof *a + n * size);
    if (!a) {
        fprintf(stderr, "ompt_check: out of memory\n");
        _exit(4);
    }
    a->next = allocations;
    allocations = a;
    return a->bytes;
}

static struct task *task_of(ompt_data_t *d)
{
    if (!d || !d->ptr)
        return NULL;
    struct task *t = d->ptr;
    return t->magic == MAGIC_TASK ? t : NULL;
}

static struct region *region_of(ompt_data_t *d)
{
    if (!d || !d->ptr)
        return NULL;
    struct region *r = d->ptr;
    return r->magic == MAGIC_REGION ? r : NULL;
}

/* ---- per-thread stack ---- */

static void push(struct thread *t, enum frame_kind kind, int sub, void *obj)
{
    if (t->depth >= (int)(sizeof t->stack / sizeof t->stack[0])) {
        violation(__LINE__, "thread %ld: events nest deeper than %d", t->id, t->depth);
        return;
    }
    t->stack[t->depth++] = (struct frame){kind, sub, obj, false};
}

/* The top frame, after dropping what a lenient runtime leaves open. */
static struct frame *top(struct thread *t)
{
    while (lenient && t->depth > 0 && t->stack[t->depth - 1].kind == FR_WORK &&
           t->stack[t->depth - 1].sub == ompt_work_single_executor)
        t->depth--;
    return t->depth ? &t->stack[t->depth - 1] : NULL;
}

static const char *frame_name(const struct frame *f)
{
    if (!f)
        return "nothing";
    switch (f->kind) {
    case FR_TASK: return "a task";
    case FR_SYNC: return "a sync region";
    case FR_WAIT: return "a sync wait";
    case FR_WORK: return "a work region";
    case FR_MASKED: return "a masked region";
    }
    return "?";
}

/* Barriers of any kind are one kind here: runtimes name them differently
 * (an explicit barrier's and a construct's implicit one both come through
 * GOMP_barrier). */
static int sync_class(int kind)
{
    return kind == ompt_sync_region_taskwait || kind == ompt_sync_region_taskgroup ||
                   kind == ompt_sync_region_reduction
               ? kind
               : ompt_sync_region_barrier_explicit;
}

/* The task running on this thread: the nearest task frame. */
static struct task *current_task(struct thread *t)
{
    for (int i = t->depth - 1; i >= 0; i--)
        if (t->stack[i].kind == FR_TASK)
            return t->stack[i].obj;
    return NULL;
}

/* ---- every callback starts here ---- */

static bool state_valid(int s)
{
    int st = ompt_state_undefined;
    const char *name;
    while (enumerate_states(st, &st, &name))
        if (st == s)
            return true;
    return false;
}

static struct thread *enter(int line)
{
    pthread_mutex_lock(&mu);
    nevents++;
    ompt_data_t *d = get_thread_data();
    struct thread *t = d ? d->ptr : NULL;
    if (!t || t->magic != MAGIC_THREAD) {
        violation(line, "an event on a thread without thread_begin");
        return NULL;
    }
    if (t->ended)
        violation(line, "thread %ld: an event after its thread_end", t->id);
    int s = get_state(NULL);
    EXPECT(state_valid(s), "thread %ld: ompt_get_state gives %#x, not an enumerated state", t->id,
           s);
    return t;
}

static void leave(void)
{
    pthread_mutex_unlock(&mu);
}

/* A test-lock acquire that failed has no acquired: forget it at the
 * thread's next event; any other acquire without acquired is wrong (LLVM
 * libomp gives a test lock's attempt the kind of a lock: see the top). */
static void settle_acquire(struct thread *t, int line)
{
    if (!t || !t->acquiring)
        return;
    bool test_kind = t->acq_kind == ompt_mutex_test_lock ||
                     t->acq_kind == ompt_mutex_test_nest_lock ||
                     (lenient && t->acq_kind == ompt_mutex_lock);
    if (!test_kind)
        violation(line, "thread %ld: mutex_acquire (kind %d) not followed by mutex_acquired",
                  t->id, t->acq_kind);
    t->acquiring = false;
}

#define ENTER()                                                                          \
    struct thread *self = enter(__LINE__);                                               \
    if (!self) {                                                                         \
        leave();                                                                         \
        return;                                                                          \
    }

/* The task data this thread's ompt_get_task_info gives at `level`. */
static ompt_data_t *info_task(int level, int *flags, ompt_data_t **pdata, int *thread_num)
{
    ompt_data_t *td = NULL;
    ompt_frame_t *frame = NULL;
    if (get_task_info(level, flags, &td, &frame, pdata, thread_num) != 2)
        return NULL;
    return td;
}

/* Inside a callback that runs in task `task`'s context: does the
 * runtime's view agree (its data, its parent's data)? */
static void check_context(struct thread *t, struct task *task, ompt_data_t *task_data, int line)
{
    /* (LLVM libomp's ancestors are the tasks beneath on the thread, not
     * the generating tasks; inside task_create for GCC's tasks its
     * current task is not always the encountering one.) */
    if (!task || lenient)
        return;
    ompt_data_t *d0 = info_task(0, NULL, NULL, NULL);
    if (d0 != task_data)
        violation(line, "thread %ld: ompt_get_task_info(0) gives %p, the callback's task is %p",
                  t->id, (void *)d0, (void *)task_data);
    struct task *parent = task->parent;
    ompt_data_t *d1 = info_task(1, NULL, NULL, NULL);
    if (parent && task_of(d1) != parent)
        violation(line, "thread %ld: ompt_get_task_info(1) of task %ld gives %ld, not its parent %ld",
                  t->id, task->id, task_of(d1) ? task_of(d1)->id : -1L, parent->id);
    if (!parent && d1)
        violation(line, "thread %ld: ompt_get_task_info(1) of the initial task %ld gives a task",
                  t->id, task->id);
}

/* ---- threads ---- */

static void on_thread_begin(ompt_thread_t type, ompt_data_t *thread_data)
{
    pthread_mutex_lock(&mu);
    nevents++;
    EXPECT(thread_data && thread_data->value == 0, "thread_begin with thread data already set");
    EXPECT(type == ompt_thread_initial || type == ompt_thread_worker || type == ompt_thread_other,
           "thread_begin of type %d", (int)type);
    pid_t tid = gettid();
    for (long i = 0; i < nthreads_all; i++)
        EXPECT(all_threads[i]->tid != tid || all_threads[i]->ended,
               "a second thread_begin on OS thread %d", (int)tid);
    struct thread *t = xcalloc(1, sizeof *t);
    t->magic = MAGIC_THREAD;
    t->id = next_id++;
    t->type = type;
    t->tid = tid;
    t->expect_requested = -1;
    if (nthreads_all < (long)(sizeof all_threads / sizeof all_threads[0]))
        all_threads[nthreads_all++] = t;
    thread_data->ptr = t;
    EXPECT(get_thread_data() == thread_data,
           "ompt_get_thread_data is not the thread_begin's thread data");
    threads_begun++;
    leave();
}

static void on_thread_end(ompt_data_t *thread_data)
{
    ENTER();
    EXPECT(thread_data->ptr == self, "thread_end with another thread's data");
    settle_acquire(self, __LINE__);
    struct frame *f = top(self);
    EXPECT(!f, "thread %ld ends inside %s", self->id, frame_name(f));
    self->ended = true;
    threads_ended++;
    leave();
}

/* ---- parallel regions and implicit tasks ---- */

static void on_parallel_begin(ompt_data_t *encountering_task_data,
                              const ompt_frame_t *encountering_task_frame,
                              ompt_data_t *parallel_data, unsigned int requested, int flags,
                              const void *codeptr_ra)
{
    (void)encountering_task_frame;
    (void)codeptr_ra;
    ENTER();
    settle_acquire(self, __LINE__);
    struct task *enc = task_of(encountering_task_data);
    EXPECT(enc && enc == current_task(self),
           "thread %ld: parallel_begin's encountering task is not the task it runs", self->id);
    check_context(self, enc, encountering_task_data, __LINE__);
    EXPECT(parallel_data->value == 0, "parallel_begin with parallel data already set");
    EXPECT(requested >= 1, "parallel_begin requests %u threads", requested);
    EXPECT(flags & (ompt_parallel_team | ompt_parallel_league),
           "parallel_begin flags %#x: neither team nor league", flags);
    if (self->expect_requested >= 0) {
        EXPECT(requested == (unsigned)self->expect_requested,
               "parallel_begin requests %u threads, the program asked for %d", requested,
               self->expect_requested);
        self->expect_requested = -1;
    }
    struct region *r = xcalloc(1, sizeof *r);
    r->magic = MAGIC_REGION;
    r->id = next_id++;
    r->encountering = enc;
    r->requested = requested;
    r->flags = flags;
    parallel_data->ptr = r;
    regions_begun++;
    seen.regions++;
    leave();
}

static void check_instances(struct region *r)
{
    for (unsigned i = 0; i < r->nws; i++) {
        struct ws_instance *w = &r->ws[i];
        if (w->kind == ompt_work_single_executor || w->kind == ompt_work_single_other)
            EXPECT(w->executors == 1, "region %ld: single construct %u executed %d times", r->id,
                   i, w->executors);
        if (w->dispatching && !w->cancelled &&
            (w->kind == ompt_work_loop || w->kind == ompt_work_sections))
            EXPECT(w->dispatched == w->count,
                   "region %ld: worksharing construct %u of %lu iterations dispatched %lu", r->id,
                   i, (unsigned long)w->count, (unsigned long)w->dispatched);
    }
}

static void on_parallel_end(ompt_data_t *parallel_data, ompt_data_t *encountering_task_data,
                            int flags, const void *codeptr_ra)
{
    (void)flags;
    (void)codeptr_ra;
    ENTER();
    settle_acquire(self, __LINE__);
    struct region *r = region_of(parallel_data);
    EXPECT(r && !r->ended && !r->initial, "parallel_end of an unknown or ended region");
    if (r) {
        EXPECT(task_of(encountering_task_data) == r->encountering,
               "region %ld: parallel_end's encountering task differs from its begin's", r->id);
        EXPECT(r->begun == (int)r->actual && r->actual >= 1,
               "region %ld: %d implicit tasks began of %u", r->id, r->begun, r->actual);
        EXPECT(r->tasks_created == r->tasks_completed,
               "region %ld ends with %ld of its %ld explicit tasks not completed", r->id,
               r->tasks_created - r->tasks_completed, r->tasks_created);
        EXPECT(r->actual <= r->requested, "region %ld: %u threads for %u requested", r->id,
               r->actual, r->requested);
        check_instances(r);
        r->ended = true;
    }
    EXPECT(current_task(self) == task_of(encountering_task_data),
           "thread %ld: parallel_end while the encountering task is not current", self->id);
    leave();
}

static struct task *new_task(int flags, struct task *parent, struct region *r)
{
    struct task *t = xcalloc(1, sizeof *t);
    t->magic = MAGIC_TASK;
    t->id = next_id++;
    t->flags = flags;
    t->parent = parent;
    t->region = r;
    return t;
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                             ompt_data_t *task_data, unsigned int actual, unsigned int index,
                             int flags)
{
    ENTER();
    settle_acquire(self, __LINE__);
    if (endpoint == ompt_scope_begin) {
        EXPECT(task_data->value == 0, "implicit_task begin with task data already set");
        struct region *r;
        struct task *parent = NULL;
        /* A team of a host teams construct: an initial task in the league
         * that parallel_begin announced. */
        struct region *league = (flags & ompt_task_initial) ? region_of(parallel_data) : NULL;
        if (league && !(league->flags & ompt_parallel_league))
            league = NULL;
        if ((flags & ompt_task_initial) && !league) {
            EXPECT(parallel_data && parallel_data->value == 0,
                   "initial task begin: its implicit region's data is already set");
            r = xcalloc(1, sizeof *r);
            r->magic = MAGIC_REGION;
            r->id = next_id++;
            r->initial = true;
            r->requested = r->actual = 1;
            parallel_data->ptr = r;
            EXPECT(actual == 1, "initial task begin: actual_parallelism %u", actual);
        } else {
            EXPECT(flags & (league ? ompt_task_initial : ompt_task_implicit),
                   "implicit_task begin with flags %#x", flags);
            r = region_of(parallel_data);
            EXPECT(r && !r->ended, "implicit_task begin of an unknown or ended region");
            if (!r) {
                leave();
                return;
            }
            /* A team's initial task has no parent task (as the thread's
             * own initial task). */
            parent = league ? NULL : r->encountering;
            if (!r->actual)
                r->actual = actual;
            EXPECT(actual == r->actual, "region %ld: implicit tasks of %u and %u threads", r->id,
                   r->actual, actual);
            EXPECT(index < actual, "region %ld: implicit task %u of %u", r->id, index, actual);
            if (index < sizeof r->seen) {
                EXPECT(!r->seen[index], "region %ld: two implicit tasks %u", r->id, index);
                r->seen[index] = 1;
            }
            r->begun++;
        }
        struct task *t = new_task(flags, parent, r);
        t->index = index;
        t->state = RUNNING;
        task_data->ptr = t;
        push(self, FR_TASK, 0, t);
        /* The runtime's view from inside the new task. */
        ompt_data_t *pdata = NULL;
        int team = 0;
        EXPECT(get_parallel_info(0, &pdata, &team) == 2 && pdata == parallel_data &&
                   team == (int)actual,
               "thread %ld: ompt_get_parallel_info(0) disagrees with implicit_task begin",
               self->id);
        int tflags = 0, tnum = -1;
        ompt_data_t *tpd = NULL;
        ompt_data_t *td = info_task(0, &tflags, &tpd, &tnum);
        EXPECT(td == task_data && tpd == parallel_data && (tflags & flags) &&
                   ((flags & ompt_task_initial) || tnum == (int)index),
               "thread %ld: ompt_get_task_info(0) disagrees with implicit_task begin (index %u, "
               "got thread_num %d)",
               self->id, index, tnum);
        check_context(self, t, task_data, __LINE__);
    } else {
        struct task *t = task_of(task_data);
        /* (LLVM libomp does not end a cancelled loop's work region.) */
        while (lenient && self->depth && self->stack[self->depth - 1].kind == FR_WORK)
            self->depth--;
        struct frame *f = top(self);
        EXPECT(t && f && f->kind == FR_TASK && f->obj == t,
               "thread %ld: implicit_task end, but %s is innermost", self->id, frame_name(f));
        if (f && f->kind == FR_TASK && f->obj == t)
            self->depth--;
        if (t) {
            EXPECT(t->children_created == t->children_completed,
                   "implicit task %ld ends with %ld children not completed", t->id,
                   t->children_created - t->children_completed);
            t->state = COMPLETED;
            t->region->ended_tasks++;
        }
    }
    leave();
}

/* ---- tasks ---- */

static void join_taskgroups(struct task *t, long delta)
{
    for (struct taskgroup *g = t->member_of; g; g = g->outer)
        g->pending += delta;
}

static void complete(struct task *t, int line)
{
    t->state = COMPLETED;
    if (t->flags & ompt_task_taskwait)
        return;
    tasks_completed++;
    if (t->parent)
        t->parent->children_completed++;
    if (t->region)
        t->region->tasks_completed++;
    join_taskgroups(t, -1);
    (void)line;
}

static void on_task_create(ompt_data_t *encountering_task_data,
                           const ompt_frame_t *encountering_task_frame,
                           ompt_data_t *new_task_data, int flags, int has_dependences,
                           const void *codeptr_ra)
{
    (void)encountering_task_frame;
    (void)codeptr_ra;
    ENTER();
    settle_acquire(self, __LINE__);
    struct task *enc = task_of(encountering_task_data);
    EXPECT(enc && enc == current_task(self),
           "thread %ld: task_create from a task that is not running here", self->id);
    check_context(self, enc, encountering_task_data, __LINE__);
    EXPECT(new_task_data->value == 0, "task_create with task data already set");
    EXPECT((flags & (ompt_task_explicit | ompt_task_target | ompt_task_taskwait)) &&
               !(flags & (ompt_task_implicit | ompt_task_initial)),
           "task_create with flags %#x", flags);
    struct task *t = new_task(flags, enc, enc ? enc->region : NULL);
    t->state = CREATED;
    t->has_deps = has_dependences;
    new_task_data->ptr = t;
    if (flags & ompt_task_taskwait) {
        EXPECT(has_dependences, "a taskwait task without dependences");
        /* taskwait depend(...) waits for those dependences, not for the
         * children. */
        struct frame *f = top(self);
        bool in_taskwait =
            f && f->kind == FR_WAIT && f->sub == ompt_sync_region_taskwait && self->depth >= 2;
        /* (LLVM libomp creates it before the taskwait region begins.) */
        EXPECT(in_taskwait || lenient, "thread %ld: a taskwait task outside a taskwait region",
               self->id);
        if (in_taskwait)
            self->stack[self->depth - 2].taskwait_depend = true;
        else
            self->taskwait_task_made = true;
    } else if (enc) {
        enc->children_created++;
        if (enc->region)
            enc->region->tasks_created++;
        t->member_of = enc->open_tg ? enc->open_tg : enc->member_of;
        join_taskgroups(t, 1);
        tasks_created++;
        seen.tasks++;
    }
    leave();
}

static void on_dependences(ompt_data_t *task_data, const ompt_dependence_t *deps, int ndeps)
{
    ENTER();
    struct task *t = task_of(task_data);
    EXPECT(t && t->state == CREATED && !t->deps_seen,
           "dependences of a task that is unknown, already started or reported twice");
    if (t) {
        EXPECT(t->has_deps, "dependences of task %ld created without has_dependences", t->id);
        t->deps_seen = true;
    }
    EXPECT(ndeps >= 1 && deps, "dependences with %d entries", ndeps);
    for (int i = 0; i < ndeps; i++) {
        int k = deps[i].dependence_type;
        EXPECT((k >= ompt_dependence_type_in && k <= ompt_dependence_type_inoutset &&
                k != ompt_dependence_type_source && k != ompt_dependence_type_sink) ||
                   k == 34 || k == 35,
               "dependence %d of type %d", i, k);
    }
    seen.dependences++;
    leave();
}

static void on_task_dependence(ompt_data_t *src_task_data, ompt_data_t *sink_task_data)
{
    ENTER();
    struct task *src = task_of(src_task_data), *sink = task_of(sink_task_data);
    EXPECT(src && sink, "task_dependence between unknown tasks");
    if (src && sink) {
        EXPECT(sink->state == CREATED, "task_dependence on task %ld, which already started",
               sink->id);
        EXPECT(src->id < sink->id && src->parent == sink->parent,
               "task_dependence %ld -> %ld: not an earlier sibling", src->id, sink->id);
        if (sink->npreds == sink->cap) {
            sink->cap = sink->cap ? 2 * sink->cap : 4;
            sink->preds = realloc(sink->preds, (size_t)sink->cap * sizeof *sink->preds);
            if (!sink->preds)
                _exit(4);
        }
        sink->preds[sink->npreds++] = src;
    }
    leave();
}

/* Task `t` starts: it was created, its dependences were reported, and
 * the tasks it depends on have completed. */
static void start(struct thread *self, struct task *t, int line)
{
    if (!t) {
        violation(line, "thread %ld: an unknown task is scheduled", self->id);
        return;
    }
    if (t->state != CREATED)
        violation(line, "task %ld is scheduled to start in state %d", t->id, t->state);
    if (t->has_deps && !t->deps_seen)
        violation(line, "task %ld starts before its dependences were reported", t->id);
    for (int i = 0; i < t->npreds; i++)
        if (t->preds[i]->state != COMPLETED)
            violation(line, "task %ld starts before task %ld it depends on completed", t->id,
                      t->preds[i]->id);
}

static void on_task_schedule(ompt_data_t *prior_task_data, ompt_task_status_t status,
                             ompt_data_t *next_task_data)
{
    ENTER();
    settle_acquire(self, __LINE__);
    struct task *prior = task_of(prior_task_data), *next = task_of(next_task_data);
    struct frame *f = top(self);
    bool prior_on_top = prior && f && f->kind == FR_TASK && f->obj == prior;
    switch (status) {
    case ompt_task_switch:
    case ompt_task_yield:
        /* From the running task, which may be inside a worksharing or
         * masked region (a single's tasks) or a wait (a taskwait's). */
        EXPECT(prior && prior == current_task(self),
               "thread %ld: task_schedule from a task that does not run here (%s innermost)",
               self->id, frame_name(f));
        start(self, next, __LINE__);
        if (next) {
            next->state = RUNNING;
            push(self, FR_TASK, 0, next);
        }
        break;
    case ompt_task_cancel:
        /* Discarded: it never started; the running task goes on.  (LLVM
         * libomp also ends the task that cancelled its taskgroup so, and
         * names other tasks as resumed.) */
        if (lenient && prior_on_top) {
            self->depth--;
            complete(prior, __LINE__);
            break;
        }
        EXPECT(prior && prior->state == CREATED,
               "thread %ld: task_schedule cancels a task that started", self->id);
        start(self, prior, __LINE__);
        if (prior)
            complete(prior, __LINE__);
        EXPECT(lenient || (next && next == current_task(self)),
               "thread %ld: the task resumed after a discarded one is not the running one",
               self->id);
        break;
    case ompt_task_complete:
    case ompt_task_detach:
        EXPECT(prior_on_top && prior->state == RUNNING,
               "thread %ld: task_schedule ends a task that is not running innermost (%s)",
               self->id, frame_name(f));
        if (prior_on_top)
            self->depth--;
        if (prior) {
            if (status == ompt_task_detach)
                prior->state = DETACHED;
            else
                complete(prior, __LINE__);
        }
        EXPECT(next && next == current_task(self),
               "thread %ld: the task resumed after task_schedule is not the one beneath",
               self->id);
        break;
    case ompt_task_early_fulfill:
        /* Fulfilled before its body ended: even before it started. */
        EXPECT(prior && prior->state != COMPLETED && !prior->fulfilled,
               "an early fulfillment of a completed task, or a second one");
        if (prior)
            prior->fulfilled = true;
        break;
    case ompt_task_late_fulfill:
        EXPECT(prior && prior->state == DETACHED, "a late fulfillment of a task not detached");
        if (prior)
            complete(prior, __LINE__);
        break;
    case ompt_taskwait_complete:
        EXPECT(prior && (prior->flags & ompt_task_taskwait),
               "taskwait_complete of a task that is not a taskwait task");
        start(self, prior, __LINE__);
        if (prior)
            complete(prior, __LINE__);
        break;
    default:
        violation(__LINE__, "task_schedule with status %d", (int)status);
    }
    leave();
}

/* ---- synchronization regions ---- */

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                           ompt_data_t *parallel_data, ompt_data_t *task_data,
                           const void *codeptr_ra)
{
    (void)parallel_data;
    (void)codeptr_ra;
    ENTER();
    settle_acquire(self, __LINE__);
    struct task *t = task_of(task_data);
    EXPECT(t && t == current_task(self), "thread %ld: sync_region %d of a task not running here",
           self->id, kind);
    if (endpoint == ompt_scope_begin) {
        check_context(self, t, task_data, __LINE__);
        push(self, FR_SYNC, sync_class(kind), t);
        if (kind == ompt_sync_region_taskwait && self->taskwait_task_made) {
            self->stack[self->depth - 1].taskwait_depend = true;
            self->taskwait_task_made = false;
        }
        if (kind == ompt_sync_region_taskgroup && t) {
            struct taskgroup *g = xcalloc(1, sizeof *g);
            g->outer = t->open_tg ? t->open_tg : t->member_of;
            g->prev_open = t->open_tg;
            t->open_tg = g;
            seen.taskgroups++;
        }
        if (kind == ompt_sync_region_taskwait)
            seen.taskwaits++;
    } else {
        struct frame *f = top(self);
        EXPECT(f && f->kind == FR_SYNC && f->sub == sync_class(kind) && f->obj == t,
               "thread %ld: sync_region %d ends, but %s is innermost", self->id, kind,
               frame_name(f));
        if (f && f->kind == FR_SYNC) {
            if (kind == ompt_sync_region_taskwait && t && !f->taskwait_depend)
                EXPECT(t->children_created == t->children_completed,
                       "task %ld: taskwait ends with %ld children not completed", t->id,
                       t->children_created - t->children_completed);
            self->depth--;
        }
        if (kind == ompt_sync_region_taskgroup && t && t->open_tg) {
            EXPECT(t->open_tg->pending == 0, "task %ld: taskgroup ends with %ld tasks pending",
                   t->id, t->open_tg->pending);
            t->open_tg = t->open_tg->prev_open;
        }
    }
    leave();
}

static void on_sync_region_wait(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                                ompt_data_t *parallel_data, ompt_data_t *task_data,
                                const void *codeptr_ra)
{
    (void)parallel_data;
    (void)codeptr_ra;
    ENTER();
    settle_acquire(self, __LINE__);
    struct frame *f = top(self);
    if (endpoint == ompt_scope_begin) {
        EXPECT(f && f->kind == FR_SYNC && f->sub == sync_class(kind) &&
                   f->obj == task_of(task_data),
               "thread %ld: sync_region_wait %d begins inside %s", self->id, kind,
               frame_name(f));
        push(self, FR_WAIT, sync_class(kind), task_of(task_data));
    } else {
        EXPECT(f && f->kind == FR_WAIT && f->sub == sync_class(kind),
               "thread %ld: sync_region_wait %d ends, but %s is innermost", self->id, kind,
               frame_name(f));
        if (f && f->kind == FR_WAIT)
            self->depth--;
    }
    leave();
}

/* ---- worksharing ---- */

static struct ws_instance *instance_of(struct thread *self, int kind)
{
    struct task *t = current_task(self);
    if (!t || !t->region || (t->flags & ompt_task_explicit))
        return NULL;
    struct region *r = t->region;
    unsigned k = t->ws_count++;
    if (k >= r->nws) {
        unsigned n = k + 8;
        r->ws = realloc(r->ws, n * sizeof *r->ws);
        if (!r->ws)
            _exit(4);
        memset(r->ws + r->nws, 0, (n - r->nws) * sizeof *r->ws);
        r->nws = n;
    }
    struct ws_instance *w = &r->ws[k];
    bool single = kind == ompt_work_single_executor || kind == ompt_work_single_other;
    if (!w->kind)
        w->kind = kind;
    bool was_single = w->kind == ompt_work_single_executor || w->kind == ompt_work_single_other;
    EXPECT(single ? was_single : w->kind == kind,
           "region %ld: members disagree on worksharing construct %u (%d and %d)", r->id, k,
           w->kind, kind);
    return w;
}

static void on_work(ompt_work_t wstype, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                    ompt_data_t *task_data, uint64_t count, const void *codeptr_ra)
{
    (void)parallel_data;
    (void)codeptr_ra;
    ENTER();
    settle_acquire(self, __LINE__);
    struct task *t = task_of(task_data);
    EXPECT(t && t == current_task(self), "thread %ld: work %d of a task not running here",
           self->id, wstype);
    EXPECT(wstype >= ompt_work_loop && wstype <= ompt_work_scope, "work of type %d", wstype);
    if (endpoint == ompt_scope_begin) {
        push(self, FR_WORK, wstype, t);
        switch (wstype) {
        case ompt_work_loop: seen.loops++; break;
        case ompt_work_sections: seen.sections++; break;
        case ompt_work_single_executor: seen.singles++; break;
        case ompt_work_taskloop: seen.taskloops++; break;
        default: break;
        }
        if (wstype != ompt_work_taskloop && wstype != ompt_work_scope) {
            struct ws_instance *w = instance_of(self, wstype);
            if (w) {
                if (wstype == ompt_work_single_executor)
                    w->executors++;
                if (wstype == ompt_work_loop || wstype == ompt_work_sections) {
                    EXPECT(!w->count || w->count == count,
                           "members disagree on a loop's iteration count (%lu, %lu)",
                           (unsigned long)w->count, (unsigned long)count);
                    w->count = count;
                }
            }
            /* Remember the instance for the dispatches that follow. */
            self->stack[self->depth - 1].obj = w;
        }
    } else {
        struct frame *f = top(self);
        EXPECT(f && f->kind == FR_WORK && f->sub == (int)wstype,
               "thread %ld: work %d ends, but %s is innermost", self->id, wstype, frame_name(f));
        if (f && f->kind == FR_WORK)
            self->depth--;
    }
    leave();
}

static void on_dispatch(ompt_data_t *parallel_data, ompt_data_t *task_data, ompt_dispatch_t kind,
                        ompt_data_t instance)
{
    (void)parallel_data;
    (void)task_data;
    ENTER();
    settle_acquire(self, __LINE__);
    struct frame *f = top(self);
    bool in_loop = f && f->kind == FR_WORK && f->sub == ompt_work_loop;
    bool in_sections = f && f->kind == FR_WORK && f->sub == ompt_work_sections;
    struct ws_instance *w = (in_loop || in_sections) ? f->obj : NULL;
    if (kind == ompt_dispatch_section) {
        EXPECT(in_sections, "thread %ld: a section dispatched outside sections", self->id);
        if (w) {
            w->dispatching = true;
            w->dispatched++;
        }
    } else if (kind == 3 /* ompt_dispatch_ws_loop_chunk (5.2) */) {
        EXPECT(in_loop, "thread %ld: a loop chunk dispatched outside a loop", self->id);
        const struct {
            uint64_t start, iterations;
        } *chunk = instance.ptr;
        EXPECT(chunk && chunk->iterations >= 1, "an empty loop chunk dispatched");
        if (w && chunk) {
            w->dispatching = true;
            w->dispatched += chunk->iterations;
            EXPECT(chunk->start + chunk->iterations <= w->count,
                   "chunk [%lu, +%lu) past the loop's %lu iterations", (unsigned long)chunk->start,
                   (unsigned long)chunk->iterations, (unsigned long)w->count);
        }
    } else {
        EXPECT(in_loop, "thread %ld: an iteration dispatched outside a loop", self->id);
    }
    leave();
}

static void on_masked(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel_data,
                      ompt_data_t *task_data, const void *codeptr_ra)
{
    (void)parallel_data;
    (void)task_data;
    (void)codeptr_ra;
    ENTER();
    settle_acquire(self, __LINE__);
    if (endpoint == ompt_scope_begin) {
        push(self, FR_MASKED, 0, NULL);
    } else {
        struct frame *f = top(self);
        EXPECT(f && f->kind == FR_MASKED, "thread %ld: masked ends inside %s", self->id,
               frame_name(f));
        if (f && f->kind == FR_MASKED)
            self->depth--;
    }
    leave();
}

/* ---- mutual exclusion ---- */

static struct lock_rec *lock_rec(ompt_wait_id_t id)
{
    size_t i = (size_t)((id >> 3) * 0x9e3779b97f4a7c15ULL) % LOCKS_MAX;
    for (size_t n = 0; n < LOCKS_MAX; n++, i = (i + 1) % LOCKS_MAX) {
        if (locks[i].used && locks[i].id == id)
            return &locks[i];
        if (!locks[i].used) {
            locks[i].used = true;
            locks[i].id = id;
            return &locks[i];
        }
    }
    fprintf(stderr, "ompt_check: more than %d locks\n", LOCKS_MAX);
    _exit(4);
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                             ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)hint;
    (void)impl;
    (void)codeptr_ra;
    ENTER();
    settle_acquire(self, __LINE__);
    EXPECT(kind >= ompt_mutex_lock && kind <= ompt_mutex_ordered, "mutex_acquire of kind %d",
           kind);
    self->acquiring = true;
    self->acq_kind = kind;
    self->acq_id = wait_id;
    leave();
}

static struct held *held_by(struct thread *t, ompt_wait_id_t id)
{
    for (int i = 0; i < t->nheld; i++)
        if (t->held[i].id == id)
            return &t->held[i];
    return NULL;
}

static bool held_by_anyone(ompt_wait_id_t id)
{
    for (long i = 0; i < nthreads_all; i++)
        if (held_by(all_threads[i], id))
            return true;
    return false;
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)codeptr_ra;
    ENTER();
    EXPECT(self->acquiring && self->acq_kind == (int)kind && self->acq_id == wait_id,
           "thread %ld: mutex_acquired (kind %d) without its mutex_acquire", self->id, kind);
    self->acquiring = false;
    EXPECT(!held_by(self, wait_id), "thread %ld acquires a mutex it holds (kind %d)", self->id,
           kind);
    if (self->nheld < (int)(sizeof self->held / sizeof self->held[0]))
        self->held[self->nheld++] = (struct held){wait_id, kind, 1};
    else
        violation(__LINE__, "thread %ld holds more than %d mutexes", self->id, self->nheld);
    switch (kind) {
    case ompt_mutex_lock:
    case ompt_mutex_test_lock:
    case ompt_mutex_nest_lock:
    case ompt_mutex_test_nest_lock: seen.locks++; break;
    case ompt_mutex_critical: seen.criticals++; break;
    case ompt_mutex_atomic: seen.atomics++; break;
    case ompt_mutex_ordered: seen.ordered++; break;
    default: break;
    }
    leave();
}

static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)codeptr_ra;
    ENTER();
    settle_acquire(self, __LINE__);
    struct held *h = held_by(self, wait_id);
    EXPECT(h && h->nesting == 1, "thread %ld releases a mutex (kind %d) it does not hold%s",
           self->id, kind, h ? " once only" : "");
    if (h)
        *h = self->held[--self->nheld];
    leave();
}

static void on_nest_lock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id,
                         const void *codeptr_ra)
{
    (void)codeptr_ra;
    ENTER();
    struct held *h = held_by(self, wait_id);
    if (endpoint == ompt_scope_begin) {
        /* After the mutex_acquire of the owner's set (or test). */
        EXPECT(self->acquiring && self->acq_id == wait_id,
               "thread %ld: nest_lock begin without mutex_acquire", self->id);
        self->acquiring = false;
        EXPECT(h, "thread %ld: nest_lock begin on a lock it does not own", self->id);
        if (h)
            h->nesting++;
        seen.nested_locks++;
    } else {
        settle_acquire(self, __LINE__);
        EXPECT(h && h->nesting > 1, "thread %ld: nest_lock end on a lock it does not own twice",
               self->id);
        if (h)
            h->nesting--;
    }
    leave();
}

static void on_lock_init(ompt_mutex_t kind, unsigned int hint, unsigned int impl,
                         ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)hint;
    (void)impl;
    (void)codeptr_ra;
    ENTER();
    settle_acquire(self, __LINE__);
    EXPECT(kind == ompt_mutex_lock || kind == ompt_mutex_nest_lock, "lock_init of kind %d", kind);
    struct lock_rec *l = lock_rec(wait_id);
    EXPECT(!held_by_anyone(wait_id), "lock_init of a held lock");
    l->initialized = true;
    leave();
}

static void on_lock_destroy(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr_ra)
{
    (void)codeptr_ra;
    ENTER();
    settle_acquire(self, __LINE__);
    struct lock_rec *l = lock_rec(wait_id);
    bool held = held_by_anyone(wait_id);
    EXPECT(l->initialized && !held, "lock_destroy (kind %d) of a lock %s", kind,
           held ? "that is held" : "never initialized");
    l->initialized = false;
    leave();
}

/* ---- the rest ---- */

static void on_cancel(ompt_data_t *task_data, int flags, const void *codeptr_ra)
{
    (void)codeptr_ra;
    ENTER();
    settle_acquire(self, __LINE__);
    int what = flags & (ompt_cancel_parallel | ompt_cancel_sections | ompt_cancel_loop |
                        ompt_cancel_taskgroup);
    int how = flags & (ompt_cancel_activated | ompt_cancel_detected | ompt_cancel_discarded_task);
    EXPECT(task_of(task_data), "cancel of an unknown task");
    /* One of activated, detected, discarded, with its construct (a
     * discarded task may come without one). */
    EXPECT(how && (how & (how - 1)) == 0 && !(what & (what - 1)) &&
               (what || how == ompt_cancel_discarded_task),
           "cancel with flags %#x", flags);
    if (how == ompt_cancel_activated)
        seen.cancels++;
    /* A cancelled loop or sections need not hand out all its work. */
    struct frame *f = top(self);
    if ((what & (ompt_cancel_loop | ompt_cancel_sections)) && f && f->kind == FR_WORK &&
        (f->sub == ompt_work_loop || f->sub == ompt_work_sections) && f->obj)
        ((struct ws_instance *)f->obj)->cancelled = true;
    leave();
}

static void on_flush(ompt_data_t *thread_data, const void *codeptr_ra)
{
    (void)codeptr_ra;
    ENTER();
    EXPECT(thread_data && thread_data->ptr == self, "flush with another thread's data");
    leave();
}

static void on_reduction(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint,
                         ompt_data_t *parallel_data, ompt_data_t *task_data,
                         const void *codeptr_ra)
{
    (void)parallel_data;
    (void)task_data;
    (void)endpoint;
    (void)codeptr_ra;
    ENTER();
    EXPECT(kind == ompt_sync_region_reduction, "reduction callback of kind %d", kind);
    leave();
}

static void on_error(ompt_severity_t severity, const char *message, size_t length,
                     const void *codeptr_ra)
{
    (void)message;
    (void)length;
    (void)codeptr_ra;
    ENTER();
    EXPECT(severity == ompt_warning || severity == ompt_fatal, "error of severity %d", severity);
    leave();
}

/* Counts: expected (-1: any) against seen. */
static void compare(const char *what, long expected, long got)
{
    if (expected >= 0 && expected != got)
        violation(__LINE__, "checkpoint: %ld %s, the program expected %ld", got, what, expected);
}

static int on_control_tool(uint64_t command, uint64_t modifier, void *arg,
                           const void *codeptr_ra)
{
    (void)codeptr_ra;
    pthread_mutex_lock(&mu);
    struct thread *self = get_thread_data() ? get_thread_data()->ptr : NULL;
    int answer = 0;
    if (command == OMPT_CHECK_EXPECT_REQUESTED && self) {
        self->expect_requested = (int)modifier;
    } else if (command == OMPT_CHECK_POINT) {
        const struct ompt_check_counts *e = arg;
        if (e) {
            compare("explicit tasks created", e->tasks, seen.tasks);
            compare("dependences callbacks", e->dependences, seen.dependences);
            compare("locks acquired", e->locks, seen.locks);
            compare("nested lock sets", e->nested_locks, seen.nested_locks);
            compare("critical regions", e->criticals, seen.criticals);
            compare("atomic regions", e->atomics, seen.atomics);
            compare("ordered regions", e->ordered, seen.ordered);
            /* LLVM libomp reports sections as loops and no single with
             * copyprivate. */
            if (!lenient) {
                compare("loop regions", e->loops, seen.loops);
                compare("sections regions", e->sections, seen.sections);
                compare("single regions executed", e->singles, seen.singles);
            }
            compare("taskwait regions", e->taskwaits, seen.taskwaits);
            compare("taskgroup regions", e->taskgroups, seen.taskgroups);
            compare("taskloop regions", e->taskloops, seen.taskloops);
            compare("parallel regions", e->regions, seen.regions);
            compare("cancellations", e->cancels, seen.cancels);
        }
        EXPECT(tasks_created == tasks_completed,
               "checkpoint: %ld explicit tasks created, %ld completed", tasks_created,
               tasks_completed);
        memset(&seen, 0, sizeof seen);
        answer = violations;
    } else if (command >= 64) {
        violation(__LINE__, "omp_control_tool with unknown command %lu", (unsigned long)command);
    }
    pthread_mutex_unlock(&mu);
    return answer;
}

/* ---- initialize and finalize ---- */

static ompt_set_callback_t set_callback;

static int reg(ompt_callbacks_t event, ompt_callback_t cb, const char *name)
{
    int r = set_callback(event, cb);
    if (r == ompt_set_error)
        fprintf(stderr, "ompt_check: ompt_set_callback(%s) failed\n", name);
    return r;
}

#define REG(event, fn) reg(ompt_callback_##event, (ompt_callback_t)(fn), #event)

static int initialize(ompt_function_lookup_t lookup, int initial_device_num,
                      ompt_data_t *tool_data)
{
    (void)initial_device_num;
    (void)tool_data;
    set_callback = (ompt_set_callback_t)lookup("ompt_set_callback");
    ompt_get_callback_t get_callback = (ompt_get_callback_t)lookup("ompt_get_callback");
    get_thread_data = (ompt_get_thread_data_t)lookup("ompt_get_thread_data");
    get_task_info = (ompt_get_task_info_t)lookup("ompt_get_task_info");
    get_parallel_info = (ompt_get_parallel_info_t)lookup("ompt_get_parallel_info");
    get_state = (ompt_get_state_t)lookup("ompt_get_state");
    enumerate_states = (ompt_enumerate_states_t)lookup("ompt_enumerate_states");
    ompt_get_unique_id_t unique_id = (ompt_get_unique_id_t)lookup("ompt_get_unique_id");
    ompt_get_num_procs_t num_procs = (ompt_get_num_procs_t)lookup("ompt_get_num_procs");
    ompt_enumerate_mutex_impls_t mutex_impls =
        (ompt_enumerate_mutex_impls_t)lookup("ompt_enumerate_mutex_impls");
    if (!set_callback || !get_callback || !get_thread_data || !get_task_info ||
        !get_parallel_info || !get_state || !enumerate_states || !unique_id || !num_procs ||
        !mutex_impls || !lookup("ompt_get_task_memory") || !lookup("ompt_get_num_places") ||
        !lookup("ompt_get_place_proc_ids") || !lookup("ompt_get_place_num") ||
        !lookup("ompt_get_partition_place_nums") || !lookup("ompt_get_proc_id") ||
        !lookup("ompt_finalize_tool")) {
        fprintf(stderr, "ompt_check: FAIL: an entry point is missing\n");
        _exit(3);
    }
    EXPECT(!lookup("ompt_no_such_entry_point"), "lookup finds an entry point that does not exist");
    uint64_t a = unique_id(), b = unique_id();
    EXPECT(a != b && a && b, "ompt_get_unique_id gives %lu twice", (unsigned long)a);
    /* (LLVM libomp knows its processors only after its first region.) */
    EXPECT(lenient || num_procs() >= 1, "ompt_get_num_procs gives %d", num_procs());
    int n = 0, s = ompt_state_undefined;
    const char *name;
    while (enumerate_states(s, &s, &name) && n < 1000) {
        EXPECT(name && !strncmp(name, "ompt_state_", 11), "a state named %s", name);
        n++;
    }
    EXPECT(n >= 10 && n < 1000, "ompt_enumerate_states lists %d states", n);
    n = 0;
    int impl = 0; /* ompt_mutex_impl_none */
    while (mutex_impls(impl, &impl, &name) && n < 100)
        n++;
    EXPECT(n >= 1 && n < 100, "ompt_enumerate_mutex_impls lists %d implementations", n);

    REG(thread_begin, on_thread_begin);
    REG(thread_end, on_thread_end);
    REG(parallel_begin, on_parallel_begin);
    REG(parallel_end, on_parallel_end);
    REG(implicit_task, on_implicit_task);
    REG(task_create, on_task_create);
    REG(task_schedule, on_task_schedule);
    REG(dependences, on_dependences);
    REG(task_dependence, on_task_dependence);
    REG(sync_region, on_sync_region);
    REG(sync_region_wait, on_sync_region_wait);
    REG(work, on_work);
    dispatch_supported = REG(dispatch, on_dispatch) > ompt_set_never;
    REG(masked, on_masked);
    REG(mutex_acquire, on_mutex_acquire);
    REG(mutex_acquired, on_mutex_acquired);
    REG(mutex_released, on_mutex_released);
    REG(nest_lock, on_nest_lock);
    REG(lock_init, on_lock_init);
    REG(lock_destroy, on_lock_destroy);
    REG(cancel, on_cancel);
    REG(flush, on_flush);
    REG(reduction, on_reduction);
    REG(error, on_error);
    REG(control_tool, on_control_tool);
    /* (LLVM libomp answers only once the tool's initializer returned.) */
    ompt_callback_t back = NULL;
    EXPECT(lenient || (get_callback(ompt_callback_task_create, &back) == 1 &&
                       back == (ompt_callback_t)on_task_create),
           "ompt_get_callback does not give back the registered task_create");
    initialized = true;
    return 1;
}

static void finalize(ompt_data_t *tool_data)
{
    (void)tool_data;
    pthread_mutex_lock(&mu);
    finalized = true;
    EXPECT(threads_begun >= 1 && threads_ended == threads_begun,
           "%ld threads began, %ld ended before finalize", threads_begun, threads_ended);
    EXPECT(tasks_created == tasks_completed, "%ld explicit tasks created, %ld completed",
           tasks_created, tasks_completed);
    for (long i = 0; i < nthreads_all; i++)
        EXPECT(!all_threads[i]->nheld, "thread %ld still holds %d mutexes at the end",
               all_threads[i]->id, all_threads[i]->nheld);
    fprintf(stderr,
            "ompt_check: %s: %ld events, %ld threads, %ld parallel regions, %ld explicit tasks, "
            "%d violations\n",
            violations ? "FAIL" : "OK", nevents, threads_begun, regions_begun, tasks_created,
            violations);
    fflush(stderr);
    pthread_mutex_unlock(&mu);
    if (violations)
        _exit(3);
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
    static ompt_start_tool_result_t result = {initialize, finalize, {.value = 0}};
    lenient = runtime_version && !strncmp(runtime_version, "LLVM", 4);
    if (getenv("OMPT_CHECK_VERBOSE"))
        fprintf(stderr, "ompt_check: OpenMP %u, runtime %s\n", omp_version,
                runtime_version ? runtime_version : "(none)");
    return &result;
}

/* A runtime that initialized the tool must finalize it before the process
 * ends (OpenMP 5.2, 19.2.3). */
__attribute__((destructor)) static void check_finalized(void)
{
    /* (LLVM libomp finalizes after the destructors of a program that
     * defines ompt_start_tool itself.) */
    if (initialized && !finalized && !lenient) {
        fprintf(stderr, "ompt_check: FAIL: the tool was initialized but never finalized\n");
        _exit(3);
    }
}
