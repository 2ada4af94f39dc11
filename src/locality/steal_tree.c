/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Steal trees as data (steal_tree.h). */
#include "steal_tree.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

struct xomp_steal_tree *xomp_tree_new(enum xomp_tree_kind kind, uint32_t nthreads,
                                      int32_t root_worker)
{
    struct xomp_steal_tree *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->kind = kind;
    t->nthreads = nthreads;
    t->root_worker = root_worker;
    return t;
}

void xomp_tree_free(struct xomp_steal_tree *t)
{
    if (!t)
        return;
    free(t->points);
    free(t->paths);
    free(t);
}

struct xomp_steal_tree *xomp_tree_copy(const struct xomp_steal_tree *t)
{
    struct xomp_steal_tree *c = xomp_tree_new(t->kind, t->nthreads, t->root_worker);
    if (!c)
        return NULL;
    c->points = malloc((t->npoints ? t->npoints : 1) * sizeof *c->points);
    c->paths = malloc((t->npaths ? t->npaths : 1) * sizeof *c->paths);
    if (!c->points || !c->paths) {
        xomp_tree_free(c);
        return NULL;
    }
    if (t->npoints)
        memcpy(c->points, t->points, t->npoints * sizeof *c->points);
    if (t->npaths)
        memcpy(c->paths, t->paths, t->npaths * sizeof *c->paths);
    c->npoints = t->npoints;
    c->npaths = t->npaths;
    return c;
}

bool xomp_grow_array(void **p, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t n = *cap ? *cap : 16;
    while (n < need)
        n *= 2;
    void *q = realloc(*p, n * size);
    if (!q)
        return false;
    *p = q;
    *cap = n;
    return true;
}

bool xomp_tree_add(struct xomp_tree_builder *b, uint32_t worker, uint32_t order,
                   const uint32_t *path, uint32_t depth)
{
    struct xomp_steal_tree *t = b->tree;
    if (!b->cap_points && t->npoints)
        b->cap_points = t->npoints;
    if (!b->cap_paths && t->npaths)
        b->cap_paths = t->npaths;
    if (!xomp_grow_array((void **)&t->points, &b->cap_points, t->npoints + 1, sizeof *t->points) ||
        !xomp_grow_array((void **)&t->paths, &b->cap_paths, t->npaths + depth, sizeof *t->paths))
        return false;
    memcpy(t->paths + t->npaths, path, depth * sizeof *path);
    t->points[t->npoints++] =
        (struct xomp_steal_point){worker, order, depth, (uint32_t)t->npaths};
    t->npaths += depth;
    return true;
}

int xomp_tree_point_cmp(const struct xomp_steal_tree *t, const struct xomp_steal_point *a,
                        const struct xomp_steal_point *b)
{
    if (a->depth != b->depth)
        return a->depth < b->depth ? -1 : 1;
    const uint32_t *x = xomp_tree_path(t, a), *y = xomp_tree_path(t, b);
    for (uint32_t i = 0; i < a->depth; i++)
        if (x[i] != y[i])
            return x[i] < y[i] ? -1 : 1;
    return 0;
}

static int level_order(const void *a, const void *b, void *tree)
{
    return xomp_tree_point_cmp(tree, a, b);
}

/* Points ordered by (worker, order): the order in which each worker met
 * them. */
static int by_worker_order(const void *a, const void *b, void *pts)
{
    const struct xomp_steal_point *p = pts;
    const struct xomp_steal_point *x = &p[*(const size_t *)a], *y = &p[*(const size_t *)b];
    if (x->worker != y->worker)
        return x->worker < y->worker ? -1 : 1;
    if (x->order != y->order)
        return x->order < y->order ? -1 : 1;
    return 0;
}

/* Renumber each worker's orders 0, 1, ... keeping their sequence. */
static bool densify(struct xomp_steal_tree *t)
{
    if (!t->npoints)
        return true;
    size_t *idx = malloc(t->npoints * sizeof *idx);
    if (!idx)
        return false;
    for (size_t i = 0; i < t->npoints; i++)
        idx[i] = i;
    qsort_r(idx, t->npoints, sizeof *idx, by_worker_order, t->points);
    uint32_t next = 0;
    for (size_t k = 0; k < t->npoints; k++) {
        struct xomp_steal_point *p = &t->points[idx[k]];
        if (k == 0 || t->points[idx[k - 1]].worker != p->worker)
            next = 0;
        p->order = next++;
    }
    free(idx);
    return true;
}

/* Keep the paths of the kept points only (after a prune or a dedup). */
static void compact_paths(struct xomp_steal_tree *t)
{
    uint32_t *paths = malloc((t->npaths ? t->npaths : 1) * sizeof *paths);
    if (!paths)
        return; /* keep the old array: correct, only larger */
    size_t used = 0;
    for (size_t i = 0; i < t->npoints; i++) {
        struct xomp_steal_point *p = &t->points[i];
        memcpy(paths + used, t->paths + p->path, p->depth * sizeof *paths);
        p->path = (uint32_t)used;
        used += p->depth;
    }
    free(t->paths);
    t->paths = paths;
    t->npaths = used;
}

bool xomp_tree_finish(struct xomp_steal_tree *t)
{
    qsort_r(t->points, t->npoints, sizeof *t->points, level_order, t);
    bool unique = true;
    size_t kept = 0;
    for (size_t i = 0; i < t->npoints; i++) {
        if (kept && !xomp_tree_point_cmp(t, &t->points[kept - 1], &t->points[i])) {
            unique = false;
            continue;
        }
        t->points[kept++] = t->points[i];
    }
    if (kept != t->npoints) {
        t->npoints = kept;
        compact_paths(t);
    }
    densify(t);
    return unique;
}

void xomp_tree_prune(struct xomp_steal_tree *t, unsigned percent)
{
    if (percent > 100)
        percent = 100;
    size_t keep = (t->npoints * (100 - percent) + 99) / 100;
    if (keep >= t->npoints)
        return;
    t->npoints = keep;
    compact_paths(t);
    densify(t);
}

/* ---- the text format ---- */

#define TREE_MAGIC "xomp-steal-tree 1"

static const char *const kind_names[] = {"parallel", "taskgroup"};

bool xomp_tree_write(FILE *f, const struct xomp_steal_tree *t)
{
    fprintf(f, "%s\n", TREE_MAGIC);
    fprintf(f, "# steal points: worker order path (child indices from the region's root%s)\n",
            t->kind == XOMP_TREE_PARALLEL ? "; the first is the creating member" : "");
    fprintf(f, "kind %s\nthreads %" PRIu32 "\nroot %" PRId32 "\npoints %zu\n",
            kind_names[t->kind], t->nthreads, t->root_worker, t->npoints);
    for (size_t i = 0; i < t->npoints; i++) {
        const struct xomp_steal_point *p = &t->points[i];
        const uint32_t *path = xomp_tree_path(t, p);
        fprintf(f, "%" PRIu32 " %" PRIu32 " ", p->worker, p->order);
        for (uint32_t d = 0; d < p->depth; d++)
            fprintf(f, d ? "/%" PRIu32 : "%" PRIu32, path[d]);
        fputc('\n', f);
    }
    return !ferror(f);
}

struct reader {
    FILE *f;
    unsigned line;
    char buf[16384];
    char *err;
    size_t errsize;
};

static void fail(struct reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = r->line ? snprintf(r->err, r->errsize, "line %u: ", r->line) : 0;
    if (n >= 0 && (size_t)n < r->errsize)
        vsnprintf(r->err + n, r->errsize - (size_t)n, fmt, ap);
    va_end(ap);
}

/* The next line that is not empty or a comment, without its newline;
 * NULL at the end of the file or on an error (message set). */
static char *next_line(struct reader *r)
{
    for (;;) {
        if (!fgets(r->buf, sizeof r->buf, r->f)) {
            if (ferror(r->f))
                fail(r, "read error: %s", strerror(errno));
            return NULL;
        }
        r->line++;
        size_t n = strlen(r->buf);
        if (n && r->buf[n - 1] == '\n')
            r->buf[--n] = 0;
        else if (!feof(r->f)) {
            fail(r, "line too long");
            return NULL;
        }
        if (n && r->buf[n - 1] == '\r')
            r->buf[--n] = 0;
        if (n && r->buf[0] != '#')
            return r->buf;
    }
}

/* An unsigned decimal below `limit`: the value, or -1 (message set). */
static int64_t number(struct reader *r, char **s, int64_t limit, const char *what)
{
    char *p = *s;
    if (*p < '0' || *p > '9') {
        fail(r, "%s: expected a number at \"%.20s\"", what, p);
        return -1;
    }
    int64_t v = 0;
    while (*p >= '0' && *p <= '9') {
        v = v * 10 + (*p++ - '0');
        if (v >= limit) {
            int len = (int)strspn(*s, "0123456789");
            fail(r, "%s: %.*s is too large (at most %" PRId64 ")", what, len > 24 ? 24 : len, *s,
                 limit - 1);
            return -1;
        }
    }
    *s = p;
    return v;
}

/* "KEY VALUE" with the given key: the value's text, or NULL. */
static char *keyword(struct reader *r, const char *key)
{
    char *s = next_line(r);
    if (!s) {
        if (!r->err[0])
            fail(r, "the file ends before \"%s\"", key);
        return NULL;
    }
    size_t n = strlen(key);
    if (strncmp(s, key, n) || s[n] != ' ') {
        fail(r, "expected \"%s ...\", found \"%.40s\"", key, s);
        return NULL;
    }
    return s + n + 1;
}

static bool read_point(struct reader *r, struct xomp_tree_builder *b, uint32_t *path)
{
    struct xomp_steal_tree *t = b->tree;
    char *s = next_line(r);
    if (!s) {
        if (!r->err[0])
            fail(r, "the file ends after %zu of its points", t->npoints);
        return false;
    }
    int64_t worker = number(r, &s, t->nthreads, "worker");
    if (worker < 0)
        return false;
    if (*s++ != ' ') {
        fail(r, "expected \"worker order path\"");
        return false;
    }
    int64_t order = number(r, &s, UINT32_MAX, "order");
    if (order < 0)
        return false;
    if (*s++ != ' ') {
        fail(r, "expected \"worker order path\"");
        return false;
    }
    uint32_t depth = 0;
    for (;;) {
        if (depth == XOMP_TREE_MAX_DEPTH) {
            fail(r, "path deeper than %d", XOMP_TREE_MAX_DEPTH);
            return false;
        }
        int64_t limit = depth == 0 && t->kind == XOMP_TREE_PARALLEL ? t->nthreads : INT32_MAX;
        int64_t v = number(r, &s, limit, depth == 0 && t->kind == XOMP_TREE_PARALLEL
                                             ? "creating member"
                                             : "child index");
        if (v < 0)
            return false;
        path[depth++] = (uint32_t)v;
        if (*s == 0)
            break;
        if (*s++ != '/') {
            fail(r, "path: expected '/' between child indices");
            return false;
        }
    }
    if (t->kind == XOMP_TREE_PARALLEL && depth < 2) {
        fail(r, "a parallel region's path is a member and at least one child index");
        return false;
    }
    if (!xomp_tree_add(b, (uint32_t)worker, (uint32_t)order, path, depth)) {
        fail(r, "out of memory");
        return false;
    }
    return true;
}

/* Each worker's orders must be 0 .. k-1 once each. */
static bool check_orders(struct reader *r, const struct xomp_steal_tree *t)
{
    bool ok = true;
    size_t *idx = malloc((t->npoints ? t->npoints : 1) * sizeof *idx);
    if (!idx) {
        fail(r, "out of memory");
        return false;
    }
    for (size_t i = 0; i < t->npoints; i++)
        idx[i] = i;
    qsort_r(idx, t->npoints, sizeof *idx, by_worker_order, t->points);
    uint32_t next = 0;
    for (size_t k = 0; k < t->npoints && ok; k++) {
        const struct xomp_steal_point *p = &t->points[idx[k]];
        if (k == 0 || t->points[idx[k - 1]].worker != p->worker)
            next = 0;
        if (p->order != next) {
            fail(r, "worker %" PRIu32 "'s orders are not 0, 1, ... once each (%s %" PRIu32 ")",
                 p->worker, p->order < next ? "twice:" : "missing:",
                 p->order < next ? p->order : next);
            ok = false;
        }
        next++;
    }
    free(idx);
    return ok;
}

struct xomp_steal_tree *xomp_tree_read(FILE *f, char *err, size_t errsize)
{
    struct reader r = {.f = f, .line = 0, .err = err, .errsize = errsize};
    err[0] = 0;
    char *s = next_line(&r);
    if (!s || strcmp(s, TREE_MAGIC)) {
        if (!err[0])
            fail(&r, "not a steal tree (the first line must be \"%s\")", TREE_MAGIC);
        return NULL;
    }
    if (!(s = keyword(&r, "kind")))
        return NULL;
    enum xomp_tree_kind kind;
    if (!strcmp(s, "parallel"))
        kind = XOMP_TREE_PARALLEL;
    else if (!strcmp(s, "taskgroup"))
        kind = XOMP_TREE_TASKGROUP;
    else {
        fail(&r, "kind: \"%.40s\" is neither parallel nor taskgroup", s);
        return NULL;
    }
    if (!(s = keyword(&r, "threads")))
        return NULL;
    int64_t nthreads = number(&r, &s, XOMP_TREE_MAX_WORKERS + 1, "threads");
    if (nthreads < 0)
        return NULL;
    if (*s || nthreads < 1) {
        fail(&r, "threads: expected a number from 1 to %d", XOMP_TREE_MAX_WORKERS);
        return NULL;
    }
    if (!(s = keyword(&r, "root")))
        return NULL;
    int64_t root = -1;
    if (strcmp(s, "-1")) {
        root = number(&r, &s, nthreads, "root");
        if (root < 0)
            return NULL;
        if (*s) {
            fail(&r, "root: expected a member number or -1");
            return NULL;
        }
    }
    if (!(s = keyword(&r, "points")))
        return NULL;
    int64_t npoints = number(&r, &s, INT32_MAX, "points");
    if (npoints < 0)
        return NULL;
    if (*s) {
        fail(&r, "points: expected a number");
        return NULL;
    }
    struct xomp_steal_tree *t = xomp_tree_new(kind, (uint32_t)nthreads, (int32_t)root);
    uint32_t *path = malloc(XOMP_TREE_MAX_DEPTH * sizeof *path);
    if (!t || !path) {
        fail(&r, "out of memory");
        free(path);
        xomp_tree_free(t);
        return NULL;
    }
    struct xomp_tree_builder b = {t, 0, 0};
    bool ok = true;
    for (int64_t i = 0; i < npoints && ok; i++)
        ok = read_point(&r, &b, path);
    free(path);
    if (ok && next_line(&r)) {
        fail(&r, "more lines than the %" PRId64 " points announced", npoints);
        ok = false;
    }
    if (ok && r.err[0])
        ok = false; /* a read error at the end */
    if (ok && !check_orders(&r, t))
        ok = false;
    if (ok && !xomp_tree_finish(t)) {
        r.line = 0;
        fail(&r, "two steal points have the same path");
        ok = false;
    }
    if (!ok) {
        xomp_tree_free(t);
        return NULL;
    }
    return t;
}
