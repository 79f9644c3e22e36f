"""`companion bench bots` plays seeded games (Draftosaurus, Jurassic Snack, Dino) and prints one line per game and
opponent kind, in the agreed format; `companion bench engine` adds the playout figures of its three paths."""

from __future__ import annotations

import json
import re
import subprocess
import sys

from companion.benchmarks import bots as bench_bots
from companion.benchmarks import engine as bench_engine
from companion.cli import _Parser

LINE = re.compile(r"game=(draftosaurus|jurassic-snack|dino) players=(\d) opponent=(random|greedy) games=(\d+) "
                  r"win_rate=([\d.]+) advice_ms_p50=([\d.]+) advice_ms_p95=([\d.]+)")


def run_bench(module, arguments: list[str], capsys) -> str:
    parser = _Parser(prog=f"companion bench {module.__name__.rpartition('.')[2]}")
    module.configure(parser)
    assert module.run(parser.parse_args(arguments)) == 0
    return capsys.readouterr().out


def test_bench_bots_prints_one_line_per_game_and_opponent_kind(capsys):
    out = run_bench(bench_bots, ["--games", "1", "--seed", "3"], capsys)
    lines = out.splitlines()
    assert len(lines) == 6
    found = [LINE.fullmatch(line) for line in lines]
    assert all(found), lines
    assert [(m.group(1), m.group(2), m.group(3)) for m in found] == [
        ("draftosaurus", "4", "random"), ("draftosaurus", "4", "greedy"),
        ("jurassic-snack", "2", "random"), ("jurassic-snack", "2", "greedy"), ("dino", "2", "random"),
        ("dino", "2", "greedy")]
    for match in found:
        assert match.group(4) == "1" and 0 <= float(match.group(5)) <= 1
        assert 0 < float(match.group(6)) <= float(match.group(7))


def test_bench_bots_json_says_the_targets():
    result = subprocess.run([sys.executable, "-m", "companion", "bench", "bots", "--games", "1", "--json"],
                            capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    targets = {(r["game"], r["opponent"]): r["target"]["win_rate"] for r in report["results"]}
    assert targets == {("draftosaurus", "random"): 0.85, ("draftosaurus", "greedy"): 0.45,
                       ("jurassic-snack", "random"): 0.9, ("jurassic-snack", "greedy"): 0.65,
                       ("dino", "random"): 0.9, ("dino", "greedy"): 0.6}
    assert all(r["target"]["advice_ms_p95"] == 300 and isinstance(r["target"]["met"], bool)
               for r in report["results"])


def test_bench_bots_refuses_no_games():
    result = subprocess.run([sys.executable, "-m", "companion", "bench", "bots", "--games", "0"],
                            capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2 and result.stderr.strip() and not result.stdout


def test_bench_engine_reports_playouts_through_each_path_against_the_engine(capsys):
    out = run_bench(bench_engine, ["--players", "4", "--seconds", "0.05", "--repeats", "1", "--json"], capsys)
    report = json.loads(out)
    paths = {p["path"]: p for p in report["playouts"]}
    assert set(paths) == {"engine", "position", "batch"} and paths["engine"]["ratio_to_engine"] == 1.0
    assert all(p["median_games_per_second"] > 0 for p in paths.values())
    assert [p["path"] for p in report["playouts"] if p["advisor"]] == [report["playout_target"]["path"]] == ["batch"]
    assert report["playout_target"]["games_per_second"] == 10000
