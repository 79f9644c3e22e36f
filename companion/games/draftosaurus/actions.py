"""What can happen in a game of Draftosaurus, as small values that the engine checks, applies and logs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.errors import BadInput
from companion.games.common import action_type, json_field


def _plain(value: Any) -> Any:
    """A canonical id as a plain string (enum members become their value)."""
    return getattr(value, "value", value)


@dataclass(frozen=True)
class Roll:
    """The die was rolled and shows `face` (a DieFace id)."""

    face: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "roll", "face": _plain(self.face)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Roll:
        return cls(json_field(data, "face", str))


def _position(data: dict[str, Any]) -> str | None:
    """The optional pyramid place of a JSON action (a PyramidPosition id)."""
    position = data.get("position")
    if position is not None and not isinstance(position, str):
        raise BadInput(f"a {data.get('type')} action's position must be a pyramid place id or absent, not {position!r}")
    return position


def _with_position(data: dict[str, Any], position: Any) -> dict[str, Any]:
    """`data` with the pyramid place, when there is one (summer actions stay as they always were)."""
    if position is not None:
        data["position"] = _plain(position)
    return data


@dataclass(frozen=True)
class Place:
    """Player `player` (an index) puts one `species` into `pen` (the river included).

    Winter board: in the pyramid, `position` is the place (a PyramidPosition id); it may be left out when
    only one place takes that species, and the game then logs the place it took."""

    player: int
    species: str
    pen: str
    position: str | None = None

    def to_json(self) -> dict[str, Any]:
        return _with_position({"type": "place", "player": self.player, "species": _plain(self.species),
                               "pen": _plain(self.pen)}, self.position)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Place:
        return cls(json_field(data, "player", int), json_field(data, "species", str), json_field(data, "pen", str),
                   _position(data))


@dataclass(frozen=True)
class Discard:
    """Two-player variant: player `player` puts one dinosaur back in the box (None: the table did not say which)."""

    player: int
    species: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard", "player": self.player, "species": _plain(self.species)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Discard:
        species = data.get("species")
        if species is not None and not isinstance(species, str):
            raise BadInput(f"a discard's species must be a species id or null, not {species!r}")
        return cls(json_field(data, "player", int), species)


@dataclass(frozen=True)
class QuarantineMove:
    """Winter board, before scoring: player `player` moves the dinosaur of their Quarantine to `pen` (another
    pen or the river), at pyramid place `position` when it goes there (left out: the only place it can take)."""

    player: int
    pen: str
    position: str | None = None

    def to_json(self) -> dict[str, Any]:
        return _with_position({"type": "quarantine_move", "player": self.player, "pen": _plain(self.pen)},
                              self.position)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> QuarantineMove:
        return cls(json_field(data, "player", int), json_field(data, "pen", str), _position(data))


Action = Roll | Place | Discard | QuarantineMove
_ACTION_TYPES: dict[str, type[Action]] = {"roll": Roll, "place": Place, "discard": Discard,
                                          "quarantine_move": QuarantineMove}


def action_from_json(data: Any) -> Action:
    """An action from its JSON form ({"type": "place", ...}); anything else is refused as BadInput."""
    return action_type(data, _ACTION_TYPES,
                       "an action (expected type roll, place, discard or quarantine_move)").from_json(data)
