"""What can happen in a game of Dino, as small values that the engine checks, applies and logs.

Players and pawns are indices from 0 (a player's pawns 0 and 1 start on the first and second start
position of their colour in the board file).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import BadInput
from companion.games.common import action_type, json_field


@dataclass(frozen=True)
class Move:
    """A turn given to one pawn: it walks `steps` spaces and stops in `square`; the points left move the meteor.

    `exit`: the pawn stepped onto the time machine beside `square` and leaves the board.
    `egg`: the colour of the nest, in `square`, the pawn takes one egg from.
    `meteor`: the points the player said go to the meteor (checked: steps + meteor = 4), None if not said.
    """

    player: int
    pawn: int
    steps: int
    square: str
    exit: bool = False
    egg: str | None = None
    meteor: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": "move", "player": self.player, "pawn": self.pawn, "steps": self.steps,
                                "square": self.square}
        if self.exit:
            data["exit"] = True
        if self.egg is not None:
            data["egg"] = self.egg
        if self.meteor is not None:
            data["meteor"] = self.meteor
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Move:
        egg, meteor, leave = data.get("egg"), data.get("meteor"), data.get("exit", False)
        if egg is not None and not isinstance(egg, str):
            raise BadInput(f"a move's egg must be a colour or null, not {egg!r}")
        if meteor is not None and type(meteor) is not int:
            raise BadInput(f"a move's meteor points must be a whole number or null, not {meteor!r}")
        if not isinstance(leave, bool):
            raise BadInput(f"a move's exit must be true or false, not {leave!r}")
        return cls(json_field(data, "player", int), json_field(data, "pawn", int), json_field(data, "steps", int),
                   json_field(data, "square", str), leave, egg, meteor)


@dataclass(frozen=True)
class Meteor:
    """A turn whose four points all move the meteor."""

    player: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "meteor", "player": self.player}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Meteor:
        return cls(json_field(data, "player", int))


@dataclass(frozen=True)
class Penalty:
    """After the fall: the points a pawn still on the board would need to reach a start position."""

    player: int
    pawn: int
    points: int

    def to_json(self) -> dict[str, Any]:
        return {"type": "penalty", "player": self.player, "pawn": self.pawn, "points": self.points}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Penalty:
        return cls(json_field(data, "player", int), json_field(data, "pawn", int), json_field(data, "points", int))


Action = Move | Meteor | Penalty
_ACTION_TYPES: dict[str, type[Action]] = {"move": Move, "meteor": Meteor, "penalty": Penalty}


def action_from_json(data: Any) -> Action:
    """An action from its JSON form ({"type": "move", ...}); anything else is refused as BadInput."""
    return action_type(data, _ACTION_TYPES, "a Dino action (expected type move, meteor or penalty)").from_json(data)
