/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* XOMP_TEST_GCC_ONLY: GCC's host fallback of target regions (clang inlines them), and OpenMP 5.1 clauses clang 14 lacks. */
/*
 * Target constructs with no offload device (host fallback): map clauses
 * are no-ops on shared memory, firstprivate data is private, the region
 * runs as a new initial thread (no enclosing team, even inside a parallel
 * region), thread_limit applies inside, target teams loops over its
 * teams, nowait and depend; and the device memory routines on the host
 * device (0) and on devices that do not exist.
 */
#include "xomp_test.h"

#include <errno.h>
#include <limits.h>

#define N 1000

static int inside_bad;

__attribute__((noinline)) static void check_initial_thread(int thread_limit)
{
    if (omp_get_level() != 0 || omp_in_parallel() || omp_get_num_threads() != 1 ||
        omp_get_thread_num() != 0 || !omp_is_initial_device() || omp_get_num_teams() != 1 ||
        (thread_limit && omp_get_thread_limit() != thread_limit))
        __atomic_add_fetch(&inside_bad, 1, __ATOMIC_RELAXED);
}

static void regions(void)
{
    int x = 1;
#pragma omp target map(tofrom : x)
    {
        check_initial_thread(0);
        x += 100;
    }
    CHECK(x == 101, "target map(tofrom) x = %d", x);

    /* firstprivate: the region works on its own copy. */
    int arr[64], sum = 0;
    for (int i = 0; i < 64; i++)
        arr[i] = i;
#pragma omp target firstprivate(arr) map(from : sum)
    {
        for (int i = 0; i < 64; i++) {
            sum += arr[i];
            arr[i] = -1;
        }
    }
    CHECK(sum == 64 * 63 / 2, "firstprivate array sum %d", sum);
    CHECK(arr[5] == 5, "the firstprivate copy leaked back: arr[5] = %d", arr[5]);

#pragma omp target thread_limit(3)
    check_initial_thread(3);
    CHECK(omp_get_thread_limit() == INT_MAX, "thread_limit leaked out: %d", omp_get_thread_limit());

    /* Data environments: the host memory is the device memory. */
    int data[N];
    for (int i = 0; i < N; i++)
        data[i] = i;
#pragma omp target data map(tofrom : data)
    {
#pragma omp target
        for (int i = 0; i < N; i++)
            data[i] *= 2;
        data[0] = -7;
#pragma omp target update to(data)
#pragma omp target update from(data)
    }
    CHECK(data[0] == -7 && data[10] == 20 && data[N - 1] == 2 * (N - 1), "target data: %d %d %d",
          data[0], data[10], data[N - 1]);
#pragma omp target enter data map(to : data)
#pragma omp target
    data[1] = 77;
#pragma omp target exit data map(from : data)
    CHECK(data[1] == 77, "enter/exit data: %d", data[1]);

    /* A parallel region inside a target region. */
    int threads = 0;
#pragma omp target map(from : threads)
    {
#pragma omp parallel num_threads(2)
        {
#pragma omp master
            threads = omp_get_num_threads();
        }
    }
    CHECK(threads >= 1 && threads <= 2, "parallel in target: %d threads", threads);
    CHECK(inside_bad == 0, "%d wrong observations inside target regions", inside_bad);
}

static void in_parallel(void)
{
    int bad = 0, ran = 0;
#pragma omp parallel reduction(+ : bad, ran)
    {
        int me = omp_get_thread_num(), team = omp_get_num_threads();
        int inner = 0;
#pragma omp target map(from : inner)
        {
            check_initial_thread(0);
#pragma omp parallel num_threads(2) reduction(+ : inner)
            inner += omp_get_level() == 1;
        }
        bad += inner < 1 || inner > 2;
        /* The enclosing team is intact. */
        bad += omp_get_thread_num() != me || omp_get_num_threads() != team || omp_get_level() != 1;
#pragma omp barrier
        ran++;
    }
    CHECK(bad == 0, "target in parallel: %d problems", bad);
    CHECK(ran == omp_get_max_threads(), "target in parallel: %d threads finished", ran);
    CHECK(inside_bad == 0, "target in parallel: %d wrong observations inside", inside_bad);
}

static int team_hits[8];
__attribute__((noinline)) static void hit_team(void)
{
    int t = omp_get_team_num();
    if (t >= 0 && t < 8 && omp_get_num_teams() == 2)
        __atomic_add_fetch(&team_hits[t], 1, __ATOMIC_RELAXED);
}

static void target_teams(void)
{
#pragma omp target teams num_teams(2)
    hit_team();
    CHECK(team_hits[0] == 1 && team_hits[1] == 1 && team_hits[2] == 0,
          "target teams: team hits %d %d %d", team_hits[0], team_hits[1], team_hits[2]);

    static long v[N];
    long total = 0;
#pragma omp target teams distribute parallel for map(tofrom : v) reduction(+ : total)
    for (int i = 0; i < N; i++) {
        v[i] = i;
        total += i;
    }
    CHECK(total == (long)N * (N - 1) / 2, "target teams distribute parallel for: %ld", total);
    CHECK(v[N - 1] == N - 1, "v[N-1] = %ld", v[N - 1]);
}

static void nowait_and_depend(void)
{
    int a = 0, b = 0;
#pragma omp parallel
#pragma omp single
    {
#pragma omp target nowait map(tofrom : a)
        a = 5;
#pragma omp taskwait
        CHECK(a == 5, "target nowait: a = %d", a);
#pragma omp task depend(out : b) shared(b)
        b = 1;
#pragma omp target depend(inout : b) map(tofrom : b)
        b *= 10;
#pragma omp target update to(b) depend(in : b)
#pragma omp task depend(in : b) shared(b)
        b += 3;
#pragma omp taskwait
        CHECK(b == 13, "depend order: b = %d", b);
    }
}

static void device_routines(void)
{
    int host = omp_get_initial_device();
    CHECK(omp_get_num_devices() == 0 && host == 0 && omp_get_device_num() == 0 &&
              omp_get_default_device() == 0,
          "devices: %d, initial %d, this %d, default %d", omp_get_num_devices(), host,
          omp_get_device_num(), omp_get_default_device());
    int *p = omp_target_alloc(10 * sizeof(int), host);
    CHECK(p != NULL, "omp_target_alloc on the host failed");
    int src[10];
    for (int i = 0; i < 10; i++)
        src[i] = i * i;
    CHECK(omp_target_memcpy(p, src, 5 * sizeof(int), sizeof(int), 2 * sizeof(int), host, host) == 0,
          "omp_target_memcpy failed");
    CHECK(p && p[1] == 4 && p[5] == 36, "memcpy offsets: %d %d", p[1], p[5]);
    CHECK(omp_target_is_present(p, host) == 1 && omp_target_is_present(NULL, 3) == 1,
          "is_present on the host");
    CHECK(omp_target_is_present(src, 1) == 0 && omp_target_is_present(src, -1) == 0,
          "is_present on missing devices");
    omp_target_free(p, host);
    omp_target_free(NULL, host);
    CHECK(omp_target_alloc(16, 1) == NULL && omp_target_alloc(16, -1) == NULL,
          "omp_target_alloc on a missing device");
    int d = 0;
    CHECK(omp_target_memcpy(&d, src, sizeof d, 0, 0, 1, host) == EINVAL &&
              omp_target_memcpy(&d, src, sizeof d, 0, 0, host, -5) == EINVAL,
          "memcpy with a missing device");
    CHECK(omp_target_associate_ptr(src, &d, sizeof d, 0, host) == EINVAL &&
              omp_target_associate_ptr(src, &d, sizeof d, 0, 2) == EINVAL &&
              omp_target_disassociate_ptr(src, host) == EINVAL &&
              omp_target_disassociate_ptr(src, 2) == EINVAL,
          "associate/disassociate return EINVAL");

    /* A 2x3 block of a 3x4 array into a 5x6 array. */
    int from[3][4], to[5][6];
    memset(to, 0, sizeof to);
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            from[i][j] = 10 * i + j;
    size_t volume[2] = {2, 3}, to_off[2] = {1, 2}, from_off[2] = {1, 1};
    size_t to_dims[2] = {5, 6}, from_dims[2] = {3, 4};
    CHECK(omp_target_memcpy_rect(to, from, sizeof(int), 2, volume, to_off, from_off, to_dims,
                                 from_dims, host, host) == 0,
          "memcpy_rect failed");
    int want[5][6] = {{0}, {0, 0, 11, 12, 13, 0}, {0, 0, 21, 22, 23, 0}};
    CHECK(!memcmp(to, want, sizeof to), "memcpy_rect result: row1 %d %d %d row2 %d %d %d",
          to[1][2], to[1][3], to[1][4], to[2][2], to[2][3], to[2][4]);
    CHECK(omp_target_memcpy_rect(NULL, NULL, 4, 2, volume, to_off, from_off, to_dims, from_dims,
                                 host, host) == INT_MAX,
          "memcpy_rect dimension query");
    CHECK(omp_target_memcpy_rect(to, from, 4, 2, volume, to_off, from_off, to_dims, from_dims, 1,
                                 host) == EINVAL,
          "memcpy_rect with a missing device");
}

int main(void)
{
    regions();
    in_parallel();
    target_teams();
    nowait_and_depend();
    device_routines();
    return test_result();
}
