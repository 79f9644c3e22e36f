"""What can happen in a game of Jurassic Snack, as small values that the engine checks, applies and logs.

Squares are the area's names ("B4"); `player` is 0 (blue) or 1 (yellow).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from companion.errors import BadInput
from companion.games.common import action_type


@dataclass(frozen=True)
class Move:
    """`player` slides the `piece` ("diplo": one of theirs; "trex": either T.Rex) from `square` towards `direction`."""

    player: int
    piece: str
    square: str
    direction: str


@dataclass(frozen=True)
class Reveal:
    """Physical tokens: the token just eaten was turned over and shows `token`."""

    player: int
    token: str


@dataclass(frozen=True)
class Hatch:
    """Birth: a Diplo of `player`'s reserve comes onto the empty `square`."""

    player: int
    square: str


@dataclass(frozen=True)
class Scout:
    """Scouting: `player` looks in secret at every grass token of `board`."""

    player: int
    board: str


@dataclass(frozen=True)
class Fly:
    """Air transport (a Diplo) or air strike (a T.Rex): the piece on `source` flies to the empty `target`."""

    player: int
    source: str
    target: str


@dataclass(frozen=True)
class Erupt:
    """Volcanic eruption: the grass tokens on `squares` go back to the box unseen."""

    player: int
    squares: tuple[str, ...]


@dataclass(frozen=True)
class Look:
    """An effect that could not apply: `player` looks in secret at the tokens on `squares`.

    With physical tokens the squares may be left out: the player looked at the table."""

    player: int
    squares: tuple[str, ...] = ()


@dataclass(frozen=True)
class Pass:
    """`player` cannot do anything and ends the turn."""

    player: int


Action = Move | Reveal | Hatch | Scout | Fly | Erupt | Look | Pass
_TYPES: dict[str, type[Action]] = {"move": Move, "reveal": Reveal, "hatch": Hatch, "scout": Scout, "fly": Fly,
                           "erupt": Erupt, "look": Look, "pass": Pass}
_NAMES = {kind: name for name, kind in _TYPES.items()}


def action_to_json(action: Action) -> dict[str, Any]:
    data: dict[str, Any] = {"type": _NAMES[type(action)]}
    for item in fields(action):
        value = getattr(action, item.name)
        data[item.name] = list(value) if isinstance(value, tuple) else value
    return data


def action_from_json(data: Any) -> Action:
    """An action from its JSON form ({"type": "move", ...}); anything else is refused as BadInput."""
    kind = action_type(data, _TYPES, f"a Jurassic Snack action (expected type {', '.join(_TYPES)})")
    values: dict[str, Any] = {}
    for item in fields(kind):
        if item.name not in data:
            if item.name == "squares" and kind is Look:
                continue
            raise BadInput(f"a {data['type']} action needs '{item.name}'")
        values[item.name] = _checked(data["type"], item.name, data[item.name])
    unknown = sorted(set(data) - {"type"} - {item.name for item in fields(kind)})
    if unknown:
        raise BadInput(f"a {data['type']} action has no field '{unknown[0]}'")
    return kind(**values)


def _checked(kind: str, name: str, value: Any) -> Any:
    if name == "player":
        if type(value) is not int:
            raise BadInput(f"a {kind} action needs 'player' as a whole number, not {value!r}")
        return value
    if name == "squares":
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise BadInput(f"a {kind} action needs 'squares' as a list of square names, not {value!r}")
        return tuple(value)
    if not isinstance(value, str):
        raise BadInput(f"a {kind} action needs '{name}' as text, not {value!r}")
    return value
