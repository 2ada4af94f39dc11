# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Python side of the `xomp` command (see tools/xomp).

One module per concern: `cli` parses the command line and dispatches to a
subcommand module (`bench`); `runtimes`, `kernels`, `plan`, `runner`,
`benchline`, `results`, `stats`, `table`, `report`, `machine`, `plots` and
`progress` are the pieces the bench command is assembled from, each usable
(and tested) on its own.
"""
