# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""`xomp report`: reading an xomp profile and turning it into tables and
figures.

`dump` reads and validates a profile directory (the formats are in
docs/profiling.md), `timeline` turns per-thread events into state times,
task sizes and regions (the state machine is in src/prof/README.md),
`tables` formats text tables, `figures` draws the PNGs, and `command` is
the subcommand itself.
"""
