"""The play area: four 3×3 pasture boards, each with one blue and one yellow egg square, laid side by side.

An assembly is data: for each board, where its south-west square lies (column and row counted from the
south-west corner of the area, in squares) and how many quarter turns clockwise it was turned. Squares are
named like a chess board over the whole area (columns A, B, C… from west to east, rows 1, 2, 3… from south to
north: "B4"), and also by board and local square ("board A, B2", counted the same way on that board as it
lies). Squares that no board covers stop pieces like the edge of the area.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cached_property
from typing import Any

from companion.games.common import Reason, refuse
from companion.games.jurassic_snack.ids import BLUE, COLORS, STEPS, YELLOW

BOARD_SIZE = 3
BOARDS: tuple[str, ...] = ("A", "B", "C", "D")
# Egg squares of each unrotated board, as (x, y) from its top-left square (docs/rules-decisions.md, "Set-up"
# under Jurassic Snack).
EGGS: dict[str, dict[str, tuple[int, int]]] = {
    "A": {BLUE: (1, 1), YELLOW: (1, 2)},
    "B": {BLUE: (0, 1), YELLOW: (2, 1)},
    "C": {BLUE: (2, 2), YELLOW: (0, 0)},
    "D": {BLUE: (1, 2), YELLOW: (1, 1)},
}
COLUMN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

# A layout file (--layout): the placements, or {"boards": placements}; Layout.build checks the values.
_PLACEMENT_SCHEMA = {"board": str, "column": int, "row": int, "rotation?": int}
LAYOUT_SCHEMA = ([_PLACEMENT_SCHEMA], {"boards": [_PLACEMENT_SCHEMA], ...: Any})
LAYOUT_LIMIT = 64 << 10  # four placements take 200 bytes


@dataclass(frozen=True)
class Placement:
    """Where one board lies: its south-west square at (column, row), turned `rotation` quarter turns clockwise."""

    board: str
    column: int
    row: int
    rotation: int = 0

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


DEFAULT_PLACEMENTS = (Placement("A", 0, 3), Placement("B", 3, 3), Placement("C", 0, 0), Placement("D", 3, 0))


def local_egg(board: str, color: str, rotation: int) -> tuple[int, int]:
    """(column, row) of an egg on a board as it lies, counted from the board's south-west square."""
    x, y = EGGS[board][color]
    for _ in range(rotation % 4):
        x, y = BOARD_SIZE - 1 - y, x  # a quarter turn clockwise, in top-left coordinates
    return x, BOARD_SIZE - 1 - y


def square_name(column: int, row: int) -> str:
    return f"{COLUMN_LETTERS[column]}{row + 1}"


def parse_square_name(name: str) -> tuple[int, int] | None:
    """(column, row) of a name like "B4" (any case), or None."""
    text = name.strip().upper() if isinstance(name, str) else ""
    if len(text) < 2 or text[0] not in COLUMN_LETTERS or not text[1:].isdigit():
        return None
    return COLUMN_LETTERS.index(text[0]), int(text[1:]) - 1


class Layout:
    """A checked assembly of the four boards: square names, neighbours, boards and egg squares."""

    def __init__(self, placements: tuple[Placement, ...]):
        """Use Layout.build() (or Layout.default()), which checks the assembly."""
        left = min(p.column for p in placements)
        bottom = min(p.row for p in placements)
        self.placements = tuple(Placement(p.board, p.column - left, p.row - bottom, p.rotation % 4)
                                for p in placements)
        self.width = max(p.column for p in self.placements) + BOARD_SIZE
        self.height = max(p.row for p in self.placements) + BOARD_SIZE
        self.coords: dict[str, tuple[int, int]] = {}
        self.board_of: dict[str, str] = {}
        for placement in self.placements:
            for dc in range(BOARD_SIZE):
                for dr in range(BOARD_SIZE):
                    name = square_name(placement.column + dc, placement.row + dr)
                    self.coords[name] = (placement.column + dc, placement.row + dr)
                    self.board_of[name] = placement.board
        self.at = {xy: name for name, xy in self.coords.items()}
        # Reading order: from the north row down, west to east in each row.
        self.squares: tuple[str, ...] = tuple(sorted(self.coords,
                                                     key=lambda n: (-self.coords[n][1], self.coords[n][0])))

    @classmethod
    def default(cls) -> Layout:
        """The 2×2 square of the first game: A north-west, B north-east, C south-west, D south-east, none turned."""
        return cls(DEFAULT_PLACEMENTS)

    @classmethod
    def build(cls, placements: Any) -> Layout:
        """A layout from placements (Placement values or their JSON); RuleViolation says what is wrong."""
        checked = tuple(_placement(item) for item in _as_list(placements))
        _check_boards(checked)
        return cls(checked)

    @property
    def is_default(self) -> bool:
        return self.placements == DEFAULT_PLACEMENTS

    def to_json(self) -> list[dict[str, Any]]:
        return [placement.to_json() for placement in self.placements]

    @classmethod
    def from_json(cls, data: Any) -> Layout:
        return cls.default() if data is None else cls.build(data)

    # ---- geometry

    def neighbour(self, square: str, direction: str) -> str | None:
        """The square one step away, or None past the edge or where no board lies."""
        column, row = self.coords[square]
        dc, dr = STEPS[direction]
        return self.at.get((column + dc, row + dr))

    def local_name(self, square: str) -> tuple[str, str]:
        """(board, square on that board): ("A", "B2")."""
        placement = self._placement_of(self.board_of[square])
        column, row = self.coords[square]
        return placement.board, square_name(column - placement.column, row - placement.row)

    def square_at(self, board: str, local: str) -> str | None:
        """The area's name of a board's local square ("A", "B2" → "B5" on the default square), or None."""
        position = parse_square_name(local)
        if board not in BOARDS or position is None or not all(0 <= v < BOARD_SIZE for v in position):
            return None
        placement = self._placement_of(board)
        return square_name(placement.column + position[0], placement.row + position[1])

    def board_squares(self, board: str) -> tuple[str, ...]:
        return tuple(square for square in self.squares if self.board_of[square] == board)

    @cached_property
    def eggs(self) -> dict[str, tuple[str, ...]]:
        """Per colour, the egg squares where that colour's Diplos start, in board order."""
        found: dict[str, list[str]] = {color: [] for color in COLORS}
        for placement in sorted(self.placements, key=lambda p: p.board):
            for color in COLORS:
                dc, dr = local_egg(placement.board, color, placement.rotation)
                found[color].append(square_name(placement.column + dc, placement.row + dr))
        return {color: tuple(squares) for color, squares in found.items()}

    def _placement_of(self, board: str) -> Placement:
        return next(p for p in self.placements if p.board == board)


# ---- checks

def _refuse(code: str, **params: Any) -> None:
    refuse(Reason(code, params))


def _as_list(placements: Any) -> list[Any]:
    if not isinstance(placements, (list, tuple)):
        _refuse("js_layout_not_a_list")
    return list(placements)


def _placement(item: Any) -> Placement:
    if isinstance(item, Placement):
        return item
    if not isinstance(item, dict) or set(item) - {"board", "column", "row", "rotation"}:
        _refuse("js_layout_bad_entry", value=str(item))
    values = {"rotation": 0, **item}
    if values.get("board") not in BOARDS:
        _refuse("js_layout_unknown_board", value=str(values.get("board")), known=list(BOARDS))
    for key in ("column", "row", "rotation"):
        if type(values.get(key)) is not int or values[key] < 0:
            _refuse("js_layout_bad_number", board=values["board"], field=key, value=str(values.get(key)))
    if values["rotation"] > 3:
        _refuse("js_layout_bad_number", board=values["board"], field="rotation", value=str(values["rotation"]))
    return Placement(values["board"], values["column"], values["row"], values["rotation"])


def _check_boards(placements: tuple[Placement, ...]) -> None:
    """All four boards once, no overlap, each sharing a whole side with another, one connected area."""
    names = [p.board for p in placements]
    if sorted(names) != sorted(BOARDS):
        _refuse("js_layout_boards", given=names, known=list(BOARDS))
    for index, first in enumerate(placements):
        for second in placements[index + 1:]:
            if abs(first.column - second.column) < BOARD_SIZE and abs(first.row - second.row) < BOARD_SIZE:
                _refuse("js_layout_overlap", first=first.board, second=second.board)
    for placement in placements:
        if not any(_share_side(placement, other) for other in placements if other is not placement):
            _refuse("js_layout_side_alone", board=placement.board)
    if not _connected(placements):
        _refuse("js_layout_not_connected")
    width = max(p.column for p in placements) - min(p.column for p in placements) + BOARD_SIZE
    if width > len(COLUMN_LETTERS):
        _refuse("js_layout_too_wide", width=width, most=len(COLUMN_LETTERS))


def _share_side(first: Placement, second: Placement) -> bool:
    dc, dr = abs(first.column - second.column), abs(first.row - second.row)
    return (dc, dr) in ((BOARD_SIZE, 0), (0, BOARD_SIZE))


def _touch(first: Placement, second: Placement) -> bool:
    """Whether two boards have squares side by side (a part of a side in common is enough)."""
    dc, dr = abs(first.column - second.column), abs(first.row - second.row)
    return (dc == BOARD_SIZE and dr < BOARD_SIZE) or (dr == BOARD_SIZE and dc < BOARD_SIZE)


def _connected(placements: tuple[Placement, ...]) -> bool:
    reached = {0}
    frontier = [0]
    while frontier:
        current = placements[frontier.pop()]
        for index, other in enumerate(placements):
            if index not in reached and _touch(current, other):
                reached.add(index)
                frontier.append(index)
    return len(reached) == len(placements)
