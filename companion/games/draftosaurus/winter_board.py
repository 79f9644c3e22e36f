"""The values of the winter board that no rule text gives, as data (companion/games/draftosaurus/boards/).

The two point tables, the capacity of each bank of the Lovers' Bridge, and the area and side of each pen
are printed on the board only. Each value carries whether a table has confirmed it and where it comes from;
`unconfirmed()` lists the ones still to ask, `with_values()` records what a table said.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import RuleViolation
from companion.files import FileRefused, load_shipped_yaml, load_yaml
from companion.games.common import Reason
from companion.games.draftosaurus.ids import WINTER_PENS

BOARDS_DIR = Path(__file__).resolve().parent / "boards"
DEFAULT_WINTER_BOARD = BOARDS_DIR / "winter.yaml"

ENCLOSURE_IDS: tuple[str, ...] = tuple(pen for pen in WINTER_PENS if pen != "river")
WOOD_POINTS, PYRAMID_POINTS = "well_ordered_wood_points", "pyramid_points"
LEFT_CAPACITY, RIGHT_CAPACITY = "lovers_bridge_left_capacity", "lovers_bridge_right_capacity"
AREAS, SIDES = "areas", "sides"
# Every value a winter board file gives, in the order a table is asked for them.
VALUE_KEYS: tuple[str, ...] = (WOOD_POINTS, PYRAMID_POINTS, LEFT_CAPACITY, RIGHT_CAPACITY, AREAS, SIDES)
AREA_CHOICES = ("forest", "grassland")
SIDE_CHOICES = ("cafeteria", "toilets")
TABLE_LENGTH = 6  # both tables have six entries: 1 to 6 dinosaurs in the wood, six places in the pyramid
MOST_POINTS = 100
MOST_BANK_PLACES = 12  # a zoo holds 12 dinosaurs


def _bad(key: str, reason: Reason) -> RuleViolation:
    """The refusal of the value `key` of a board file for `reason` (the key added as board_value)."""
    return RuleViolation(f"winter board: {key}: {reason.code}",
                         Reason(reason.code, {"board_value": key, **reason.params}))


def _unknown(value: Any) -> RuleViolation:
    return RuleViolation(f"winter board: unknown value {value}",
                         Reason("draft_board_unknown_value", {"value": str(value), "board_values": list(VALUE_KEYS)}))


@dataclass(frozen=True)
class BoardValue:
    """One value of the board: `value` as the engine uses it, whether a table confirmed it, and its source."""

    key: str
    value: Any
    confirmed: bool
    source: str

    def to_json(self) -> dict[str, Any]:
        value = dict(self.value) if isinstance(self.value, Mapping) else (
            list(self.value) if isinstance(self.value, tuple) else self.value)
        return {"value": value, "confirmed": self.confirmed, "source": self.source}


def check_value(key: str, value: Any) -> Any:
    """`value` checked for `key` and made immutable (lists become tuples); RuleViolation with a Reason if bad."""
    if key in (WOOD_POINTS, PYRAMID_POINTS):
        if (not isinstance(value, (list, tuple)) or len(value) != TABLE_LENGTH
                or any(type(points) is not int or not 0 <= points <= MOST_POINTS for points in value)):
            raise _bad(key, Reason("draft_board_bad_points", {"count": TABLE_LENGTH, "most": MOST_POINTS}))
        return tuple(value)
    if key in (LEFT_CAPACITY, RIGHT_CAPACITY):
        if type(value) is not int or not 1 <= value <= MOST_BANK_PLACES:
            raise _bad(key, Reason("draft_board_bad_capacity", {"least": 1, "most": MOST_BANK_PLACES}))
        return value
    if key in (AREAS, SIDES):
        choices = AREA_CHOICES if key == AREAS else SIDE_CHOICES
        if (not isinstance(value, Mapping) or set(value) != set(ENCLOSURE_IDS)
                or any(value[pen] not in choices for pen in ENCLOSURE_IDS)):
            raise _bad(key, Reason("draft_board_bad_areas") if key == AREAS else Reason("draft_board_bad_sides"))
        if key == SIDES and value["lovers_bridge_left"] == value["lovers_bridge_right"]:
            raise _bad(key, Reason("draft_board_banks_same_side"))
        return {pen: value[pen] for pen in ENCLOSURE_IDS}
    raise _unknown(key)


@dataclass(frozen=True)
class WinterBoard:
    """The winter board's printed values; build it with from_json or load_winter_board, which check it."""

    id: str
    values: Mapping[str, BoardValue]

    @property
    def wood_points(self) -> tuple[int, ...]:
        """Points of the Well-Ordered Wood by number of dinosaurs, from 0 (0 points) to 6."""
        return (0, *self.values[WOOD_POINTS].value)

    @property
    def pyramid_points(self) -> tuple[int, ...]:
        """Points of each place of the Pyramid, in PYRAMID_POSITIONS order."""
        points: tuple[int, ...] = self.values[PYRAMID_POINTS].value
        return points

    def capacity(self, pen: str) -> int:
        """Places on one bank of the Lovers' Bridge."""
        places: int = self.values[f"{pen}_capacity"].value
        return places

    def area(self, pen: str) -> str:
        """forest or grassland."""
        area: str = self.values[AREAS].value[pen]
        return area

    def side(self, pen: str) -> str:
        """cafeteria (left of the river) or toilets (right of it)."""
        side: str = self.values[SIDES].value[pen]
        return side

    def unconfirmed(self) -> tuple[str, ...]:
        """The keys of the values no table has confirmed yet, in the order to ask them."""
        return tuple(key for key in VALUE_KEYS if not self.values[key].confirmed)

    def with_values(self, told: Mapping[str, Any], source: str = "told by the table") -> WinterBoard:
        """This board with the values a table gave (key -> value), each checked and marked confirmed."""
        values = dict(self.values)
        for key, value in told.items():
            if key not in VALUE_KEYS:
                raise _unknown(key)
            values[key] = BoardValue(key, check_value(key, value), True, source)
        return WinterBoard(self.id, values)

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "values": {key: self.values[key].to_json() for key in VALUE_KEYS}}

    @classmethod
    def from_json(cls, data: Any) -> WinterBoard:
        """A board from its data (a board file's content, or to_json's); anything malformed is refused."""
        if not isinstance(data, Mapping) or not isinstance(data.get("values"), Mapping):
            raise RuleViolation("winter board: not a mapping with values", Reason("draft_board_not_a_mapping"))
        unknown = sorted(set(data) - {"id", "values"}) + sorted(set(data["values"]) - set(VALUE_KEYS))
        if unknown:
            raise _unknown(unknown[0])
        values = {}
        for key in VALUE_KEYS:
            entry = data["values"].get(key)
            if not isinstance(entry, Mapping) or set(entry) - {"value", "confirmed", "source"} or "value" not in entry:
                raise _bad(key, Reason("draft_board_missing_value"))
            confirmed = entry.get("confirmed", False)
            if not isinstance(confirmed, bool):
                raise _bad(key, Reason("draft_board_bad_confirmed"))
            values[key] = BoardValue(key, check_value(key, entry["value"]), confirmed, str(entry.get("source", "")))
        return cls(str(data.get("id", "custom")), values)


# The shipped winter board file holds 4 KB; a board file is refused past 64 KiB.
WINTER_BOARD_LIMIT = 64 << 10


def load_winter_board(path: str | Path = DEFAULT_WINTER_BOARD) -> WinterBoard:
    """The winter board described by a YAML file (default: the one shipped, every value unconfirmed), read by
    companion.files (regular files only, bounded, no YAML aliases; the shipped one kept parsed between starts)."""
    path = Path(path)
    load = load_shipped_yaml if path.parent == BOARDS_DIR else load_yaml
    try:
        data = load(path, WINTER_BOARD_LIMIT)
    except FileRefused as refusal:
        code = "draft_board_file_missing" if refusal.code == "missing" else "draft_board_file_unreadable"
        raise RuleViolation(str(refusal), Reason(code, {"path": str(path)})) from None
    return WinterBoard.from_json(data)
