/* Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0 */
/* Library start-up and the version query. */
#include "../../include/xomp.h"
#include "../runtime/config.h"
#include "abi.h"

void xomp_thread_init(void);

XOMP_EXPORT const char *xomp_version(void)
{
    return XOMP_VERSION_STRING;
}

__attribute__((constructor)) static void xomp_init(void)
{
    xomp_config_init();
    xomp_thread_init();
    if (xomp_cfg.display_env)
        xomp_display_env(xomp_cfg.display_env == 2);
}
