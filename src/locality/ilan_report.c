/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * What ILAN did, per taskloop: the configurations it explored with their
 * times, the one it chose, and the iterations each unit ran (and of those,
 * how many were homed on another unit).  XOMP_STATS=1 prints it at exit;
 * the profile dump writes it as taskloops.csv (docs/profiling.md), which
 * `xomp report` shows.  Read at exit or at a dump, between regions: the
 * taskloops' locks make each entry consistent.
 */
#include "../runtime/mutex.h"
#include "ilan.h"
#include "ilan_table.h"

#include <dlfcn.h>
#include <inttypes.h>
#include <string.h>

/* The outlined function's name when the dynamic symbol table has it, else
 * its object file and offset (for addr2line). */
static void fn_name(void (*fn)(void *), char *buf, size_t size)
{
    Dl_info info;
    void *addr = (void *)(uintptr_t)fn;
    if (dladdr(addr, &info) && info.dli_sname)
        snprintf(buf, size, "%s", info.dli_sname);
    else if (dladdr(addr, &info) && info.dli_fname)
        snprintf(buf, size, "%s+0x%" PRIxPTR, strrchr(info.dli_fname, '/')
                                                    ? strrchr(info.dli_fname, '/') + 1
                                                    : info.dli_fname,
                 (uintptr_t)addr - (uintptr_t)info.dli_fbase);
    else
        snprintf(buf, size, "%p", addr);
}

static const char *unit_word(const struct ilan_loop *l)
{
    return l->units.kind == XOMP_HOME_NODE ? "node" : "member";
}

/* "0,1,3": the ids of the units in mask. */
static void mask_ids(const struct ilan_loop *l, uint64_t mask, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = 0;
    for (unsigned u = 0; u < l->units.n && used + 8 < size; u++)
        if ((mask >> u) & 1)
            used += (size_t)snprintf(buf + used, size - used, used ? ",%u" : "%u", l->units.id[u]);
}

static void print_config(FILE *f, const struct ilan_loop *l, const struct xomp_mold_config *c)
{
    char ids[256];
    mask_ids(l, c->mask, ids, sizeof ids);
    fprintf(f, "%u %s%s (%s) %s", c->units, unit_word(l), c->units == 1 ? "" : "s", ids,
            c->full ? "full" : "strict");
}

static void print_loop(FILE *f, unsigned index, struct ilan_loop *l)
{
    char name[256];
    fn_name(l->key.fn, name, sizeof name);
    xomp_mutex_lock(&l->lock);
    const struct xomp_mold *m = &l->mold;
    fprintf(f,
            "xomp stats: taskloop %u: %s, %" PRIu64 " iterations in %" PRIu64
            " tasks, %u threads on %u %ss; %" PRIu64 " executions, %" PRIu64 " measured\n",
            index, name, l->key.trip, l->key.tasks, l->nthreads, l->units.n, unit_word(l),
            l->executions, l->measured);
    for (unsigned i = 0; i < m->nlog; i++) {
        fprintf(f, "xomp stats:   %-8s ", xomp_mold_phase_name(m->log[i].phase));
        print_config(f, l, &m->log[i].cfg);
        fprintf(f, ": %.3f ms\n", m->log[i].seconds * 1e3);
    }
    fprintf(f, "xomp stats:   %s ", m->phase == XOMP_MOLD_EXPLOIT ? "chosen" : "trying");
    print_config(f, l, m->phase == XOMP_MOLD_EXPLOIT ? &m->chosen : &m->next);
    if (m->phase == XOMP_MOLD_EXPLOIT && m->chosen_seconds >= 0)
        fprintf(f, ": %.3f ms in the search", m->chosen_seconds * 1e3);
    if (m->phase == XOMP_MOLD_EXPLOIT && m->reference > 0)
        fprintf(f, ", %.3f ms since", m->reference * 1e3);
    fprintf(f, " (%u search%s, %u executions searching)\n", m->searches,
            m->searches == 1 ? "" : "es", m->search_runs);
    for (unsigned u = 0; u < l->units.n; u++)
        if (l->unit_iterations[u])
            fprintf(f,
                    "xomp stats:   %s %u ran %" PRIu64 " iterations, %" PRIu64
                    " of them homed on another %s\n",
                    unit_word(l), l->units.id[u], l->unit_iterations[u], l->unit_away[u],
                    unit_word(l));
    xomp_mutex_unlock(&l->lock);
}

void xomp_ilan_stats_print(FILE *f)
{
    unsigned count = 0;
    for (unsigned i = 0; i < XOMP_ILAN_TABLE; i++) {
        /* acquire: the entry is initialized (ilan.c). */
        struct ilan_loop *l = atomic_load_explicit(&xomp_ilan_table.slot[i], memory_order_acquire);
        if (l)
            print_loop(f, ++count, l);
    }
}

static void csv_config(FILE *f, const struct ilan_loop *l, const char *record, const char *phase,
                       const struct xomp_mold_config *c, double seconds)
{
    char ids[256];
    mask_ids(l, c->mask, ids, sizeof ids);
    fprintf(f, ",%s,%s,%u,\"%s\",%s,", record, phase, c->units, ids, c->full ? "full" : "strict");
    if (seconds >= 0)
        fprintf(f, "%.9f", seconds);
    fputs(",,,\n", f);
}

bool xomp_ilan_write_csv(FILE *f)
{
    fputs("loop,function,iterations,tasks,threads,unit_kind,units,executions,measured,record,"
          "phase,units_used,unit_ids,policy,seconds,unit,unit_iterations,unit_away\n",
          f);
    unsigned count = 0;
    for (unsigned i = 0; i < XOMP_ILAN_TABLE; i++) {
        struct ilan_loop *l = atomic_load_explicit(&xomp_ilan_table.slot[i], memory_order_acquire);
        if (!l)
            continue;
        count++;
        char name[256];
        fn_name(l->key.fn, name, sizeof name);
        for (char *p = name; *p; p++)
            if (*p == '"' || *p == ',')
                *p = '_';
        xomp_mutex_lock(&l->lock);
        const struct xomp_mold *m = &l->mold;
        char head[512];
        snprintf(head, sizeof head,
                 "%u,\"%s\",%" PRIu64 ",%" PRIu64 ",%u,%s,%u,%" PRIu64 ",%" PRIu64, count, name,
                 l->key.trip, l->key.tasks, l->nthreads, unit_word(l), l->units.n, l->executions,
                 l->measured);
        for (unsigned k = 0; k < m->nlog; k++) {
            fputs(head, f);
            csv_config(f, l, "explored", xomp_mold_phase_name(m->log[k].phase), &m->log[k].cfg,
                       m->log[k].seconds);
        }
        fputs(head, f);
        if (m->phase == XOMP_MOLD_EXPLOIT)
            csv_config(f, l, "chosen", "exploit", &m->chosen, m->chosen_seconds);
        else
            csv_config(f, l, "next", xomp_mold_phase_name(m->phase), &m->next, -1);
        for (unsigned u = 0; u < l->units.n; u++) {
            fputs(head, f);
            fprintf(f, ",unit,,,,,,%u,%" PRIu64 ",%" PRIu64 "\n", l->units.id[u],
                    l->unit_iterations[u], l->unit_away[u]);
        }
        xomp_mutex_unlock(&l->lock);
    }
    return !ferror(f);
}
