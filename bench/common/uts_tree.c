/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* UTS trees: parameters, sizes, serial count (see uts_tree.h). */
#include "uts_tree.h"

#include "bench.h"

#include <stdio.h>
#include <stdlib.h>

uint64_t uts_tree_count_tasks(const struct uts_tree *tree, const struct uts_node *node)
{
    int nc = uts_num_children(tree, node);
    if (nc == 0)
        return 1;
    /* Subtree sizes of the children; a binomial root's thousands of them go
     * on the heap, not the task's stack. */
    uint64_t partial_buf[nc <= UTS_MAX_CHILDREN ? nc : 1];
    uint64_t *partial = partial_buf;
    if (nc > UTS_MAX_CHILDREN) {
        partial = malloc((size_t)nc * sizeof *partial);
        if (!partial) {
            fprintf(stderr, "uts: out of memory\n");
            abort();
        }
    }
    for (int i = 0; i < nc; i++) {
        struct uts_node child;
        uts_child(node, i, &child);
#pragma omp task untied firstprivate(child, i, partial, tree)
        partial[i] = uts_tree_count_tasks(tree, &child);
    }
#pragma omp taskwait
    uint64_t sum = 1;
    for (int i = 0; i < nc; i++)
        sum += partial[i];
    if (partial != partial_buf)
        free(partial);
    return sum;
}

uint64_t uts_tree_count_serial(const struct uts_tree *tree, const struct uts_node *node)
{
    int nc = uts_num_children(tree, node);
    uint64_t sum = 1;
    for (int i = 0; i < nc; i++) {
        struct uts_node child;
        uts_child(node, i, &child);
        sum += uts_tree_count_serial(tree, &child);
    }
    return sum;
}

/* Independent recount: iterative depth-first traversal with an explicit
 * stack of pending (parent, next child) frames. */
static uint64_t uts_recount(const struct uts_tree *tree)
{
    struct frame {
        struct uts_node node;
        int next, count;
    };
    size_t cap = 1024, top = 0;
    struct frame *st = malloc(cap * sizeof *st);
    if (!st)
        return 0;
    uts_root(tree, &st[0].node);
    st[0].next = 0;
    st[0].count = uts_num_children(tree, &st[0].node);
    top = 1;
    uint64_t nodes = 1;
    while (top > 0) {
        struct frame *f = &st[top - 1];
        if (f->next == f->count) {
            top--;
            continue;
        }
        if (top == cap) {
            cap *= 2;
            struct frame *bigger = realloc(st, cap * sizeof *st);
            if (!bigger) {
                free(st);
                return 0;
            }
            st = bigger;
            f = &st[top - 1];
        }
        struct frame *c = &st[top];
        uts_child(&f->node, f->next, &c->node);
        f->next++;
        c->next = 0;
        c->count = uts_num_children(tree, &c->node);
        nodes++;
        top++;
    }
    free(st);
    return nodes;
}

struct uts_published {
    const char *name;
    struct uts_tree tree;
    uint64_t nodes;
};

/* Tree sizes published with the UTS benchmark (sample_trees.sh / README). */
static const struct uts_published published[] = {
    {"T1", {UTS_GEO, SHAPE_FIXED, 4, 10, 0, 0, 19}, 4130071ULL},
    {"T5", {UTS_GEO, SHAPE_LINEAR, 4, 20, 0, 0, 34}, 4147582ULL},
    {"T2", {UTS_GEO, SHAPE_CYCLIC, 6, 16, 0, 0, 502}, 4117769ULL},
    {"T3", {UTS_BIN, 0, 2000, 0, 0.124875, 8, 42}, 4112897ULL},
    {"T1L", {UTS_GEO, SHAPE_FIXED, 4, 13, 0, 0, 29}, 102181082ULL},
    {"T3L", {UTS_BIN, 0, 2000, 0, 0.200014, 5, 7}, 111345631ULL},
    {"T2L", {UTS_GEO, SHAPE_CYCLIC, 7, 23, 0, 0, 220}, 96793510ULL},
    {"T1XL", {UTS_GEO, SHAPE_FIXED, 4, 15, 0, 0, 29}, 1635119272ULL},
};

uint64_t uts_tree_expected(const struct uts_tree *tree, const char **what)
{
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++) {
        const struct uts_tree *p = &published[i].tree;
        if (p->type != tree->type || p->b0 != tree->b0 || p->seed != tree->seed)
            continue;
        if ((p->type == UTS_BIN && p->q == tree->q && p->m == tree->m) ||
            (p->type == UTS_GEO && p->shape == tree->shape && p->depth == tree->depth)) {
            *what = published[i].name;
            return published[i].nodes;
        }
    }
    *what = "recount";
    return uts_recount(tree);
}

int uts_tree_parse(struct uts_tree *tree, const char *param)
{
    char buf[256];
    if (strlen(param) >= sizeof buf)
        return -1;
    strcpy(buf, param);

    int have_t = 0, have_a = 0, have_b = 0, have_d = 0, have_q = 0, have_m = 0, have_r = 0;
    struct uts_tree t = {.shape = SHAPE_LINEAR};
    char *cursor = buf, *key, *val;
    for (int got; (got = bench_next_field(&cursor, &key, &val)) != 0;) {
        if (got < 0)
            return -1;
        char *end = NULL;
        if (!strcmp(key, "t")) {
            if (!strcmp(val, "bin"))
                t.type = UTS_BIN;
            else if (!strcmp(val, "geo"))
                t.type = UTS_GEO;
            else
                return -1;
            have_t = 1;
        } else if (!strcmp(key, "a")) {
            if (!strcmp(val, "linear"))
                t.shape = SHAPE_LINEAR;
            else if (!strcmp(val, "expdec"))
                t.shape = SHAPE_EXPDEC;
            else if (!strcmp(val, "cyclic"))
                t.shape = SHAPE_CYCLIC;
            else if (!strcmp(val, "fixed"))
                t.shape = SHAPE_FIXED;
            else
                return -1;
            have_a = 1;
        } else if (!strcmp(key, "b")) {
            t.b0 = strtod(val, &end);
            have_b = 1;
        } else if (!strcmp(key, "q")) {
            t.q = strtod(val, &end);
            have_q = 1;
        } else if (!strcmp(key, "d") || !strcmp(key, "m") || !strcmp(key, "r")) {
            long v = strtol(val, &end, 10);
            if (v < 0 || v > 0x7fffffffL)
                return -1;
            if (key[0] == 'd') {
                t.depth = (int)v;
                have_d = 1;
            } else if (key[0] == 'm') {
                t.m = (int)v;
                have_m = 1;
            } else {
                t.seed = (int)v;
                have_r = 1;
            }
        } else {
            return -1;
        }
        if (end && *end != '\0')
            return -1;
    }
    if (!have_t || !have_b || !have_r)
        return -1;
    if (t.type == UTS_BIN) {
        if (!have_q || !have_m || have_a || have_d)
            return -1;
        /* The root's children are held in a stack array: keep b sane. */
        if (!(t.b0 >= 1 && t.b0 <= 100000) || !(t.q >= 0 && t.q <= 1))
            return -1;
        if (t.m < 1 || t.m > UTS_MAX_CHILDREN)
            return -1;
        /* q*m > 1 makes infinite trees possible (T3L has q*m = 1.00007 and
         * is finite for its seed); beyond that it is surely nonsense. */
        if (t.q * t.m > 1.01)
            return -1;
    } else {
        if (!have_d || have_q || have_m)
            return -1;
        if (!(t.b0 > 0 && t.b0 <= UTS_MAX_CHILDREN) || t.depth < 1 || t.depth > 10000)
            return -1;
        if (t.shape == SHAPE_EXPDEC && t.depth < 2)
            return -1;
    }
    *tree = t;
    return 0;
}
