/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "binding.h"

void xomp_bind_plan(struct xomp_team *team, struct xomp_thread *master, unsigned proc_bind_clause)
{
    (void)team;
    (void)master;
    (void)proc_bind_clause;
}

void xomp_bind_member(struct xomp_thread *thr, struct xomp_team *team, unsigned id)
{
    (void)thr;
    (void)team;
    (void)id;
}

void xomp_unbind_master(struct xomp_thread *thr, struct xomp_team *team)
{
    (void)thr;
    (void)team;
}
