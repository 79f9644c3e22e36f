"""The rules of the race: two pawns start before the first square of a line; each player in turn moves their
pawn 1 to 3 squares on, and must stop on the last square exactly; the first there wins."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Self

from companion.errors import BadInput
from companion.games.common import OVER, LoggedGame, Reason, setup_arguments
from tests.games.race import spec

PLAY = "play"
MOST_STEPS = 3
DEFAULT_SQUARES = 8


@dataclass(frozen=True)
class Advance:
    """`player` moves their pawn `steps` squares on."""

    player: int
    steps: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "advance", "player": self.player, "steps": self.steps}


def action_from_json(data: Any) -> Advance:
    if not isinstance(data, dict) or data.get("type") != "advance":
        raise BadInput(f"not a race action: {data!r}")
    player, steps = data.get("player"), data.get("steps")
    if type(player) is not int or type(steps) is not int:
        raise BadInput("a race action needs a player and steps, as whole numbers")
    return Advance(player, steps)


class Game(LoggedGame):
    """One race in progress; change it only with apply()."""

    SPEC = spec.SPEC
    SAVE_INCONSISTENT = Reason("race_save_inconsistent")
    action_from_json = staticmethod(action_from_json)

    def __init__(self, players: list[str], squares: int = DEFAULT_SQUARES, first: int = 0):
        if len(players) != 2 or players[0] == players[1]:
            raise BadInput("a race is for two players of different names")
        if type(squares) is not int or not MOST_STEPS < squares <= 20:
            raise BadInput("a race line has 4 to 20 squares")
        if first not in (0, 1):
            raise BadInput("the first player is 0 or 1")
        self.players = tuple(players)
        self.squares = squares
        self.first = first
        self.actions: list[Any] = []
        self.positions = [0, 0]  # 0: before the first square
        self.current = first
        self._phase = PLAY

    @classmethod
    def from_setup(cls, setup: Any) -> Self:
        return cls(**setup_arguments(setup, ("players", "squares", "first")))

    def setup_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "squares": self.squares, "first": self.first}

    def snapshot(self) -> dict[str, Any]:
        return {"positions": list(self.positions), "current": self.current, "phase": self._phase}

    def _copy_state(self, twin: Self) -> None:
        twin.positions = list(self.positions)

    @property
    def winner(self) -> int | None:
        return next((player for player, square in enumerate(self.positions) if square == self.squares), None)

    def left(self, player: int) -> int:
        """How many squares `player`'s pawn still has to go."""
        return self.squares - self.positions[player]

    def steps_allowed(self, player: int) -> list[int]:
        return [steps for steps in range(1, MOST_STEPS + 1) if steps <= self.left(player)]

    def refusal(self, action: Any) -> Reason | None:
        if not isinstance(action, Advance):
            return Reason("race_unknown_action", {"value": repr(action)})
        if self._phase == OVER:
            return Reason("race_game_over")
        if action.player not in (0, 1):
            return Reason("race_unknown_player", {"value": str(action.player)})
        if action.player != self.current:
            return Reason("race_not_your_turn", {"player": self.players[self.current]})
        if not 1 <= action.steps <= MOST_STEPS:
            return Reason("race_steps", {"steps": action.steps, "most": MOST_STEPS})
        if action.steps > self.left(action.player):
            return Reason("race_overshoot", {"steps": action.steps, "left": self.left(action.player)})
        return None

    def play(self, action: Any) -> None:
        self.positions[action.player] += action.steps
        self.actions.append(action)
        if self.positions[action.player] == self.squares:
            self._phase = OVER
        else:
            self.current = 1 - self.current

    def legal_actions(self) -> list[Advance]:
        if self._phase == OVER:
            return []
        return [Advance(self.current, steps) for steps in self.steps_allowed(self.current)]


def random_start(seed: int) -> Game:
    """A new race whose length and first player are drawn from `seed`."""
    choices = random.Random(seed)
    return Game(["Ana", "Ben"], squares=choices.randint(MOST_STEPS + 1, 20), first=choices.randrange(2))
