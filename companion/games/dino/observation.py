"""What one seat of a Dino game knows when it must play: its observation.

Everything on the board is in sight: the pawns, the barriers, the eggs left in each nest, the meteor. What the
rules hide is the eggs a player picked up before the last one: each player keeps only the last egg on show and
the others face down (rule text, "Ramasser les oeufs"). So a seat knows its own eggs, and of every other
player the number of eggs and the colour of the one on show; the colours of the eggs face down are only known
as a whole: the eggs the nests have lost, less those the seat can see.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass

from companion.errors import RuleViolation
from companion.games.dino.actions import Meteor
from companion.games.dino.engine import Game


@dataclass(frozen=True)
class DinoObservation:
    """The player to act, a copy of the game in which every other player holds only the egg on show, and
    what the seat cannot see: per player the number of eggs face down (`hidden`), and per colour how many of
    the eggs face down are of it (`unseen`)."""

    seat: int
    game: Game
    hidden: tuple[int, ...]
    unseen: tuple[tuple[str, int], ...]

    def key(self) -> tuple[int, int]:
        return (self.game.turn, self.seat)

    def eggs_guess(self, chooser: random.Random) -> list[list[str]]:
        """Every player's eggs as the seat may picture them: its own and the eggs on show as they are, the
        eggs face down drawn from the unseen colours (they are put before the egg on show)."""
        pool = [colour for colour, count in self.unseen for _ in range(count)]
        chooser.shuffle(pool)
        found = []
        for player, count in enumerate(self.hidden):
            drawn, pool = pool[:count], pool[count:]
            found.append(drawn + self.game.eggs(player))
        return found


def observe(game: Game, seat: int) -> DinoObservation:
    """The observation of `seat`, whose turn it must be (RuleViolation with the engine's Reason otherwise)."""
    reason = game.check(Meteor(seat))
    if reason is not None:
        raise RuleViolation(f"{seat} cannot play now: {reason.code}", reason)
    return observation_of(game, seat)


def observation_of(game: Game, seat: int) -> DinoObservation:
    """What `seat` sees of the game as it stands, whoever is to play."""
    shown: list[list[str]] = []
    hidden: list[int] = []
    unseen = Counter({colour: game.setup.eggs_per_nest - left for colour, (_, left) in game.nests().items()})
    for player in range(len(game.players)):
        eggs = game.eggs(player)
        visible = eggs if player == seat else eggs[-1:]
        shown.append(visible)
        hidden.append(len(eggs) - len(visible))
        unseen.subtract(visible)
    return DinoObservation(seat, game.with_eggs(shown), tuple(hidden),
                           tuple((colour, count) for colour, count in unseen.items() if count > 0))
