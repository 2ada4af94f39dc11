/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Expanding affinity formats, and OMP_DISPLAY_AFFINITY at region start. */
#include "affinity_format.h"

#include "../topo/cpus.h"
#include "../topo/topo.h"
#include "config.h"
#include "log.h"
#include "team.h"
#include "thread.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define DEFAULT_FORMAT "level %L thread %i affinity %A"
/* Wider fields are refused: they would only make huge lines. */
#define MAX_FIELD_WIDTH 4096

bool xomp_display_affinity;

/* affinity-format-var.  A reader may still be expanding an older format
 * when a new one is set, so no format is ever freed: every distinct text
 * set stays on a list (setting a known text again allocates nothing). */
struct format_node {
    struct format_node *next;
    char text[];
};
static _Atomic(struct format_node *) known_formats;
static _Atomic(const char *) format_var = DEFAULT_FORMAT;

const char *xomp_affinity_format(void)
{
    /* acquire: pairs with the release store in xomp_affinity_format_set,
     * so the text is complete. */
    return atomic_load_explicit(&format_var, memory_order_acquire);
}

static bool same_text(const char *known, const char *format, size_t len)
{
    return strlen(known) == len && !memcmp(known, format, len);
}

/* The kept copy of a format text, made on first use. */
static const char *kept_format(const char *format, size_t len)
{
    if (same_text(DEFAULT_FORMAT, format, len))
        return DEFAULT_FORMAT;
    /* acquire: pairs with the release CAS below (complete nodes). */
    for (struct format_node *n = atomic_load_explicit(&known_formats, memory_order_acquire); n;
         n = n->next)
        if (same_text(n->text, format, len))
            return n->text;
    struct format_node *node = malloc(sizeof *node + len + 1);
    if (!node)
        return NULL;
    memcpy(node->text, format, len);
    node->text[len] = '\0';
    /* relaxed: only a first guess of the head; the CAS checks it. */
    node->next = atomic_load_explicit(&known_formats, memory_order_relaxed);
    /* release: a reader that finds the node sees its text. */
    while (!atomic_compare_exchange_weak_explicit(&known_formats, &node->next, node,
                                                  memory_order_release, memory_order_relaxed))
        ;
    return node->text;
}

void xomp_affinity_format_set(const char *format, size_t len)
{
    const char *text = kept_format(format, len);
    if (!text) {
        xomp_warn("omp_set_affinity_format: out of memory; the format is unchanged");
        return;
    }
    /* release: see xomp_affinity_format. */
    atomic_store_explicit(&format_var, text, memory_order_release);
}

/* ---- output with truncation (snprintf-like: the full length counts) ---- */

struct out {
    char *buf;
    size_t size, len;
};

static void put(struct out *o, const char *s, size_t n)
{
    if (o->len < o->size)
        memcpy(o->buf + o->len, s, n < o->size - o->len ? n : o->size - o->len);
    o->len += n;
}

static void put_repeat(struct out *o, char c, size_t n)
{
    if (o->len < o->size)
        memset(o->buf + o->len, c, n < o->size - o->len ? n : o->size - o->len);
    o->len += n;
}

struct field {
    bool zero, right;
    size_t width; /* 0: none */
};

static void put_text(struct out *o, const struct field *f, const char *s, size_t n)
{
    size_t pad = f->width > n ? f->width - n : 0;
    if (f->right)
        put_repeat(o, ' ', pad);
    put(o, s, n);
    if (!f->right)
        put_repeat(o, ' ', pad);
}

/* Zero padding goes after a sign or a "0x" prefix. */
static void put_number(struct out *o, const struct field *f, const char *digits)
{
    size_t n = strlen(digits);
    if (!f->zero || f->width <= n) {
        put_text(o, f, digits, n);
        return;
    }
    size_t prefix = digits[0] == '-' ? 1 : (digits[0] == '0' && digits[1] == 'x') ? 2 : 0;
    put(o, digits, prefix);
    put_repeat(o, '0', f->width - n);
    put(o, digits + prefix, n - prefix);
}

static void put_int(struct out *o, const struct field *f, long v)
{
    char digits[24];
    snprintf(digits, sizeof digits, "%ld", v);
    put_number(o, f, digits);
}

/* ---- %A: a CPU set as "0-3,8,10-11" ---- */

static void cpus_of(int place, cpu_set_t *set)
{
    int n = xomp_place_num_procs(place);
    if (place < 0 || n <= 0) {
        *set = *xomp_cpus(); /* an unbound thread: the process's CPUs */
        return;
    }
    int ids[n];
    xomp_place_proc_ids(place, ids);
    CPU_ZERO(set);
    for (int i = 0; i < n; i++)
        if (ids[i] >= 0 && ids[i] < CPU_SETSIZE)
            CPU_SET(ids[i], set);
}

static void put_cpu_list(struct out *o, const cpu_set_t *set)
{
    bool first = true;
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, set))
            continue;
        int last = cpu;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
            last++;
        char range[32];
        int len = last == cpu ? snprintf(range, sizeof range, "%s%d", first ? "" : ",", cpu)
                              : snprintf(range, sizeof range, "%s%d-%d", first ? "" : ",", cpu,
                                         last);
        put(o, range, (size_t)len);
        first = false;
        cpu = last;
    }
}

static void put_affinity(struct out *o, const struct field *f, int place)
{
    cpu_set_t set;
    cpus_of(place, &set);
    struct out measure = {NULL, 0, 0};
    put_cpu_list(&measure, &set);
    size_t pad = f->width > measure.len ? f->width - measure.len : 0;
    if (f->right)
        put_repeat(o, ' ', pad);
    put_cpu_list(o, &set);
    if (!f->right)
        put_repeat(o, ' ', pad);
}

static void put_host(struct out *o, const struct field *f)
{
    char name[256];
    if (gethostname(name, sizeof name - 1) != 0)
        strcpy(name, "node");
    name[sizeof name - 1] = '\0';
    put_text(o, f, name, strlen(name));
}

/* ---- fields ---- */

static const struct {
    char letter;
    const char *name;
} field_names[] = {
    {'t', "team_num"},      {'T', "num_teams"},        {'L', "nesting_level"},
    {'n', "thread_num"},    {'N', "num_threads"},      {'a', "ancestor_tnum"},
    {'H', "host"},          {'P', "process_id"},       {'i', "native_thread_id"},
    {'A', "thread_affinity"},
};

/* The letter of "{name}" at p (p at '{'), and where it ends; 0 if unknown. */
static char long_name(const char *p, const char **end)
{
    const char *close = strchr(p, '}');
    *end = close ? close : p + strlen(p) - 1;
    if (!close)
        return 0;
    for (size_t i = 0; i < sizeof field_names / sizeof field_names[0]; i++)
        if (strlen(field_names[i].name) == (size_t)(close - p - 1) &&
            !strncmp(p + 1, field_names[i].name, (size_t)(close - p - 1)))
            return field_names[i].letter;
    return 0;
}

static bool put_field(struct out *o, const struct field *f, char letter,
                      const struct xomp_affinity_subject *s)
{
    char hex[24];
    switch (letter) {
    case 't': put_int(o, f, s->team_num); return true;
    case 'T': put_int(o, f, s->num_teams); return true;
    case 'L': put_int(o, f, s->level); return true;
    case 'n': put_int(o, f, s->thread_num); return true;
    case 'N': put_int(o, f, s->num_threads); return true;
    case 'a': put_int(o, f, s->ancestor_tnum); return true;
    case 'P': put_int(o, f, (long)getpid()); return true;
    case 'H': put_host(o, f); return true;
    case 'A': put_affinity(o, f, s->place); return true;
    case 'i':
        snprintf(hex, sizeof hex, "0x%lx", (unsigned long)s->handle);
        put_number(o, f, hex);
        return true;
    default:
        return false;
    }
}

/* Parse the modifiers after '%' (at p) into f.  Returns where parsing
 * stopped: the field type, or the offending character with *error set. */
static const char *parse_modifiers(const char *p, struct field *f, const char **error)
{
    if (*p == '0') {
        f->zero = true;
        if (*++p != '.') {
            *error = "'0' not followed by '.'";
            return p;
        }
    }
    if (*p == '.') {
        f->right = true;
        p++;
    }
    if (*p >= '1' && *p <= '9') {
        char *end;
        unsigned long w = strtoul(p, &end, 10);
        if (w > MAX_FIELD_WIDTH)
            *error = "field width too large";
        f->width = w;
        return end;
    }
    if (f->zero || f->right)
        *error = "'0' or '.' without a field width";
    return p;
}

size_t xomp_affinity_expand(char *buf, size_t size, const char *format,
                            const struct xomp_affinity_subject *s, const char **error)
{
    struct out o = {buf, size, 0};
    const char *first_error = NULL;
    const char *p = format;
    while (*p) {
        const char *pct = strchr(p, '%');
        if (!pct) {
            put(&o, p, strlen(p));
            break;
        }
        put(&o, p, (size_t)(pct - p));
        if (pct[1] == '%') {
            put(&o, "%", 1);
            p = pct + 2;
            continue;
        }
        struct field f = {false, false, 0};
        const char *why = NULL;
        const char *q = parse_modifiers(pct + 1, &f, &why);
        if (!why) {
            char letter = *q == '{' ? long_name(q, &q) : *q;
            if (letter && put_field(&o, &f, letter, s)) {
                p = q + 1;
                continue;
            }
            why = *q ? "unknown field type" : "incomplete field";
        }
        /* Invalid: printed as written, up to the character that made it so. */
        if (!first_error)
            first_error = why;
        const char *stop = *q ? q + 1 : q;
        put(&o, pct, (size_t)(stop - pct));
        p = stop;
    }
    if (error)
        *error = first_error;
    return o.len;
}

/* ---- subjects and printing ---- */

void xomp_affinity_subject_self(struct xomp_affinity_subject *s)
{
    struct xomp_thread *thr = xomp_self();
    const struct xomp_team *team = thr->team;
    const struct xomp_icv *icv = &thr->task->icv;
    s->team_num = (int)icv->team_num;
    s->num_teams = icv->num_teams ? (int)icv->num_teams : 1;
    s->level = team ? (int)team->level : 0;
    s->thread_num = team ? (int)thr->team_id : 0;
    s->num_threads = team ? (int)team->nthreads : 1;
    s->ancestor_tnum = !team ? -1 : team->level > 1 ? (int)team->parent_id : 0;
    s->place = thr->place;
    s->handle = pthread_self();
}

void xomp_affinity_print(const char *format, const struct xomp_affinity_subject *s)
{
    char small[512];
    size_t len = xomp_affinity_expand(small, sizeof small - 1, format, s, NULL);
    char *line = small;
    if (len >= sizeof small) {
        line = malloc(len + 1);
        if (!line)
            return;
        xomp_affinity_expand(line, len, format, s, NULL);
    }
    line[len] = '\n';
    ssize_t ignored = write(STDERR_FILENO, line, len + 1);
    (void)ignored;
    if (line != small)
        free(line);
}

/* The thread count of the last region this thread started at level 1. */
static __thread unsigned last_outermost_threads;

static struct xomp_thread *member_thread(struct xomp_team *team, struct xomp_thread *master,
                                         unsigned id)
{
    return id == 0 ? master : team->workers[id].thread;
}

/* Called by the master before it launches the members: they are docked,
 * and their place and handle were last written before the master acquired
 * them (pool lock, or the previous region's release RMWs on the team's `left`). */
void xomp_affinity_region_display(struct xomp_team *team, struct xomp_thread *master)
{
    unsigned n = team->nthreads;
    bool show = team->level > 1;
    if (team->level == 1) {
        show = n != last_outermost_threads;
        last_outermost_threads = n;
    }
    if (n == 1)
        return;
    for (unsigned i = 0; i < n && !show && team->binding; i++)
        show = team->member_place[i] != member_thread(team, master, i)->place;
    if (!show)
        return;
    const char *format = xomp_affinity_format();
    for (unsigned i = 0; i < n; i++) {
        struct xomp_thread *thr = member_thread(team, master, i);
        struct xomp_affinity_subject s = {
            .team_num = (int)team->icv.team_num,
            .num_teams = team->icv.num_teams ? (int)team->icv.num_teams : 1,
            .level = (int)team->level,
            .thread_num = (int)i,
            .num_threads = (int)n,
            .ancestor_tnum = team->level > 1 ? (int)team->parent_id : 0,
            .place = team->binding ? team->member_place[i] : thr->place,
            .handle = i == 0 ? pthread_self() : thr->handle,
        };
        xomp_affinity_print(format, &s);
    }
}

/* ---- start-up ---- */

void xomp_affinity_env_init(void)
{
    xomp_env_bool("OMP_DISPLAY_AFFINITY", &xomp_display_affinity);
    const char *v = getenv("OMP_AFFINITY_FORMAT");
    if (!v)
        return;
    const char *error = NULL;
    struct xomp_affinity_subject probe = {0};
    xomp_affinity_expand(NULL, 0, v, &probe, &error);
    if (error)
        xomp_env_invalid("OMP_AFFINITY_FORMAT", v, "'" DEFAULT_FORMAT "'");
    else
        xomp_affinity_format_set(v, strlen(v));
}
