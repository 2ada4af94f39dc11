/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The Unbalanced Tree Search trees (Olivier, Huan, Liu, Prins, Dinan,
 * Sadayappan, Tseng, LCPC 2006), shared by the single-process kernel
 * (bench/kernels/uts.c, which describes the task structure) and the hybrid
 * MPI one (bench/mpi/uts.c).  A tree is defined implicitly: every node
 * carries a 20-byte SHA-1 digest as its random state,
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
 * uts_tree_expected() knows; for other parameters it recounts the tree with
 * an independent iterative traversal.
 *
 * Parameter string: comma-separated key=value list,
 *   t=bin,b=B0,q=Q,m=M,r=SEED     or     t=geo,a=SHAPE,b=B0,d=DEPTH,r=SEED
 *
 * SHA-1 is OpenSSL's.  The one-shot SHA1() of OpenSSL 3 looks the algorithm
 * up on every call under a global lock (300 ns a call here, not scaling with
 * threads), which would turn a tree search into a lock benchmark; so this
 * uses SHA1_Init/Update/Final (50 ns, lock-free) where OpenSSL still
 * provides them and falls back to SHA1() where it was built without them.
 * The per-node functions are inline: they are the kernels' hot path.
 */
#ifndef XOMP_BENCH_UTS_TREE_H
#define XOMP_BENCH_UTS_TREE_H

#ifndef OPENSSL_SUPPRESS_DEPRECATED
#define OPENSSL_SUPPRESS_DEPRECATED
#endif
#include <math.h>
#include <openssl/sha.h>
#include <stdint.h>
#include <string.h>

#define UTS_MAX_CHILDREN 100

enum uts_type { UTS_BIN, UTS_GEO };
enum uts_shape { SHAPE_LINEAR, SHAPE_EXPDEC, SHAPE_CYCLIC, SHAPE_FIXED };

struct uts_tree {
    enum uts_type type;
    enum uts_shape shape;
    double b0;  /* root branching factor (b) */
    int depth;  /* geometric: gen_mx (d) */
    double q;   /* binomial: probability of a non-leaf (q) */
    int m;      /* binomial: children of a non-leaf (m) */
    int seed;   /* root seed (r) */
};

struct uts_node {
    unsigned char state[SHA_DIGEST_LENGTH];
    int height;
};

/* Parse a parameter string (above); 0, or -1 when it is malformed or out of
 * the ranges the kernels support. */
int uts_tree_parse(struct uts_tree *tree, const char *param);

/* The tree's size: the published one for a standard sample tree (*what
 * names it), else an independent recount (*what = "recount"); 0 when the
 * recount ran out of memory. */
uint64_t uts_tree_expected(const struct uts_tree *tree, const char **what);

/* The nodes of the subtree under `node`, counted by one untied task per
 * node (BOTS uts): a node's task creates its children's tasks, waits for
 * them with taskwait and sums their counts.  Call it from a task (inside a
 * parallel region); the tasks it creates are the nodes below `node`. */
uint64_t uts_tree_count_tasks(const struct uts_tree *tree, const struct uts_node *node);

/* The same recursion without tasks (the kernels' serial run). */
uint64_t uts_tree_count_serial(const struct uts_tree *tree, const struct uts_node *node);

static inline void uts_sha1(const unsigned char *msg, size_t len,
                            unsigned char out[SHA_DIGEST_LENGTH])
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
static inline void uts_hash_with_index(const unsigned char *bytes, size_t len, uint32_t n,
                                       unsigned char out[SHA_DIGEST_LENGTH])
{
    unsigned char msg[SHA_DIGEST_LENGTH + 4];
    memcpy(msg, bytes, len);
    msg[len + 0] = (unsigned char)(n >> 24);
    msg[len + 1] = (unsigned char)(n >> 16);
    msg[len + 2] = (unsigned char)(n >> 8);
    msg[len + 3] = (unsigned char)n;
    uts_sha1(msg, len + 4, out);
}

static inline void uts_root(const struct uts_tree *tree, struct uts_node *root)
{
    static const unsigned char zero[16];
    uts_hash_with_index(zero, sizeof zero, (uint32_t)tree->seed, root->state);
    root->height = 0;
}

static inline void uts_child(const struct uts_node *parent, int i, struct uts_node *child)
{
    uts_hash_with_index(parent->state, SHA_DIGEST_LENGTH, (uint32_t)i, child->state);
    child->height = parent->height + 1;
}

static inline double uts_prob(const struct uts_node *n)
{
    uint32_t v = ((uint32_t)n->state[16] << 24) | ((uint32_t)n->state[17] << 16) |
                 ((uint32_t)n->state[18] << 8) | (uint32_t)n->state[19];
    v &= 0x7fffffffu;
    return (double)v / 2147483648.0;
}

static inline int uts_num_children(const struct uts_tree *tree, const struct uts_node *n)
{
    if (tree->type == UTS_BIN) {
        if (n->height == 0) {
            int c = (int)floor(tree->b0);
            int cap = (int)ceil(tree->b0);
            return c > cap ? cap : c;
        }
        return uts_prob(n) < tree->q ? tree->m : 0;
    }

    double bh = tree->b0;
    int h = n->height;
    if (h > 0) {
        double d = (double)tree->depth;
        switch (tree->shape) {
        case SHAPE_EXPDEC:
            bh = tree->b0 * pow((double)h, -log(tree->b0) / log(d));
            break;
        case SHAPE_CYCLIC:
            if (h > 5 * tree->depth)
                bh = 0.0;
            else
                bh = pow(tree->b0, sin(2.0 * 3.141592653589793 * (double)h / d));
            break;
        case SHAPE_FIXED:
            bh = h < tree->depth ? tree->b0 : 0.0;
            break;
        case SHAPE_LINEAR:
        default:
            bh = tree->b0 * (1.0 - (double)h / d);
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

#endif
