# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Exceptions shared by the subcommands."""


class UsageError(Exception):
    """A bad command line or setup the user must fix; reported in one line
    with exit status 2, like argparse's own errors, instead of a traceback."""
