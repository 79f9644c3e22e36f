"""The benchmarks' peak memory is the measured process's own, not that of the process that started it."""

from __future__ import annotations

import subprocess
import sys

import pytest


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel keeps ru_maxrss across exec on Linux")
def test_a_small_bench_started_by_a_large_process_reports_its_own_peak():
    held = bytearray(400 * 1024 * 1024)  # the starting process holds 400 MB, as a long test run does
    code = "from companion.benchmarks import peak_memory_mb; print(peak_memory_mb())"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert len(held) and float(result.stdout) < 200, result.stdout
