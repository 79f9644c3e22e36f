"""Random games: every step picks a random legal action (tests, benchmarks)."""

from __future__ import annotations

import random

from companion.games.common import OVER
from companion.games.jurassic_snack.engine import HIDDEN, MODES, Game
from companion.games.jurassic_snack.layout import Layout

MAX_ACTIONS = 5000  # far above any real game: a guard, never reached in practice


def random_start(seed: int) -> Game:
    """A new game with the default layout, its mode (physical or hidden tokens) drawn from `seed`."""
    return Game.new(["Blue", "Yellow"], mode=random.Random(seed).choice(MODES), seed=seed)


def play_random_game(seed: int, mode: str = HIDDEN, layout: Layout | None = None) -> Game:
    """A finished game; `seed` fixes the tokens and every choice, so the game is reproducible."""
    choices = random.Random(seed)
    game = Game.new(["Blue", "Yellow"], mode=mode, seed=seed, layout=layout)
    while game.phase != OVER and len(game.actions) < MAX_ACTIONS:
        legal = game.legal_actions()
        game.apply(legal[int(choices.random() * len(legal))])
    return game
