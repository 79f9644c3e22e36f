"""Random full-mode games: each player places a random dinosaur of the hand in a random legal pen."""

from __future__ import annotations

import random
from typing import Sequence

from companion.games.draftosaurus.actions import Discard, Place
from companion.games.draftosaurus.engine import DISCARD, OVER, PLACE, ROLL, Game
from companion.games.draftosaurus.options import Options


def play_random_game(players: int | Sequence[str], seed: int, options: Options = Options()) -> Game:
    """A finished full-mode game of `players` (names, or how many: P1, P2...); `seed` fixes both the bag and
    every choice, so the game is reproducible."""
    choices = random.Random(seed)
    names = [f"P{index + 1}" for index in range(players)] if isinstance(players, int) else list(players)
    game = Game.new(names, options=options, mode="full", seed=seed)
    while game.phase != OVER:
        play_random_step(game, choices)
    return game


def play_random_step(game: Game, choices: random.Random) -> None:
    """One random legal step: the die, or a placement or discard by each player the game waits for."""
    if game.phase == ROLL:
        game.apply(game.roll_die())
        return
    for player in game.waiting_for():
        species = _pick(choices, game.hand(player))
        if game.phase == PLACE:
            game.apply(Place(player, species, _pick(choices, game.legal_pens(player, species))))
        elif game.phase == DISCARD:
            game.apply(Discard(player, species))


def _pick(choices: random.Random, items: list[str]) -> str:
    """A random item (random() is several times cheaper than choice(); the tiny bias does not matter here)."""
    return items[int(choices.random() * len(items))]
