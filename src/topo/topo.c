/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The OpenMP place list: OMP_PLACES parsed into CPU sets.
 *
 * Grammar (OpenMP 5.1, 6.5), blanks allowed between tokens:
 *   list     := abstract | abstract '(' N ')' | interval (',' interval)*
 *   abstract := threads | cores | sockets | ll_caches | numa_domains
 *   interval := place [':' len [':' stride]] | '!' place
 *   place    := '{' res (',' res)* '}'
 *   res      := cpu [':' len [':' stride]] | '!' cpu
 * Abstract names are resolved with hwloc (loaded then: hwloc_lazy.h).  CPUs the process may not run on
 * (outside its CPU set, cpus.h) are dropped, and places left empty are
 * removed, with one warning.
 *
 * Without OMP_PLACES, GOMP_CPU_AFFINITY (libgomp's extension) gives the
 * list: CPU numbers, ranges M-N and strided ranges M-N:S separated by
 * blanks or one comma, each CPU listed a place of its own, in the order
 * listed.  It is ignored under OMP_PROC_BIND=false, as in libgomp.
 */
#include "topo.h"

#include "../runtime/config.h"
#include "cpus.h"
#include "hwloc_lazy.h"
#include "../runtime/log.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

struct place {
    cpu_set_t cpus;
    int ncpus;
};

static struct place *place_list;
static int place_count;
static cpu_set_t allowed_cpus;

/* ---- abstract names, with hwloc ---- */

static int places_from_hwloc(const char *name, size_t len, int limit)
{
    const char *why = "";
    const struct xomp_hwloc *h = xomp_hwloc(&why);
    hwloc_topology_t topo;
    if (!h) {
        xomp_warn("cannot load hwloc (%s); OMP_PLACES ignored", why);
        return -1;
    }
    if (h->topology_init(&topo)) {
        xomp_warn("cannot read the machine topology (hwloc); OMP_PLACES ignored");
        return -1;
    }
    if (h->topology_load(topo)) {
        h->topology_destroy(topo);
        xomp_warn("cannot read the machine topology (hwloc); OMP_PLACES ignored");
        return -1;
    }
    int depth;
    if (len == 7 && !strncmp(name, "threads", 7))
        depth = h->get_type_depth(topo, HWLOC_OBJ_PU);
    else if (len == 5 && !strncmp(name, "cores", 5))
        depth = h->get_type_depth(topo, HWLOC_OBJ_CORE);
    else if (len == 7 && !strncmp(name, "sockets", 7))
        depth = h->get_type_depth(topo, HWLOC_OBJ_PACKAGE);
    else if (len == 12 && !strncmp(name, "numa_domains", 12))
        depth = h->get_type_depth(topo, HWLOC_OBJ_NUMANODE);
    else if (len == 9 && !strncmp(name, "ll_caches", 9)) {
        /* The outermost cache level the machine has. */
        static const hwloc_obj_type_t caches[] = {HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE,
                                                  HWLOC_OBJ_L3CACHE, HWLOC_OBJ_L2CACHE,
                                                  HWLOC_OBJ_L1CACHE};
        depth = HWLOC_TYPE_DEPTH_UNKNOWN;
        for (size_t i = 0; i < 5 && depth == HWLOC_TYPE_DEPTH_UNKNOWN; i++)
            depth = h->get_type_depth(topo, caches[i]);
        if (depth == HWLOC_TYPE_DEPTH_UNKNOWN)
            depth = h->get_type_depth(topo, HWLOC_OBJ_CORE);
    } else {
        h->topology_destroy(topo);
        return -2;
    }
    if (depth == HWLOC_TYPE_DEPTH_UNKNOWN || depth == HWLOC_TYPE_DEPTH_MULTIPLE)
        depth = h->get_type_depth(topo, HWLOC_OBJ_PU);
    int nobj = h->get_nbobjs_by_depth(topo, depth);
    place_list = calloc((size_t)(nobj > 0 ? nobj : 1), sizeof *place_list);
    place_count = 0;
    for (int i = 0; i < nobj && (limit <= 0 || place_count < limit); i++) {
        hwloc_obj_t obj = h->get_obj_by_depth(topo, depth, (unsigned)i);
        struct place *p = &place_list[place_count];
        CPU_ZERO(&p->cpus);
        for (int cpu = h->bitmap_first(obj->cpuset); cpu >= 0 && cpu < CPU_SETSIZE;
             cpu = h->bitmap_next(obj->cpuset, cpu))
            if (CPU_ISSET(cpu, &allowed_cpus))
                CPU_SET(cpu, &p->cpus);
        p->ncpus = CPU_COUNT(&p->cpus);
        if (p->ncpus)
            place_count++;
    }
    h->topology_destroy(topo);
    return 0;
}

/* ---- explicit lists ---- */

struct parser {
    const char *s;
    bool ok;
};

static void skip(struct parser *p)
{
    while (isspace((unsigned char)*p->s))
        p->s++;
}

static bool accept(struct parser *p, char c)
{
    skip(p);
    if (*p->s == c) {
        p->s++;
        return true;
    }
    return false;
}

static long number(struct parser *p, bool allow_negative)
{
    skip(p);
    char *end;
    long v = strtol(p->s, &end, 10);
    if (end == p->s || (!allow_negative && v < 0) || v > 1000000) {
        p->ok = false;
        return 0;
    }
    p->s = end;
    return v;
}

/* ':' len [':' stride], with defaults 1 and 1. */
static void interval_suffix(struct parser *p, long *len, long *stride)
{
    *len = 1;
    *stride = 1;
    if (accept(p, ':')) {
        *len = number(p, false);
        if (*len < 1)
            p->ok = false;
        if (accept(p, ':'))
            *stride = number(p, true);
    }
}

static void set_cpu(struct parser *p, cpu_set_t *set, long cpu, bool on)
{
    if (cpu < 0 || cpu >= CPU_SETSIZE) {
        p->ok = false;
        return;
    }
    if (on)
        CPU_SET(cpu, set);
    else
        CPU_CLR(cpu, set);
}

static void parse_place(struct parser *p, cpu_set_t *set)
{
    CPU_ZERO(set);
    if (!accept(p, '{')) {
        p->ok = false;
        return;
    }
    do {
        bool exclude = accept(p, '!');
        long cpu = number(p, false), len = 1, stride = 1;
        if (!exclude)
            interval_suffix(p, &len, &stride);
        for (long i = 0; i < len && p->ok; i++)
            set_cpu(p, set, cpu + i * stride, !exclude);
    } while (p->ok && accept(p, ','));
    if (p->ok && !accept(p, '}'))
        p->ok = false;
}

static bool place_equal(const cpu_set_t *a, const cpu_set_t *b)
{
    return CPU_EQUAL(a, b);
}

static bool parse_explicit(const char *text)
{
    struct parser p = {text, true};
    size_t cap = 16;
    struct place *list = malloc(cap * sizeof *list);
    int count = 0;
    do {
        bool exclude = accept(&p, '!');
        cpu_set_t set;
        parse_place(&p, &set);
        long len = 1, stride = 1;
        if (!exclude)
            interval_suffix(&p, &len, &stride);
        if (!p.ok)
            break;
        if (exclude) {
            for (int i = 0; i < count; i++)
                if (place_equal(&list[i].cpus, &set)) {
                    memmove(&list[i], &list[i + 1], (size_t)(count - i - 1) * sizeof *list);
                    count--;
                    i--;
                }
            continue;
        }
        for (long k = 0; k < len && p.ok; k++) {
            if ((size_t)count == cap)
                list = realloc(list, (cap *= 2) * sizeof *list);
            struct place *pl = &list[count++];
            CPU_ZERO(&pl->cpus);
            for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
                if (CPU_ISSET(cpu, &set))
                    set_cpu(&p, &pl->cpus, cpu + k * stride, true);
        }
    } while (p.ok && accept(&p, ','));
    skip(&p);
    if (!p.ok || *p.s) {
        free(list);
        return false;
    }
    place_list = list;
    place_count = count;
    return true;
}

/* ---- GOMP_CPU_AFFINITY ---- */

/* A CPU number as libgomp reads it (strtoul base 0: 0x1 is 1, 010 is 8). */
static bool affinity_number(const char **s, unsigned long *value)
{
    if (!isdigit((unsigned char)**s))
        return false;
    char *end;
    errno = 0;
    *value = strtoul(*s, &end, 0);
    if (errno || *value >= CPU_SETSIZE)
        return false;
    *s = end;
    return true;
}

static bool parse_cpu_affinity(const char *text)
{
    size_t cap = 16;
    struct place *list = malloc(cap * sizeof *list);
    int count = 0;
    const char *s = text;
    while (isspace((unsigned char)*s))
        s++;
    while (list && *s) {
        unsigned long first, last, stride = 1;
        if (!affinity_number(&s, &first))
            goto bad;
        last = first;
        if (*s == '-') {
            s++;
            if (!affinity_number(&s, &last) || last < first)
                goto bad;
            if (*s == ':') {
                s++;
                if (!affinity_number(&s, &stride) || stride == 0)
                    goto bad;
            }
        }
        for (unsigned long cpu = first; cpu <= last; cpu += stride) {
            if ((size_t)count == cap) {
                struct place *bigger = realloc(list, (cap *= 2) * sizeof *list);
                if (!bigger)
                    goto bad;
                list = bigger;
            }
            CPU_ZERO(&list[count].cpus);
            CPU_SET(cpu, &list[count].cpus);
            count++;
        }
        /* Entries are separated by blanks, or by one comma. */
        const char *entry_end = s;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == ',') {
            s++;
            while (isspace((unsigned char)*s))
                s++;
            if (!*s)
                goto bad;
        } else if (*s && s == entry_end) {
            goto bad;
        }
    }
    if (count == 0)
        goto bad;
    place_list = list;
    place_count = count;
    return true;
bad:
    free(list);
    return false;
}

/* Drop CPUs the process may not use; drop places left empty.  `var` and
 * `value`: where the list came from, for the warning. */
static void restrict_to_allowed(const char *var, const char *value)
{
    int before = place_count, kept = 0;
    for (int i = 0; i < place_count; i++) {
        CPU_AND(&place_list[i].cpus, &place_list[i].cpus, &allowed_cpus);
        place_list[i].ncpus = CPU_COUNT(&place_list[i].cpus);
        if (place_list[i].ncpus)
            place_list[kept++] = place_list[i];
    }
    place_count = kept;
    if (kept == 0 && before > 0)
        xomp_warn("%s='%s': no place contains a CPU this process may use; %s ignored", var,
                  value, var);
    else if (kept < before)
        xomp_warn("%s='%s': %d of %d places contain no CPU this process may use "
                  "and were dropped",
                  var, value, before - kept, before);
}

static void places_parse(const char *text)
{
    const char *s = text;
    while (isspace((unsigned char)*s))
        s++;
    if (isalpha((unsigned char)*s)) {
        const char *name = s;
        while (isalpha((unsigned char)*s) || *s == '_')
            s++;
        size_t len = (size_t)(s - name);
        long limit = -1;
        while (isspace((unsigned char)*s))
            s++;
        if (*s == '(') {
            char *end;
            limit = strtol(s + 1, &end, 10);
            s = end;
            while (isspace((unsigned char)*s))
                s++;
            if (limit < 1 || *s != ')')
                goto bad;
            s++;
        }
        while (isspace((unsigned char)*s))
            s++;
        if (*s)
            goto bad;
        char lower[16] = {0};
        for (size_t i = 0; i < len && i < 15; i++)
            lower[i] = (char)tolower((unsigned char)name[i]);
        int r = places_from_hwloc(lower, len, (int)limit);
        if (r == -2)
            goto bad;
        return;
    }
    if (parse_explicit(text)) {
        restrict_to_allowed("OMP_PLACES", text);
        return;
    }
bad:
    xomp_warn("invalid value '%s' for environment variable OMP_PLACES; ignored", text);
    place_count = 0;
}

/* One place per CPU the process may use (OMP_PROC_BIND without OMP_PLACES). */
static void places_default(void)
{
    place_list = calloc(CPU_SETSIZE, sizeof *place_list);
    place_count = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &allowed_cpus)) {
            CPU_ZERO(&place_list[place_count].cpus);
            CPU_SET(cpu, &place_list[place_count].cpus);
            place_list[place_count++].ncpus = 1;
        }
}

void xomp_places_init(void)
{
    allowed_cpus = *xomp_cpus();
    bool bind_false_given = xomp_cfg.bind_list_len == 1 && xomp_cfg.bind_list[0] == XOMP_BIND_FALSE;
    if (xomp_cfg.places) {
        places_parse(xomp_cfg.places);
    } else if (xomp_cfg.cpu_affinity && !bind_false_given) {
        if (parse_cpu_affinity(xomp_cfg.cpu_affinity))
            restrict_to_allowed("GOMP_CPU_AFFINITY", xomp_cfg.cpu_affinity);
        else
            xomp_warn("invalid value '%s' for environment variable GOMP_CPU_AFFINITY; ignored",
                      xomp_cfg.cpu_affinity);
    }
    /* Binding asked for but no usable place list: one place per CPU, as
     * libgomp does. */
    if (place_count == 0 && xomp_cfg.icv.bind != XOMP_BIND_FALSE)
        places_default();
}

int xomp_places_count(void)
{
    return place_count;
}

int xomp_place_num_procs(int place)
{
    return place >= 0 && place < place_count ? place_list[place].ncpus : 0;
}

void xomp_place_proc_ids(int place, int *ids)
{
    if (place < 0 || place >= place_count || !ids)
        return;
    int n = 0;
    for (int cpu = 0; cpu < CPU_SETSIZE && n < place_list[place].ncpus; cpu++)
        if (CPU_ISSET(cpu, &place_list[place].cpus))
            ids[n++] = cpu;
}

int xomp_place_first_cpu(int place)
{
    if (place < 0 || place >= place_count)
        return -1;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
        if (CPU_ISSET(cpu, &place_list[place].cpus))
            return cpu;
    return -1;
}

int xomp_place_of_cpu(int cpu)
{
    for (int i = 0; i < place_count; i++)
        if (cpu >= 0 && cpu < CPU_SETSIZE && CPU_ISSET(cpu, &place_list[i].cpus))
            return i;
    return -1;
}

bool xomp_place_bind_self(int place)
{
    if (place < 0 || place >= place_count)
        return false;
    return pthread_setaffinity_np(pthread_self(), sizeof(cpu_set_t), &place_list[place].cpus) == 0;
}

/* libgomp's form: a run of consecutive CPUs as first:count ({0:2},{2}). */
void xomp_places_print(FILE *f)
{
    for (int i = 0; i < place_count; i++) {
        fputs(i ? ",{" : "{", f);
        int printed = 0;
        for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
            if (!CPU_ISSET(cpu, &place_list[i].cpus))
                continue;
            int run = 1;
            while (cpu + run < CPU_SETSIZE && CPU_ISSET(cpu + run, &place_list[i].cpus))
                run++;
            if (printed++)
                fputc(',', f);
            if (run > 1)
                fprintf(f, "%d:%d", cpu, run);
            else
                fprintf(f, "%d", cpu);
            cpu += run - 1;
        }
        fputc('}', f);
    }
}
