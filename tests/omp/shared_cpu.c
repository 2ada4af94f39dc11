/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Team members that find themselves on one CPU.  xomp moves a waiting
 * member off a CPU it shares with the thread it waits for, when the
 * member is not bound and every busy thread could have a CPU of its own
 * (src/runtime/wait.c, "Hopping off a shared CPU").  Checked here:
 *   - unbound members put on one CPU (each narrows its mask to that CPU
 *     and widens it again, as the OS's placement would leave them) end
 *     up on different CPUs when there are enough, and every member's
 *     mask is the process's whole set whenever it looks (a move gives the
 *     mask back).  The first is xomp's promise only: libgomp's members
 *     stay together while another process keeps the other CPUs busy
 *     (10 s in a run beside other tests), so there it is printed;
 *   - members the program bound to one CPU itself stay there, mask and
 *     all;
 *   - members bound by OMP_PLACES={c} OMP_PROC_BIND=true stay there too.
 * The program runs itself again for the last setting (XOMP_TEST_STAGE).
 */
#include "xomp_test.h"

#include <pthread.h>

#define BOUND_ROUNDS 500
#define SEPARATE_WITHIN_S 10.0

static cpu_set_t process_set;
static int first_cpu;

static cpu_set_t only(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return set;
}

static int mask_is(const cpu_set_t *want)
{
    cpu_set_t mine;
    CPU_ZERO(&mine);
    return pthread_getaffinity_np(pthread_self(), sizeof mine, &mine) == 0 &&
           CPU_EQUAL(&mine, want);
}

/* Unbound members start on one CPU; they must not stay there. */
static void stage_unbound(void)
{
    int n = omp_get_max_threads();
    int ncpus = CPU_COUNT(&process_set);
    int cpu_of[64];
    int separated = 0, stop = 0, bad_mask = 0, rounds = 0;
    double within = test_runtime_is_xomp() ? SEPARATE_WITHIN_S : 1.0;
    double deadline = test_now_s() + within;
#pragma omp parallel num_threads(n)
    {
        int me = omp_get_thread_num();
        cpu_set_t one = only(first_cpu);
        pthread_setaffinity_np(pthread_self(), sizeof one, &one);
        pthread_setaffinity_np(pthread_self(), sizeof process_set, &process_set);
        for (;;) {
#pragma omp barrier
            if (me < 64)
                cpu_of[me] = sched_getcpu();
            if (!mask_is(&process_set)) {
#pragma omp atomic write
                bad_mask = 1;
            }
#pragma omp barrier
#pragma omp single
            {
                rounds++;
                int m = n < 64 ? n : 64;
                int distinct = 1;
                for (int i = 0; i < m && distinct; i++)
                    for (int j = 0; j < i; j++)
                        if (cpu_of[i] == cpu_of[j])
                            distinct = 0;
                separated = distinct;
                stop = separated || n > ncpus || test_now_s() > deadline;
            }
            /* After the single's barrier everyone reads the same answer. */
            if (stop)
                break;
        }
    }
    CHECK(!bad_mask, "an unbound member's mask was not the process's CPUs");
    if (n > 1 && n <= ncpus && !separated) {
        if (test_runtime_is_xomp())
            CHECK(0, "%d unbound members put on CPU %d still shared a CPU after %.0f s (%d rounds)",
                  n, first_cpu, within, rounds);
        else
            printf("%d unbound members put on CPU %d still shared a CPU after %.0f s (%d rounds; "
                   "allowed here)\n", n, first_cpu, within, rounds);
    }
}

/* Members bound to `cpu`, by the program or by OMP_PROC_BIND: they stay. */
static void check_stay_bound(const char *by, int cpu, int bind_self)
{
    int n = omp_get_max_threads();
    int moved = 0, bad_mask = 0;
    cpu_set_t one = only(cpu);
#pragma omp parallel num_threads(n)
    {
        if (bind_self)
            pthread_setaffinity_np(pthread_self(), sizeof one, &one);
        for (int r = 0; r < BOUND_ROUNDS; r++) {
#pragma omp barrier
            if (sched_getcpu() != cpu) {
#pragma omp atomic write
                moved = 1;
            }
            if (!mask_is(&one)) {
#pragma omp atomic write
                bad_mask = 1;
            }
        }
        if (bind_self)
            pthread_setaffinity_np(pthread_self(), sizeof process_set, &process_set);
    }
    CHECK(!moved, "%s: a member bound to CPU %d ran elsewhere", by, cpu);
    CHECK(!bad_mask, "%s: a member's mask is no longer CPU %d alone", by, cpu);
}

int main(int argc, char **argv)
{
    (void)argc;
    CPU_ZERO(&process_set);
    if (sched_getaffinity(0, sizeof process_set, &process_set) != 0) {
        perror("sched_getaffinity");
        return 1;
    }
    int cpus[CPU_SETSIZE];
    test_thread_cpus(cpus);
    first_cpu = cpus[0];
    if (test_stage() == 0) {
        stage_unbound();
        check_stay_bound("bound by the program", first_cpu, 1);
        if (xomp_test_failures)
            return test_result();
        char places[32];
        snprintf(places, sizeof places, "{%d}", first_cpu);
        setenv("OMP_PLACES", places, 1);
        setenv("OMP_PROC_BIND", "true", 1);
        return test_run_stage(argv, 1);
    }
    /* OMP_PLACES={first} OMP_PROC_BIND=true: the initial thread is bound
     * too, so the process set read above is that one CPU. */
    check_stay_bound("bound by OMP_PROC_BIND", first_cpu, 0);
    return test_result();
}
