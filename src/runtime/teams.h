/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * The teams construct on the host, as libgomp runs it: the encountering
 * thread executes the teams one after another, each as the initial thread
 * of its own contention group.  The team number and count travel in the
 * ICVs (team_num, num_teams), so parallel regions and tasks inside a team
 * see them too.
 *
 * nteams-var and teams-thread-limit-var are device-wide (omp_set_num_teams
 * from any thread changes them for all), as in libgomp.
 */
#ifndef XOMP_TEAMS_H
#define XOMP_TEAMS_H

#include <stdbool.h>

/* GOMP_teams_reg: run fn(data) once per team.  num_teams 0: nteams-var, or
 * 3 when that is 0 too; thread_limit 0: teams-thread-limit-var, or the
 * current thread-limit-var when that is 0 too. */
void xomp_teams_run(void (*fn)(void *), void *data, unsigned num_teams, unsigned thread_limit,
                    const void *codeptr);

/* GOMP_teams4 (a teams construct inside a host-fallback target region): true
 * while there is a team to run; the first call starts at team 0 of
 * max(num_teams_low, 1).  `codeptr`: the construct's address (OMPT). */
bool xomp_teams_next(unsigned num_teams_low, unsigned thread_limit, bool first,
                     const void *codeptr);

/* Set thread-limit-var of the current task (0: unchanged). */
void xomp_teams_limit_threads(unsigned thread_limit);

/* nteams-var and teams-thread-limit-var; 0 means unset. */
int xomp_nteams(void);
void xomp_set_nteams(int n);
int xomp_teams_thread_limit(void);
void xomp_set_teams_thread_limit(int n);

/* The calling task's team number and team count (1 outside teams). */
int xomp_team_num(void);
int xomp_num_teams(void);

/* OMP_NUM_TEAMS and OMP_TEAMS_THREAD_LIMIT (called at start-up). */
void xomp_teams_env_init(void);

#endif
