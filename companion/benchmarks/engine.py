"""`companion bench engine`: random full-mode Draftosaurus games per second on each board side (summer, winter),
scoring included, and peak memory.

It also counts playouts: random 4-player summer games with scoring, per second, through the engine, through the
flat Position, and through the numpy batches the strong bots and the advisor play out in, timed in turn in one
run.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from companion.benchmarks import peak_memory_mb
from companion.errors import BadInput
from companion.games.draftosaurus.batch import random_games_totals
from companion.games.draftosaurus.board import MAX_PLAYERS, MIN_PLAYERS
from companion.games.draftosaurus.ids import BOARDS
from companion.games.draftosaurus.playout import random_game_totals
from companion.games.draftosaurus.simulate import play_random_game
from companion.games.draftosaurus.winter_board import WinterBoard, load_winter_board

TARGET_PLAYERS = 4
TARGET_GAMES_PER_SECOND = 2000
TARGET_PLAYOUTS_PER_SECOND = 10000
ADVISOR_PATH = "batch"  # the path the strong bots' and the advisor's playouts take
BATCH_GAMES = 1000  # games side by side in one numpy batch


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seconds", type=float, default=1.0, help="length of one timed run (default 1)")
    parser.add_argument("--repeats", type=int, default=5,
                        help="timed runs per player count; the best shows what one core can do when the "
                             "machine is shared, the median is printed too (default 5)")
    parser.add_argument("--players", default="2,3,4,5", help="player counts to measure, comma separated")
    parser.add_argument("--boards", default=",".join(BOARDS),
                        help="board sides to measure, comma separated (default summer,winter; the target is summer's)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (each game adds one)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--no-playouts", dest="playouts", action="store_false",
                        help="leave out the playout figures (engine, position, batch)")


def timed_run(players_count: int, seconds: float, first_seed: int, board: str = "summer",
              winter_board: WinterBoard | None = None) -> tuple[int, float]:
    """Play and score random games on `board` for about `seconds`: (games played, seconds taken)."""
    games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        play_random_game(players_count, first_seed + games, board=board, winter_board=winter_board).score()
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return games, now - start


def measure(players_count: int, seconds: float, repeats: int, first_seed: int = 0,
            board: str = "summer") -> dict[str, Any]:
    """Games per second (best and median of `repeats` runs) and microseconds per game of the best run."""
    winter_board = load_winter_board() if board == "winter" else None  # read once, outside the timing
    rates = []
    total_games = 0
    for _ in range(repeats):
        games, elapsed = timed_run(players_count, seconds, first_seed + total_games, board, winter_board)
        total_games += games
        rates.append(games / elapsed)
    best = max(rates)
    return {"board": board, "players": players_count, "games": total_games, "runs": repeats,
            "games_per_second": round(best, 1), "median_games_per_second": round(statistics.median(rates), 1),
            "us_per_game": round(1e6 / best, 1)}


def _playout_runner(path: str, first_seed: int) -> Callable[[], int]:
    """A function that plays random 4-player games with scoring through `path` and says how many it played."""
    chooser = random.Random(first_seed)
    seeds = iter(range(first_seed, first_seed + 10 ** 9))

    def engine() -> int:
        play_random_game(TARGET_PLAYERS, next(seeds)).score()
        return 1

    def position() -> int:
        random_game_totals(TARGET_PLAYERS, chooser)
        return 1

    def batch() -> int:
        random_games_totals(BATCH_GAMES, TARGET_PLAYERS, next(seeds))
        return BATCH_GAMES

    return {"engine": engine, "position": position, "batch": batch}[path]


def measure_playouts(seconds: float, repeats: int, first_seed: int = 0) -> list[dict[str, Any]]:
    """Playouts per second through each path, the paths timed in turn (median of `repeats` runs each), with
    each path's ratio to the engine measured in the same run."""
    paths = ("engine", "position", "batch")
    runners = {path: _playout_runner(path, first_seed) for path in paths}
    rates: dict[str, list[float]] = {path: [] for path in paths}
    for _ in range(repeats):
        for path in paths:
            games = 0
            start = time.perf_counter()
            while (elapsed := time.perf_counter() - start) < seconds:
                games += runners[path]()
            rates[path].append(games / elapsed)
    engine = statistics.median(rates["engine"])
    return [{"path": path, "players": TARGET_PLAYERS, "runs": repeats,
             "median_games_per_second": round(statistics.median(rates[path]), 1),
             "ratio_to_engine": round(statistics.median(rates[path]) / engine, 2),
             "advisor": path == ADVISOR_PATH} for path in paths]


def _player_counts(text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise BadInput(f"--players takes numbers separated by commas, not '{text}'") from None
    if not counts or any(not MIN_PLAYERS <= count <= MAX_PLAYERS for count in counts):
        raise BadInput(f"--players: each count must be from {MIN_PLAYERS} to {MAX_PLAYERS}")
    return counts


def _boards(text: str) -> list[str]:
    boards = [part.strip() for part in text.split(",") if part.strip()]
    if not boards or any(board not in BOARDS for board in boards):
        raise BadInput(f"--boards takes {' and '.join(BOARDS)}, separated by commas, not '{text}'")
    return boards


def run(args: argparse.Namespace) -> int:
    if args.seconds <= 0 or args.repeats < 1:
        raise BadInput("--seconds must be more than 0 and --repeats at least 1")
    counts = _player_counts(args.players)
    # Summer and winter alternate for each player count, so a drift of the shared machine touches both alike.
    results = [measure(count, args.seconds, args.repeats, args.seed, board)
               for count in counts for board in _boards(args.boards)]
    playouts = measure_playouts(args.seconds, args.repeats, args.seed) if args.playouts else []
    target = next((r for r in results if r["players"] == TARGET_PLAYERS and r["board"] == "summer"), None)
    advisor = next((p for p in playouts if p["advisor"]), None)
    report: dict[str, Any] = {"benchmark": "engine", "results": results, "playouts": playouts,
              "peak_memory_mb": round(peak_memory_mb(), 1),
              "target": {"players": TARGET_PLAYERS, "games_per_second": TARGET_GAMES_PER_SECOND,
                         "met": None if target is None else target["games_per_second"] >= TARGET_GAMES_PER_SECOND},
              "playout_target": {"path": ADVISOR_PATH, "games_per_second": TARGET_PLAYOUTS_PER_SECOND,
                                 "met": None if advisor is None
                                 else advisor["median_games_per_second"] >= TARGET_PLAYOUTS_PER_SECOND}}
    if args.json:
        print(json.dumps(report))
        return 0
    for result in results:
        print(" ".join(f"{key}={value}" for key, value in result.items()))
    for playout in playouts:
        print("playouts " + " ".join(f"{key}={value}" for key, value in playout.items()))
    print(f"peak_memory_mb={report['peak_memory_mb']}")
    for name in ("target", "playout_target"):
        print(" ".join(f"{name}_{key}={value}" for key, value in report[name].items()))
    return 0
