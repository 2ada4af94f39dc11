/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * alignment: all-pairs global protein sequence alignment, with the task
 * structure of BOTS "alignment_single".  N random protein sequences (20-letter
 * amino-acid alphabet, lengths LMIN..LMAX, generated from a seed) are aligned
 * pairwise; for every pair i < j the optimal global alignment score is
 * computed with Gotoh's algorithm (affine gaps: a gap of length k costs
 * OPEN + k * EXTEND) in linear space, with a fixed substitution matrix
 * defined below (residues grouped by physico-chemical class: identity scores
 * by residue, same class +1, different classes -2).
 *
 * Task structure: one thread (inside #pragma omp single) walks the pairs and
 * creates one untied task per pair; the tasks finish at the implicit barrier.
 * Tasks: N (N - 1) / 2.
 *
 * verify(): every pair score equals a serial recomputation, and a sample of
 * pairs (all of them for the test class) equals an independent textbook
 * full-matrix Gotoh implementation.
 *
 * Parameter: "N,LMIN,LMAX,SEED".
 * Classes (medium and large are the thesis' sizes, "Align: 1000" in its
 * chapter 6 -- 499,500 tasks in its Table 6.2 -- and "Align: 2000" in its
 * chapter 8; BOTS's real protein files average some 600 residues):
 *   test    N=20   lengths 40..120
 *   small   N=120  lengths 300..500   (7,140 pairs)
 *   medium  N=1000 lengths 300..600   (499,500 pairs)
 *   large   N=2000 lengths 300..600   (1,999,000 pairs)
 */
#include "../common/bench.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define AL_GAP_OPEN 10
#define AL_GAP_EXTEND 1
#define AL_NEG_INF (INT_MIN / 4)

static int al_n, al_lmin, al_lmax;
static uint64_t al_seed;
static unsigned char **al_seq; /* residue codes 0..19 */
static int *al_len;
static int *al_score;          /* al_n * al_n, upper triangle used */

/* ---- substitution matrix ---- */

/* Residue codes 0..19 stand for the amino acids ARNDCQEGHILKMFPSTWYV; the
 * classes: 0 small (AGPST), 1 acid/amide (NDQE), 2 basic (RHK), 3 aliphatic
 * (ILMV), 4 aromatic (FWY), 5 cysteine. */
static const int al_class[20] = {
    /* A R N D C Q E G H I L K M F P S T W Y V */
    0, 2, 1, 1, 5, 1, 1, 0, 2, 3, 3, 2, 3, 4, 0, 0, 0, 4, 4, 3,
};
/* Identity scores: rare residues score higher when conserved. */
static const int al_identity[20] = {
    4, 5, 6, 6, 9, 5, 5, 6, 8, 4, 4, 5, 5, 6, 7, 4, 5, 11, 7, 4,
};
static int al_sub[20][20];

static void build_matrix(void)
{
    for (int a = 0; a < 20; a++)
        for (int b = 0; b < 20; b++)
            al_sub[a][b] = a == b ? al_identity[a] : al_class[a] == al_class[b] ? 1 : -2;
}

/* ---- generator ---- */

/* Background frequencies (per mille, roughly those of real proteins). */
static const int al_freq[20] = {
    83, 55, 41, 55, 14, 39, 67, 71, 23, 59, 96, 58, 24, 39, 47, 66, 53, 11, 29, 69,
};

static int generate(void)
{
    build_matrix();
    int cumulative[20], total = 0;
    for (int a = 0; a < 20; a++) {
        total += al_freq[a];
        cumulative[a] = total;
    }
    al_seq = calloc((size_t)al_n, sizeof *al_seq);
    al_len = calloc((size_t)al_n, sizeof *al_len);
    al_score = calloc((size_t)al_n * (size_t)al_n, sizeof *al_score);
    if (!al_seq || !al_len || !al_score)
        return -1;
    uint64_t s = al_seed;
    for (int i = 0; i < al_n; i++) {
        int len = al_lmin + (int)(bench_rand_next(&s) % (uint64_t)(al_lmax - al_lmin + 1));
        al_len[i] = len;
        al_seq[i] = malloc((size_t)len);
        if (!al_seq[i])
            return -1;
        for (int k = 0; k < len; k++) {
            int r = (int)(bench_rand_next(&s) % (uint64_t)total);
            int a = 0;
            while (cumulative[a] <= r)
                a++;
            al_seq[i][k] = (unsigned char)a;
        }
        /* Mutated copies of earlier sequences make some pairs related, so
         * that not every alignment is noise. */
        if (i > 0 && bench_rand_next(&s) % 3 == 0) {
            int src = (int)(bench_rand_next(&s) % (uint64_t)i);
            int n = len < al_len[src] ? len : al_len[src];
            for (int k = 0; k < n; k++)
                if (bench_rand_next(&s) % 4 != 0)
                    al_seq[i][k] = al_seq[src][k];
        }
    }
    return 0;
}

/* ---- Gotoh, linear space ---- */

/* Optimal global alignment score of A (length M) and B (length N).  Row
 * arrays over B: H = best score, E = best ending with a gap in A (B's
 * residue against a gap); F (gap in B) runs along the row. */
static int align_score(const unsigned char *a, int m, const unsigned char *b, int n)
{
    int *h = malloc(2 * ((size_t)n + 1) * sizeof *h);
    if (!h) {
        fprintf(stderr, "alignment: out of memory\n");
        abort();
    }
    int *e = h + n + 1;
    const int open = AL_GAP_OPEN + AL_GAP_EXTEND, ext = AL_GAP_EXTEND;
    h[0] = 0;
    e[0] = AL_NEG_INF;
    for (int j = 1; j <= n; j++) {
        h[j] = -(AL_GAP_OPEN + j * AL_GAP_EXTEND);
        e[j] = AL_NEG_INF;
    }
    for (int i = 1; i <= m; i++) {
        const int *row = al_sub[a[i - 1]];
        int diag = h[0];
        int left = -(AL_GAP_OPEN + i * AL_GAP_EXTEND);
        int f = AL_NEG_INF;
        h[0] = left;
        for (int j = 1; j <= n; j++) {
            int up = h[j];
            int ej = e[j] - ext;
            if (up - open > ej)
                ej = up - open;
            e[j] = ej;
            f -= ext;
            if (left - open > f)
                f = left - open;
            int best = diag + row[b[j - 1]];
            if (ej > best)
                best = ej;
            if (f > best)
                best = f;
            diag = up;
            h[j] = best;
            left = best;
        }
    }
    int score = h[n];
    free(h);
    return score;
}

static void align_pair(int i, int j)
{
    al_score[(size_t)i * (size_t)al_n + (size_t)j] =
        align_score(al_seq[i], al_len[i], al_seq[j], al_len[j]);
}

static void run_parallel(void)
{
#pragma omp parallel
#pragma omp single
    for (int i = 0; i < al_n; i++)
        for (int j = i + 1; j < al_n; j++) {
#pragma omp task untied firstprivate(i, j)
            align_pair(i, j);
        }
}

static void run_serial(void)
{
    for (int i = 0; i < al_n; i++)
        for (int j = i + 1; j < al_n; j++)
            align_pair(i, j);
}

/* ---- verification ---- */

/* The textbook formulation with full matrices: M (residues aligned), X (gap
 * in B), Y (gap in A); a gap of length k costs OPEN + k * EXTEND. */
static int align_reference(const unsigned char *a, int m, const unsigned char *b, int n)
{
    size_t w = (size_t)n + 1;
    int *M = malloc((size_t)(m + 1) * w * sizeof *M);
    int *X = malloc((size_t)(m + 1) * w * sizeof *X);
    int *Y = malloc((size_t)(m + 1) * w * sizeof *Y);
    if (!M || !X || !Y) {
        free(M);
        free(X);
        free(Y);
        return INT_MIN;
    }
#define AT(T, i, j) T[(size_t)(i) * w + (size_t)(j)]
    for (int i = 0; i <= m; i++)
        for (int j = 0; j <= n; j++) {
            if (i == 0 && j == 0) {
                AT(M, 0, 0) = 0;
                AT(X, 0, 0) = AT(Y, 0, 0) = AL_NEG_INF;
                continue;
            }
            int mm = AL_NEG_INF, xx = AL_NEG_INF, yy = AL_NEG_INF;
            if (i > 0 && j > 0) {
                int p = AT(M, i - 1, j - 1);
                if (AT(X, i - 1, j - 1) > p)
                    p = AT(X, i - 1, j - 1);
                if (AT(Y, i - 1, j - 1) > p)
                    p = AT(Y, i - 1, j - 1);
                mm = p + al_sub[a[i - 1]][b[j - 1]];
            }
            if (i > 0) { /* a[i-1] against a gap */
                int from_m = AT(M, i - 1, j) - AL_GAP_OPEN - AL_GAP_EXTEND;
                int from_y = AT(Y, i - 1, j) - AL_GAP_OPEN - AL_GAP_EXTEND;
                int from_x = AT(X, i - 1, j) - AL_GAP_EXTEND;
                xx = from_m > from_x ? from_m : from_x;
                if (from_y > xx)
                    xx = from_y;
            }
            if (j > 0) { /* b[j-1] against a gap */
                int from_m = AT(M, i, j - 1) - AL_GAP_OPEN - AL_GAP_EXTEND;
                int from_x = AT(X, i, j - 1) - AL_GAP_OPEN - AL_GAP_EXTEND;
                int from_y = AT(Y, i, j - 1) - AL_GAP_EXTEND;
                yy = from_m > from_y ? from_m : from_y;
                if (from_x > yy)
                    yy = from_x;
            }
            AT(M, i, j) = mm < AL_NEG_INF ? AL_NEG_INF : mm;
            AT(X, i, j) = xx < AL_NEG_INF ? AL_NEG_INF : xx;
            AT(Y, i, j) = yy < AL_NEG_INF ? AL_NEG_INF : yy;
        }
    int best = AT(M, m, n);
    if (AT(X, m, n) > best)
        best = AT(X, m, n);
    if (AT(Y, m, n) > best)
        best = AT(Y, m, n);
#undef AT
    free(M);
    free(X);
    free(Y);
    return best;
}

static enum bench_verdict verify(void)
{
    uint64_t bad = 0, checked = 0;
    long long sum = 0;
    for (int i = 0; i < al_n; i++)
        for (int j = i + 1; j < al_n; j++) {
            int got = al_score[(size_t)i * (size_t)al_n + (size_t)j];
            int want = align_score(al_seq[i], al_len[i], al_seq[j], al_len[j]);
            sum += got;
            if (got != want) {
                if (bad == 0)
                    fprintf(stderr, "alignment: pair (%d,%d) score %d, serial %d\n", i, j, got,
                            want);
                bad++;
            }
        }
    /* Independent check on every pair of the first few sequences and a
     * strided sample of the rest. */
    uint64_t pairs = (uint64_t)al_n * (uint64_t)(al_n - 1) / 2;
    uint64_t stride = pairs / 200 + 1, idx = 0;
    for (int i = 0; i < al_n; i++)
        for (int j = i + 1; j < al_n; j++, idx++) {
            if (!(i < 3 || idx % stride == 0))
                continue;
            int got = al_score[(size_t)i * (size_t)al_n + (size_t)j];
            int want = align_reference(al_seq[i], al_len[i], al_seq[j], al_len[j]);
            checked++;
            if (got != want) {
                if (bad == 0)
                    fprintf(stderr, "alignment: pair (%d,%d) score %d, full-matrix Gotoh %d\n", i,
                            j, got, want);
                bad++;
            }
        }
    fprintf(stderr, "alignment: %llu pairs, score sum %lld, %llu checked against full matrices\n",
            (unsigned long long)pairs, sum, (unsigned long long)checked);
    if (bad) {
        fprintf(stderr, "alignment: %llu wrong scores\n", (unsigned long long)bad);
        return BENCH_VERIFY_FAIL;
    }
    return BENCH_VERIFY_OK;
}

static uint64_t task_count(void)
{
    return (uint64_t)al_n * (uint64_t)(al_n - 1) / 2;
}

static void teardown(void)
{
    if (al_seq)
        for (int i = 0; i < al_n; i++)
            free(al_seq[i]);
    free(al_seq);
    free(al_len);
    free(al_score);
    al_seq = NULL;
    al_len = NULL;
    al_score = NULL;
}

/* Parse "A,B,..." (decimal integers, nothing else) into V; returns the
 * number of values, or -1 when the string is malformed or has more than MAX
 * values. */
static int parse_ints(const char *s, long long *v, int max)
{
    for (int n = 0; n < max;) {
        char *end;
        errno = 0;
        long long x = strtoll(s, &end, 10);
        if (end == s || errno)
            return -1;
        v[n++] = x;
        if (*end == '\0')
            return n;
        if (*end != ',')
            return -1;
        s = end + 1;
    }
    return -1;
}

static int setup(const char *param)
{
    long long v[4];
    if (parse_ints(param, v, 4) != 4)
        return -1;
    if (v[0] < 2 || v[0] > 5000 || v[1] < 1 || v[2] < v[1] || v[2] > 100000 || v[3] < 0)
        return -1;
    al_n = (int)v[0];
    al_lmin = (int)v[1];
    al_lmax = (int)v[2];
    al_seed = (uint64_t)v[3];
    if (generate() != 0) {
        fprintf(stderr, "alignment: out of memory\n");
        teardown();
        return -1;
    }
    return 0;
}

static const struct bench_class classes[] = {
    {"test", "20,40,120,1"},
    {"small", "120,300,500,2"},
    {"medium", "1000,300,600,3"},
    {"large", "2000,300,600,4"},
    {NULL, NULL},
};

static const struct bench_kernel kernel = {
    .name = "alignment",
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
