/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The profile directory: meta.txt, counters.csv, and with events
 * events.bin and trace.json (formats: docs/profiling.md).  Each file is
 * written under a temporary name and renamed, so a reader never sees a half
 * written one from a finished dump.
 */
#include "dump.h"

#include "../../include/xomp.h"
#include "../abi/abi.h"
#include "../locality/ilan.h"
#include "../locality/replay.h"
#include "../runtime/log.h"
#include "../runtime/team.h"
#include "../runtime/thread.h"
#include "../topo/numa.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const counter_names[] = {
#define XOMP_STATS_NAME(name, text) #name,
    XOMP_STATS_FIELDS(XOMP_STATS_NAME)
#undef XOMP_STATS_NAME
};
#define NCOUNTERS (sizeof counter_names / sizeof counter_names[0])

static const char *const kind_names[] = {"initial", "pool", "user"};

/* Where relative directories are resolved: the working directory at
 * start-up, so a program that changes directory still dumps where it was
 * started. */
static char start_cwd[PATH_MAX];

/* dir (NULL: ./xomp-profile-PID) made absolute.  False when too long. */
static bool resolve_dir(char *buf, size_t size, const char *dir)
{
    int n;
    if (dir && dir[0] == '/')
        n = snprintf(buf, size, "%s", dir);
    else if (dir)
        n = snprintf(buf, size, "%s/%s", start_cwd, dir);
    else
        n = snprintf(buf, size, "%s/xomp-profile-%ld", start_cwd, (long)getpid());
    return n >= 0 && (size_t)n < size;
}

void xomp_prof_default_dir(char *buf, size_t size)
{
    resolve_dir(buf, size, xomp_cfg.profile_dir);
}

/* ---- snapshot ---- */

struct collect {
    struct xomp_prof_thread_snap *threads;
    unsigned count, room;
};

static void collect_thread(struct xomp_thread *thr, void *arg)
{
    struct collect *c = arg;
    /* A thread that has not caught up with the last reset has nothing of
     * the current epoch. */
    if (c->count == c->room || !xomp_prof_thread_current(thr))
        return;
    struct xomp_prof_thread *p = &thr->prof;
    struct xomp_prof_thread_snap *s = &c->threads[c->count++];
    s->index = p->index;
    s->os_tid = atomic_load_explicit(&p->os_tid, memory_order_relaxed);
    s->kind = atomic_load_explicit(&p->kind, memory_order_relaxed);
    if (s->kind > XOMP_THREAD_USER)
        s->kind = XOMP_THREAD_USER;
    s->rec = p->buf;
    /* acquire: pairs with the release store after each record (events.c):
     * the records below this count are complete. */
    s->nrec = atomic_load_explicit(&p->published, memory_order_acquire);
    s->dropped = atomic_load_explicit(&p->dropped, memory_order_relaxed);
    s->first_drop = atomic_load_explicit(&p->first_drop, memory_order_relaxed);
    /* Other threads' counters are exact when they are out of any region
     * (xomp_team_quiesce made their writes visible), approximate while one
     * is running. */
    s->stats = thr->stats;
}

static void count_thread(struct xomp_thread *thr, void *arg)
{
    (void)thr;
    (*(unsigned *)arg)++;
}

static int by_index(const void *a, const void *b)
{
    const struct xomp_prof_thread_snap *x = a, *y = b;
    return (x->index > y->index) - (x->index < y->index);
}

/* Threads may be created between the count and the collection; those are
 * left out (they have recorded nothing yet that could matter). */
static bool take_snapshot(struct xomp_prof_snapshot *snap)
{
    unsigned room = 0;
    xomp_threads_foreach(count_thread, &room);
    struct collect c = {calloc(room ? room : 1, sizeof *c.threads), 0, room};
    if (!c.threads)
        return false;
    xomp_threads_foreach(collect_thread, &c);
    qsort(c.threads, c.count, sizeof *c.threads, by_index);
    snap->threads = c.threads;
    snap->nthreads = c.count;
    snap->events = xomp_cfg.prof_events;
    snap->start = xomp_prof_clock_start();
    snap->now = xomp_prof_clock_now();
    snap->ticks_per_second = xomp_prof_ticks_per_second(snap->now);
    return true;
}

/* The trace shows a prefix of the run: when the threads recorded more than
 * the trace's budget, it ends where the first thread used up its share. */
static uint64_t trace_end(const struct xomp_prof_snapshot *snap)
{
    uint64_t total = 0, busy = 0;
    for (unsigned i = 0; i < snap->nthreads; i++) {
        total += snap->threads[i].nrec;
        busy += snap->threads[i].nrec > 0;
    }
    if (total <= XOMP_PROF_TRACE_MAX_RECORDS)
        return snap->now.ticks + 1;
    uint64_t share = XOMP_PROF_TRACE_MAX_RECORDS / busy, end = snap->now.ticks + 1;
    for (unsigned i = 0; i < snap->nthreads; i++)
        if (snap->threads[i].nrec > share && snap->threads[i].rec[share].ticks < end)
            end = snap->threads[i].rec[share].ticks;
    return end;
}

/* ---- files ---- */

static uint64_t total_records(const struct xomp_prof_snapshot *snap, bool dropped)
{
    uint64_t n = 0;
    for (unsigned i = 0; i < snap->nthreads; i++)
        n += dropped ? snap->threads[i].dropped : snap->threads[i].nrec;
    return n;
}

/* The program's name, on one line. */
static void program_name(char *buf, size_t size)
{
    extern char *program_invocation_name;
    snprintf(buf, size, "%s", program_invocation_name ? program_invocation_name : "?");
    for (char *s = buf; *s; s++)
        if ((unsigned char)*s < 0x20)
            *s = '?';
}

static bool write_meta(FILE *f, const struct xomp_prof_snapshot *snap)
{
    char program[512];
    program_name(program, sizeof program);
    fprintf(f, "# xomp profile (format: docs/profiling.md; read it with `xomp report DIR`)\n");
    fprintf(f, "format = xomp-profile 1\n");
    fprintf(f, "xomp_version = %s\n", xomp_version());
    fprintf(f, "mode = %s\n", xomp_profile_mode_name(xomp_cfg.profile));
    fprintf(f, "program = %s\n", program);
    fprintf(f, "pid = %ld\n", (long)getpid());
    fprintf(f, "clock = %s\n", xomp_prof_clock_name());
    fprintf(f, "ticks_per_second = %.3f\n", snap->ticks_per_second);
    fprintf(f, "start_ticks = %llu\n", (unsigned long long)snap->start.ticks);
    fprintf(f, "start_ns = %llu\n", (unsigned long long)snap->start.ns);
    fprintf(f, "dump_ticks = %llu\n", (unsigned long long)snap->now.ticks);
    fprintf(f, "dump_ns = %llu\n", (unsigned long long)snap->now.ns);
    fprintf(f, "threads = %u\n", snap->nthreads);
    fprintf(f, "omp_num_threads = %u\n", xomp_cfg.icv.nthreads);
    fprintf(f, "dlb = %s\n", xomp_dlb_name(xomp_cfg.dlb));
    fprintf(f, "barrier = %s\n", xomp_cfg.barrier == XOMP_BARRIER_TREE ? "tree" : "central");
    fprintf(f, "numa_nodes = %u\n", xomp_topology_nodes());
    fputs("topology = ", f);
    xomp_topology_print(f);
    fputc('\n', f);
    fputs("counters =", f);
    for (size_t i = 0; i < NCOUNTERS; i++)
        fprintf(f, " %s", counter_names[i]);
    fputc('\n', f);
    if (snap->events) {
        fprintf(f, "event_capacity = %u\n", xomp_cfg.profile_events);
        fprintf(f, "events = %llu\n", (unsigned long long)total_records(snap, false));
        fprintf(f, "events_dropped = %llu\n", (unsigned long long)total_records(snap, true));
        fprintf(f, "trace_end_ticks = %llu\n", (unsigned long long)snap->trace_end);
    }
    return true;
}

static bool write_counters(FILE *f, const struct xomp_prof_snapshot *snap)
{
    fputs("thread,os_tid,kind", f);
    for (size_t i = 0; i < NCOUNTERS; i++)
        fprintf(f, ",%s", counter_names[i]);
    fputc('\n', f);
    for (unsigned t = 0; t < snap->nthreads; t++) {
        const struct xomp_prof_thread_snap *s = &snap->threads[t];
        fprintf(f, "%u,%d,%s", s->index, s->os_tid, kind_names[s->kind]);
        const uint64_t *v = (const uint64_t *)&s->stats;
        for (size_t i = 0; i < NCOUNTERS; i++)
            fprintf(f, ",%llu", (unsigned long long)v[i]);
        fputc('\n', f);
    }
    return true;
}

/* events.bin: little-endian fields on little-endian hosts (the byte-order
 * mark says which); layout in docs/profiling.md. */
struct file_header {
    char magic[8];          /* "XOMPPROF" */
    uint32_t version;       /* 1 */
    uint32_t header_size;   /* 64 */
    uint32_t thread_header_size; /* 32 */
    uint32_t record_size;   /* 16 */
    uint32_t nthreads;
    uint32_t byte_order;    /* 0x01020304 as written by the host */
    uint64_t start_ticks;
    uint64_t dump_ticks;
    double ticks_per_second;
    uint64_t reserved;
};
struct thread_header {
    uint32_t index;
    int32_t os_tid;
    uint64_t nrecords;
    uint64_t dropped;
    uint64_t first_drop_ticks;
};
_Static_assert(sizeof(struct file_header) == 64, "events.bin header is 64 bytes");
_Static_assert(sizeof(struct thread_header) == 32, "events.bin thread header is 32 bytes");

static bool write_events(FILE *f, const struct xomp_prof_snapshot *snap)
{
    struct file_header h = {
        .magic = {'X', 'O', 'M', 'P', 'P', 'R', 'O', 'F'},
        .version = 1,
        .header_size = sizeof(struct file_header),
        .thread_header_size = sizeof(struct thread_header),
        .record_size = sizeof(struct xomp_prof_record),
        .nthreads = snap->nthreads,
        .byte_order = 0x01020304u,
        .start_ticks = snap->start.ticks,
        .dump_ticks = snap->now.ticks,
        .ticks_per_second = snap->ticks_per_second,
    };
    if (fwrite(&h, sizeof h, 1, f) != 1)
        return false;
    for (unsigned t = 0; t < snap->nthreads; t++) {
        const struct xomp_prof_thread_snap *s = &snap->threads[t];
        struct thread_header th = {s->index, s->os_tid, s->nrec, s->dropped, s->first_drop};
        if (fwrite(&th, sizeof th, 1, f) != 1 ||
            (s->nrec && fwrite(s->rec, sizeof *s->rec, s->nrec, f) != s->nrec))
            return false;
    }
    return true;
}

static bool write_trace(FILE *f, const struct xomp_prof_snapshot *snap)
{
    char program[512];
    program_name(program, sizeof program);
    return xomp_prof_write_trace(f, snap, program);
}

static bool write_taskloops(FILE *f, const struct xomp_prof_snapshot *snap)
{
    (void)snap;
    return xomp_ilan_write_csv(f);
}

static bool write_replay(FILE *f, const struct xomp_prof_snapshot *snap)
{
    (void)snap;
    return xomp_replay_write_csv(f);
}

/* Write dir/name through dir/.name.tmp and a rename.  On failure, errno
 * says why. */
static bool write_file(const char *dir, const char *name,
                       bool (*writer)(FILE *, const struct xomp_prof_snapshot *),
                       const struct xomp_prof_snapshot *snap)
{
    char tmp[PATH_MAX], final[PATH_MAX];
    snprintf(tmp, sizeof tmp, "%s/.%s.tmp", dir, name);
    snprintf(final, sizeof final, "%s/%s", dir, name);
    FILE *f = fopen(tmp, "w");
    if (!f)
        return false;
    bool ok = writer(f, snap) && !ferror(f);
    int err = errno;
    if (fclose(f) != 0 && ok) {
        ok = false;
        err = errno;
    }
    if (ok && rename(tmp, final) == 0)
        return true;
    err = ok ? errno : err;
    unlink(tmp);
    errno = err ? err : EIO;
    return false;
}

/* mkdir -p. */
static bool make_dirs(const char *dir)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s", dir);
    for (char *s = path + 1;; s++) {
        if (*s != '/' && *s != '\0')
            continue;
        char c = *s;
        *s = '\0';
        if (mkdir(path, 0777) != 0 && errno != EEXIST)
            return false;
        *s = c;
        if (!c)
            break;
    }
    struct stat st;
    if (stat(dir, &st) != 0)
        return false;
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return false;
    }
    return true;
}

/* announce: say on stderr where the profile went (the dump at exit). */
static int dump_to(struct xomp_thread *self, const char *dir, bool announce)
{
    char path[PATH_MAX];
    if (!resolve_dir(path, sizeof path, dir && *dir ? dir : xomp_cfg.profile_dir)) {
        xomp_warn("cannot write the profile to '%s': path too long", dir ? dir : path);
        return -1;
    }
    /* Outside any region, every team this thread ran has finished: wait
     * for its members to be out, so their last counts and events are in. */
    if (!self->team)
        xomp_team_quiesce(self);
    struct xomp_prof_snapshot snap;
    if (!take_snapshot(&snap)) {
        xomp_warn("cannot write the profile to '%s': out of memory", path);
        return -1;
    }
    snap.trace_end = trace_end(&snap);
    const char *failed = NULL;
    if (!make_dirs(path))
        failed = "";
    else if (snap.events && !write_file(path, "events.bin", write_events, &snap))
        failed = "events.bin";
    else if (snap.events && !write_file(path, "trace.json", write_trace, &snap))
        failed = "trace.json";
    else if (!write_file(path, "counters.csv", write_counters, &snap))
        failed = "counters.csv";
    else if (xomp_cfg.taskloop == XOMP_TASKLOOP_ILAN &&
             !write_file(path, "taskloops.csv", write_taskloops, &snap))
        failed = "taskloops.csv";
    else if (xomp_replay_recorded_any() && !write_file(path, "replay.csv", write_replay, &snap))
        failed = "replay.csv";
    else if (!write_file(path, "meta.txt", write_meta, &snap))
        failed = "meta.txt";
    int err = errno;
    uint64_t recorded = total_records(&snap, false), dropped = total_records(&snap, true);
    free(snap.threads);
    if (failed) {
        xomp_warn("cannot write the profile to '%s'%s%s: %s (XOMP_PROFILE_DIR)", path,
                  *failed ? ", file " : "", failed, strerror(err));
        return -1;
    }
    if (announce) {
        if (snap.events)
            fprintf(stderr, "xomp profile: written to %s (%llu events, %llu dropped%s)\n", path,
                    (unsigned long long)recorded, (unsigned long long)dropped,
                    dropped ? ": raise XOMP_PROFILE_EVENTS" : "");
        else
            fprintf(stderr, "xomp profile: written to %s (counters)\n", path);
    }
    return 0;
}

/* ---- API and start-up ---- */

int xomp_prof_dump(struct xomp_thread *self, const char *dir)
{
    return dump_to(self, dir, false);
}

static void dump_at_exit(void)
{
    dump_to(xomp_self(), NULL, true);
}

void xomp_prof_init(void)
{
    xomp_prof_clock_init(xomp_cfg.prof_events);
    if (!getcwd(start_cwd, sizeof start_cwd))
        snprintf(start_cwd, sizeof start_cwd, ".");
    if (xomp_cfg.profile != XOMP_PROFILE_OFF)
        atexit(dump_at_exit);
}

XOMP_EXPORT int xomp_profile_dump(const char *dir)
{
    return xomp_prof_dump(xomp_self(), dir);
}

XOMP_EXPORT void xomp_profile_reset(void)
{
    xomp_prof_reset(xomp_self());
}
