"""What the bots of every game share: seeded decisions, and advice as data (their levels: levels.py).

A bot never sees a Game. Each game builds an observation of one seat (what that player could know at the
table: never another player's hidden hand, an unseen token, the other player's secret look) and a bot turns
an observation into one legal action. Every decision draws its randomness from the bot's seed and the
observation's place in the game, so the same seat in the same situation always gets the same answer.

The advisor ranks the actions of one seat and says why, as a Reason the narration can speak; the runner-up
comes with it when its value is close to the best one's.
"""

from __future__ import annotations

import random
import zlib
from abc import ABC, abstractmethod
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Generic, TypeVar

from companion.errors import BadInput
from companion.games.common import Reason

Observation = TypeVar("Observation")
Choice = TypeVar("Choice")  # the actions a game's bots play
BotT = TypeVar("BotT", bound="Bot[Any, Any]")


def decision_seed(seed: int, key: Hashable) -> int:
    """A 64-bit seed for one decision: the bot's seed and where the decision stands in the game."""
    return (seed & 0xFFFFFFFF) << 32 | zlib.crc32(repr(key).encode())


def decision_random(seed: int, key: Hashable) -> random.Random:
    """The random stream of one decision (see decision_seed)."""
    return random.Random(decision_seed(seed, key))


class Bot(ABC, Generic[Observation, Choice]):
    """A player of one game at one level; `choose` is a pure function of the seed and the observation."""

    level: ClassVar[str]

    def __init__(self, seed: int = 0):
        if type(seed) is not int or seed < 0:
            raise BadInput(f"a bot's seed must be a whole number of 0 or more, not {seed!r}")
        self.seed = seed

    @abstractmethod
    def choose(self, observation: Observation) -> Choice:
        """One legal action for the observed seat."""


@dataclass(frozen=True)
class Suggestion:
    """One action the advisor weighed: its value (higher is better; the scale is the game's) and why."""

    action: Any
    value: float
    reason: Reason


@dataclass(frozen=True)
class Advice:
    """The best action and, when its value is within the game's margin of the best, the runner-up."""

    best: Suggestion
    runner_up: Suggestion | None = None


def ranked_advice(suggestions: Sequence[Suggestion], close: float) -> Advice:
    """The advice from weighed suggestions: the best, and the runner-up if within `close` of it."""
    if not suggestions:
        raise BadInput("there is nothing to advise: no legal action")
    ordered = sorted(suggestions, key=lambda suggestion: -suggestion.value)
    runner_up = ordered[1] if len(ordered) > 1 and ordered[0].value - ordered[1].value <= close else None
    return Advice(ordered[0], runner_up)


def bot_class(bots: Mapping[str, type[BotT]], level: str, game: str) -> type[BotT]:
    """The bot class of `level` among a game's bots; BadInput naming the levels there are."""
    if level not in bots:
        raise BadInput(f"{game} has no bot level '{level}': choose {', '.join(bots)}")
    return bots[level]
