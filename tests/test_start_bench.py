"""`companion bench start` times whole processes of `companion --version` and of games to their first question."""

import re

import pytest

from companion import __version__
from companion.benchmarks import start as bench
from companion.benchmarks.start import FIRST_QUESTION_TARGET_S, VERSION_TARGET_S
from tests.conftest import run_companion


def test_the_start_benchmark_times_each_command_against_its_target(tmp_path):
    result = run_companion("bench", "start", "--runs", "2", "--warmup", "1",
                           env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == "start-up, whole processes: 2 timed runs of each command after 1 warm-up run(s)"
    cases = bench.cases()
    assert [case.target_s for case in cases] == [VERSION_TARGET_S, FIRST_QUESTION_TARGET_S, FIRST_QUESTION_TARGET_S]
    for index, case in enumerate(cases):
        heading, wall, cpu = lines[1 + 3 * index: 4 + 3 * index]
        assert heading == f"{case.name}: target <= {case.target_s:.1f} s"
        for line, kind in ((wall, "wall"), (cpu, "cpu ")):
            found = re.fullmatch(rf"  {kind} median ([\d.]+) s \(min ([\d.]+), max ([\d.]+)\)", line)
            assert found, line
            median, least, most = map(float, found.groups())
            assert 0 < least <= median <= most
    assert len(lines) == 10
    assert any(path.suffix == ".bin" for path in (tmp_path / "cache" / "companion" / "data").iterdir())


def test_a_command_that_does_not_print_its_first_line_is_reported_not_timed(tmp_path):
    wrong = bench.Case("companion --version", ("--version",), "not what it prints", VERSION_TARGET_S)
    with pytest.raises(RuntimeError, match=f"first line \\['companion {re.escape(__version__)}'\\]"):
        bench.time_case(wrong, 1, 0, str(tmp_path))
