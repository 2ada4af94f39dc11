/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * uts: Unbalanced Tree Search (Olivier, Huan, Liu, Prins, Dinan, Sadayappan,
 * Tseng, LCPC 2006).  Counts the nodes of an implicitly defined random tree.
 * Every node carries a 20-byte SHA-1 digest as its random state:
 *
 *   root state    = SHA-1(16 zero bytes || r as 4 big-endian bytes)
 *   child i state = SHA-1(parent state || i as 4 big-endian bytes)
 *   node's draw   = last 4 digest bytes, big-endian, & 0x7fffffff
 *   probability   = draw / 2^31
 *
 * Tree kinds (the UTS "-t" types 0 and 1):
 *   bin  binomial: the root has floor(b) children; every other node has m
 *        children with probability q (draw < q), otherwise none.
 *   geo  geometric: a node at depth h has floor(log(1-u)/log(1-p)) children,
 *        p = 1/(1+b_h), where b_h follows the shape a:
 *          linear  b_h = b (1 - h/d)
 *          expdec  b_h = b h^(-ln b / ln d)        (b_0 = b)
 *          cyclic  b_h = b^sin(2 pi h / d), 0 beyond depth 5d
 *          fixed   b_h = b for h < d, else 0
 *        capped at 100 children.
 * With these definitions the standard UTS sample trees have their published
 * sizes (T1 4,130,071 nodes, T3 4,112,897, T3L 111,345,631, ...), which
 * verify() checks; for other parameters it recounts the tree with an
 * independent iterative traversal.
 *
 * Task structure (BOTS uts): one untied task for the root, then one untied
 * task per child node; a node's task draws its own child count, spawns its
 * children, waits for them with taskwait and sums their subtree sizes.  The
 * number of tasks is therefore exactly the number of nodes.
 *
 * Stacks: a thread going down a path of the tree nests one waiting task per
 * level (about 1 KB of stack under libgomp and libomp); T3L is 17,844 levels
 * deep and overflows the default 8 MB stacks, so main() re-executes the
 * program once with RLIMIT_STACK and OMP_STACKSIZE raised to 256 MB (it
 * leaves a user's OMP_STACKSIZE alone; see ensure_deep_stacks()).
 *
 * SHA-1 is OpenSSL's.  The one-shot SHA1() of OpenSSL 3 looks the algorithm
 * up on every call under a global lock (300 ns a call here, not scaling with
 * threads), which would turn this into a lock benchmark; so the kernel uses
 * OpenSSL's SHA1_Init/Update/Final (50 ns, lock-free) where OpenSSL still
 * provides them and falls back to SHA1() where it was built without them.
 *
 * Parameter: comma-separated key=value list:
 *   t=bin,b=B0,q=Q,m=M,r=SEED     or     t=geo,a=SHAPE,b=B0,d=DEPTH,r=SEED
 *
 * Classes:
 *   test    geometric fixed b=4 d=6 r=19 (some 10k nodes, checked against an
 *           independent recount)
 *   small   T1  geometric fixed b=4 d=10 r=19: 4,130,071 nodes (T3, binomial
 *           b=2000 q=0.124875 m=8 r=42, 4,112,897 nodes, runs in a quarter
 *           of the time: pass it with --param)
 *   medium  BOTS "tiny": binomial b=2000 q=0.333332 m=3 r=8 (BOTS
 *           inputs/uts/tiny.input), the thesis' "UTS: tiny" of its chapter
 *           6.2 (30.4M tasks in its Table 6.2).  This tree has 30,399,117
 *           nodes here, by the parallel count and the independent recount;
 *           the BOTS input file states 30,399,116 (next to placeholders for
 *           the depth and leaves), so it is verified by the recount, not
 *           against that number.
 *   large   T3L binomial b=2000 q=0.200014 m=5 r=7: 111,345,631 nodes
 *           (17,844 levels deep), BOTS "small" (inputs/uts/small.input),
 *           the thesis' "UTS: small" of its chapter 6
 */
#define _GNU_SOURCE
#define OPENSSL_SUPPRESS_DEPRECATED
#include "../common/bench.h"

#include <math.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#define UTS_MAX_CHILDREN 100

enum uts_type { UTS_BIN, UTS_GEO };
enum uts_shape { SHAPE_LINEAR, SHAPE_EXPDEC, SHAPE_CYCLIC, SHAPE_FIXED };

struct uts_node {
    unsigned char state[SHA_DIGEST_LENGTH];
    int height;
};

static enum uts_type uts_type;
static enum uts_shape uts_shape;
static double uts_b0;   /* root branching factor (b) */
static int uts_depth;   /* geometric: gen_mx (d) */
static double uts_q;    /* binomial: probability of a non-leaf (q) */
static int uts_m;       /* binomial: children of a non-leaf (m) */
static int uts_seed;    /* root seed (r) */
static uint64_t uts_result;

static void sha1(const unsigned char *msg, size_t len, unsigned char out[SHA_DIGEST_LENGTH])
{
#ifndef OPENSSL_NO_DEPRECATED_3_0
    SHA_CTX ctx;
    SHA1_Init(&ctx);
    SHA1_Update(&ctx, msg, len);
    SHA1_Final(out, &ctx);
#else
    SHA1(msg, len, out);
#endif
}

/* BYTES followed by N as 4 big-endian bytes, hashed. */
static void hash_with_index(const unsigned char *bytes, size_t len, uint32_t n,
                            unsigned char out[SHA_DIGEST_LENGTH])
{
    unsigned char msg[SHA_DIGEST_LENGTH + 4];
    memcpy(msg, bytes, len);
    msg[len + 0] = (unsigned char)(n >> 24);
    msg[len + 1] = (unsigned char)(n >> 16);
    msg[len + 2] = (unsigned char)(n >> 8);
    msg[len + 3] = (unsigned char)n;
    sha1(msg, len + 4, out);
}

static void uts_root(struct uts_node *root)
{
    static const unsigned char zero[16];
    hash_with_index(zero, sizeof zero, (uint32_t)uts_seed, root->state);
    root->height = 0;
}

static void uts_child(const struct uts_node *parent, int i, struct uts_node *child)
{
    hash_with_index(parent->state, SHA_DIGEST_LENGTH, (uint32_t)i, child->state);
    child->height = parent->height + 1;
}

static double uts_prob(const struct uts_node *n)
{
    uint32_t v = ((uint32_t)n->state[16] << 24) | ((uint32_t)n->state[17] << 16) |
                 ((uint32_t)n->state[18] << 8) | (uint32_t)n->state[19];
    v &= 0x7fffffffu;
    return (double)v / 2147483648.0;
}

static int uts_num_children(const struct uts_node *n)
{
    if (uts_type == UTS_BIN) {
        if (n->height == 0) {
            int c = (int)floor(uts_b0);
            int cap = (int)ceil(uts_b0);
            return c > cap ? cap : c;
        }
        return uts_prob(n) < uts_q ? uts_m : 0;
    }

    double bh = uts_b0;
    int h = n->height;
    if (h > 0) {
        double d = (double)uts_depth;
        switch (uts_shape) {
        case SHAPE_EXPDEC:
            bh = uts_b0 * pow((double)h, -log(uts_b0) / log(d));
            break;
        case SHAPE_CYCLIC:
            if (h > 5 * uts_depth)
                bh = 0.0;
            else
                bh = pow(uts_b0, sin(2.0 * 3.141592653589793 * (double)h / d));
            break;
        case SHAPE_FIXED:
            bh = h < uts_depth ? uts_b0 : 0.0;
            break;
        case SHAPE_LINEAR:
        default:
            bh = uts_b0 * (1.0 - (double)h / d);
            break;
        }
    }
    double p = 1.0 / (1.0 + bh);
    double u = uts_prob(n);
    int c = (int)floor(log(1.0 - u) / log(1.0 - p));
    if (c > UTS_MAX_CHILDREN)
        c = UTS_MAX_CHILDREN;
    return c < 0 ? 0 : c;
}

/* ---- parallel: one task per node ---- */

static uint64_t uts_par(const struct uts_node *node)
{
    int nc = uts_num_children(node);
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
#pragma omp task untied firstprivate(child, i, partial)
        partial[i] = uts_par(&child);
    }
#pragma omp taskwait
    uint64_t sum = 1;
    for (int i = 0; i < nc; i++)
        sum += partial[i];
    if (partial != partial_buf)
        free(partial);
    return sum;
}

static void run_parallel(void)
{
    struct uts_node root;
    uts_root(&root);
    uint64_t total = 0;
#pragma omp parallel shared(total) firstprivate(root)
#pragma omp single
    {
#pragma omp task untied shared(total) firstprivate(root)
        total = uts_par(&root);
#pragma omp taskwait
    }
    uts_result = total;
}

/* ---- serial: the same recursion without tasks ---- */

static uint64_t uts_ser(const struct uts_node *node)
{
    int nc = uts_num_children(node);
    uint64_t sum = 1;
    for (int i = 0; i < nc; i++) {
        struct uts_node child;
        uts_child(node, i, &child);
        sum += uts_ser(&child);
    }
    return sum;
}

static void run_serial(void)
{
    struct uts_node root;
    uts_root(&root);
    uts_result = uts_ser(&root);
}

/* ---- verification ---- */

/* Independent recount: iterative depth-first traversal with an explicit
 * stack of pending (parent, next child) frames. */
static uint64_t uts_recount(void)
{
    struct frame {
        struct uts_node node;
        int next, count;
    };
    size_t cap = 1024, top = 0;
    struct frame *st = malloc(cap * sizeof *st);
    if (!st)
        return 0;
    uts_root(&st[0].node);
    st[0].next = 0;
    st[0].count = uts_num_children(&st[0].node);
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
        c->count = uts_num_children(&c->node);
        nodes++;
        top++;
    }
    free(st);
    return nodes;
}

struct uts_published {
    const char *name;
    enum uts_type type;
    enum uts_shape shape;
    double b0;
    int depth;
    double q;
    int m;
    int seed;
    uint64_t nodes;
};

/* Tree sizes published with the UTS benchmark (sample_trees.sh / README). */
static const struct uts_published published[] = {
    {"T1", UTS_GEO, SHAPE_FIXED, 4, 10, 0, 0, 19, 4130071ULL},
    {"T5", UTS_GEO, SHAPE_LINEAR, 4, 20, 0, 0, 34, 4147582ULL},
    {"T2", UTS_GEO, SHAPE_CYCLIC, 6, 16, 0, 0, 502, 4117769ULL},
    {"T3", UTS_BIN, 0, 2000, 0, 0.124875, 8, 42, 4112897ULL},
    {"T1L", UTS_GEO, SHAPE_FIXED, 4, 13, 0, 0, 29, 102181082ULL},
    {"T3L", UTS_BIN, 0, 2000, 0, 0.200014, 5, 7, 111345631ULL},
    {"T2L", UTS_GEO, SHAPE_CYCLIC, 7, 23, 0, 0, 220, 96793510ULL},
    {"T1XL", UTS_GEO, SHAPE_FIXED, 4, 15, 0, 0, 29, 1635119272ULL},
};

static const struct uts_published *find_published(void)
{
    for (size_t i = 0; i < sizeof published / sizeof published[0]; i++) {
        const struct uts_published *p = &published[i];
        if (p->type != uts_type || p->b0 != uts_b0 || p->seed != uts_seed)
            continue;
        if (p->type == UTS_BIN && p->q == uts_q && p->m == uts_m)
            return p;
        if (p->type == UTS_GEO && p->shape == uts_shape && p->depth == uts_depth)
            return p;
    }
    return NULL;
}

static enum bench_verdict verify(void)
{
    const struct uts_published *p = find_published();
    uint64_t expect;
    const char *what;
    if (p) {
        expect = p->nodes;
        what = p->name;
    } else {
        expect = uts_recount();
        what = "recount";
        if (expect == 0) {
            fprintf(stderr, "uts: out of memory in recount\n");
            return BENCH_VERIFY_FAIL;
        }
    }
    if (uts_result != expect) {
        fprintf(stderr, "uts: %llu nodes, expected %llu (%s)\n", (unsigned long long)uts_result,
                (unsigned long long)expect, what);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

/* One task for the root plus one per child node. */
static uint64_t task_count(void)
{
    return uts_result;
}

/* ---- parameters ---- */

static int setup(const char *param)
{
    char buf[256];
    if (strlen(param) >= sizeof buf)
        return -1;
    strcpy(buf, param);

    int have_t = 0, have_a = 0, have_b = 0, have_d = 0, have_q = 0, have_m = 0, have_r = 0;
    uts_shape = SHAPE_LINEAR;
    char *save = NULL;
    for (char *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(tok, '=');
        if (!eq || eq == tok || eq[1] == '\0')
            return -1;
        *eq = '\0';
        const char *key = tok, *val = eq + 1;
        char *end = NULL;
        if (!strcmp(key, "t")) {
            if (!strcmp(val, "bin"))
                uts_type = UTS_BIN;
            else if (!strcmp(val, "geo"))
                uts_type = UTS_GEO;
            else
                return -1;
            have_t = 1;
        } else if (!strcmp(key, "a")) {
            if (!strcmp(val, "linear"))
                uts_shape = SHAPE_LINEAR;
            else if (!strcmp(val, "expdec"))
                uts_shape = SHAPE_EXPDEC;
            else if (!strcmp(val, "cyclic"))
                uts_shape = SHAPE_CYCLIC;
            else if (!strcmp(val, "fixed"))
                uts_shape = SHAPE_FIXED;
            else
                return -1;
            have_a = 1;
        } else if (!strcmp(key, "b")) {
            uts_b0 = strtod(val, &end);
            have_b = 1;
        } else if (!strcmp(key, "q")) {
            uts_q = strtod(val, &end);
            have_q = 1;
        } else if (!strcmp(key, "d") || !strcmp(key, "m") || !strcmp(key, "r")) {
            long v = strtol(val, &end, 10);
            if (v < 0 || v > 0x7fffffffL)
                return -1;
            if (key[0] == 'd') {
                uts_depth = (int)v;
                have_d = 1;
            } else if (key[0] == 'm') {
                uts_m = (int)v;
                have_m = 1;
            } else {
                uts_seed = (int)v;
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
    if (uts_type == UTS_BIN) {
        if (!have_q || !have_m || have_a || have_d)
            return -1;
        /* The root's children are held in a stack array: keep b sane. */
        if (!(uts_b0 >= 1 && uts_b0 <= 100000) || !(uts_q >= 0 && uts_q <= 1))
            return -1;
        if (uts_m < 1 || uts_m > UTS_MAX_CHILDREN)
            return -1;
        /* q*m > 1 makes infinite trees possible (T3L has q*m = 1.00007 and
         * is finite for its seed); beyond that it is surely nonsense. */
        if (uts_q * uts_m > 1.01)
            return -1;
    } else {
        if (!have_d || have_q || have_m)
            return -1;
        if (!(uts_b0 > 0 && uts_b0 <= UTS_MAX_CHILDREN) || uts_depth < 1 || uts_depth > 10000)
            return -1;
        if (uts_shape == SHAPE_EXPDEC && uts_depth < 2)
            return -1;
    }
    return 0;
}

static const struct bench_class classes[] = {
    {"test", "t=geo,a=fixed,b=4,d=6,r=19"},
    {"small", "t=geo,a=fixed,b=4,d=10,r=19"},
    {"medium", "t=bin,b=2000,q=0.333332,m=3,r=8"},
    {"large", "t=bin,b=2000,q=0.200014,m=5,r=7"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "uts",
    .classes = classes,
    .setup = setup,
    .run_parallel = run_parallel,
    .run_serial = run_serial,
    .verify = verify,
    .task_count = task_count,
};

/* With one task per node and a taskwait in every task, a thread going down
 * a path of the tree nests one task (about 1 KB of stack under libgomp and
 * libomp) per level: T3L's 17,844 levels overflow the default 8 MB stacks.
 * So, unless the user chose otherwise, re-execute once with a 256 MB stack
 * for the initial thread (RLIMIT_STACK) and the workers (OMP_STACKSIZE);
 * both must be set before the OpenMP runtime starts, hence the exec. */
#define UTS_STACK_BYTES (256UL << 20)

static void ensure_deep_stacks(char **argv)
{
    if (getenv("BENCH_UTS_REEXEC"))
        return;
    if (setenv("BENCH_UTS_REEXEC", "1", 1) != 0)
        return;
    int changed = 0;
    struct rlimit rl;
    if (getrlimit(RLIMIT_STACK, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur < UTS_STACK_BYTES) {
        rlim_t want = UTS_STACK_BYTES;
        if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < want)
            want = rl.rlim_max;
        if (want > rl.rlim_cur) {
            rl.rlim_cur = want;
            if (setrlimit(RLIMIT_STACK, &rl) == 0)
                changed = 1;
        }
    }
    if (!getenv("OMP_STACKSIZE") && setenv("OMP_STACKSIZE", "256M", 1) == 0)
        changed = 1;
    if (changed)
        execv("/proc/self/exe", argv);
    /* exec failed or nothing to change: run with what we have. */
}

int main(int argc, char **argv)
{
    ensure_deep_stacks(argv);
    return bench_main(argc, argv, &kernel);
}
