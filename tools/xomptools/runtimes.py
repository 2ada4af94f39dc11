# Copyright 2026 The xomp Authors. SPDX-License-Identifier: Apache-2.0
"""The OpenMP runtimes a benchmark compares, and how each is selected.

Every kernel is one gcc-built binary linked against libgomp.so.1; only the
process environment decides which runtime executes it:

- gomp: nothing set, the system's GNU libgomp is loaded.
- llvm: LD_PRELOAD=libomp.so.5 (LLVM libomp implements the GOMP ABI, and a
  preloaded library's GOMP_* symbols win).
- xomp: LD_LIBRARY_PATH=BUILD/lib, where the build puts xomp's libgomp.so.1,
  so the dynamic loader picks it instead of the system one.

A runtime spec may add settings, `xomp:XOMP_PLACEMENT=local,XOMP_QUEUE_SIZE=64`,
so several configurations of one runtime can be compared in one table; the
spec text is the name shown everywhere.  An xomp spec that sets
LD_LIBRARY_PATH=DIR runs the xomp in DIR instead of BUILD/lib, so two builds
can be compared (`xomp:LD_LIBRARY_PATH=build-noprof/lib`).
"""
import glob
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

FAMILIES = ("gomp", "llvm", "xomp")
DEFAULT_RUNTIMES = ("gomp", "llvm", "xomp")

# Debian's libomp5 package first, then any versioned LLVM install.
LIBOMP_CANDIDATES = (
    "/usr/lib/x86_64-linux-gnu/libomp.so.5",
    "/usr/lib/llvm-*/lib/libomp.so.5",
)

_ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class RuntimeSpec:
    """What the user asked for (parsed from `FAMILY[:K=V,...]`).

    `required` is False only for a runtime that came from the defaults and
    is a mere baseline (LLVM libomp): a machine without it still gets a
    useful comparison, so its absence is a note, not a failure.
    """
    name: str
    family: str
    settings: tuple = ()  # ((KEY, VALUE), ...) in the order given
    required: bool = True


def parse_runtime_spec(text: str, required: bool = True) -> RuntimeSpec:
    """Parse `gomp`, `llvm`, `xomp` or `FAMILY:KEY=VALUE,KEY=VALUE`."""
    text = text.strip()
    family, sep, rest = text.partition(":")
    if family not in FAMILIES:
        raise ValueError(f"unknown runtime {family!r} in {text!r} "
                         f"(expected one of {', '.join(FAMILIES)}, optionally "
                         f"followed by :KEY=VALUE,...)")
    settings = []
    if sep:
        if not rest:
            raise ValueError(f"runtime {text!r}: nothing after ':'")
        seen = set()
        for item in rest.split(","):
            key, eq, value = item.partition("=")
            if not eq or not _ENV_NAME.match(key):
                raise ValueError(f"runtime {text!r}: {item!r} is not KEY=VALUE")
            if key in seen:
                raise ValueError(f"runtime {text!r}: {key} given twice")
            if key == "OMP_NUM_THREADS":
                raise ValueError(f"runtime {text!r}: OMP_NUM_THREADS is set by --threads")
            seen.add(key)
            settings.append((key, value))
    return RuntimeSpec(name=text, family=family, settings=tuple(settings),
                       required=required)


def default_specs() -> list:
    """gomp, llvm and xomp; only llvm may be missing without failing."""
    return [parse_runtime_spec(name, required=(name != "llvm"))
            for name in DEFAULT_RUNTIMES]


def find_libomp(candidates=LIBOMP_CANDIDATES):
    """The first existing libomp.so.5 (newest LLVM version for patterns)."""
    for pattern in candidates:
        for path in sorted(glob.glob(pattern), reverse=True):
            if os.path.isfile(path):
                return path
    return None


def xomp_library(build_dir: Path) -> Path:
    return Path(build_dir) / "lib" / "libgomp.so.1"


@dataclass
class Runtime:
    """A spec resolved on this machine: the environment that selects it, or
    why it cannot be used."""
    spec: RuntimeSpec
    library: str = None        # the library it loads, for the report
    unavailable: str = None    # reason, or None when usable
    hint: str = None           # how to make it available
    env: dict = field(default_factory=dict)  # variables to set (before prepends)

    @property
    def name(self):
        return self.spec.name

    @property
    def family(self):
        return self.spec.family


def resolve(spec: RuntimeSpec, build_dir: Path, libomp_candidates=LIBOMP_CANDIDATES) -> Runtime:
    """Find the library behind a spec and the environment that selects it."""
    env = dict(spec.settings)
    if spec.family == "gomp":
        return Runtime(spec, library="system libgomp.so.1", env=env)
    if spec.family == "llvm":
        lib = find_libomp(libomp_candidates)
        if lib is None:
            return Runtime(spec, unavailable="LLVM libomp.so.5 not found",
                           hint="looked for " + ", ".join(libomp_candidates)
                           + "; on Debian: apt install libomp5")
        env["LD_PRELOAD"] = lib
        return Runtime(spec, library=lib, env=env)
    lib = Path(env["LD_LIBRARY_PATH"]) / "libgomp.so.1" if "LD_LIBRARY_PATH" in env \
        else xomp_library(build_dir)
    if not lib.is_file():
        return Runtime(spec, unavailable=f"xomp is not built ({lib} not found)",
                       hint=f"build it: ninja -C {lib.parent.parent}")
    env["LD_LIBRARY_PATH"] = os.path.abspath(lib.parent)
    return Runtime(spec, library=os.path.abspath(lib), env=env)


# Loader variables hold lists; ours go first so they take effect, and what
# the user already had keeps working after them.
_LIST_VARS = {"LD_PRELOAD": " ", "LD_LIBRARY_PATH": ":"}


def run_env(runtime, threads: int, base_env: dict) -> dict:
    """The variables to set for one run (recorded verbatim in results.json).

    `runtime` is None for serial runs, which use the binary as built.
    """
    overlay = {"OMP_NUM_THREADS": str(threads)}
    for key, value in (runtime.env.items() if runtime else ()):
        sep = _LIST_VARS.get(key)
        if sep and base_env.get(key):
            value = value + sep + base_env[key]
        overlay[key] = value
    return overlay
