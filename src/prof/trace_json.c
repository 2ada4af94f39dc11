/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * trace.json: the events in the Chrome Trace Event Format, which Perfetto UI
 * (ui.perfetto.dev) and chrome://tracing open.  One track per thread; each
 * begin/end pair becomes a complete event ("ph":"X") and steal messages
 * become instant events ("ph":"i").  Times are microseconds from the
 * profile's start.
 */
#include "dump.h"

#include "../runtime/log.h"

#include <stdlib.h>
#include <unistd.h>

static const char *const event_names[] = {
    [XOMP_EV_THREAD] = "thread",
    [XOMP_EV_PARALLEL] = "parallel",
    [XOMP_EV_IMPLICIT] = "implicit task",
    [XOMP_EV_TASK] = "task",
    [XOMP_EV_TASK_CREATE] = "create",
    [XOMP_EV_TASKWAIT] = "taskwait",
    [XOMP_EV_TASKGROUP] = "taskgroup",
    [XOMP_EV_BARRIER] = "barrier",
    [XOMP_EV_STALL] = "stall",
    [XOMP_EV_STEAL] = "steal",
    [XOMP_EV_TASKLOOP] = "taskloop",
};

const char *xomp_prof_event_name(unsigned type)
{
    return type >= 1 && type <= XOMP_EV_TYPE_MAX && event_names[type] ? event_names[type] : "?";
}

static const char *const kind_words[] = {"initial", "pool", "user"};

struct writer {
    FILE *f;
    long pid;
    unsigned tid;
    uint64_t start;
    double us_per_tick;
};

static double us(const struct writer *w, uint64_t ticks)
{
    return ticks > w->start ? (double)(ticks - w->start) * w->us_per_tick : 0.0;
}

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* A begin/end pair, as a complete event. */
struct span {
    const struct xomp_prof_record *begin;
    const struct xomp_prof_record *end; /* NULL: still open at the trace's end */
    uint64_t end_ticks;
    uint64_t child_ticks; /* time inside nested spans */
};

static void write_span(const struct writer *w, const struct span *s)
{
    const struct xomp_prof_record *b = s->begin;
    uint64_t dur = s->end_ticks - b->ticks;
    FILE *f = w->f;
    fprintf(f, ",\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":%ld,\"tid\":%u,\"ts\":%.3f,\"dur\":%.3f,"
               "\"args\":{",
            xomp_prof_event_name(b->type), w->pid, w->tid, us(w, b->ticks),
            (double)dur * w->us_per_tick);
    /* Arguments (src/prof/README.md); every span says whether it ended
     * before the trace did. */
    switch (b->type) {
    case XOMP_EV_THREAD:
        fprintf(f, "\"kind\":\"%s\",\"os_tid\":%u,", kind_words[b->a < 3 ? b->a : 2], b->b);
        break;
    case XOMP_EV_PARALLEL:
        fprintf(f, "\"level\":%u,", b->a);
        if (s->end)
            fprintf(f, "\"master\":%u,\"region\":%u,", s->end->a, s->end->b);
        break;
    case XOMP_EV_IMPLICIT:
        fprintf(f, "\"member\":%u,\"team_size\":%u,", b->a, b->b);
        break;
    case XOMP_EV_TASK:
        fprintf(f, "\"creator\":%u,%s\"cycles\":%llu,\"self_cycles\":%llu,", b->a,
                (b->b & XOMP_EV_TASK_UNDEFERRED) ? "\"undeferred\":true," : "",
                (unsigned long long)dur, (unsigned long long)(dur - s->child_ticks));
        break;
    case XOMP_EV_BARRIER:
        fprintf(f, "\"member\":%u,", b->a);
        break;
    default:
        break;
    }
    fprintf(f, "\"ended\":%s}}", s->end ? "true" : "false");
}

static void write_instant(const struct writer *w, const struct xomp_prof_record *r)
{
    FILE *f = w->f;
    fprintf(f, ",\n{\"name\":\"%s\",\"ph\":\"i\",\"s\":\"t\",\"pid\":%ld,"
               "\"tid\":%u,\"ts\":%.3f,\"args\":{",
            xomp_prof_event_name(r->type), w->pid, w->tid, us(w, r->ticks));
    if (r->type == XOMP_EV_TASKLOOP)
        fprintf(f, "\"units\":%u,\"policy\":\"%s\",\"searching\":%s,\"unit_mask\":%u}}",
                r->a & 0x3fffu, (r->a & 0x8000u) ? "full" : "strict",
                (r->a & 0x4000u) ? "true" : "false", r->b);
    else
        fprintf(f, "\"victim\":%u,\"tasks\":%u}}", r->a, r->b);
}

/* One thread's records before the trace's end.  Returns false when they
 * do not nest (a bug in the recording; the rest of the thread is left
 * out). */
static bool write_thread(const struct writer *w, const struct xomp_prof_thread_snap *t,
                         uint64_t end_ticks)
{
    size_t room = 64, depth = 0;
    struct span *stack = malloc(room * sizeof *stack);
    if (!stack)
        return false;
    bool nested = true;
    for (uint64_t i = 0; i < t->nrec && t->rec[i].ticks < end_ticks; i++) {
        const struct xomp_prof_record *r = &t->rec[i];
        if (r->phase == XOMP_EV_INSTANT) {
            write_instant(w, r);
        } else if (r->phase == XOMP_EV_BEGIN) {
            if (depth == room) {
                struct span *bigger = realloc(stack, 2 * room * sizeof *stack);
                if (!bigger)
                    break;
                stack = bigger;
                room *= 2;
            }
            stack[depth++] = (struct span){r, NULL, 0, 0};
        } else if (depth && stack[depth - 1].begin->type == r->type) {
            struct span *s = &stack[--depth];
            s->end = r;
            s->end_ticks = r->ticks;
            write_span(w, s);
            if (depth)
                stack[depth - 1].child_ticks += r->ticks - s->begin->ticks;
        } else {
            xomp_warn("profile: thread %u, record %llu: end of %s does not match its begin; "
                      "the trace of this thread stops there",
                      t->index, (unsigned long long)i, xomp_prof_event_name(r->type));
            nested = false;
            break;
        }
    }
    /* Spans still open end with the trace. */
    while (depth) {
        struct span *s = &stack[--depth];
        s->end_ticks = end_ticks > s->begin->ticks ? end_ticks : s->begin->ticks;
        write_span(w, s);
        if (depth)
            stack[depth - 1].child_ticks += s->end_ticks - s->begin->ticks;
    }
    free(stack);
    return nested;
}

bool xomp_prof_write_trace(FILE *f, const struct xomp_prof_snapshot *snap, const char *program)
{
    struct writer w = {
        .f = f,
        .pid = (long)getpid(),
        .start = snap->start.ticks,
        .us_per_tick = 1e6 / snap->ticks_per_second,
    };
    uint64_t end = snap->trace_end;
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"xomp\",\"program\":");
    json_string(f, program);
    fprintf(f, ",\"ticks_per_second\":%.3f,\"trace_end_us\":%.3f,\"truncated\":%s},\n",
            snap->ticks_per_second, us(&w, end), end <= snap->now.ticks ? "true" : "false");
    fprintf(f, "\"traceEvents\":[\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%ld,"
               "\"args\":{\"name\":",
            w.pid);
    json_string(f, program);
    fputs("}}", f);
    for (unsigned i = 0; i < snap->nthreads; i++) {
        const struct xomp_prof_thread_snap *t = &snap->threads[i];
        w.tid = t->index;
        fprintf(f, ",\n{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":%ld,\"tid\":%u,"
                   "\"args\":{\"name\":\"xomp thread %u (%s, tid %d)\"}}",
                w.pid, t->index, t->index, kind_words[t->kind], t->os_tid);
        fprintf(f, ",\n{\"name\":\"thread_sort_index\",\"ph\":\"M\",\"pid\":%ld,\"tid\":%u,"
                   "\"args\":{\"sort_index\":%u}}",
                w.pid, t->index, t->index);
        write_thread(&w, t, end);
    }
    fputs("\n]}\n", f);
    return !ferror(f);
}
