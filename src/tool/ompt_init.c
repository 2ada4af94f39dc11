/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Finding, initializing and finalizing a tool (OpenMP 5.2, 19.2).
 *
 * At the end of the library constructor, on the initial thread:
 *   1. OMP_TOOL: unset, empty or `enabled` looks for a tool; `disabled`
 *      does not; anything else is reported and treated as `disabled`.
 *   2. ompt_start_tool visible in the process (the program or a library it
 *      loaded, or preloaded), else the program's own definition found in
 *      its symbol table (a program linked without -rdynamic does not
 *      export it), else each library of OMP_TOOL_LIBRARIES (paths
 *      separated by ':') in order, opened with dlopen, until one's
 *      ompt_start_tool returns a result.
 *   3. The result's initialize(lookup, initial device, &tool_data): a
 *      non-zero answer attaches the tool.  The hooks go on (and the task
 *      fast paths off, runtime/config.h); the initial thread's
 *      thread_begin and its initial task's implicit_task begin follow.
 * OMP_TOOL_VERBOSE_INIT (disabled, stdout, stderr or a file name) logs the
 * search as LLVM libomp does.
 *
 * Finalization (at exit, or ompt_finalize_tool): the idle pool threads
 * are told to exit and each dispatches its thread_end; then the calling
 * thread's initial task ends and its thread_end; then the tool's finalize.
 * Afterwards no callback is dispatched.
 */
#include "ompt_internal.h"

#include "../runtime/config.h"
#include "../runtime/log.h"
#include "../runtime/team.h"
#include "../runtime/thread.h"

#include <ctype.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

_Atomic bool xomp_ompt_active;

/* The OpenMP version given to ompt_start_tool: 5.2 (_OPENMP 202111). */
#define XOMP_OMPT_OPENMP_VERSION 202111u

typedef ompt_start_tool_result_t *(*start_tool_fn)(unsigned int, const char *);

static ompt_start_tool_result_t *tool;
/* Set once finalization starts (exchange: it runs once). */
static _Atomic bool finalizing;

/* ---- OMP_TOOL_VERBOSE_INIT ---- */

static FILE *verbose;

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
    if (!verbose)
        return;
    va_list ap;
    va_start(ap, fmt);
    vfprintf(verbose, fmt, ap);
    va_end(ap);
    fflush(verbose);
}

/* A value without surrounding blanks, compared without case. */
static bool value_is(const char *value, const char *word)
{
    while (isspace((unsigned char)*value))
        value++;
    size_t n = strlen(word);
    if (strncasecmp(value, word, n) != 0)
        return false;
    for (value += n; *value; value++)
        if (!isspace((unsigned char)*value))
            return false;
    return true;
}

static bool value_blank(const char *value)
{
    while (isspace((unsigned char)*value))
        value++;
    return !*value;
}

static void verbose_open(void)
{
    const char *v = getenv("OMP_TOOL_VERBOSE_INIT");
    if (!v || value_blank(v) || value_is(v, "disabled"))
        return;
    if (value_is(v, "stdout"))
        verbose = stdout;
    else if (value_is(v, "stderr"))
        verbose = stderr;
    else if (!(verbose = fopen(v, "w")))
        xomp_env_invalid("OMP_TOOL_VERBOSE_INIT", v, "stderr (the file cannot be written)");
    if (!verbose)
        verbose = stderr;
}

static void verbose_close(void)
{
    if (verbose && verbose != stdout && verbose != stderr)
        fclose(verbose);
    verbose = NULL;
}

/* tool-var as OMP_DISPLAY_ENV shows it: what xomp_ompt_init decides. */
static bool tool_enabled(const char *setting)
{
    return !setting || value_blank(setting) || value_is(setting, "enabled");
}

void xomp_ompt_display_env(FILE *f)
{
    const char *libs = getenv("OMP_TOOL_LIBRARIES");
    const char *verbose_init = getenv("OMP_TOOL_VERBOSE_INIT");
    fprintf(f, "  OMP_TOOL = '%s'\n", tool_enabled(getenv("OMP_TOOL")) ? "enabled" : "disabled");
    fprintf(f, "  OMP_TOOL_LIBRARIES = '%s'\n", libs ? libs : "");
    fprintf(f, "  OMP_TOOL_VERBOSE_INIT = '%s'\n",
            verbose_init && !value_blank(verbose_init) ? verbose_init : "disabled");
}

/* ---- finding the tool ---- */

static ompt_start_tool_result_t *start(start_tool_fn fn)
{
    return fn(XOMP_OMPT_OPENMP_VERSION, "xomp " XOMP_VERSION_STRING);
}

static ompt_start_tool_result_t *start_from_library(const char *path)
{
    note("Opening %s... ", path);
    dlerror();
    void *h = dlopen(path, RTLD_LAZY);
    if (!h) {
        note("Failed: %s\n", dlerror());
        return NULL;
    }
    note("Success.\n");
    note("Searching for ompt_start_tool in %s... ", path);
    dlerror();
    start_tool_fn fn = (start_tool_fn)dlsym(h, "ompt_start_tool");
    if (!fn) {
        const char *err = dlerror();
        note("Failed: %s\n", err ? err : "ompt_start_tool = NULL");
        dlclose(h);
        return NULL;
    }
    ompt_start_tool_result_t *r = start(fn);
    if (r) {
        note("Success.\n");
        note("Tool was started and is using the OMPT interface.\n");
        return r; /* the library stays loaded as long as the process */
    }
    note("Found but not using the OMPT interface.\n");
    note("Continuing search...\n");
    dlclose(h);
    return NULL;
}

static ompt_start_tool_result_t *find_tool(void)
{
    note("----- START LOGGING OF TOOL REGISTRATION -----\n");
    note("Search for OMP tool in current address space... ");
    start_tool_fn fn = (start_tool_fn)dlsym(RTLD_DEFAULT, "ompt_start_tool");
    if (!fn)
        fn = (start_tool_fn)xomp_ompt_executable_symbol("ompt_start_tool");
    ompt_start_tool_result_t *r = fn ? start(fn) : NULL;
    if (r) {
        note("Success.\n");
        note("Tool was started and is using the OMPT interface.\n");
        note("----- END LOGGING OF TOOL REGISTRATION -----\n");
        return r;
    }
    note("Failed.\n");
    const char *libs = getenv("OMP_TOOL_LIBRARIES");
    if (!libs || value_blank(libs)) {
        note("No OMP_TOOL_LIBRARIES defined.\n");
    } else {
        note("Searching tool libraries...\n");
        note("OMP_TOOL_LIBRARIES = %s\n", libs);
        char *list = strdup(libs);
        if (!list)
            xomp_fatal("out of memory reading OMP_TOOL_LIBRARIES");
        char *save = NULL;
        for (char *path = strtok_r(list, ":", &save); path && !r;
             path = strtok_r(NULL, ":", &save))
            r = start_from_library(path);
        free(list);
    }
    if (!r)
        note("No OMP tool loaded.\n");
    note("----- END LOGGING OF TOOL REGISTRATION -----\n");
    return r;
}

/* ---- initialize and finalize ---- */

/* exit() runs its handlers in the reverse order of their registration,
 * and the one that runs the libraries' destructors (the dynamic linker's)
 * is registered when the program's main startup begins -- after the
 * libraries' constructors, ours included.  A handler registered by our
 * constructor would run after every destructor, the tool's own among them.
 * So it is registered at the first event, from the program's code (as
 * LLVM libomp registers its own at its lazy initialization); the library
 * destructor below covers programs that never reach an event. */
static _Atomic bool exit_handler_registered;

static void finalize_at_exit(void)
{
    xomp_ompt_finalize();
}

void xomp_ompt_exit_handler(void)
{
    /* relaxed: a repeated registration is harmless (finalization runs
     * once); the exchange makes it rare. */
    if (!atomic_load_explicit(&exit_handler_registered, memory_order_relaxed) &&
        !atomic_exchange_explicit(&exit_handler_registered, true, memory_order_relaxed))
        atexit(finalize_at_exit);
}

__attribute__((destructor)) static void finalize_at_unload(void)
{
    xomp_ompt_finalize();
}

void xomp_ompt_init(void)
{
    const char *setting = getenv("OMP_TOOL");
    bool enabled = tool_enabled(setting);
    if (!enabled && !value_is(setting, "disabled"))
        xomp_env_invalid("OMP_TOOL", setting, "disabled (enabled or disabled)");
    verbose_open();
    if (!enabled) {
        note("OMP tool disabled.\n");
        verbose_close();
        return;
    }
    ompt_start_tool_result_t *r = find_tool();
    verbose_close();
    if (!r || !r->initialize)
        return;

    struct xomp_thread *thr = xomp_self();
    /* The entry points answer while the tool initializes (it may look up
     * and register callbacks, ask for its thread's data). */
    tool = r;
    atomic_store_explicit(&xomp_ompt_active, true, memory_order_relaxed);
    thr->ompt.type = ompt_thread_initial; /* for inquiries during initialize */
    int ok = r->initialize(xomp_ompt_lookup, 0 /* omp_get_initial_device() */, &r->tool_data);
    thr->ompt.type = 0;
    if (!ok) {
        /* The tool declined: forget what it registered; no finalize. */
        atomic_store_explicit(&xomp_ompt_active, false, memory_order_relaxed);
        for (int i = 0; i < XOMP_OMPT_EVENTS; i++)
            atomic_store_explicit(&xomp_ompt_callbacks[i], NULL, memory_order_relaxed);
        tool = NULL;
        return;
    }
    /* No other thread exists yet: plain writes of the settings. */
    xomp_cfg.hooks = true;
    xomp_cfg.plain_tasks = false;
    /* (The exit handler is registered later: xomp_ompt_exit_handler.) */
    xomp_ompt_thread_begin(thr, ompt_thread_initial);
}

void xomp_ompt_finalize(void)
{
    if (!tool || atomic_exchange_explicit(&finalizing, true, memory_order_acq_rel))
        return;
    struct xomp_thread *thr = xomp_tls;
    /* Outside any region, the pool threads are idle: each ends itself. */
    if (thr && !thr->team) {
        xomp_team_release_hot_threads(thr);
        xomp_pool_exit_idle(xomp_ompt_thread_end);
    }
    if (thr)
        xomp_ompt_thread_end(thr);
    if (tool->finalize)
        tool->finalize(&tool->tool_data);
    atomic_store_explicit(&xomp_ompt_active, false, memory_order_relaxed);
    for (int i = 0; i < XOMP_OMPT_EVENTS; i++)
        atomic_store_explicit(&xomp_ompt_callbacks[i], NULL, memory_order_relaxed);
}
