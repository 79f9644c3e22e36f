"""`companion bench play` says a whole game, answers every command and times the answers and start-ups."""

from __future__ import annotations

import re

import pytest

from companion.benchmarks.play import compare_actions
from tests.conftest import run_companion


@pytest.mark.slow
def test_the_play_benchmark_answers_a_whole_spoken_game_and_times_it(grammar_cache):
    # PocketSphinx, the quicker engine: what is checked here is the benchmark's counting and timing
    result = run_companion("bench", "play", "--engine", "sphinx", "--startups", "1",
                           env={"XDG_CACHE_HOME": str(grammar_cache)})
    assert result.returncode == 0, result.stderr
    counts = re.search(r"commands (\d+), answered (\d+), actions applied (\d+), read back for confirmation (\d+)",
                       result.stdout)
    assert counts, result.stdout
    commands, answered, applied, read_back = map(int, counts.groups())
    assert commands == answered == 36 and applied >= 36 and read_back <= commands
    share, wrong, lost = re.search(r"for confirmation \d+ \((\d+)%, target <= 15%\), rolls and moves applied "
                                   r"otherwise than said (\d+), said and not applied (\d+)", result.stdout).groups()
    assert int(share) == round(100 * read_back / commands) and 0 <= int(wrong) <= commands and int(lost) >= 0
    p50, p95 = map(int, re.search(r"answer: p50 (\d+) ms, p95 (\d+) ms", result.stdout).groups())
    assert 0 <= p50 <= p95
    for engine in ("text", "sphinx"):
        median = float(re.search(rf"with {engine}: median ([\d.]+) s", result.stdout).group(1))
        assert 0 < median < 30


def test_a_command_lost_is_not_counted_as_every_later_one_misheard():
    """Three commands not applied (a roll heard as a question, two moves refused for want of it): the rest
    were applied as said, only later."""
    said = ["roll forest", "move 1", "move 2", "roll toilets", "move 3", "move 4", "roll grassland"]
    applied = ["roll toilets", "move 3", "move 4", "roll grassland"]
    assert compare_actions(said, applied) == (0, 3)
    assert compare_actions(said, ["roll forest", "move 9", *said[2:]]) == (1, 0)  # one misheard, in its place
    assert compare_actions(said, [*said, "move 5"]) == (1, 0)
    assert compare_actions(said, said) == (0, 0)
