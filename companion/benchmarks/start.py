"""`companion bench start`: how long the program takes to start, as a player feels it at every command.

Each case is a whole process, timed from launch to exit: `companion --version`, and a game with the text engine
and standard input at its end, which stops at the first question (said, then "nothing is saved"). Wall time is
what the player waits; processor time (user and system, of the process alone) is what the machine spent, and
varies less on a busy machine. The saves and settings go to a temporary folder; the cache folder is the user's
own, as at a real start (the warm-up run fills it where it is empty).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass

from companion.benchmarks import percentile
from companion.language.messages import catalog

VERSION_TARGET_S = 0.1
FIRST_QUESTION_TARGET_S = 0.3


@dataclass(frozen=True)
class Case:
    """A command line of `companion`, the first line it must print, and the time it must take."""

    name: str
    args: tuple[str, ...]
    first_line: str
    target_s: float


def cases() -> tuple[Case, ...]:
    from companion import __version__

    return (Case("companion --version", ("--version",), f"companion {__version__}", VERSION_TARGET_S),
            *(Case(f"companion play {game} --engine text --lang {lang}, to the first question",
                   ("play", game, "--engine", "text", "--lang", lang), catalog(lang).say(question),
                   FIRST_QUESTION_TARGET_S)
              for game, lang, question in (("draftosaurus", "fr", "draft.setup.ask_count"),
                                           ("dino", "es", "dino.setup.ask_count"))))


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=9, help="timed runs of each command (default 9)")
    parser.add_argument("--warmup", type=int, default=1, help="runs before those, not timed (default 1)")


def time_case(case: Case, runs: int, warmup: int, home: str) -> tuple[list[float], list[float]]:
    """Wall and processor seconds of `runs` whole processes of `case` (after `warmup` untimed ones)."""
    command = [sys.executable, "-m", "companion", *case.args]
    env = dict(os.environ, COMPANION_HOME=home, COMPANION_CONFIG=os.path.join(home, "config.json"))
    walls, cpus = [], []
    for number in range(warmup + runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        begin = time.perf_counter()
        done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env,
                              check=False)
        wall = time.perf_counter() - begin
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        first = done.stdout.splitlines()[:1]
        if done.returncode != 0 or first != [case.first_line]:
            raise RuntimeError(f"{case.name}: exit code {done.returncode}, first line {first!r}, "
                               f"expected {case.first_line!r}; standard error: {done.stderr.strip()[-300:]}")
        if number >= warmup:
            walls.append(wall)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return walls, cpus


def _figures(values: list[float]) -> str:
    return f"median {percentile(values, 0.5):.3f} s (min {min(values):.3f}, max {max(values):.3f})"


def run(args: argparse.Namespace) -> int:
    runs, warmup = max(1, args.runs), max(0, args.warmup)
    print(f"start-up, whole processes: {runs} timed runs of each command after {warmup} warm-up run(s)")
    with tempfile.TemporaryDirectory(prefix="companion-start-") as home:
        for case in cases():
            walls, cpus = time_case(case, runs, warmup, home)
            print(f"{case.name}: target <= {case.target_s:.1f} s")
            print(f"  wall {_figures(walls)}")
            print(f"  cpu  {_figures(cpus)}")
    return 0
