"""Benchmarks for `companion bench NAME`: each module defines NAME, HELP, configure(parser), run(args)."""

from __future__ import annotations

import importlib
import resource
import sys
from types import ModuleType

# The benchmarks, by module name (each defines NAME, HELP, configure and run).
BENCHMARKS = ("bots", "engine", "listen", "parse", "play")


def benchmark_modules() -> list[ModuleType]:
    return sorted((importlib.import_module(f"{__name__}.{name}") for name in BENCHMARKS), key=lambda m: m.NAME)


def percentile(values: list[float], fraction: float) -> float:
    """The value below which `fraction` of `values` lie (nearest rank)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[rank]


def peak_memory_mb() -> float:
    """Peak resident memory of this process so far, in MB.

    On Linux the high-water mark of the process's own memory (VmHWM): ru_maxrss is kept across fork and exec,
    so a bench started by a large process (a test runner at 1.1 GB) reported that process's peak as its own."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024
