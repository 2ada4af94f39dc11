/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* The process's CPUs (see cpus.h). */
#include "cpus.h"

#include "../runtime/log.h"
#include "boot.h"

#include <dlfcn.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

static cpu_set_t process_cpus;
static unsigned process_ncpus;

/* "0-3,8" ("..." at the end if it does not fit). */
static const char *cpu_list(const cpu_set_t *set, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int cpu = 0; cpu < CPU_SETSIZE; cpu++) {
        if (!CPU_ISSET(cpu, set))
            continue;
        int last = cpu;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, set))
            last++;
        int w = last > cpu ? snprintf(buf + n, size - n, "%s%d-%d", n ? "," : "", cpu, last)
                           : snprintf(buf + n, size - n, "%s%d", n ? "," : "", cpu);
        if (w < 0 || (size_t)w >= size - n) {
            snprintf(buf + size - 4, 4, "...");
            break;
        }
        n += (size_t)w;
        cpu = last;
    }
    return buf;
}

/* Is a libgomp.so.1 other than xomp loaded?  (Under LD_PRELOAD=libxomp.so
 * the program's own dependency on libgomp.so.1 loads the system's; on the
 * library path, libgomp.so.1 is xomp, or leads to it.) */
static bool foreign_libgomp_loaded(void)
{
    void *h = dlopen("libgomp.so.1", RTLD_LAZY | RTLD_NOLOAD);
    if (!h)
        return false;
    bool foreign = dlsym(h, "xomp_version") == NULL;
    dlclose(h);
    return foreign;
}

void xomp_cpus_init(void)
{
    cpu_set_t now, boot;
    pid_t boot_tid;
    bool have_now = sched_getaffinity(0, sizeof now, &now) == 0 && CPU_COUNT(&now) > 0;
    bool have_boot = xomp_boot_cpus(&boot, &boot_tid) && CPU_COUNT(&boot) > 0 &&
                     boot_tid == (pid_t)syscall(SYS_gettid);
    char was[256], is[256];

    if (have_boot && have_now && !CPU_EQUAL(&boot, &now)) {
        if (!foreign_libgomp_loaded()) {
            xomp_warn("the initial thread's CPUs changed from %s to %s before xomp started "
                      "(another library's constructor?); xomp uses %s",
                      cpu_list(&boot, was, sizeof was), cpu_list(&now, is, sizeof is), is);
            have_boot = false;
        } else if (sched_setaffinity(0, sizeof boot, &boot) != 0) {
            /* The system libgomp's constructor bound the thread; giving it
             * its CPUs back does not normally fail. */
            xomp_warn("cannot give the initial thread back its CPUs %s (the system libgomp, "
                      "loaded too, bound it to %s); xomp uses %s",
                      cpu_list(&boot, was, sizeof was), cpu_list(&now, is, sizeof is), is);
            have_boot = false;
        }
    }
    if (have_boot) {
        process_cpus = boot;
    } else if (have_now) {
        process_cpus = now;
    } else {
        /* No mask at all: every online CPU. */
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        CPU_ZERO(&process_cpus);
        for (long cpu = 0; cpu < (n > 0 ? n : 1) && cpu < CPU_SETSIZE; cpu++)
            CPU_SET(cpu, &process_cpus);
    }
    process_ncpus = (unsigned)CPU_COUNT(&process_cpus);
}

const cpu_set_t *xomp_cpus(void)
{
    return &process_cpus;
}

unsigned xomp_cpus_count(void)
{
    return process_ncpus;
}

bool xomp_cpus_hop_off(int cpu, _Atomic int32_t *announce)
{
    if (process_ncpus < 2 || cpu < 0 || cpu >= CPU_SETSIZE)
        return false;
    /* Only a thread the process's whole set is open to: a thread bound by
     * OMP_PROC_BIND, by the program or by a tool stays where it was put. */
    cpu_set_t mine;
    if (sched_getaffinity(0, sizeof mine, &mine) != 0 || !CPU_EQUAL(&mine, &process_cpus))
        return false;
    int target = -1;
    for (int step = 1; step < CPU_SETSIZE && target < 0; step++) {
        int c = (cpu + step) % CPU_SETSIZE;
        if (CPU_ISSET(c, &process_cpus))
            target = c;
    }
    /* relaxed: advice; before the move, so that a thread that runs on
     * `cpu` after us does not see `cpu` there and move too. */
    atomic_store_explicit(announce, target, memory_order_relaxed);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(target, &one);
    /* Narrowing the mask migrates the running thread at once; widening it
     * again leaves it where it is, free to be moved by the OS as before. */
    if (sched_setaffinity(0, sizeof one, &one) != 0) {
        atomic_store_explicit(announce, cpu, memory_order_relaxed);
        return false;
    }
    if (sched_setaffinity(0, sizeof mine, &mine) != 0) {
        /* Giving a thread back the mask it just had does not normally
         * fail; if it does, the thread keeps one CPU. */
        static _Atomic bool warned;
        if (!atomic_exchange_explicit(&warned, true, memory_order_relaxed))
            xomp_warn("cannot give a thread back its CPUs after moving it to CPU %d; it stays "
                      "there",
                      target);
    }
    return true;
}
