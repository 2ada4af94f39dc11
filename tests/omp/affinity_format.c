/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* XOMP_TEST_GCC_ONLY: libgomp's affinity-format output (%i, %A, the default format), which libomp writes differently. */
/*
 * The affinity format (OpenMP 5.1, 3.3.8-3.3.11): omp_set/get_affinity_format,
 * omp_capture_affinity with every field (short and long names), width,
 * right justification and zero padding, truncation, nested teams and host
 * teams, and omp_display_affinity (stderr captured through a file).
 * Expected lines are computed here, so the test holds on libgomp too.
 */
#include "xomp_test.h"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

static char cpus[4096]; /* the process's CPU set, "0-3,8" form */
static char host[256];

static void cpu_list(char *out, size_t size)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    sched_getaffinity(0, sizeof set, &set);
    size_t len = 0;
    out[0] = '\0';
    for (int c = 0; c < CPU_SETSIZE; c++) {
        if (!CPU_ISSET(c, &set))
            continue;
        int last = c;
        while (last + 1 < CPU_SETSIZE && CPU_ISSET(last + 1, &set))
            last++;
        len += (size_t)snprintf(out + len, size - len, last == c ? "%s%d" : "%s%d-%d",
                                len ? "," : "", c, last);
        c = last;
    }
}

static void expect_capture(const char *format, const char *want)
{
    char buf[1024];
    size_t n = omp_capture_affinity(buf, sizeof buf, format);
    CHECK(n == strlen(want) && !strcmp(buf, want), "format '%s': got '%s' (%zu), expected '%s'",
          format, buf, n, want);
}

static void fields(void)
{
    char want[3 * sizeof cpus];
    char self[64];
    snprintf(self, sizeof self, "0x%lx", (unsigned long)pthread_self());
    snprintf(want, sizeof want, "0|1|0|0|1|-1|%d|%s|%s|%s", (int)getpid(), host, self, cpus);
    expect_capture("%t|%T|%L|%n|%N|%a|%P|%H|%i|%A", want);
    expect_capture("%{team_num}|%{num_teams}|%{nesting_level}|%{thread_num}|%{num_threads}|"
                   "%{ancestor_tnum}|%{process_id}|%{host}|%{native_thread_id}|"
                   "%{thread_affinity}",
                   want);
    expect_capture("plain text, 100%% sure", "plain text, 100% sure");
    expect_capture("[%5n][%.5n][%0.5n][%1n][%0.1L]", "[0    ][    0][00000][0][0]");
    expect_capture("[%4a][%.4a][%0.4a]", "[-1  ][  -1][-001]");
    expect_capture("[%3{thread_num}][%.3{num_threads}][%0.3{nesting_level}]", "[0  ][  1][000]");
    snprintf(want, sizeof want, "[%-30s][%30s]", host, host);
    expect_capture("[%30H][%.30{host}]", want);
    snprintf(want, sizeof want, "[%-40s][%40s]", cpus, cpus);
    expect_capture("[%40A][%.40{thread_affinity}]", want);
    char padded[64];
    snprintf(padded, sizeof padded, "0x%030lx", (unsigned long)pthread_self());
    snprintf(want, sizeof want, "[%s][%-32s][%32s]", padded, self, self);
    expect_capture("[%0.32i][%32i][%.32i]", want);
    snprintf(want, sizeof want, "%08d", (int)getpid());
    expect_capture("%0.8P", want);
}

static void format_var(void)
{
    char buf[64];
    size_t n = omp_get_affinity_format(buf, sizeof buf);
    CHECK(n == strlen("level %L thread %i affinity %A") &&
              !strcmp(buf, "level %L thread %i affinity %A"),
          "default affinity format '%s' (%zu)", buf, n);
    omp_set_affinity_format("T%n/%N");
    n = omp_get_affinity_format(buf, sizeof buf);
    CHECK(n == 6 && !strcmp(buf, "T%n/%N"), "format after set: '%s'", buf);
    n = omp_get_affinity_format(buf, 4);
    CHECK(n == 6 && !strcmp(buf, "T%n"), "truncated format: '%s' (%zu)", buf, n);
    CHECK(omp_get_affinity_format(NULL, 0) == 6, "length query");
    /* NULL and "" mean affinity-format-var. */
    expect_capture(NULL, "T0/1");
    expect_capture("", "T0/1");
    /* Truncation: NUL-terminated, full length returned. */
    n = omp_capture_affinity(buf, 5, "abcdefgh");
    CHECK(n == 8 && !strcmp(buf, "abcd"), "truncated capture: '%s' (%zu)", buf, n);
    CHECK(omp_capture_affinity(NULL, 0, "abcdefgh") == 8, "capture length query");
}

static void in_teams(void)
{
    int bad = 0, lines = 0;
#pragma omp parallel num_threads(3) reduction(+ : bad, lines)
    {
        char want[128], buf[128];
        snprintf(want, sizeof want, "L1 n%d N%d a0", omp_get_thread_num(), omp_get_num_threads());
        omp_capture_affinity(buf, sizeof buf, "L%L n%n N%N a%a");
        bad += strcmp(buf, want) != 0;
        lines++;
#pragma omp parallel num_threads(2) reduction(+ : bad, lines)
        {
            /* Nested: active only if max-active-levels allows it. */
            snprintf(want, sizeof want, "L2 n%d N%d a%d", omp_get_thread_num(),
                     omp_get_num_threads(), omp_get_ancestor_thread_num(1));
            omp_capture_affinity(buf, sizeof buf, "L%L n%n N%N a%a");
            bad += strcmp(buf, want) != 0;
            lines++;
        }
    }
    CHECK(bad == 0, "%d of %d captures in (nested) teams were wrong", bad, lines);
}

static int team_bad;
__attribute__((noinline)) static void capture_team(void)
{
    char want[64], buf[64];
    snprintf(want, sizeof want, "%d/%d", omp_get_team_num(), omp_get_num_teams());
    omp_capture_affinity(buf, sizeof buf, "%t/%{num_teams}");
    if (strcmp(buf, want) || omp_get_num_teams() != 4)
        __atomic_add_fetch(&team_bad, 1, __ATOMIC_RELAXED);
}

static void host_teams(void)
{
#pragma omp teams num_teams(4)
    capture_team();
    CHECK(team_bad == 0, "%d wrong %%t/%%T captures in host teams", team_bad);
}

/* omp_display_affinity writes one line to stderr. */
static void display(void)
{
    fflush(stderr);
    char path[] = "/tmp/xomp_affinity_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp failed");
    if (fd < 0)
        return;
    int saved = dup(STDERR_FILENO);
    dup2(fd, STDERR_FILENO);
    omp_display_affinity("first %n of %N");
    omp_set_affinity_format("second %L");
    omp_display_affinity(NULL);
    omp_display_affinity("");
    fflush(stderr);
    dup2(saved, STDERR_FILENO);
    close(saved);
    char text[256] = {0};
    ssize_t n = pread(fd, text, sizeof text - 1, 0);
    close(fd);
    unlink(path);
    CHECK(n > 0 && !strcmp(text, "first 0 of 1\nsecond 0\nsecond 0\n"),
          "omp_display_affinity wrote '%s'", text);
}

int main(void)
{
    cpu_list(cpus, sizeof cpus);
    if (gethostname(host, sizeof host - 1))
        strcpy(host, "node");
    fields();
    format_var();
    in_teams();
    host_teams();
    display();
    return test_result();
}
