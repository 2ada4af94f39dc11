# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""Unit tests of the `xomp` command's Python package (tools/xomptools).

Run from the repository root:  python3 -m unittest discover -s tests/tools -t .
"""
import os
import sys

TOOLS_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools")
if os.path.abspath(TOOLS_DIR) not in map(os.path.abspath, sys.path):
    sys.path.insert(0, os.path.abspath(TOOLS_DIR))
