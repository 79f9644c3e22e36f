"""`companion bench NAME`: speed and memory measurements (bots, engine, parse, listen, play)."""

from __future__ import annotations

import argparse

from companion.benchmarks import benchmark_modules

NAME = "bench"
HELP = "Measure speed and memory: " + ", ".join(m.NAME for m in benchmark_modules()) + "."


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="benchmark", metavar="BENCHMARK", required=True,
                                parser_class=type(parser))
    for module in benchmark_modules():
        bench_parser = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP)
        module.configure(bench_parser)
        bench_parser.set_defaults(_bench=module.run)


def run(args: argparse.Namespace) -> int:
    return int(args._bench(args) or 0)
