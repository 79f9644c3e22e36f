"""What can happen in a game of Draftosaurus, as small values that the engine checks, applies and logs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Union

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
    def from_json(cls, data: dict[str, Any]) -> "Roll":
        return cls(json_field(data, "face", str))


@dataclass(frozen=True)
class Place:
    """Player `player` (an index) puts one `species` into `pen` (the river included)."""

    player: int
    species: str
    pen: str

    def to_json(self) -> dict[str, Any]:
        return {"type": "place", "player": self.player, "species": _plain(self.species), "pen": _plain(self.pen)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Place":
        return cls(json_field(data, "player", int), json_field(data, "species", str), json_field(data, "pen", str))


@dataclass(frozen=True)
class Discard:
    """Two-player variant: player `player` puts one dinosaur back in the box (None: the table did not say which)."""

    player: int
    species: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"type": "discard", "player": self.player, "species": _plain(self.species)}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "Discard":
        species = data.get("species")
        if species is not None and not isinstance(species, str):
            raise BadInput(f"a discard's species must be a species id or null, not {species!r}")
        return cls(json_field(data, "player", int), species)


Action = Union[Roll, Place, Discard]
_ACTION_TYPES: dict[str, type] = {"roll": Roll, "place": Place, "discard": Discard}


def action_from_json(data: Any) -> Action:
    """An action from its JSON form ({"type": "place", ...}); anything else is refused as BadInput."""
    return action_type(data, _ACTION_TYPES, "an action (expected type roll, place or discard)").from_json(data)
