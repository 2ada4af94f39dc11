/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/*
 * Thread affinity: OMP_PLACES / OMP_PROC_BIND applied to team members.
 * The master plans a place for every member at region start (the
 * specification's primary/close/spread assignment over the place partition);
 * each member binds its own thread when it starts.
 */
#ifndef XOMP_BINDING_H
#define XOMP_BINDING_H

struct xomp_thread;
struct xomp_team;

void xomp_bind_plan(struct xomp_team *team, struct xomp_thread *master, unsigned proc_bind_clause);
void xomp_bind_member(struct xomp_thread *thr, struct xomp_team *team, unsigned id);
void xomp_unbind_master(struct xomp_thread *thr, struct xomp_team *team);

#endif
