/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Wake chaining (src/sched/README.md, "Wake chaining"): a task published
 * while the other members sleep wakes one of them, which wakes the next
 * once it finds work; while it looks, publishers wake nobody.  The
 * interleaving that could strand a task: a member woken for a task that
 * someone else runs first finds nothing and goes back to sleep, exactly
 * while the producer publishes the next one.
 *
 * Bursts of tasks separated by idle gaps (most longer than the spin and
 * yield phases, so that the others are asleep in the barrier when the
 * burst comes).  In each round the producer (a `single`) publishes a decoy
 * task and runs it itself (taskwait: usually before the woken member gets
 * there, which then finds nothing), waits a few microseconds, then
 * publishes 1 to 4 real tasks a few microseconds apart and waits for them
 * in a user spin loop -- not a scheduling point, so only other members
 * can run them.  Each real task but the last of its burst spins until the
 * last has run, so a burst of k needs k members awake at once: the woken
 * member must wake the next before it runs its task.  A lost wake-up
 * hangs the round, and the watchdog fails the test.  Regions end and start between groups of rounds (a woken
 * member's barrier may end while it looks), with the team the test runs
 * with and with a crowded team (more threads than CPUs).
 *
 * A deque smaller than a burst (XOMP_QUEUE_SIZE=2) makes the producer run
 * a task of the burst itself, which then waits for one not made yet: the
 * settings matrix runs this program with deques of the default size.
 *
 * Bounded: 160 rounds a team size (48 under the sanitizers), gaps of at
 * most 1.5 ms: about 0.3 s a run on 2 CPUs; the watchdog fails a round
 * that waits more than 60 s.
 */
#include "xomp_test.h"

#include <signal.h>
#include <time.h>

#if XOMP_TEST_SANITIZED
#define ROUNDS 48
#else
#define ROUNDS 160
#endif
#define ROUNDS_PER_REGION 16
#define MAX_BURST 4
#define GAP_MAX_US 1500
#define WATCHDOG_S 60

static volatile sig_atomic_t current_round = -1, current_team;

static void on_watchdog(int sig)
{
    (void)sig;
    char msg[128];
    int len = snprintf(msg, sizeof msg,
                       "FAIL: wake_chain: a task was never run (team of %d, round %d): hang\n",
                       (int)current_team, (int)current_round);
    if (len > 0)
        (void)!write(2, msg, (size_t)len);
    _exit(1);
}

static unsigned next_random(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return *state >> 8;
}

static void spin_us(unsigned us)
{
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    do
        clock_gettime(CLOCK_MONOTONIC, &t);
    while ((t.tv_sec - t0.tv_sec) * 1000000L + (t.tv_nsec - t0.tv_nsec) / 1000 < (long)us);
}

static void sleep_us(unsigned us)
{
    struct timespec ts = {0, (long)us * 1000};
    while (nanosleep(&ts, &ts) != 0)
        ;
}

/* Rounds [first, first + count) in one region of `team` threads. */
static void region(int team, int first, int count, unsigned *seed, long *decoys, long *real)
{
    long decoys_run = 0, real_run = 0, bursts_done = 0;
#pragma omp parallel num_threads(team) shared(decoys_run, real_run, bursts_done)
#pragma omp single
    {
        int others = omp_get_num_threads() - 1;
        for (long r = first; r < first + count; r++) {
            current_round = (int)r;
            unsigned rnd = next_random(seed);
            /* Idle gap: mostly long enough for the others to sleep. */
            if (rnd % 8)
                sleep_us(rnd % GAP_MAX_US);
            /* The decoy wakes a member, and we usually run it first. */
#pragma omp task shared(decoys_run)
            __atomic_add_fetch(&decoys_run, 1, __ATOMIC_RELAXED);
#pragma omp taskwait
            spin_us(next_random(seed) % 40);
            int most = others < MAX_BURST ? others : MAX_BURST;
            int burst = most ? 1 + (int)(next_random(seed) % (unsigned)most) : 0;
            long target = __atomic_load_n(&real_run, __ATOMIC_RELAXED) + burst;
            for (int k = 0; k < burst; k++) {
                int last = k == burst - 1;
                /* Each task but the last waits (a user spin) until the
                 * last has run: a member that took one is busy, and the
                 * next task needs another -- the one that took the first
                 * must have woken the next before running it. */
#pragma omp task shared(real_run, bursts_done) firstprivate(r, last)
                {
                    if (last)
                        __atomic_store_n(&bursts_done, r + 1, __ATOMIC_RELEASE);
                    else
                        while (__atomic_load_n(&bursts_done, __ATOMIC_ACQUIRE) <= r)
                            sched_yield();
                    __atomic_add_fetch(&real_run, 1, __ATOMIC_RELAXED);
                }
                spin_us(next_random(seed) % 20);
            }
            /* Not a scheduling point: only other members can run them. */
            while (__atomic_load_n(&real_run, __ATOMIC_RELAXED) != target)
                sched_yield();
        }
    }
    *decoys += decoys_run;
    *real += real_run;
}

int main(void)
{
    signal(SIGALRM, on_watchdog);
    omp_set_dynamic(0);
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int crowded = (int)(cpus < 2 ? 8 : 4 * cpus > 64 ? 64 : 4 * cpus);
    int teams[] = {omp_get_max_threads(), crowded};
    unsigned seed = 12345;
    for (int k = 0; k < 2; k++) {
        long decoys = 0, real = 0;
        current_team = teams[k];
        for (int first = 0; first < ROUNDS; first += ROUNDS_PER_REGION) {
            alarm(WATCHDOG_S);
            region(teams[k], first, ROUNDS_PER_REGION, &seed, &decoys, &real);
        }
        alarm(0);
        CHECK(decoys == ROUNDS, "team of %d: %ld decoy tasks ran, not %d", teams[k], decoys,
              ROUNDS);
        fprintf(stderr, "wake_chain: team of %d: %d rounds, %ld tasks run by the others\n",
                teams[k], ROUNDS, real);
    }
    return test_result();
}
