"""`companion bench engine`: random full-mode Draftosaurus games per second on each board side (summer, winter),
scoring included, and peak memory."""

from __future__ import annotations

import argparse
import json
import statistics
import time

from companion.benchmarks import peak_memory_mb
from companion.errors import BadInput
from companion.games.draftosaurus.board import MAX_PLAYERS, MIN_PLAYERS
from companion.games.draftosaurus.ids import BOARDS
from companion.games.draftosaurus.simulate import play_random_game
from companion.games.draftosaurus.winter_board import WinterBoard, load_winter_board

NAME = "engine"
HELP = ("Draftosaurus engine: random full games per second on the summer and winter boards (2 to 5 players, "
        "scoring included) and peak memory.")
TARGET_PLAYERS = 4
TARGET_GAMES_PER_SECOND = 2000


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
            board: str = "summer") -> dict[str, float | str]:
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
    target = next((r for r in results if r["players"] == TARGET_PLAYERS and r["board"] == "summer"), None)
    report = {"benchmark": NAME, "results": results, "peak_memory_mb": round(peak_memory_mb(), 1),
              "target": {"players": TARGET_PLAYERS, "games_per_second": TARGET_GAMES_PER_SECOND,
                         "met": None if target is None else target["games_per_second"] >= TARGET_GAMES_PER_SECOND}}
    if args.json:
        print(json.dumps(report))
        return 0
    for result in results:
        print(" ".join(f"{key}={value}" for key, value in result.items()))
    print(f"peak_memory_mb={report['peak_memory_mb']}")
    print(" ".join(f"target_{key}={value}" for key, value in report["target"].items()))
    return 0
