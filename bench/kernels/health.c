/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * health: the Olden "health" simulation of the Colombian health-care system,
 * with BOTS's task structure.  Villages form a complete tree (C children per
 * village, L levels); every village has a hospital with some personnel and
 * four patient lists: waiting (for a free doctor), assess (being examined),
 * inside (being treated) and up (to be sent to the parent village's
 * hospital).  Hospitals higher in the tree have more personnel
 * (2^(levels below)).  One time step of a village:
 *
 *   1. simulate the child villages (one task each, then taskwait);
 *   2. admit the patients the children sent up, in child order;
 *   3. inside: every patient's treatment time runs down; finished patients
 *      leave and free their doctor;
 *   4. assess: finished examinations either admit the patient for treatment
 *      (TT steps) or, with probability UP (never at the top village), free
 *      the doctor and put the patient on the up list;
 *   5. waiting: patients get a free doctor for an examination (AT steps) in
 *      arrival order, or wait one more step;
 *   6. each of the village's POP inhabitants falls ill with probability SICK
 *      and comes to the hospital (examined at once if a doctor is free).
 *
 * Every village draws from its own random stream (splitmix64 seeded from
 * SEED and its index), a village's state is touched only by its own task and,
 * after the taskwait, by its parent, and statistics are kept per village, so
 * the result is identical for any number of threads.  verify() repeats the
 * simulation serially on a fresh tree and compares every village's counters
 * (patients generated, discharged, hospital time, hospitals visited, waiting
 * steps, transfers up and in, patient-id checksum, final list lengths) and
 * checks that no patient was lost.
 *
 * Task structure (BOTS health): one task runs all time steps at the top
 * village; in every step every village spawns one untied task per child
 * village and waits for them.  Tasks: 1 + T * (villages - 1).
 *
 * Parameter: comma-separated key=value list, all keys required except
 * at (examination time, default 3) and tt (treatment time, default 10):
 *   l=LEVELS,c=CITIES,t=STEPS,pop=POP,s=SEED,sick=SICK,up=UP
 *
 * Classes (villages = (C^L - 1) / (C - 1)).  Small, medium and large have
 * the village trees and the times of BOTS's small, medium and large inputs
 * (inputs/health/*.input: levels, cities, 365 steps, examination 2 and
 * treatment 12 steps, seed 23, falling ill with probability 0.002); large
 * is the thesis' "Health: large", whose Table 6.2 counts its 126.4M tasks.
 * Small simulates two years to reach 0.5-10 s under libgomp with 2
 * threads.  A leaf hospital serves 1/14 patient a step and POP * SICK =
 * 0.064 fall ill at each village, so the leaves run at about 90% load
 * (BOTS's own population model differs; the task structure is the same).
 * The test class is overloaded so that waiting lists grow.
 *   test    L=3 C=4  T=100 POP=200 SICK=0.001  (21 villages, 2,001 tasks)
 *   small   L=4 C=18 T=730 POP=32  SICK=0.002  (6,175 villages, 4.5M tasks)
 *   medium  L=4 C=36 T=365 POP=32  SICK=0.002  (47,989 villages, 17.5M tasks)
 *   large   L=5 C=24 T=365 POP=32  SICK=0.002  (346,201 villages, 126.4M tasks)
 */
#define _GNU_SOURCE
#include "../common/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct patient {
    struct patient *next;
    uint64_t id;
    int32_t time;      /* steps spent in hospitals (examined, treated, waiting) */
    int32_t time_left; /* of the current examination or treatment */
    int32_t hosps_visited;
};

struct plist {
    struct patient *head, *tail;
    uint64_t n;
};

struct village_stats {
    uint64_t generated;   /* patients who fell ill here */
    uint64_t discharged;  /* patients whose treatment here finished */
    uint64_t total_time;  /* sum of time over discharged patients */
    uint64_t total_hosps; /* sum of hospitals visited over discharged patients */
    uint64_t id_sum;      /* sum of the ids of discharged patients */
    uint64_t wait_steps;  /* patient-steps spent on the waiting list */
    uint64_t sent_up;     /* patients transferred to the parent */
    uint64_t received;    /* patients received from children */
};

struct village {
    _Alignas(64) struct village *children; /* NULL at the leaves */
    int nchildren;
    int is_top;
    uint64_t index;
    uint64_t rng;
    uint64_t next_patient;
    int personnel;
    int free_personnel;
    struct plist waiting, assess, inside, up;
    struct village_stats st;
};

static int h_levels, h_cities, h_steps, h_pop, h_assess_time = 3, h_treat_time = 10;
static uint64_t h_seed;
static double h_p_sick, h_p_up;
static uint64_t h_villages;

static struct village *h_top; /* the tree the timed run simulates */

/* ---- lists ---- */

static void plist_append(struct plist *l, struct patient *p)
{
    p->next = NULL;
    if (l->tail)
        l->tail->next = p;
    else
        l->head = p;
    l->tail = p;
    l->n++;
}

static struct patient *plist_pop(struct plist *l)
{
    struct patient *p = l->head;
    if (p) {
        l->head = p->next;
        if (!l->head)
            l->tail = NULL;
        l->n--;
    }
    return p;
}

/* Unlink and return the node of L that follows PREV (the head when PREV is
 * NULL). */
static struct patient *plist_unlink(struct plist *l, struct patient *prev)
{
    struct patient *p = prev ? prev->next : l->head;
    if (prev)
        prev->next = p->next;
    else
        l->head = p->next;
    if (l->tail == p)
        l->tail = prev;
    l->n--;
    return p;
}

static void plist_free(struct plist *l)
{
    struct patient *p;
    while ((p = plist_pop(l)))
        free(p);
}

/* ---- the tree ---- */

static double village_rand(struct village *v)
{
    return (double)(bench_rand_next(&v->rng) >> 11) * 0x1.0p-53;
}

static void village_init(struct village *v, uint64_t index, int level, int is_top)
{
    memset(v, 0, sizeof *v);
    v->index = index;
    v->is_top = is_top;
    uint64_t s = h_seed ^ (index * 0xd1b54a32d192ed03ULL);
    v->rng = bench_rand_next(&s);
    v->personnel = 1 << (h_levels - 1 - level);
    v->free_personnel = v->personnel;
}

/* Build the subtree below V (at LEVEL) in preorder; children are allocated
 * together.  Returns -1 when out of memory. */
static int village_build(struct village *v, int level, uint64_t *next_index)
{
    if (level + 1 >= h_levels)
        return 0;
    v->children = aligned_alloc(64, (size_t)h_cities * sizeof *v->children);
    if (!v->children)
        return -1;
    v->nchildren = h_cities;
    for (int i = 0; i < h_cities; i++)
        village_init(&v->children[i], (*next_index)++, level + 1, 0);
    for (int i = 0; i < h_cities; i++)
        if (village_build(&v->children[i], level + 1, next_index) != 0)
            return -1;
    return 0;
}

static void village_free(struct village *v)
{
    for (int i = 0; i < v->nchildren; i++)
        village_free(&v->children[i]);
    free(v->children);
    v->children = NULL;
    v->nchildren = 0;
    plist_free(&v->waiting);
    plist_free(&v->assess);
    plist_free(&v->inside);
    plist_free(&v->up);
}

static struct village *tree_new(void)
{
    struct village *top = aligned_alloc(64, sizeof *top);
    if (!top)
        return NULL;
    uint64_t next = 0;
    village_init(top, next++, 0, 1);
    if (village_build(top, 0, &next) != 0) {
        village_free(top);
        free(top);
        return NULL;
    }
    return top;
}

static void tree_free(struct village *top)
{
    if (top) {
        village_free(top);
        free(top);
    }
}

/* ---- one step of one hospital ---- */

static void hosp_put(struct village *v, struct patient *p)
{
    p->hosps_visited++;
    if (v->free_personnel > 0) {
        v->free_personnel--;
        p->time_left = h_assess_time;
        p->time += h_assess_time;
        plist_append(&v->assess, p);
    } else {
        plist_append(&v->waiting, p);
    }
}

static void village_step(struct village *v)
{
    /* 2. patients sent up by the children */
    for (int i = 0; i < v->nchildren; i++) {
        struct patient *p;
        while ((p = plist_pop(&v->children[i].up))) {
            v->st.received++;
            hosp_put(v, p);
        }
    }

    /* 3. treatment */
    for (struct patient *prev = NULL, *p = v->inside.head; p;) {
        if (--p->time_left == 0) {
            struct patient *next = p->next;
            plist_unlink(&v->inside, prev);
            v->free_personnel++;
            v->st.discharged++;
            v->st.total_time += (uint64_t)p->time;
            v->st.total_hosps += (uint64_t)p->hosps_visited;
            v->st.id_sum += p->id;
            free(p);
            p = next;
        } else {
            prev = p;
            p = p->next;
        }
    }

    /* 4. examination */
    for (struct patient *prev = NULL, *p = v->assess.head; p;) {
        if (--p->time_left == 0) {
            struct patient *next = p->next;
            plist_unlink(&v->assess, prev);
            if (!v->is_top && village_rand(v) < h_p_up) {
                v->free_personnel++;
                v->st.sent_up++;
                plist_append(&v->up, p);
            } else {
                p->time_left = h_treat_time;
                p->time += h_treat_time;
                plist_append(&v->inside, p);
            }
            p = next;
        } else {
            prev = p;
            p = p->next;
        }
    }

    /* 5. waiting list */
    for (struct patient *prev = NULL, *p = v->waiting.head; p;) {
        if (v->free_personnel > 0) {
            struct patient *next = p->next;
            plist_unlink(&v->waiting, prev);
            v->free_personnel--;
            p->time_left = h_assess_time;
            p->time += h_assess_time;
            plist_append(&v->assess, p);
            p = next;
        } else {
            p->time++;
            v->st.wait_steps++;
            prev = p;
            p = p->next;
        }
    }

    /* 6. new patients */
    for (int i = 0; i < h_pop; i++) {
        if (village_rand(v) < h_p_sick) {
            struct patient *p = malloc(sizeof *p);
            if (!p) {
                fprintf(stderr, "health: out of memory\n");
                abort();
            }
            p->next = NULL;
            p->id = (v->index << 32) | v->next_patient++;
            p->time = 0;
            p->time_left = 0;
            p->hosps_visited = 0;
            v->st.generated++;
            hosp_put(v, p);
        }
    }
}

/* ---- parallel ---- */

static void sim_par(struct village *v)
{
    for (int i = 0; i < v->nchildren; i++) {
        struct village *c = &v->children[i];
#pragma omp task untied firstprivate(c)
        sim_par(c);
    }
#pragma omp taskwait
    village_step(v);
}

static void run_parallel(void)
{
    struct village *top = h_top;
#pragma omp parallel firstprivate(top)
#pragma omp single
#pragma omp task untied firstprivate(top)
    for (int t = 0; t < h_steps; t++)
        sim_par(top);
}

/* ---- serial ---- */

static void sim_ser(struct village *v)
{
    for (int i = 0; i < v->nchildren; i++)
        sim_ser(&v->children[i]);
    village_step(v);
}

static void simulate_serial(struct village *top)
{
    for (int t = 0; t < h_steps; t++)
        sim_ser(top);
}

static void run_serial(void)
{
    simulate_serial(h_top);
}

/* ---- verification ---- */

struct totals {
    struct village_stats st;
    uint64_t in_lists;
    uint64_t villages;
};

static void add_totals(const struct village *v, struct totals *t)
{
    t->st.generated += v->st.generated;
    t->st.discharged += v->st.discharged;
    t->st.total_time += v->st.total_time;
    t->st.total_hosps += v->st.total_hosps;
    t->st.id_sum += v->st.id_sum;
    t->st.wait_steps += v->st.wait_steps;
    t->st.sent_up += v->st.sent_up;
    t->st.received += v->st.received;
    t->in_lists += v->waiting.n + v->assess.n + v->inside.n + v->up.n;
    t->villages++;
    for (int i = 0; i < v->nchildren; i++)
        add_totals(&v->children[i], t);
}

/* Number of villages whose state differs between A and B. */
static uint64_t compare_villages(const struct village *a, const struct village *b)
{
    uint64_t bad = 0;
    if (memcmp(&a->st, &b->st, sizeof a->st) != 0 || a->waiting.n != b->waiting.n ||
        a->assess.n != b->assess.n || a->inside.n != b->inside.n || a->up.n != b->up.n ||
        a->free_personnel != b->free_personnel || a->rng != b->rng) {
        if (bad == 0)
            fprintf(stderr, "health: village %llu differs from the serial reference\n",
                    (unsigned long long)a->index);
        bad++;
    }
    if (a->nchildren != b->nchildren)
        return bad + 1;
    for (int i = 0; i < a->nchildren; i++)
        bad += compare_villages(&a->children[i], &b->children[i]);
    return bad;
}

static enum bench_verdict verify(void)
{
    struct totals got = {0};
    add_totals(h_top, &got);
    fprintf(stderr,
            "health: %llu villages, %llu patients, %llu discharged, hospital time %llu, "
            "waiting steps %llu, transfers %llu, still in hospitals %llu\n",
            (unsigned long long)got.villages, (unsigned long long)got.st.generated,
            (unsigned long long)got.st.discharged, (unsigned long long)got.st.total_time,
            (unsigned long long)got.st.wait_steps, (unsigned long long)got.st.sent_up,
            (unsigned long long)got.in_lists);

    int ok = 1;
    if (got.villages != h_villages) {
        fprintf(stderr, "health: %llu villages, expected %llu\n",
                (unsigned long long)got.villages, (unsigned long long)h_villages);
        ok = 0;
    }
    if (got.st.generated != got.st.discharged + got.in_lists || got.st.sent_up != got.st.received) {
        fprintf(stderr, "health: patients lost or duplicated\n");
        ok = 0;
    }

    struct village *ref = tree_new();
    if (!ref) {
        fprintf(stderr, "health: out of memory for the reference run\n");
        return BENCH_VERIFY_FAIL;
    }
    simulate_serial(ref);
    uint64_t bad = compare_villages(h_top, ref);
    if (bad) {
        fprintf(stderr, "health: %llu villages differ from the serial reference\n",
                (unsigned long long)bad);
        ok = 0;
    }
    tree_free(ref);
    return ok ? BENCH_VERIFY_OK : BENCH_VERIFY_FAIL;
}

static uint64_t task_count(void)
{
    return 1 + (uint64_t)h_steps * (h_villages - 1);
}

/* ---- parameters ---- */

static int parse_params(const char *param)
{
    char buf[256];
    if (strlen(param) >= sizeof buf)
        return -1;
    strcpy(buf, param);
    unsigned seen = 0;
    char *cursor = buf, *key, *val;
    for (int got; (got = bench_next_field(&cursor, &key, &val)) != 0;) {
        if (got < 0)
            return -1;
        char *end = NULL;
        if (!strcmp(key, "sick") || !strcmp(key, "up")) {
            double d = strtod(val, &end);
            if (*end || !(d >= 0.0 && d <= 1.0))
                return -1;
            if (key[0] == 's') {
                h_p_sick = d;
                seen |= 1u << 0;
            } else {
                h_p_up = d;
                seen |= 1u << 1;
            }
            continue;
        }
        long long n = strtoll(val, &end, 10);
        if (*end || n < 0)
            return -1;
        if (!strcmp(key, "l")) {
            if (n < 1 || n > 12)
                return -1;
            h_levels = (int)n;
            seen |= 1u << 2;
        } else if (!strcmp(key, "c")) {
            if (n < 1 || n > 64)
                return -1;
            h_cities = (int)n;
            seen |= 1u << 3;
        } else if (!strcmp(key, "t")) {
            if (n < 1 || n > 1000000)
                return -1;
            h_steps = (int)n;
            seen |= 1u << 4;
        } else if (!strcmp(key, "pop")) {
            if (n > 100000)
                return -1;
            h_pop = (int)n;
            seen |= 1u << 5;
        } else if (!strcmp(key, "s")) {
            h_seed = (uint64_t)n;
            seen |= 1u << 6;
        } else if (!strcmp(key, "at")) {
            if (n < 1 || n > 1000)
                return -1;
            h_assess_time = (int)n;
        } else if (!strcmp(key, "tt")) {
            if (n < 1 || n > 1000)
                return -1;
            h_treat_time = (int)n;
        } else {
            return -1;
        }
    }
    if (seen != 0x7f)
        return -1;
    /* Villages: (C^L - 1) / (C - 1), capped to keep the tree in memory. */
    uint64_t total = 0, width = 1;
    for (int l = 0; l < h_levels; l++) {
        total += width;
        width *= (uint64_t)h_cities;
        if (total > (1u << 22))
            return -1;
    }
    h_villages = total;
    return 0;
}

static int setup(const char *param)
{
    h_assess_time = 3;
    h_treat_time = 10;
    if (parse_params(param) != 0)
        return -1;
    h_top = tree_new();
    if (!h_top) {
        fprintf(stderr, "health: out of memory\n");
        return -1;
    }
    return 0;
}

static void teardown(void)
{
    tree_free(h_top);
    h_top = NULL;
}

static const struct bench_class classes[] = {
    {"test", "l=3,c=4,t=100,pop=200,s=1,sick=0.001,up=0.1"},
    {"small", "l=4,c=18,t=730,pop=32,s=23,sick=0.002,up=0.1,at=2,tt=12"},
    {"medium", "l=4,c=36,t=365,pop=32,s=23,sick=0.002,up=0.1,at=2,tt=12"},
    {"large", "l=5,c=24,t=365,pop=32,s=23,sick=0.002,up=0.1,at=2,tt=12"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "health",
    .classes = classes,
    .setup = setup,
    .run_parallel = run_parallel,
    .run_serial = run_serial,
    .verify = verify,
    .task_count = task_count,
    .teardown = teardown,
};

int main(int argc, char **argv)
{
    return bench_main(argc, argv, &kernel);
}
