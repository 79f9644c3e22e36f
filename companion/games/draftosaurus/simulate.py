"""Random full-mode games: each player places a random dinosaur of the hand in a random legal pen (a random
pyramid place), and on the winter board moves the Quarantine's dinosaur to a random legal destination."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TypeVar

from companion.games.common import OVER
from companion.games.draftosaurus.actions import Discard, Place, QuarantineMove
from companion.games.draftosaurus.board import MAX_PLAYERS, MIN_PLAYERS
from companion.games.draftosaurus.engine import DISCARD, MODES, PLACE, ROLL, Game
from companion.games.draftosaurus.options import TRIO_POINTS_CHOICES, Options
from companion.games.draftosaurus.winter_board import WinterBoard
from companion.games.draftosaurus.winter_game import QUARANTINE_MOVES

T = TypeVar("T")


def play_random_game(players: int | Sequence[str], seed: int, options: Options = Options(),
                     board: str = "summer", winter_board: WinterBoard | None = None) -> Game:
    """A finished full-mode game of `players` (names, or how many: P1, P2...) on `board`; `seed` fixes both
    the bag and every choice, so the game is reproducible."""
    choices = random.Random(seed)
    names = [f"P{index + 1}" for index in range(players)] if isinstance(players, int) else list(players)
    game = Game.new(names, options=options, mode="full", seed=seed, board=board, winter_board=winter_board)
    while game.phase != OVER:
        play_random_step(game, choices)
    return game


def random_start(seed: int) -> Game:
    """A new game whose players (how many, who rolls first), rule options, mode and board side are drawn
    from `seed`."""
    choices = random.Random(seed)
    count = choices.randint(MIN_PLAYERS, MAX_PLAYERS)
    options = Options(choices.choice(TRIO_POINTS_CHOICES), choices.random() < 0.5, choices.random() < 0.5)
    return Game.new([f"P{index + 1}" for index in range(count)], options=options, mode=choices.choice(MODES),
                    seed=seed, first_roller=choices.randrange(count), board=choices.choice(("summer", "winter")))


def play_random_step(game: Game, choices: random.Random) -> None:
    """One random legal step: the die, or a placement or discard by each player the game waits for."""
    if game.phase == ROLL:
        game.apply(game.roll_die())
        return
    for player in game.waiting_for():
        phase = game.phase
        if phase == QUARANTINE_MOVES:
            pen, position = _pick(choices, game.quarantine_destinations(player))
            game.apply(QuarantineMove(player, pen, position))
            continue
        species = _pick(choices, game.hand(player))
        if phase == PLACE:
            pen = _pick(choices, game.legal_pens(player, species))
            if pen == "pyramid":
                game.apply(Place(player, species, pen, _pick(choices, game.pyramid_positions(player, species))))
            else:
                game.apply(Place(player, species, pen))
        elif phase == DISCARD:
            game.apply(Discard(player, species))


def _pick(choices: random.Random, items: list[T]) -> T:
    """A random item (random() is several times cheaper than choice(); the tiny bias does not matter here)."""
    return items[int(choices.random() * len(items))]
