/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Shared by the replay benchmarks (bench/replay, `xomp bench --group
 * replay`): kernels from the seed's Table I written as recursive OpenMP
 * task programs whose every phase -- the first-touch initializer and each
 * sweep of the kernel -- spreads the same blocks with the same spawn
 * structure (a binary recursion down to one block per leaf task, each
 * task waiting for its two children), so that a steal tree of one phase
 * names the same tasks in every other.
 *
 * Parameter strings begin with a form:
 *   plain  the tasks only (run it under XOMP_REPLAY=relws for the
 *          automatic form: the runtime records and replays every region);
 *   api    the seed's iterative scheme through xomp.h's API, when the
 *          runtime has it (else as plain): the initializer is recorded,
 *          each phase then replays its previous tree with RelWS, pruned to
 *          its top 15%, for 5 executions, then once with StUWS after a last
 *          prune, and from then on the tree of that execution with StOWS.
 *
 * REPLAY_BENCH_TRACE=1 prints, for each execution of each phase, its time
 * and (on xomp, which records in both forms then) its affinity to stderr.
 */
#ifndef XOMP_REPLAY_PHASE_H
#define XOMP_REPLAY_PHASE_H

#include "../common/bench.h"
#include "../../include/xomp.h"

#include <dlfcn.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum replay_form { FORM_PLAIN, FORM_API };

/* The replay API, looked up at run time (NULL under other runtimes). */
static struct {
    int (*record_next)(void);
    int (*apply_next)(const xomp_steal_tree *, enum xomp_replay_mode);
    xomp_steal_tree *(*last_tree)(void);
    int (*last_stats)(struct xomp_replay_stats *);
    int (*prune)(xomp_steal_tree *, int);
    void (*free)(xomp_steal_tree *);
    const char *(*error)(void);
} rb_api;

static enum replay_form rb_form;
static int rb_trace;

/* Parse "FORM,rest": the form, and a pointer to the rest (NULL: bad). */
static inline const char *rb_parse_form(const char *param)
{
    static const char *const forms[] = {"plain", "api"};
    for (int f = 0; f < 2; f++) {
        size_t len = strlen(forms[f]);
        if (!strncmp(param, forms[f], len) && param[len] == ',') {
            rb_form = (enum replay_form)f;
            *(void **)&rb_api.record_next = dlsym(RTLD_DEFAULT, "xomp_replay_record_next");
            *(void **)&rb_api.apply_next = dlsym(RTLD_DEFAULT, "xomp_replay_apply_next");
            *(void **)&rb_api.last_tree = dlsym(RTLD_DEFAULT, "xomp_replay_last_tree");
            *(void **)&rb_api.last_stats = dlsym(RTLD_DEFAULT, "xomp_replay_last_stats");
            *(void **)&rb_api.prune = dlsym(RTLD_DEFAULT, "xomp_steal_tree_prune");
            *(void **)&rb_api.free = dlsym(RTLD_DEFAULT, "xomp_steal_tree_free");
            *(void **)&rb_api.error = dlsym(RTLD_DEFAULT, "xomp_replay_error");
            if (!rb_api.record_next || !rb_api.apply_next || !rb_api.last_tree ||
                !rb_api.last_stats || !rb_api.prune || !rb_api.free || !rb_api.error)
                memset(&rb_api, 0, sizeof rb_api);
            const char *t = getenv("REPLAY_BENCH_TRACE");
            rb_trace = t && *t == '1';
            return param + len + 1;
        }
    }
    return NULL;
}

/* One phase of a kernel (the initializer, or one sweep): its tree and how
 * often it ran, for the API form. */
struct rb_phase {
    const char *name;
    xomp_steal_tree *tree; /* the tree its next execution replays */
    int runs;
};

/* Executions of the seed's scheme that replay with RelWS and prune. */
#define RB_PRUNE_RUNS 5

static inline void rb_phase_reset(struct rb_phase *ph, const char *name)
{
    if (ph->tree && rb_api.free)
        rb_api.free(ph->tree);
    ph->name = name;
    ph->tree = NULL;
    ph->runs = 0;
}

/* The leaves of a phase: block b of the kernel's blocks. */
typedef void (*rb_leaf_fn)(int b, void *ctx);

static void rb_spread(int lo, int hi, rb_leaf_fn leaf, void *ctx)
{
    if (hi - lo == 1) {
        leaf(lo, ctx);
        return;
    }
    int mid = lo + (hi - lo) / 2;
#pragma omp task firstprivate(lo, mid, leaf, ctx)
    rb_spread(lo, mid, leaf, ctx);
#pragma omp task firstprivate(mid, hi, leaf, ctx)
    rb_spread(mid, hi, leaf, ctx);
#pragma omp taskwait
}

/* Before a phase runs, in the API form: what to ask of its region. */
static inline void rb_before(struct rb_phase *ph, const struct rb_phase *seed)
{
    if (rb_form != FORM_API || !rb_api.apply_next)
        return;
    if (!ph->tree && seed && seed->tree && ph != seed) {
        /* The first execution follows the initializer's tree: the tasks
         * touch the data where it was first touched. */
        rb_api.apply_next(seed->tree, XOMP_REPLAY_RELWS);
        return;
    }
    if (!ph->tree) {
        rb_api.record_next();
        return;
    }
    if (ph->runs <= RB_PRUNE_RUNS) {
        rb_api.prune(ph->tree, 85);
        rb_api.apply_next(ph->tree, ph->runs == RB_PRUNE_RUNS ? XOMP_REPLAY_STUWS
                                                              : XOMP_REPLAY_RELWS);
    } else {
        rb_api.apply_next(ph->tree, XOMP_REPLAY_STOWS);
    }
}

/* After it: keep the tree of its execution while the scheme still
 * refines it (the strict executions keep the one they were given). */
static inline void rb_after(struct rb_phase *ph, double seconds)
{
    struct xomp_replay_stats s;
    int have = rb_trace && rb_api.last_stats && (rb_form == FORM_API || getenv("XOMP_REPLAY")) &&
               rb_api.last_stats(&s) == 0;
    if (rb_trace)
        fprintf(stderr, "replay-bench: %s %d: %.3f ms affinity %.4f applied %ld honoured %ld\n",
                ph->name, ph->runs, seconds * 1e3, have ? s.affinity : -1.0,
                have ? s.applied : 0L, have ? s.honoured : 0L);
    if (rb_form == FORM_API && rb_api.last_tree && ph->runs <= RB_PRUNE_RUNS) {
        xomp_steal_tree *t = rb_api.last_tree();
        if (t) {
            if (ph->tree)
                rb_api.free(ph->tree);
            ph->tree = t;
        }
    }
    ph->runs++;
}

/* Run one phase: leaves 0..nblocks-1 as a task tree in a parallel region.
 * `seed`: the phase whose tree this one starts from (the initializer), or
 * NULL. */
static inline void rb_run(struct rb_phase *ph, const struct rb_phase *seed, int nblocks,
                          rb_leaf_fn leaf, void *ctx)
{
    if (rb_trace && rb_api.error)
        rb_api.error(); /* the runtime keeps a thread's stats once it used the API */
    rb_before(ph, seed);
    double t0 = rb_trace ? bench_now() : 0;
#pragma omp parallel
#pragma omp single
    rb_spread(0, nblocks, leaf, ctx);
    rb_after(ph, rb_trace ? bench_now() - t0 : 0);
}

/* The end of a replay kernel's file (functions with the usual names of
 * bench.h, no warm-up): its struct bench_kernel and main(). */
#define RB_DEFINE_MAIN(NAME, CLASSES)                                                        \
    static const struct bench_kernel kernel = {                                              \
        .name = NAME, .classes = CLASSES, .setup = setup, .run_parallel = run_parallel,      \
        .run_serial = run_serial, .verify = verify, .task_count = task_count,               \
        .teardown = teardown};                                                               \
    int main(int argc, char **argv)                                                          \
    {                                                                                        \
        return bench_main(argc, argv, &kernel);                                              \
    }

#endif
