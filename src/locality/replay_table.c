/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The table of recorded regions (replay_ctx.h): one entry per key, with
 * the last execution's tree and the executions' counts.  Entries are never
 * removed; lookups and changes take one process-wide lock (a region's
 * start and end, never a task).
 */
#include "replay_ctx.h"

#include "../runtime/mutex.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static _Atomic uint32_t table_lock;
static struct xomp_rp_entry *table[XOMP_RP_TABLE];
static unsigned table_size;

void xomp_rp_table_lock(void)
{
    xomp_mutex_lock(&table_lock);
}

void xomp_rp_table_unlock(void)
{
    xomp_mutex_unlock(&table_lock);
}

unsigned xomp_rp_table_size(void)
{
    return table_size;
}

struct xomp_rp_entry *xomp_rp_table_at(unsigned i)
{
    return i < table_size ? table[i] : NULL;
}

/* "function" or "function+0x1c" for a code address (the outlined
 * function of a parallel region; the return address of a taskgroup's
 * start, inside the function that has the construct). */
static void name_of(uintptr_t key, enum xomp_tree_kind kind, char *buf, size_t size)
{
    Dl_info info;
    if (dladdr((void *)key, &info) && info.dli_sname) {
        uintptr_t off = key - (uintptr_t)info.dli_saddr;
        if (kind == XOMP_TREE_PARALLEL || !off)
            snprintf(buf, size, "%s", info.dli_sname);
        else
            snprintf(buf, size, "%s+%#lx", info.dli_sname, (unsigned long)off);
    } else if (info.dli_fname && info.dli_fbase) {
        /* No symbol (a static function): the object and the offset, for
         * addr2line -f -e OBJECT OFFSET. */
        const char *base = strrchr(info.dli_fname, '/');
        snprintf(buf, size, "%s+%#lx", base ? base + 1 : info.dli_fname,
                 (unsigned long)(key - (uintptr_t)info.dli_fbase));
    } else {
        snprintf(buf, size, "%#lx", (unsigned long)key);
    }
    for (char *c = buf; *c; c++)
        if (*c == ',' || *c == '"' || *c == ' ')
            *c = '_'; /* a CSV field, a token of XOMP_STATS lines */
}

struct xomp_rp_entry *xomp_rp_entry_of(uintptr_t key, enum xomp_tree_kind kind)
{
    struct xomp_rp_entry *e = NULL;
    xomp_rp_table_lock();
    for (unsigned i = 0; i < table_size; i++)
        if (table[i]->key == key && table[i]->kind == kind) {
            e = table[i];
            break;
        }
    if (!e && table_size < XOMP_RP_TABLE && (e = calloc(1, sizeof *e))) {
        e->key = key;
        e->kind = kind;
        table[table_size++] = e;
    }
    /* The name is written under the lock (below): read it under it too. */
    bool named = e && e->name[0];
    xomp_rp_table_unlock();
    if (e && !named) {
        /* Outside the lock (dladdr takes the loader's); a race writes the
         * same name twice. */
        char name[sizeof e->name];
        name_of(key, kind, name, sizeof name);
        xomp_rp_table_lock();
        if (!e->name[0])
            snprintf(e->name, sizeof e->name, "%s", name);
        xomp_rp_table_unlock();
    }
    return e;
}
