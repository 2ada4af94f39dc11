# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Command-line entry point: `xomp SUBCOMMAND ...`.

Each subcommand lives in its own module exposing `add_arguments(parser)` and
`main(args, repo_root) -> int`; adding `run`, `report` or `tune` later means
adding one entry to SUBCOMMANDS, nothing else here.
"""
import argparse
import sys
from pathlib import Path

from . import bench
from .errors import UsageError
from .prof import command as report

# name -> (module, one-line help)
SUBCOMMANDS = {
    "bench": (bench, "benchmark the kernels under libgomp, LLVM libomp and xomp"),
    "report": (report, "tables and figures from a profile (XOMP_PROFILE=counters|events)"),
}


def repo_root() -> Path:
    """The checkout this tool belongs to (tools/xomptools/cli.py -> repo).

    Defaults such as the build directory and the results folder are relative
    to it, so the command gives the same result from any working directory.
    """
    return Path(__file__).resolve().parents[2]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="xomp", description="Tools for the xomp OpenMP runtime.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, (module, help_text) in SUBCOMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=module.__doc__,
                           formatter_class=argparse.RawDescriptionHelpFormatter)
        module.add_arguments(p)
    return parser


def main(argv=None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    module, _ = SUBCOMMANDS[args.command]
    try:
        return module.main(args, repo_root())
    except UsageError as err:
        parser.exit(2, f"xomp {args.command}: error: {err}\n")


if __name__ == "__main__":
    sys.exit(main())
