/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
#include "topo.h"

#include "../runtime/config.h"

void xomp_places_init(void) {}
int xomp_places_count(void) { return 0; }
int xomp_place_num_procs(int place) { (void)place; return 0; }
void xomp_place_proc_ids(int place, int *ids) { (void)place; (void)ids; }
int xomp_place_of_cpu(int cpu) { (void)cpu; return -1; }
bool xomp_place_bind_self(int place) { (void)place; return false; }
void xomp_places_print(FILE *f) { fputs(xomp_cfg.places, f); }
