/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Internal control variables (ICVs) and xomp's own settings.
 *
 * The global defaults come from the environment once, at load time (env.c),
 * and are read-only afterwards.  The ICVs of the OpenMP data environment
 * (nthreads-var, dyn-var, run-sched-var, ...) travel with each task in a
 * `struct xomp_icv`, copied from the parent at task creation, as the
 * specification scopes them.
 */
#ifndef XOMP_CONFIG_H
#define XOMP_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* omp_sched_t values, as in omp.h. */
enum xomp_sched_kind {
    XOMP_SCHED_STATIC = 1,
    XOMP_SCHED_DYNAMIC = 2,
    XOMP_SCHED_GUIDED = 3,
    XOMP_SCHED_AUTO = 4,
    XOMP_SCHED_MONOTONIC = (int)0x80000000u,
};

/* omp_proc_bind_t values, as in omp.h. */
enum xomp_proc_bind {
    XOMP_BIND_FALSE = 0,
    XOMP_BIND_TRUE = 1,
    XOMP_BIND_PRIMARY = 2,
    XOMP_BIND_CLOSE = 3,
    XOMP_BIND_SPREAD = 4,
};

enum xomp_wait_policy { XOMP_WAIT_DEFAULT, XOMP_WAIT_ACTIVE, XOMP_WAIT_PASSIVE };
/* A thread's spin budgets start here (or at spin_ns if lower) and adapt
 * towards spin_ns only as its waits show that spinning pays. */
#define XOMP_SPIN_START_NS 200000u
/* One spin of GOMP_SPINCOUNT in time: a pause takes 28 ns on the AMD EPYC
 * of the development machine, 30-40 on recent Intel cores, so libgomp's
 * default of 300,000 spins lasts some 9 ms, about xomp's default spin. */
#define XOMP_NS_PER_GOMP_SPIN 30u
/* The default XOMP_SPIN_US: libgomp's 300,000 spins, 9 ms. */
#define XOMP_SPIN_DEFAULT_NS (300000ull * XOMP_NS_PER_GOMP_SPIN)
/* XOMP_DLB_STEAL=half: a thief takes half of its victim's queued tasks
 * (sched/steal.c). */
#define XOMP_DLB_STEAL_HALF 0u
/* What a team of one does with a new deferrable task: run it at once (as
 * LLVM libomp does in a serialized team) or queue it like a larger team. */
enum xomp_solo { XOMP_SOLO_RUN, XOMP_SOLO_QUEUE };
enum xomp_barrier_kind { XOMP_BARRIER_TREE, XOMP_BARRIER_CENTRAL };
/* Load balancing (sched/steal.h): NUMA-aware work stealing by idle
 * threads, the one strategy kept (README, "Load balancing"). */
enum xomp_dlb {
    XOMP_DLB_WS,
};
/* XOMP_TASKLOOP: how GOMP_taskloop places its tasks (src/locality). */
enum xomp_taskloop_mode { XOMP_TASKLOOP_PLAIN, XOMP_TASKLOOP_ILAN };
/* XOMP_REPLAY (src/locality/replay.h): record every parallel region and
 * taskgroup, and replay each one's previous execution in this mode (the
 * value minus one is the replay mode, enum xomp_rp_mode). */
enum xomp_replay_auto {
    XOMP_REPLAY_AUTO_OFF,
    XOMP_REPLAY_AUTO_RECORD,
    XOMP_REPLAY_AUTO_STOWS,
    XOMP_REPLAY_AUTO_STUWS,
    XOMP_REPLAY_AUTO_RELWS,
};
/* XOMP_PROFILE (src/prof/README.md). */
enum xomp_profile_mode { XOMP_PROFILE_OFF, XOMP_PROFILE_COUNTERS, XOMP_PROFILE_EVENTS };

/* The per-task data-environment ICVs.  Small on purpose: it is copied into
 * every task. */
struct xomp_icv {
    uint32_t nthreads;          /* nthreads-var for the next parallel region */
    uint32_t thread_limit;      /* thread-limit-var */
    int32_t run_sched_kind;     /* run-sched-var (enum xomp_sched_kind, maybe | MONOTONIC) */
    int32_t run_sched_chunk;
    uint16_t max_active_levels; /* max-active-levels-var */
    uint8_t dyn;                /* dyn-var */
    uint8_t bind;               /* bind-var for the next region (enum xomp_proc_bind) */
    uint16_t nthreads_pos;      /* position in the OMP_NUM_THREADS list */
    uint16_t bind_pos;          /* position in the OMP_PROC_BIND list */
    int16_t default_device;     /* default-device-var */
    uint16_t part_first;        /* place-partition-var: first place ... */
    uint16_t part_len;          /* ... and number of places */
    uint32_t team_num;          /* host teams region: this team's number ... */
    uint32_t num_teams;         /* ... and the team count; 0 outside teams */
    uintptr_t def_allocator;    /* def-allocator-var (omp_allocator_handle_t) */
};

/* Settings read from the environment at start-up; read-only afterwards. */
struct xomp_config {
    struct xomp_icv icv; /* the initial task's ICVs */

    /* OMP_NUM_THREADS and OMP_PROC_BIND lists, one entry per nesting level
     * (any length up to XOMP_ENV_LIST_MAX, as libgomp takes them; allocated
     * once, never freed). */
    uint32_t *nthreads_list;
    unsigned nthreads_list_len;
    uint8_t *bind_list;
    unsigned bind_list_len; /* 0: OMP_PROC_BIND unset (or invalid, so ignored) */

    unsigned ncpus;               /* CPUs this process may run on */
    size_t stacksize;             /* OMP_STACKSIZE in bytes; 0 = system default */
    enum xomp_wait_policy wait_policy;
    /* The longest an idle thread spins before it yields and sleeps
     * (XOMP_SPIN_US): its budget adapts up to this (wait.c). */
    uint64_t spin_ns;
    /* The same when threads outnumber CPUs (XOMP_SPIN_US_OVERSUBSCRIBED;
     * OMP_WAIT_POLICY=active and GOMP_SPINCOUNT leave it, see wait.c). */
    uint64_t spin_ns_oversubscribed;
    unsigned max_task_priority;
    bool cancellation;
    int display_env;              /* 0 no, 1 true, 2 verbose */
    const char *places;           /* OMP_PLACES as given, or NULL (parsed by topo) */
    const char *cpu_affinity;     /* GOMP_CPU_AFFINITY as given, or NULL (topo uses it
                                     when OMP_PLACES is not set) */

    /* xomp's own knobs (XOMP_*). */
    unsigned queue_size;          /* tasks a deque holds before new ones run at once */
    enum xomp_solo solo;          /* XOMP_SOLO */
    enum xomp_barrier_kind barrier;
    unsigned barrier_arity;       /* children per node of the tree barrier; 0: by
                                     team size (xomp_barrier_arity) */
    unsigned max_depth;           /* explicit-task frames one stack may hold */
    /* XOMP_PROFILE=events and the profiler is compiled in (env.c). */
    bool prof_events;
    /* Event hooks are on: the profiler records events or an OMPT tool is
     * attached (src/tool/README.md).  The one flag every event site tests
     * (XOMP_HOOKS_ON below); set at load time, before any other thread
     * exists.  The task fast paths test none: hooks turn plain_tasks off. */
    bool hooks;
    enum xomp_dlb dlb;            /* load-balancing strategy (sched/steal.h) */
    unsigned dlb_steal;           /* tasks a thief takes at once, or XOMP_DLB_STEAL_HALF */
    double dlb_plocal;            /* probability of a victim in the thief's NUMA node */
    uint64_t dlb_plocal_threshold; /* the same as a threshold on 32 random bits */
    bool topology_set;            /* XOMP_TOPOLOGY given */
    char topology[256];           /* XOMP_TOPOLOGY as given (parsed by topo/numa.c) */
    bool stats;                   /* XOMP_STATS: print counters at exit */
    /* Task homes (sched/home.h): refused tasks that do not move for this
     * long, at least, lapse (XOMP_HOME_LAPSE_MS; 0: a spin and yield
     * period, or a few of the home's longest tasks). */
    uint64_t home_lapse_ns;
    /* Taskloops (src/locality/README.md). */
    enum xomp_taskloop_mode taskloop; /* XOMP_TASKLOOP */
    bool ilan_mold;               /* XOMP_ILAN_MOLD: search the node count */
    double ilan_strict;           /* XOMP_ILAN_STRICT: node-strict share of a node's tasks */
    /* Steal-tree record and replay (src/locality/replay.h). */
    enum xomp_replay_auto replay;   /* XOMP_REPLAY */
    unsigned replay_prune;          /* XOMP_REPLAY_PRUNE: percent of steal points pruned */
    unsigned replay_prune_runs;     /* XOMP_REPLAY_PRUNE_RUNS: executions that prune */
    /* ILAN turned binding on (the user set none: OMP_PROC_BIND, OMP_PLACES
     * and GOMP_CPU_AFFINITY unset, and the topology is the machine's). */
    bool ilan_bound;
    enum xomp_profile_mode profile; /* XOMP_PROFILE */
    unsigned profile_events;      /* XOMP_PROFILE_EVENTS: event buffer size per thread */
    char *profile_dir;            /* XOMP_PROFILE_DIR; NULL: ./xomp-profile-PID */

    /* Derived: cancellation is off and the tree barrier counts tasks, so a
     * task needs no check before it runs and is counted in its worker's
     * private counters (the task fast paths rely on it); and no event hook
     * is on (the fast paths have no event sites). */
    bool plain_tasks;
};

extern struct xomp_config xomp_cfg;

/* The spin of a first wait: XOMP_SPIN_START_NS, or spin_ns if lower.  An
 * endless spin_ns (OMP_WAIT_POLICY=active) gives the start here: for
 * periods that must end (sched/watch.c's lapse). */
static inline uint64_t xomp_spin_start_ns(void)
{
    return xomp_cfg.spin_ns < XOMP_SPIN_START_NS ? xomp_cfg.spin_ns : XOMP_SPIN_START_NS;
}

/* Where a thread's spin budgets start: xomp_spin_start_ns(), except that
 * an endless spin stays endless (active asks for the CPU from the first
 * wait). */
static inline uint64_t xomp_spin_budget_start_ns(void)
{
    return xomp_cfg.spin_ns == UINT64_MAX ? UINT64_MAX : xomp_spin_start_ns();
}

/* The test of every event site (profiler events, OMPT callbacks): one
 * well-predicted branch on a flag that is false unless a tool is attached
 * or events are recorded. */
#define XOMP_HOOKS_ON() __builtin_expect(xomp_cfg.hooks, 0)
/* Run the statements of an event site when hooks are on. */
#define XOMP_HOOK(...)                                                                   \
    do {                                                                                 \
        if (XOMP_HOOKS_ON()) {                                                           \
            __VA_ARGS__;                                                                 \
        }                                                                                \
    } while (0)

/* OpenMP's largest number of nested active levels we support. */
#define XOMP_SUPPORTED_ACTIVE_LEVELS 255
/* Entries of an OMP_NUM_THREADS or OMP_PROC_BIND list that count (the
 * positions in struct xomp_icv are 16 bits; an environment string holds
 * at most 64k entries anyway). */
#define XOMP_ENV_LIST_MAX 65535u

/* Parse the environment into xomp_cfg.  Called once from the library
 * constructor; reports every invalid value on stderr. */
void xomp_config_init(void);

/* For modules that read their own variables: the same parsing and the same
 * one-line message for a bad value.  xomp_env_uint returns true when the
 * variable is set and valid; `fallback` describes what is used otherwise. */
void xomp_env_invalid(const char *name, const char *value, const char *fallback);
void xomp_env_bool(const char *name, bool *var);
bool xomp_env_uint(const char *name, unsigned long min, unsigned long max, unsigned long *var,
                   const char *fallback);

/* One line for each XOMP_* variable in the environment that is none of
 * xomp's settings, naming the nearest one (env_names.c). */
void xomp_env_check_names(void);

/* The index in words[0..nwords) of `value` when it is exactly one of them
 * (any case, surrounding blanks allowed), else -1. */
int xomp_env_word(const char *value, const char *const *words, int nwords);

/* "ws". */
const char *xomp_dlb_name(enum xomp_dlb dlb);
/* "plain" or "ilan". */
const char *xomp_taskloop_mode_name(enum xomp_taskloop_mode mode);
/* "off", "record", "stows", "stuws" or "relws". */
const char *xomp_replay_auto_name(enum xomp_replay_auto mode);
/* "off", "counters" or "events". */
const char *xomp_profile_mode_name(enum xomp_profile_mode mode);

/* Print the OMP_DISPLAY_ENV block (also omp_display_env()). */
void xomp_display_env(bool verbose);

/* The nthreads-var / bind-var an implicit task at the next nesting level
 * inherits from `parent` (the lists of OMP_NUM_THREADS / OMP_PROC_BIND),
 * for a region with `proc_bind_clause` (0: none, else enum xomp_proc_bind). */
void xomp_icv_next_level(const struct xomp_icv *parent, struct xomp_icv *child,
                         unsigned proc_bind_clause);

#endif
