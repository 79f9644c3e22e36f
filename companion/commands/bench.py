"""`companion bench NAME`: speed and memory measurements (bots, engine, parse, listen, play)."""

from __future__ import annotations

import argparse

from companion.benchmarks import BENCHMARKS
from companion.commands import add_chosen


def configure(parser: argparse.ArgumentParser) -> None:
    add_chosen(parser, "companion.benchmarks", BENCHMARKS, dest="benchmark", metavar="BENCHMARK", required=True)


def run(args: argparse.Namespace) -> int:
    return int(args._benchmark_run(args) or 0)
