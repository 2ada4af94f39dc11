/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* XOMP_TEST_GCC_ONLY: libgomp's Fortran entry points (omp_*_8_), which libomp does not have. */
/*
 * The Fortran binding (what gfortran's omp_lib calls), driven from C with
 * the Fortran calling convention: arguments by reference, integer(8)
 * variants clamped to int, hidden string lengths, blank-padded results,
 * and the lock ABI of Linux x86-64 -- simple locks direct (kind 4), OpenMP
 * 3.0 nestable locks indirect (kind 8 holding a pointer), and the OMP_1.0
 * (OpenMP 2.5) versions of the lock routines, reached with dlvsym; and
 * omp_fulfill_event_ (OMP_5.0.1), whose event handle omp_lib passes by
 * value.
 */
#include "xomp_test.h"

#include <limits.h>
#include <stdint.h>
#include <time.h>

/* Fortran prototypes (gfortran passes hidden lengths as size_t). */
int32_t omp_get_thread_num_(void);
int32_t omp_get_num_threads_(void);
int32_t omp_get_max_threads_(void);
void omp_set_num_threads_(const int32_t *);
void omp_set_num_threads_8_(const int64_t *);
int32_t omp_in_parallel_(void);
void omp_set_dynamic_8_(const int64_t *);
int32_t omp_get_dynamic_(void);
void omp_set_schedule_8_(const int32_t *, const int64_t *);
void omp_get_schedule_(int32_t *, int32_t *);
void omp_get_schedule_8_(int32_t *, int64_t *);
void omp_set_max_active_levels_8_(const int64_t *);
int32_t omp_get_max_active_levels_(void);
int32_t omp_get_supported_active_levels_(void);
int32_t omp_get_level_(void);
int32_t omp_get_ancestor_thread_num_8_(const int64_t *);
int32_t omp_get_team_size_8_(const int64_t *);
int32_t omp_get_thread_limit_(void);
double omp_get_wtime_(void);
double omp_get_wtick_(void);
int32_t omp_get_num_places_(void);
int32_t omp_get_partition_num_places_(void);
void omp_get_partition_place_nums_8_(int64_t *);
int32_t omp_get_num_devices_(void);
int32_t omp_get_device_num_(void);
int32_t omp_is_initial_device_(void);
int32_t omp_get_initial_device_(void);
void omp_set_default_device_8_(const int64_t *);
int32_t omp_get_default_device_(void);
int32_t omp_get_num_teams_(void);
int32_t omp_get_team_num_(void);
void omp_set_num_teams_8_(const int64_t *);
int32_t omp_get_max_teams_(void);
void omp_set_teams_thread_limit_(const int32_t *);
int32_t omp_get_teams_thread_limit_(void);
int32_t omp_pause_resource_(const int32_t *, const int32_t *);
int32_t omp_pause_resource_all_(const int32_t *);
intptr_t omp_init_allocator_(const intptr_t *, const int32_t *, const omp_alloctrait_t *);
intptr_t omp_init_allocator_8_(const intptr_t *, const int64_t *, const omp_alloctrait_t *);
void omp_destroy_allocator_(const intptr_t *);
void omp_set_default_allocator_(const intptr_t *);
intptr_t omp_get_default_allocator_(void);
void omp_set_affinity_format_(const char *, size_t);
int32_t omp_get_affinity_format_(char *, size_t);
int32_t omp_capture_affinity_(char *, const char *, size_t, size_t);
void omp_init_lock_(int32_t *);
void omp_set_lock_(int32_t *);
void omp_unset_lock_(int32_t *);
int32_t omp_test_lock_(int32_t *);
void omp_destroy_lock_(int32_t *);
void omp_init_nest_lock_(int64_t *);
void omp_set_nest_lock_(int64_t *);
void omp_unset_nest_lock_(int64_t *);
int32_t omp_test_nest_lock_(int64_t *);
void omp_destroy_nest_lock_(int64_t *);
void omp_fulfill_event_(intptr_t); /* omp_lib: integer(omp_event_handle_kind), value */

static void icvs(void)
{
    int32_t three = 3;
    omp_set_num_threads_(&three);
    CHECK(omp_get_max_threads() == 3 && omp_get_max_threads_() == 3, "set_num_threads_");
    int64_t big = (int64_t)INT_MAX + 12345;
    omp_set_num_threads_8_(&big);
    CHECK(omp_get_max_threads() == INT_MAX, "set_num_threads_8_ clamps to INT_MAX: %d",
          omp_get_max_threads());
    int64_t two = 2;
    omp_set_num_threads_8_(&two);
    int bad = 0;
#pragma omp parallel reduction(+ : bad)
    bad += omp_get_thread_num_() != omp_get_thread_num() || omp_get_num_threads_() != 2 ||
           !omp_in_parallel_() || omp_get_level_() != 1;
    CHECK(bad == 0, "thread queries in parallel: %d wrong", bad);

    int64_t yes = 1LL << 40; /* non-zero in the high half only */
    omp_set_dynamic_8_(&yes);
    CHECK(omp_get_dynamic() && omp_get_dynamic_(), "set_dynamic_8_ of 2^40");
    int64_t no = 0;
    omp_set_dynamic_8_(&no);

    int32_t kind = omp_sched_dynamic | omp_sched_monotonic, k;
    int64_t chunk = (int64_t)INT_MAX * 4, c8;
    int32_t c;
    omp_set_schedule_8_(&kind, &chunk);
    omp_get_schedule_(&k, &c);
    CHECK(k == omp_sched_dynamic && c == INT_MAX, "get_schedule_: kind %#x chunk %d (monotonic "
          "masked, chunk clamped)", (unsigned)k, c);
    omp_get_schedule_8_(&k, &c8);
    CHECK(k == omp_sched_dynamic && c8 == INT_MAX, "get_schedule_8_: kind %#x chunk %lld",
          (unsigned)k, (long long)c8);

    int64_t levels = INT64_MAX;
    omp_set_max_active_levels_8_(&levels);
    CHECK(omp_get_max_active_levels_() == omp_get_max_active_levels() &&
              omp_get_max_active_levels_() == omp_get_supported_active_levels_(),
          "max_active_levels_8_ clamps: %d", omp_get_max_active_levels_());
    int64_t lvl0 = 0, lvl_big = INT64_MIN;
    CHECK(omp_get_ancestor_thread_num_8_(&lvl0) == 0 && omp_get_team_size_8_(&lvl0) == 1 &&
              omp_get_ancestor_thread_num_8_(&lvl_big) == -1 &&
              omp_get_team_size_8_(&lvl_big) == -1,
          "ancestor/team size at levels 0 and INT64_MIN");
    CHECK(omp_get_thread_limit_() == omp_get_thread_limit(), "thread_limit_");
    CHECK(omp_get_wtime_() > 0 && omp_get_wtick_() > 0, "wtime_/wtick_");
}

static void places_devices_teams(void)
{
    CHECK(omp_get_num_places_() == omp_get_num_places() &&
              omp_get_partition_num_places_() == omp_get_partition_num_places(),
          "place counts");
    int n = omp_get_partition_num_places();
    int64_t nums8[n + 1];
    int nums[n + 1];
    if (n > 0) {
        omp_get_partition_place_nums_8_(nums8);
        omp_get_partition_place_nums(nums);
        for (int i = 0; i < n; i++)
            CHECK(nums8[i] == nums[i], "partition place %d: %lld vs %d", i, (long long)nums8[i],
                  nums[i]);
    }
    CHECK(omp_get_num_devices_() == 0 && omp_get_device_num_() == 0 && omp_is_initial_device_() &&
              omp_get_initial_device_() == 0,
          "device queries");
    int64_t dev = 0;
    omp_set_default_device_8_(&dev);
    CHECK(omp_get_default_device_() == 0, "default device");
    CHECK(omp_get_num_teams_() == 1 && omp_get_team_num_() == 0, "teams outside teams");
    int64_t teams = 7;
    int32_t limit = 4;
    omp_set_num_teams_8_(&teams);
    omp_set_teams_thread_limit_(&limit);
    CHECK(omp_get_max_teams_() == 7 && omp_get_max_teams() == 7 &&
              omp_get_teams_thread_limit_() == 4,
          "teams ICVs: %d %d", omp_get_max_teams_(), omp_get_teams_thread_limit_());
    teams = 0;
    limit = 0;
    omp_set_num_teams_8_(&teams);
    omp_set_teams_thread_limit_(&limit);
    int32_t soft = omp_pause_soft, host = 0, one = 1;
    CHECK(omp_pause_resource_(&soft, &host) == 0 && omp_pause_resource_(&soft, &one) == -1 &&
              omp_pause_resource_all_(&soft) == 0,
          "pause_resource_");
}

static void allocators(void)
{
    omp_alloctrait_t traits[1] = {{omp_atk_alignment, 512}};
    intptr_t space = omp_default_mem_space;
    int32_t one = 1;
    int64_t one8 = 1;
    intptr_t a = omp_init_allocator_(&space, &one, traits);
    intptr_t b = omp_init_allocator_8_(&space, &one8, traits);
    CHECK(a && b, "init_allocator_: %ld %ld", (long)a, (long)b);
    omp_set_default_allocator_(&a);
    CHECK(omp_get_default_allocator_() == a &&
              omp_get_default_allocator() == (omp_allocator_handle_t)a,
          "default allocator");
    void *p = omp_alloc(10, omp_null_allocator);
    CHECK(p && ((uintptr_t)p & 511) == 0, "allocation through the Fortran-made allocator: %p", p);
    omp_free(p, omp_null_allocator);
    intptr_t dflt = omp_default_mem_alloc;
    omp_set_default_allocator_(&dflt);
    omp_destroy_allocator_(&a);
    omp_destroy_allocator_(&b);
    omp_alloctrait_t invalid[1] = {{omp_atk_alignment, 3}};
    CHECK(omp_init_allocator_(&space, &one, invalid) == 0, "invalid trait through Fortran");
}

static void strings(void)
{
    const char fmt[] = "n=%n N=%N"; /* passed without its NUL, like Fortran */
    omp_set_affinity_format_(fmt, strlen(fmt));
    char c[64];
    omp_get_affinity_format(c, sizeof c);
    CHECK(!strcmp(c, "n=%n N=%N"), "set_affinity_format_: '%s'", c);

    char buf[16];
    int32_t len = omp_get_affinity_format_(buf, sizeof buf);
    CHECK(len == 9 && !memcmp(buf, "n=%n N=%N       ", 16), "get_affinity_format_: '%.16s' %d",
          buf, len);
    char small[4];
    len = omp_get_affinity_format_(small, sizeof small);
    CHECK(len == 9 && !memcmp(small, "n=%n", 4), "get_affinity_format_ truncated: '%.4s'", small);

    char out[12];
    len = omp_capture_affinity_(out, "[%n]", sizeof out, 4);
    CHECK(len == 3 && !memcmp(out, "[0]         ", 12), "capture_affinity_: '%.12s' %d", out, len);
    len = omp_capture_affinity_(out, "", sizeof out, 0); /* no format: the format ICV */
    CHECK(len == 7 && !memcmp(out, "n=0 N=1     ", 12), "capture_affinity_ default: '%.12s'",
          out);
    len = omp_capture_affinity_(small, "%n%n%n%n%n%n", sizeof small, 12);
    CHECK(len == 6 && !memcmp(small, "0000", 4), "capture_affinity_ truncated: '%.4s' %d", small,
          len);
    omp_set_affinity_format("level %L thread %i affinity %A");
}

static void simple_locks(void)
{
    int32_t lock;
    omp_init_lock_(&lock);
    long counter = 0;
#pragma omp parallel
    for (int i = 0; i < 1000; i++) {
        omp_set_lock_(&lock);
        counter++;
        omp_unset_lock_(&lock);
    }
    CHECK(counter == 1000L * omp_get_max_threads(), "lock_ counter %ld", counter);
    CHECK(omp_test_lock_(&lock) == 1, "test_lock_ on a free lock");
    CHECK(omp_test_lock_(&lock) == 0, "test_lock_ on a held lock");
    omp_unset_lock_(&lock);
    omp_destroy_lock_(&lock);
}

static void nest_locks(void)
{
    int64_t lock = 0; /* omp_nest_lock_kind = 8: holds a pointer */
    omp_init_nest_lock_(&lock);
    CHECK(lock != 0, "init_nest_lock_ did not store a pointer");
    omp_set_nest_lock_(&lock);
    omp_set_nest_lock_(&lock);
    CHECK(omp_test_nest_lock_(&lock) == 3, "nesting count");
    int other = -1;
#pragma omp parallel num_threads(2) shared(other)
    {
        if (omp_get_thread_num() == 1)
            other = omp_test_nest_lock_(&lock); /* held by another task */
    }
    CHECK(other == 0 || omp_get_max_threads() == 1 || other == -1,
          "test_nest_lock_ by another thread: %d", other);
    for (int i = 0; i < 3; i++)
        omp_unset_nest_lock_(&lock);
    long counter = 0;
#pragma omp parallel
    for (int i = 0; i < 500; i++) {
        omp_set_nest_lock_(&lock);
        omp_set_nest_lock_(&lock);
        counter++;
        omp_unset_nest_lock_(&lock);
        omp_unset_nest_lock_(&lock);
    }
    CHECK(counter == 500L * omp_get_max_threads(), "nest_lock_ counter %ld", counter);
    omp_destroy_nest_lock_(&lock);
    CHECK(lock == 0, "destroy_nest_lock_ did not clear the variable");
}

/* The OMP_1.0 (OpenMP 2.5) versions: direct 4- and 8-byte variables. */
static void locks_25(void)
{
    void (*init)(int64_t *) = (void (*)(int64_t *))dlvsym(RTLD_DEFAULT, "omp_init_nest_lock_",
                                                          "OMP_1.0");
    void (*set)(int64_t *) = (void (*)(int64_t *))dlvsym(RTLD_DEFAULT, "omp_set_nest_lock_",
                                                         "OMP_1.0");
    void (*unset)(int64_t *) = (void (*)(int64_t *))dlvsym(RTLD_DEFAULT, "omp_unset_nest_lock_",
                                                           "OMP_1.0");
    int32_t (*test)(int64_t *) = (int32_t (*)(int64_t *))dlvsym(RTLD_DEFAULT,
                                                                 "omp_test_nest_lock_", "OMP_1.0");
    void (*destroy)(int64_t *) = (void (*)(int64_t *))dlvsym(RTLD_DEFAULT,
                                                             "omp_destroy_nest_lock_", "OMP_1.0");
    void (*init_s)(int32_t *) = (void (*)(int32_t *))dlvsym(RTLD_DEFAULT, "omp_init_lock_",
                                                            "OMP_1.0");
    int32_t (*test_s)(int32_t *) = (int32_t (*)(int32_t *))dlvsym(RTLD_DEFAULT, "omp_test_lock_",
                                                                  "OMP_1.0");
    void (*unset_s)(int32_t *) = (void (*)(int32_t *))dlvsym(RTLD_DEFAULT, "omp_unset_lock_",
                                                             "OMP_1.0");
    CHECK(init && set && unset && test && destroy && init_s && test_s && unset_s,
          "OMP_1.0 lock routines missing");
    if (!(init && set && unset && test && destroy && init_s && test_s && unset_s))
        return;
    struct {
        int64_t lock;
        int64_t guard; /* a direct lock must not write past its 8 bytes */
    } v = {0, 0x1234};
    init(&v.lock);
    set(&v.lock);
    CHECK(test(&v.lock) == 2, "2.5 nest lock count");
    unset(&v.lock);
    unset(&v.lock);
    long counter = 0;
#pragma omp parallel
    for (int i = 0; i < 300; i++) {
        set(&v.lock);
        counter++;
        unset(&v.lock);
    }
    CHECK(counter == 300L * omp_get_max_threads(), "2.5 nest lock counter %ld", counter);
    destroy(&v.lock);
    CHECK(v.guard == 0x1234, "2.5 nest lock wrote past its variable");
    int32_t s;
    init_s(&s);
    CHECK(test_s(&s) == 1 && test_s(&s) == 0, "2.5 simple lock");
    unset_s(&s);
}

/* A detached task completes, and releases its dependant, only once its event
 * is fulfilled through the Fortran entry point. */
static void fulfill_event(void)
{
    CHECK(dlvsym(RTLD_DEFAULT, "omp_fulfill_event_", "OMP_5.0.1") != NULL,
          "omp_fulfill_event_@OMP_5.0.1 is not exported");
    for (int round = 0; round < 20; round++) {
        int body_ran = 0, fulfilled = 0, seen = -1, token = 0;
        (void)token; /* only its address orders the two tasks */
        omp_event_handle_t ev;
#pragma omp parallel shared(body_ran, fulfilled, seen, token, ev)
#pragma omp single
        {
#pragma omp task detach(ev) depend(out : token) shared(body_ran)
            {
#pragma omp atomic write
                body_ran = 1;
            }
#pragma omp task depend(in : token) shared(fulfilled, seen)
            {
#pragma omp atomic read
                seen = fulfilled;
            }
            struct timespec ts = {0, 200 * 1000};
            nanosleep(&ts, NULL); /* give the dependant a chance to run early */
#pragma omp atomic write
            fulfilled = 1;
            omp_fulfill_event_((intptr_t)ev);
#pragma omp taskwait
        }
        CHECK(body_ran == 1 && seen == 1,
              "round %d: detached body ran %d, dependant saw fulfilled=%d", round, body_ran,
              seen);
    }
}

int main(void)
{
    int initial_threads = omp_get_max_threads();
    icvs();
    omp_set_num_threads(initial_threads);
    places_devices_teams();
    allocators();
    strings();
    simple_locks();
    nest_locks();
    locks_25();
    fulfill_event();
    return test_result();
}
