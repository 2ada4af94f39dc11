/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Reading the environment into xomp_cfg.
 *
 * Every variable is validated.  A bad value produces exactly one line on
 * stderr naming the variable, the value and what is used instead, and the
 * default stays in force: bad input never stops a program.
 */
#include "config.h"
#include "../topo/cpus.h"
#include "log.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

struct xomp_config xomp_cfg;

static void invalid(const char *name, const char *value, const char *fallback)
{
    xomp_warn("invalid value '%s' for environment variable %s; using %s", value, name, fallback);
}

/* An invalid value of a variable whose absence means something else than
 * any one value (as libgomp, the program runs as if it were unset). */
static void invalid_ignored(const char *name, const char *value)
{
    xomp_warn("invalid value '%s' for environment variable %s; ignored", value, name);
}

static const char *skip_space(const char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    return s;
}

/* Parse an unsigned decimal integer, allowing surrounding blanks and a
 * leading '+' (libgomp reads numbers with strtoul, which takes it:
 * OMP_NUM_THREADS=+3 is 3).  On success *end points after it. */
static bool parse_ulong(const char *s, unsigned long *out, const char **end)
{
    s = skip_space(s);
    if (*s == '+') /* as strtoul, and libgomp, read it */
        s++;
    if (!isdigit((unsigned char)*s))
        return false;
    errno = 0;
    char *e;
    unsigned long v = strtoul(s, &e, 10);
    if (errno == ERANGE)
        return false;
    *out = v;
    *end = skip_space(e);
    return true;
}

static bool parse_bool_value(const char *s, bool *out)
{
    s = skip_space(s);
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n == 4 && !strncasecmp(s, "true", 4)) {
        *out = true;
        return true;
    }
    if (n == 5 && !strncasecmp(s, "false", 5)) {
        *out = false;
        return true;
    }
    return false;
}

/* Returns whether the variable holds a valid value (now in *var). */
static bool env_bool(const char *name, bool *var)
{
    const char *v = getenv(name);
    if (!v)
        return false;
    if (!parse_bool_value(v, var)) {
        invalid(name, v, *var ? "true" : "false");
        return false;
    }
    return true;
}

/* The words of XOMP_DLB and XOMP_PROFILE, by value (env_choice parses
 * them, xomp_dlb_name and xomp_profile_mode_name print them). */
static const char *const dlb_names[] = {[XOMP_DLB_WS] = "ws"};
static const char *const taskloop_mode_names[] = {[XOMP_TASKLOOP_PLAIN] = "plain",
                                                  [XOMP_TASKLOOP_ILAN] = "ilan"};
static const char *const replay_auto_names[] = {
    [XOMP_REPLAY_AUTO_OFF] = "off",     [XOMP_REPLAY_AUTO_RECORD] = "record",
    [XOMP_REPLAY_AUTO_STOWS] = "stows", [XOMP_REPLAY_AUTO_STUWS] = "stuws",
    [XOMP_REPLAY_AUTO_RELWS] = "relws"};
static const char *const profile_mode_names[] = {[XOMP_PROFILE_OFF] = "off",
                                                 [XOMP_PROFILE_COUNTERS] = "counters",
                                                 [XOMP_PROFILE_EVENTS] = "events"};

/* One word of `words` (any case): *var becomes its index. */
static void env_choice(const char *name, const char *const *words, int nwords, int *var)
{
    const char *v = getenv(name);
    if (!v)
        return;
    int i = xomp_env_word(v, words, nwords);
    if (i < 0)
        invalid(name, v, words[*var]);
    else
        *var = i;
}

/* A non-negative integer in [min, max]. */
static bool env_uint(const char *name, unsigned long min, unsigned long max, unsigned long *var,
                     const char *fallback_desc)
{
    const char *v = getenv(name);
    if (!v)
        return false;
    unsigned long x;
    const char *end;
    if (!parse_ulong(v, &x, &end) || *end || x < min || x > max) {
        char fb[96];
        if (fallback_desc && *fallback_desc)
            snprintf(fb, sizeof fb, "%s", fallback_desc);
        else
            snprintf(fb, sizeof fb, "%lu", *var);
        invalid(name, v, fb);
        return false;
    }
    *var = x;
    return true;
}

/* Room for a list of one entry per comma-separated item of `v` (freed
 * by the caller if the list turns out invalid), and how many at most. */
static void *list_new(const char *name, const char *v, size_t entry_size, unsigned *max)
{
    size_t items = 1;
    for (const char *p = v; *p; p++)
        items += *p == ',';
    if (items > XOMP_ENV_LIST_MAX) {
        xomp_warn("%s has %zu entries; using the first %u (one per nesting level)", name, items,
                  XOMP_ENV_LIST_MAX);
        items = XOMP_ENV_LIST_MAX;
    }
    *max = (unsigned)items;
    void *list = calloc(items, entry_size);
    if (!list)
        xomp_warn("out of memory reading %s; ignored", name);
    return list;
}

/* OMP_NUM_THREADS: a comma-separated list of positive integers, one per
 * nesting level, as long as the user likes. */
static void env_num_threads(void)
{
    const char *v = getenv("OMP_NUM_THREADS");
    if (!v)
        return;
    unsigned max;
    uint32_t *list = list_new("OMP_NUM_THREADS", v, sizeof *list, &max);
    if (!list)
        return;
    unsigned len = 0;
    const char *s = v;
    for (;;) {
        unsigned long x;
        const char *end;
        if (!parse_ulong(s, &x, &end) || x == 0 || x > INT_MAX)
            goto bad;
        list[len++] = (uint32_t)x;
        if (*end == '\0' || len == max)
            break;
        if (*end != ',')
            goto bad;
        s = end + 1;
    }
    xomp_cfg.nthreads_list = list;
    xomp_cfg.nthreads_list_len = len;
    xomp_cfg.icv.nthreads = list[0];
    return;
bad:;
    free(list);
    char fb[64];
    snprintf(fb, sizeof fb, "%u (the number of available CPUs)", xomp_cfg.icv.nthreads);
    invalid("OMP_NUM_THREADS", v, fb);
}

static bool parse_bind_word(const char *s, size_t n, uint8_t *out)
{
    static const struct {
        const char *word;
        uint8_t kind;
    } words[] = {
        {"false", XOMP_BIND_FALSE},   {"true", XOMP_BIND_TRUE},   {"master", XOMP_BIND_PRIMARY},
        {"primary", XOMP_BIND_PRIMARY}, {"close", XOMP_BIND_CLOSE}, {"spread", XOMP_BIND_SPREAD},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strlen(words[i].word) == n && !strncasecmp(s, words[i].word, n)) {
            *out = words[i].kind;
            return true;
        }
    return false;
}

/* OMP_PROC_BIND: true, false, or a list of primary/master, close, spread,
 * one per nesting level. */
static void env_proc_bind(void)
{
    const char *v = getenv("OMP_PROC_BIND");
    if (!v)
        return;
    unsigned max;
    uint8_t *list = list_new("OMP_PROC_BIND", v, sizeof *list, &max);
    if (!list)
        return;
    unsigned len = 0;
    const char *s = v;
    for (;;) {
        s = skip_space(s);
        const char *w = s;
        while (isalpha((unsigned char)*s))
            s++;
        if (!parse_bind_word(w, (size_t)(s - w), &list[len]))
            goto bad;
        len++;
        s = skip_space(s);
        if (*s == '\0' || len == max)
            break;
        if (*s != ',')
            goto bad;
        s++;
    }
    /* true/false are only valid alone. */
    if (len > 1)
        for (unsigned i = 0; i < len; i++)
            if (list[i] == XOMP_BIND_FALSE || list[i] == XOMP_BIND_TRUE)
                goto bad;
    xomp_cfg.bind_list = list;
    xomp_cfg.bind_list_len = len;
    xomp_cfg.icv.bind = list[0];
    return;
bad:
    free(list);
    /* As if unset: OMP_PLACES alone still turns binding on (init.c). */
    invalid_ignored("OMP_PROC_BIND", v);
}

/* OMP_SCHEDULE: [monotonic:|nonmonotonic:]kind[,chunk] */
static void env_schedule(void)
{
    const char *v = getenv("OMP_SCHEDULE");
    if (!v)
        return;
    const char *s = skip_space(v);
    int monotonic = -1; /* no modifier: static is monotonic (libgomp) */
    static const char *const modifiers[] = {"nonmonotonic", "monotonic"};
    for (int m = 0; m < 2; m++) {
        size_t n = strlen(modifiers[m]);
        if (!strncasecmp(s, modifiers[m], n) && *skip_space(s + n) == ':') {
            monotonic = m;
            s = skip_space(s + n) + 1;
            break;
        }
    }
    s = skip_space(s);
    static const struct {
        const char *word;
        int kind;
    } kinds[] = {{"static", XOMP_SCHED_STATIC},
                 {"dynamic", XOMP_SCHED_DYNAMIC},
                 {"guided", XOMP_SCHED_GUIDED},
                 {"auto", XOMP_SCHED_AUTO}};
    int kind = 0;
    const char *kind_word = NULL;
    for (size_t i = 0; i < 4; i++) {
        size_t n = strlen(kinds[i].word);
        if (!strncasecmp(s, kinds[i].word, n) && !isalpha((unsigned char)s[n])) {
            kind = kinds[i].kind;
            kind_word = kinds[i].word;
            s += n;
            break;
        }
    }
    if (!kind)
        goto bad;
    s = skip_space(s);
    long chunk = kind == XOMP_SCHED_STATIC ? 0 : 1;
    if (*s == ',') {
        /* A chunk of 0 is the kind's default, as libgomp reads it; a
         * negative one keeps the kind with its default chunk. */
        const char *c = skip_space(s + 1);
        bool negative = *c == '-';
        unsigned long n;
        const char *end;
        if (!parse_ulong(negative ? c + 1 : c, &n, &end) || *end || n > INT_MAX)
            goto bad;
        if (negative && n > 0) {
            char fallback[64];
            snprintf(fallback, sizeof fallback, "%s with its default chunk", kind_word);
            invalid("OMP_SCHEDULE", v, fallback);
        } else if (n > 0) {
            chunk = (long)n;
        }
    } else if (*s) {
        goto bad;
    }
    if (monotonic < 0)
        monotonic = kind == XOMP_SCHED_STATIC;
    xomp_cfg.icv.run_sched_kind = kind | (monotonic ? XOMP_SCHED_MONOTONIC : 0);
    xomp_cfg.icv.run_sched_chunk = (int32_t)chunk;
    return;
bad:
    invalid("OMP_SCHEDULE", v, "dynamic,1");
}

/* A size with an optional B/K/M/G suffix; `default_unit` applies to a bare
 * number (OMP_STACKSIZE counts in kilobytes). */
static bool parse_size(const char *v, size_t default_unit, size_t *out)
{
    unsigned long x;
    const char *end;
    if (!parse_ulong(v, &x, &end))
        return false;
    size_t unit = default_unit;
    if (*end) {
        switch (tolower((unsigned char)*end)) {
        case 'b': unit = 1; break;
        case 'k': unit = 1024; break;
        case 'm': unit = 1024 * 1024; break;
        case 'g': unit = 1024ul * 1024 * 1024; break;
        default: return false;
        }
        if (*skip_space(end + 1))
            return false;
    }
    if (x > SIZE_MAX / unit)
        return false;
    *out = x * unit;
    return true;
}

static void env_stacksize(void)
{
    const char *names[] = {"OMP_STACKSIZE", "GOMP_STACKSIZE"};
    for (int i = 0; i < 2; i++) {
        const char *v = getenv(names[i]);
        if (!v)
            continue;
        size_t sz;
        if (!parse_size(v, 1024, &sz) || sz == 0)
            invalid(names[i], v, "the system's default stack size");
        else
            xomp_cfg.stacksize = sz;
        return;
    }
}

static void env_wait_policy(void)
{
    const char *v = getenv("OMP_WAIT_POLICY");
    if (!v)
        return;
    const char *s = skip_space(v);
    if (!strncasecmp(s, "active", 6) && !*skip_space(s + 6))
        xomp_cfg.wait_policy = XOMP_WAIT_ACTIVE;
    else if (!strncasecmp(s, "passive", 7) && !*skip_space(s + 7))
        xomp_cfg.wait_policy = XOMP_WAIT_PASSIVE;
    else
        invalid("OMP_WAIT_POLICY", v, "the default policy (spin briefly, then sleep)");
}

/* GOMP_SPINCOUNT: a count (optionally k/M/G/T) or "infinite".  xomp spins
 * for a time rather than a count: one libgomp spin (a load and a pause)
 * is taken as XOMP_NS_PER_GOMP_SPIN. */
static void env_spincount(void)
{
    const char *v = getenv("GOMP_SPINCOUNT");
    if (!v)
        return;
    const char *s = skip_space(v);
    if (!strncasecmp(s, "infinite", 8) || !strncasecmp(s, "infinity", 8)) {
        xomp_cfg.spin_ns = UINT64_MAX;
        return;
    }
    unsigned long x;
    const char *end;
    uint64_t mult = 1;
    if (!parse_ulong(s, &x, &end))
        goto bad;
    if (*end) {
        switch (*end) {
        case 'k': case 'K': mult = 1000ull; break;
        case 'M': mult = 1000000ull; break;
        case 'G': mult = 1000000000ull; break;
        case 'T': mult = 1000000000000ull; break;
        default: goto bad;
        }
        if (*skip_space(end + 1))
            goto bad;
    }
    uint64_t per_spin = XOMP_NS_PER_GOMP_SPIN;
    xomp_cfg.spin_ns = (x > UINT64_MAX / mult / per_spin) ? UINT64_MAX : x * mult * per_spin;
    return;
bad:
    invalid("GOMP_SPINCOUNT", v, "the default spin time");
}

static void env_display(void)
{
    const char *v = getenv("OMP_DISPLAY_ENV");
    if (!v)
        return;
    bool b;
    const char *s = skip_space(v);
    if (parse_bool_value(v, &b))
        xomp_cfg.display_env = b ? 1 : 0;
    else if (!strncasecmp(s, "verbose", 7) && !*skip_space(s + 7))
        xomp_cfg.display_env = 2;
    else
        invalid("OMP_DISPLAY_ENV", v, "false");
}

/* OMP_PLACES and GOMP_CPU_AFFINITY: kept as given, whatever their length (a
 * machine's explicit place list can be long), and parsed by the topology
 * module, which reports invalid values. */
static const char *env_copy(const char *name)
{
    const char *v = getenv(name);
    if (!v)
        return NULL;
    char *copy = strdup(v);
    if (!copy)
        xomp_fatal("out of memory reading %s", name);
    return copy;
}

static void env_places(void)
{
    xomp_cfg.places = env_copy("OMP_PLACES");
    xomp_cfg.cpu_affinity = env_copy("GOMP_CPU_AFFINITY");
}

/* A fraction in [0, 1] (a decimal number); anything else gets the usual
 * message and leaves *var as it is. */
static void env_fraction(const char *name, double *var)
{
    const char *v = getenv(name);
    if (!v)
        return;
    const char *s = skip_space(v);
    char *end;
    errno = 0;
    double p = strtod(s, &end);
    if (end == s || errno || *skip_space(end) || !(p >= 0.0 && p <= 1.0)) {
        char fb[32];
        snprintf(fb, sizeof fb, "%g", *var);
        invalid(name, v, fb);
        return;
    }
    *var = p;
}

/* XOMP_DLB_PLOCAL: a probability, a decimal number in [0, 1]. */
static void env_plocal(void)
{
    env_fraction("XOMP_DLB_PLOCAL", &xomp_cfg.dlb_plocal);
    /* P_local * 2^32: a 32-bit random number below it picks a local victim
     * (1.0 gives 2^32: always). */
    xomp_cfg.dlb_plocal_threshold = (uint64_t)(xomp_cfg.dlb_plocal * 4294967296.0);
}

/* Settings of the scheduler that needed a busy member's help to move work
 * (message-based load balancing and static placement): the scheduler now
 * lets idle members take queued tasks themselves (src/sched/README.md), so
 * they are gone.  One line each, and the program goes on. */
static void env_retired(void)
{
    static const char *const gone[][2] = {
        {"XOMP_PLACEMENT", "a new task always starts in its creator's deque; idle threads steal"},
        {"XOMP_DLB_INTERVAL", "idle threads steal without asking"},
        {"XOMP_DLB_VICTIMS", "idle threads steal without asking"},
        {"XOMP_DLB_ROUND_START", "load balancing has no rounds any more"},
    };
    for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++)
        if (getenv(gone[i][0]))
            xomp_warn("%s is no longer supported (%s); ignored", gone[i][0], gone[i][1]);
}

/* XOMP_DLB: ws is the one strategy left; the others needed a victim's
 * help, which a busy or blocked victim never gives. */
static void env_dlb(void)
{
    const char *v = getenv("XOMP_DLB");
    static const char *const retired[] = {"none", "rp", "wait", "waitfree1", "waitfree2"};
    if (v && xomp_env_word(v, retired, 5) >= 0) {
        xomp_warn("XOMP_DLB=%s is no longer supported (a strategy that needs a busy thread's "
                  "help can strand tasks behind a blocked one); using ws",
                  v);
        return;
    }
    int word = (int)xomp_cfg.dlb;
    env_choice("XOMP_DLB", dlb_names, XOMP_DLB_WS + 1, &word);
    xomp_cfg.dlb = (enum xomp_dlb)word;
}

/* xomp's own knobs. */
static void env_xomp(void)
{
    unsigned long x = xomp_cfg.queue_size;
    const char *v = getenv("XOMP_QUEUE_SIZE");
    if (env_uint("XOMP_QUEUE_SIZE", 2, 1ul << 20, &x, "")) {
        if (x & (x - 1)) {
            unsigned long p = 2;
            while (p < x)
                p <<= 1;
            xomp_warn("XOMP_QUEUE_SIZE=%s is not a power of two; using %lu", v, p);
            x = p;
        }
        xomp_cfg.queue_size = (unsigned)x;
    }

    static const char *const solos[] = {[XOMP_SOLO_RUN] = "run", [XOMP_SOLO_QUEUE] = "queue"};
    static const char *const barriers[] = {[XOMP_BARRIER_TREE] = "tree",
                                           [XOMP_BARRIER_CENTRAL] = "central"};
    int word = (int)xomp_cfg.solo;
    env_choice("XOMP_SOLO", solos, 2, &word);
    xomp_cfg.solo = (enum xomp_solo)word;
    word = (int)xomp_cfg.barrier;
    env_choice("XOMP_BARRIER", barriers, 2, &word);
    xomp_cfg.barrier = (enum xomp_barrier_kind)word;

    x = xomp_cfg.barrier_arity;
    if (env_uint("XOMP_BARRIER_ARITY", 2, 64, &x, ""))
        xomp_cfg.barrier_arity = (unsigned)x;

    x = xomp_cfg.max_depth;
    if (env_uint("XOMP_MAX_DEPTH", 1, 1u << 20, &x, ""))
        xomp_cfg.max_depth = (unsigned)x;

    env_retired();
    env_dlb();
    v = getenv("XOMP_DLB_STEAL");
    x = xomp_cfg.dlb_steal;
    if (v && !strcasecmp(v, "half"))
        xomp_cfg.dlb_steal = XOMP_DLB_STEAL_HALF;
    else if (env_uint("XOMP_DLB_STEAL", 1, 1u << 16, &x,
                      xomp_cfg.dlb_steal == XOMP_DLB_STEAL_HALF ? "half" : ""))
        xomp_cfg.dlb_steal = (unsigned)x;
    env_plocal();

    v = getenv("XOMP_TOPOLOGY");
    if (v) {
        if (strlen(v) >= sizeof xomp_cfg.topology) {
            invalid("XOMP_TOPOLOGY", "(too long)", "the machine's topology");
        } else {
            strcpy(xomp_cfg.topology, v);
            xomp_cfg.topology_set = true; /* validated by topo/numa.c */
        }
    }

    /* XOMP_STATS: 1/0 as well as true/false. */
    v = getenv("XOMP_STATS");
    if (v) {
        bool b;
        if (!strcmp(v, "1") || !strcmp(v, "0"))
            xomp_cfg.stats = v[0] == '1';
        else if (parse_bool_value(v, &b))
            xomp_cfg.stats = b;
        else
            invalid("XOMP_STATS", v, "0");
    }

    x = 0;
    if (env_uint("XOMP_SPIN_US", 0, UINT32_MAX, &x, "the default spin time"))
        xomp_cfg.spin_ns = xomp_cfg.spin_ns_oversubscribed = (uint64_t)x * 1000;
    x = 0;
    if (env_uint("XOMP_SPIN_US_OVERSUBSCRIBED", 0, UINT32_MAX, &x,
                 "the spin time of XOMP_SPIN_US, at most 2 us"))
        xomp_cfg.spin_ns_oversubscribed = (uint64_t)x * 1000;
}

/* Taskloops: XOMP_TASKLOOP, XOMP_ILAN_MOLD, XOMP_ILAN_STRICT, and the task
 * homes' XOMP_HOME_LAPSE_MS. */
static void env_taskloop(void)
{
    int mode = (int)xomp_cfg.taskloop;
    env_choice("XOMP_TASKLOOP", taskloop_mode_names, XOMP_TASKLOOP_ILAN + 1, &mode);
    xomp_cfg.taskloop = (enum xomp_taskloop_mode)mode;
    /* XOMP_ILAN_MOLD: on/off as well as true/false and 1/0. */
    const char *v = getenv("XOMP_ILAN_MOLD");
    if (v) {
        static const char *const words[] = {"off", "on", "false", "true", "0", "1"};
        int i = xomp_env_word(v, words, 6);
        if (i < 0)
            invalid("XOMP_ILAN_MOLD", v, xomp_cfg.ilan_mold ? "on" : "off");
        else
            xomp_cfg.ilan_mold = i & 1;
    }
    env_fraction("XOMP_ILAN_STRICT", &xomp_cfg.ilan_strict);
    unsigned long ms = xomp_cfg.home_lapse_ns / 1000000;
    if (env_uint("XOMP_HOME_LAPSE_MS", 0, 3600000, &ms, ""))
        xomp_cfg.home_lapse_ns = (uint64_t)ms * 1000000;
    /* ILAN needs a fixed thread-to-core mapping (its blocks of iterations
     * are meant to stay on one NUMA node): bind when the user said nothing
     * about binding.  Not on a virtual topology, whose nodes are made from
     * member numbers (topo/numa.h). */
    if (xomp_cfg.taskloop == XOMP_TASKLOOP_ILAN && !xomp_cfg.bind_list_len &&
        !getenv("OMP_PLACES") && !getenv("GOMP_CPU_AFFINITY") && !xomp_cfg.topology_set) {
        xomp_cfg.icv.bind = XOMP_BIND_TRUE;
        xomp_cfg.ilan_bound = true;
    }
}

/* Steal-tree record and replay: XOMP_REPLAY, XOMP_REPLAY_PRUNE,
 * XOMP_REPLAY_PRUNE_RUNS (src/locality/replay.h). */
static void env_replay(void)
{
    int mode = (int)xomp_cfg.replay;
    env_choice("XOMP_REPLAY", replay_auto_names, XOMP_REPLAY_AUTO_RELWS + 1, &mode);
    xomp_cfg.replay = (enum xomp_replay_auto)mode;
    unsigned long x = xomp_cfg.replay_prune;
    if (env_uint("XOMP_REPLAY_PRUNE", 0, 100, &x, ""))
        xomp_cfg.replay_prune = (unsigned)x;
    x = xomp_cfg.replay_prune_runs;
    if (env_uint("XOMP_REPLAY_PRUNE_RUNS", 0, UINT32_MAX, &x, ""))
        xomp_cfg.replay_prune_runs = (unsigned)x;
}

/* The profiler's switches (src/prof/README.md). */
static void env_profile(void)
{
    int mode = (int)xomp_cfg.profile; /* off until here */
    env_choice("XOMP_PROFILE", profile_mode_names, XOMP_PROFILE_EVENTS + 1, &mode);
    xomp_cfg.profile = (enum xomp_profile_mode)mode;
#if defined(XOMP_PROFILER) && !XOMP_PROFILER
    if (xomp_cfg.profile == XOMP_PROFILE_EVENTS) {
        xomp_warn("XOMP_PROFILE=events: event recording is compiled out of this build "
                  "(cmake -DXOMP_PROFILER=OFF); using counters");
        xomp_cfg.profile = XOMP_PROFILE_COUNTERS;
    }
#endif
    xomp_cfg.prof_events = xomp_cfg.profile == XOMP_PROFILE_EVENTS;

    unsigned long x = xomp_cfg.profile_events;
    if (env_uint("XOMP_PROFILE_EVENTS", 16, 1ul << 28, &x, ""))
        xomp_cfg.profile_events = (unsigned)x;

    const char *v = getenv("XOMP_PROFILE_DIR");
    if (v) {
        if (!*skip_space(v) || strlen(v) >= PATH_MAX - 64)
            invalid("XOMP_PROFILE_DIR", v, "./xomp-profile-PID");
        else if (!(xomp_cfg.profile_dir = strdup(v)))
            invalid("XOMP_PROFILE_DIR", v, "./xomp-profile-PID (out of memory)");
    }
}

void xomp_config_init(void)
{
    xomp_env_check_names();
    struct xomp_config *c = &xomp_cfg;
    c->ncpus = xomp_cpus_count(); /* the process's CPUs (topo/cpus.h) */
    c->icv.nthreads = c->ncpus;
    c->icv.thread_limit = INT_MAX;
    c->icv.run_sched_kind = XOMP_SCHED_DYNAMIC;
    c->icv.run_sched_chunk = 1;
    c->icv.max_active_levels = 1;
    c->icv.dyn = 0;
    c->icv.bind = XOMP_BIND_FALSE;
    c->icv.default_device = 0;
    c->wait_policy = XOMP_WAIT_DEFAULT;
    c->spin_ns = XOMP_SPIN_DEFAULT_NS; /* src/runtime/README.md, "The budget" */
    c->spin_ns_oversubscribed = 2 * 1000;   /* threads outnumber CPUs: yield soon */
    c->queue_size = 256;
    c->solo = XOMP_SOLO_RUN;             /* measured faster: docs/team-of-one.md */
    c->barrier = XOMP_BARRIER_TREE;
    c->barrier_arity = 0; /* by team size (sched/barrier.c) */
    c->max_depth = 256;
    c->dlb = XOMP_DLB_WS;
    c->dlb_steal = 1;
    c->profile = XOMP_PROFILE_OFF;
    c->profile_events = 1u << 20; /* 16 MiB per thread, allocated only with events */
    c->dlb_plocal = 0.9; /* mostly NUMA-local, but never starve a node */
    c->home_lapse_ns = 0; /* a spin and yield period, or a few of the home's tasks */
    c->taskloop = XOMP_TASKLOOP_PLAIN;
    c->ilan_mold = true;
    c->ilan_strict = 1.0 / 3.0; /* the seed's first third */
    c->replay = XOMP_REPLAY_AUTO_OFF;
    c->replay_prune = 85;      /* the seed keeps the top 15% of the steal points */
    c->replay_prune_runs = 5;  /* ... in its first 5 replays */

    env_num_threads();
    env_proc_bind();
    env_schedule();
    env_stacksize();
    env_wait_policy();
    env_spincount();
    env_display();
    env_places();

    bool dyn = false;
    env_bool("OMP_DYNAMIC", &dyn);
    c->icv.dyn = dyn;

    unsigned long x = INT_MAX;
    if (env_uint("OMP_THREAD_LIMIT", 1, INT_MAX, &x, ""))
        c->icv.thread_limit = (uint32_t)x;

    /* max-active-levels: OMP_MAX_ACTIVE_LEVELS wins; otherwise OMP_NESTED=true
     * or a list in OMP_NUM_THREADS / OMP_PROC_BIND enables nesting, as in
     * libgomp. */
    bool nested = false, nested_set = false;
    const char *nested_text = getenv("OMP_NESTED");
    if (nested_text && !(nested_set = parse_bool_value(nested_text, &nested)))
        invalid_ignored("OMP_NESTED", nested_text); /* as if unset, as libgomp */
    unsigned without_max = c->icv.max_active_levels; /* without OMP_MAX_ACTIVE_LEVELS */
    if (nested_set)
        without_max = nested ? XOMP_SUPPORTED_ACTIVE_LEVELS : 1;
    else if (c->nthreads_list_len > 1 || c->bind_list_len > 1)
        without_max = XOMP_SUPPORTED_ACTIVE_LEVELS;
    char without_text[16];
    snprintf(without_text, sizeof without_text, "%u", without_max);
    x = 0;
    if (env_uint("OMP_MAX_ACTIVE_LEVELS", 0, UINT_MAX, &x, without_text))
        c->icv.max_active_levels =
            (uint16_t)(x > XOMP_SUPPORTED_ACTIVE_LEVELS ? XOMP_SUPPORTED_ACTIVE_LEVELS : x);
    else
        c->icv.max_active_levels = (uint16_t)without_max;

    x = 0;
    if (env_uint("OMP_MAX_TASK_PRIORITY", 0, INT_MAX, &x, ""))
        c->max_task_priority = (unsigned)x;

    env_bool("OMP_CANCELLATION", &c->cancellation);

    x = 0;
    if (env_uint("OMP_DEFAULT_DEVICE", 0, INT16_MAX, &x, ""))
        c->icv.default_device = (int16_t)x;

    /* active: spin without end -- while every thread can have a CPU of
     * its own.  Once threads outnumber CPUs a spinning waiter only keeps
     * the thread it waits for off a CPU, so waits keep the short
     * oversubscribed budget and then sleep, as libgomp's throttled spin
     * does (wait.c, spin_budget). */
    if (c->wait_policy == XOMP_WAIT_ACTIVE)
        c->spin_ns = UINT64_MAX;
    else if (c->wait_policy == XOMP_WAIT_PASSIVE)
        c->spin_ns = c->spin_ns_oversubscribed = 0;

    env_xomp();
    env_taskloop();
    env_replay();
    env_profile();
    /* Recording events makes every task take the general paths, where the
     * event sites are: the fast paths then carry no profiler test.  An OMPT
     * tool turns hooks on (and plain_tasks off) later, when it attaches
     * (tool/ompt_init.c). */
    c->hooks = c->prof_events;
    c->plain_tasks = !c->cancellation && c->barrier == XOMP_BARRIER_TREE && !c->hooks;
}

void xomp_env_invalid(const char *name, const char *value, const char *fallback)
{
    invalid(name, value, fallback);
}

void xomp_env_bool(const char *name, bool *var)
{
    env_bool(name, var);
}

bool xomp_env_uint(const char *name, unsigned long min, unsigned long max, unsigned long *var,
                   const char *fallback)
{
    return env_uint(name, min, max, var, fallback);
}

int xomp_env_word(const char *value, const char *const *words, int nwords)
{
    const char *s = skip_space(value);
    size_t n = 0;
    while (s[n] && !isspace((unsigned char)s[n]))
        n++;
    if (*skip_space(s + n))
        return -1; /* more than one word */
    for (int i = 0; i < nwords; i++)
        if (strlen(words[i]) == n && !strncasecmp(s, words[i], n))
            return i;
    return -1;
}

const char *xomp_dlb_name(enum xomp_dlb dlb)
{
    return (unsigned)dlb < sizeof dlb_names / sizeof dlb_names[0] ? dlb_names[dlb] : "?";
}

const char *xomp_taskloop_mode_name(enum xomp_taskloop_mode mode)
{
    return (unsigned)mode < sizeof taskloop_mode_names / sizeof taskloop_mode_names[0]
               ? taskloop_mode_names[mode]
               : "?";
}

const char *xomp_replay_auto_name(enum xomp_replay_auto mode)
{
    return (unsigned)mode < sizeof replay_auto_names / sizeof replay_auto_names[0]
               ? replay_auto_names[mode]
               : "?";
}

const char *xomp_profile_mode_name(enum xomp_profile_mode mode)
{
    return (unsigned)mode < sizeof profile_mode_names / sizeof profile_mode_names[0]
               ? profile_mode_names[mode]
               : "?";
}

void xomp_icv_next_level(const struct xomp_icv *parent, struct xomp_icv *child,
                         unsigned proc_bind_clause)
{
    *child = *parent;
    /* A proc_bind clause is the members' bind-var too, unless the
     * OMP_PROC_BIND list has a value for the next level (libgomp does
     * both); with bind-var false the clause is ignored. */
    if (proc_bind_clause && parent->bind != XOMP_BIND_FALSE)
        child->bind = (uint8_t)proc_bind_clause;
    if (parent->nthreads_pos + 1u < xomp_cfg.nthreads_list_len) {
        child->nthreads_pos = (uint16_t)(parent->nthreads_pos + 1);
        child->nthreads = xomp_cfg.nthreads_list[child->nthreads_pos];
    }
    if (parent->bind_pos + 1u < xomp_cfg.bind_list_len) {
        child->bind_pos = (uint16_t)(parent->bind_pos + 1);
        child->bind = xomp_cfg.bind_list[child->bind_pos];
    }
}
