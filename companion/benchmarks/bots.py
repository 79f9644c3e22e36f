"""`companion bench bots`: the strong bot's win rate against random and greedy bots, and the time to advise.

Seeded games: for Draftosaurus the strong bot in one seat of four (a different seat each game) against three
bots of one kind, for Jurassic Snack and Dino against one (the first seat one game, the second the next; Dino's
nests and barriers drawn from the game's seed). Every decision of the strong seat is the advisor's best action,
and its time (observation, search and reasons) is what advice_ms counts. A shared win counts 1/k for each of the
k winners. One line per game and opponent kind.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from typing import Any

from companion.benchmarks import percentile
from companion.errors import BadInput
from companion.games.dino import advice as dino_advice
from companion.games.dino import bots as dino_bots
from companion.games.dino.engine import Game as DinoGame
from companion.games.dino.observation import observe as dino_observe
from companion.games.dino.simulate import random_setup as dino_setup
from companion.games.draftosaurus import advice as draft_advice
from companion.games.draftosaurus import bots as draft_bots
from companion.games.draftosaurus.engine import Game as DraftGame
from companion.games.draftosaurus.observation import observe as draft_observe
from companion.games.jurassic_snack import advice as snack_advice
from companion.games.jurassic_snack import bots as snack_bots
from companion.games.jurassic_snack.engine import HIDDEN
from companion.games.jurassic_snack.engine import Game as SnackGame
from companion.games.jurassic_snack.observation import observe as snack_observe

OPPONENTS = ("random", "greedy")
TARGET_WIN_RATES = {("draftosaurus", "random"): 0.85, ("draftosaurus", "greedy"): 0.45,
                    ("jurassic-snack", "random"): 0.9, ("jurassic-snack", "greedy"): 0.65,
                    ("dino", "random"): 0.9, ("dino", "greedy"): 0.6}
TARGET_ADVICE_P95_MS = 300.0
DRAFT_PLAYERS = 4


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--games", type=int, default=100, help="games per game and opponent kind (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (each game adds one)")
    parser.add_argument("--json", action="store_true", help="print one JSON object, with the targets")


def _timed(advise: Callable[[Any], Any], observation: Any, times: list[float]) -> Any:
    start = time.perf_counter()
    action = advise(observation).best.action
    times.append((time.perf_counter() - start) * 1000)
    return action


def draftosaurus_game(opponent: str, seed: int, times: list[float]) -> float:
    """One game, the strong seat's share of the win."""
    hero = seed % DRAFT_PLAYERS
    game = DraftGame.new([f"P{seat + 1}" for seat in range(DRAFT_PLAYERS)], mode="full", seed=seed)
    opponents = {seat: draft_bots.BOTS[opponent](seed * 10 + seat) for seat in range(DRAFT_PLAYERS)}
    while game.phase != "over":
        if game.phase == "roll":
            game.apply(game.roll_die())
            continue
        for seat in game.waiting_for():
            observation = draft_observe(game, seat)
            if seat == hero:
                game.apply(_timed(lambda o: draft_advice.advise(o, seed), observation, times))
            else:
                game.apply(opponents[seat].choose(observation))
    winners = game.score().winners
    return 1 / len(winners) if hero in winners else 0.0


def snack_game(opponent: str, seed: int, times: list[float]) -> float:
    """One game, the strong player's share of the win."""
    hero = seed % 2
    game = SnackGame.new(["Blue", "Yellow"], mode=HIDDEN, seed=seed)
    other = snack_bots.BOTS[opponent](seed * 10 + 1 - hero)
    while game.phase != "over":
        observation = snack_observe(game, game.player)
        if game.player == hero:
            game.apply(_timed(lambda o: snack_advice.advise(o, seed), observation, times))
        else:
            game.apply(other.choose(observation))
    assert game.outcome is not None  # the game is over
    winners = game.outcome.winners
    return 1 / len(winners) if hero in winners else 0.0


def dino_game(opponent: str, seed: int, times: list[float]) -> float:
    """One two-player game, the strong player's share of the win; after the fall each pawn pays the least."""
    hero = seed % 2
    game = DinoGame.new(dino_setup(2, seed))
    other = dino_bots.BOTS[opponent](seed * 10 + 1 - hero)
    while game.phase != "over":
        if game.phase == "penalties":
            game.apply(game.legal_actions()[0])
            continue
        observation = dino_observe(game, game.current_player)
        if game.current_player == hero:
            game.apply(_timed(lambda o: dino_advice.advise(o, seed), observation, times))
        else:
            game.apply(other.choose(observation))
    winners = game.score().winners
    return 1 / len(winners) if hero in winners else 0.0


MATCHES: tuple[tuple[str, int, Callable[[str, int, list[float]], float]], ...] = (
    ("draftosaurus", DRAFT_PLAYERS, draftosaurus_game), ("jurassic-snack", 2, snack_game), ("dino", 2, dino_game))


def measure(game: str, players: int, play: Callable[[str, int, list[float]], float], opponent: str, games: int,
            first_seed: int) -> dict[str, Any]:
    times: list[float] = []
    wins = sum(play(opponent, first_seed + index, times) for index in range(games))
    return {"game": game, "players": players, "opponent": opponent, "games": games,
            "win_rate": round(wins / games, 3), "advice_ms_p50": round(percentile(times, 0.5), 1),
            "advice_ms_p95": round(percentile(times, 0.95), 1)}


def run(args: argparse.Namespace) -> int:
    if args.games < 1:
        raise BadInput("--games must be at least 1")
    results = [measure(game, players, play, opponent, args.games, args.seed)
               for game, players, play in MATCHES for opponent in OPPONENTS]
    if args.json:
        for result in results:
            target = TARGET_WIN_RATES[(result["game"], result["opponent"])]
            result["target"] = {"win_rate": target, "advice_ms_p95": TARGET_ADVICE_P95_MS,
                                "met": result["win_rate"] >= target
                                and result["advice_ms_p95"] <= TARGET_ADVICE_P95_MS}
        print(json.dumps({"benchmark": "bots", "results": results}))
        return 0
    for result in results:
        print(" ".join(f"{key}={value}" for key, value in result.items()))
    return 0
