/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * A replayed steal tree hands a task to a thread that then blocks in a
 * lock held by the thread that waits for that task (a taskwait, a
 * taskgroup's end): the task must run elsewhere, in every replay mode.
 * On xomp a strict replay's task is homed on its thread alone, and only
 * the watcher's lapse (XOMP_HOME_LAPSE_MS) lets another thread take it:
 * with the lapse off this program hangs.  On another runtime the replay
 * API is not there and the program is an ordinary OpenMP program with the
 * same waits.
 *
 * Phases (XOMP_TEST_PROGRESS_PHASES selects): "tg" replays a taskgroup's
 * tree (its first child goes to member 1), "par" a parallel region's (the
 * master's first child goes to member 1), "own" the same tree while member
 * 1 creates the task itself (a `single` on the member the tree names: the
 * task stays in its deque, homed on it under RelWS) and then spins until
 * the task ran, so that member 0, in the region's barrier, must take it;
 * each in StOWS, StUWS and RelWS.
 */
#include "progress.h"

#include "../../include/xomp.h"

static int (*apply_next)(const xomp_steal_tree *, enum xomp_replay_mode);
static xomp_steal_tree *(*load)(const char *);
static void (*tree_free)(xomp_steal_tree *);

static xomp_steal_tree *tree_of(const char *text)
{
    if (!load)
        return NULL;
    char path[64];
    snprintf(path, sizeof path, "/tmp/xomp-replay-blocked-%d.tree", (int)getpid());
    FILE *f = fopen(path, "w");
    if (!f)
        return NULL;
    fputs(text, f);
    fclose(f);
    xomp_steal_tree *t = load(path);
    unlink(path);
    if (!t) {
        fprintf(stderr, "FAIL: cannot load the tree\n");
        exit(1);
    }
    return t;
}

static omp_lock_t lock;
static int blocking; /* member 1 is about to take the lock */
static int ran;

static void member1_blocks(void)
{
    __atomic_store_n(&blocking, 1, __ATOMIC_RELEASE);
    omp_set_lock(&lock); /* held by the master until its task ran */
    omp_unset_lock(&lock);
}

/* The master: take the lock, wait until member 1 blocks on it, then wait
 * for a task the tree gives member 1. */
static void master_waits(int taskgroup, const xomp_steal_tree *t, int mode)
{
    omp_set_lock(&lock);
    while (!__atomic_load_n(&blocking, __ATOMIC_ACQUIRE))
        progress_relax();
    progress_sleep_us(2000); /* member 1 is in omp_set_lock by now, mostly */
    if (taskgroup) {
        if (t)
            apply_next(t, (enum xomp_replay_mode)mode);
#pragma omp taskgroup
        {
#pragma omp task
            __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
        }
    } else {
#pragma omp task
        __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
#pragma omp taskwait
    }
    omp_unset_lock(&lock);
}

/* Member 1 creates the task the tree gives it, then waits for it outside
 * any scheduling point. */
static void member1_creates_and_spins(void)
{
#pragma omp task
    __atomic_add_fetch(&ran, 1, __ATOMIC_RELAXED);
    while (!__atomic_load_n(&ran, __ATOMIC_ACQUIRE))
        progress_relax();
}

static void phase_own(int mode, xomp_steal_tree *t)
{
    for (int rep = 0; rep < progress_iters(4); rep++) {
        __atomic_store_n(&ran, 0, __ATOMIC_RELAXED);
        if (t)
            apply_next(t, (enum xomp_replay_mode)mode);
#pragma omp parallel num_threads(2)
        {
            if (omp_get_thread_num() == 1)
                member1_creates_and_spins();
        }
        if (omp_get_max_threads() >= 2 && __atomic_load_n(&ran, __ATOMIC_RELAXED) != 1) {
            fprintf(stderr, "FAIL: the task ran %d times\n", ran);
            exit(1);
        }
        progress_tick();
    }
}

static void phase(int which, int mode)
{
    static const char tg_text[] =
        "xomp-steal-tree 1\nkind taskgroup\nthreads 2\nroot 0\npoints 1\n1 0 0\n";
    static const char par_text[] =
        "xomp-steal-tree 1\nkind parallel\nthreads 2\nroot -1\npoints 1\n1 0 0/0\n";
    int taskgroup = which == 0;
    xomp_steal_tree *t = tree_of(taskgroup ? tg_text : par_text);
    if (which == 2) {
        phase_own(mode, t);
        if (t)
            tree_free(t);
        return;
    }
    for (int rep = 0; rep < progress_iters(4); rep++) {
        __atomic_store_n(&blocking, 0, __ATOMIC_RELAXED);
        __atomic_store_n(&ran, 0, __ATOMIC_RELAXED);
        if (t && !taskgroup)
            apply_next(t, (enum xomp_replay_mode)mode);
#pragma omp parallel num_threads(2)
        {
            if (omp_get_num_threads() == 2) {
                if (omp_get_thread_num() == 0)
                    master_waits(taskgroup, t, mode);
                else
                    member1_blocks();
            }
        }
        if (__atomic_load_n(&ran, __ATOMIC_RELAXED) != 1) {
            fprintf(stderr, "FAIL: the task ran %d times\n", ran);
            exit(1);
        }
        progress_tick();
    }
    if (t)
        tree_free(t);
}

int main(void)
{
    progress_start("replay_blocked");
    *(void **)&apply_next = dlsym(RTLD_DEFAULT, "xomp_replay_apply_next");
    *(void **)&load = dlsym(RTLD_DEFAULT, "xomp_steal_tree_load");
    *(void **)&tree_free = dlsym(RTLD_DEFAULT, "xomp_steal_tree_free");
    omp_init_lock(&lock);
    static const char *const names[][3] = {
        {"tg: taskgroup, StOWS", "tg: taskgroup, StUWS", "tg: taskgroup, RelWS"},
        {"par: parallel, StOWS", "par: parallel, StUWS", "par: parallel, RelWS"},
        {"own: parallel, StOWS", "own: parallel, StUWS", "own: parallel, RelWS"}};
    for (int which = 0; which < 3; which++)
        for (int mode = 1; mode <= 3; mode++)
            if (progress_phase(names[which][mode - 1]))
                phase(which, mode);
    omp_destroy_lock(&lock);
    printf("replay_blocked: ok\n");
    return 0;
}
