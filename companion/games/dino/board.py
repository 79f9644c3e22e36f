"""The Dino board as data (companion/games/dino/boards/*.yaml): squares, start positions, colours, meteor.

Squares are named by column letter and row number ("B4"). Only what the data can decide is computed here:
which squares share a side, which sides a barrier closes, and the fewest steps a pawn needs from square to
square across open sides. The spaces inside a square are not described, so exact paths are never computed.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from companion.errors import BadInput, RuleViolation
from companion.files import load_shipped_yaml, load_yaml
from companion.games.common import Reason
from companion.games.dino.ids import COLOURS, MAX_PLAYERS, MIN_PLAYERS, PAWNS_PER_PLAYER

BOARDS_DIR = Path(__file__).resolve().parent / "boards"
DEFAULT_BOARD = "default"
SQUARE_LINKS = ("sides",)
UNREACHABLE = -1
# A board names its columns with single letters and its rows with single digits: 26 by 9 squares at most
# (the shipped board is 6 by 6).
MAX_COLUMNS, MAX_ROWS = 26, 9

Border = tuple[str, str]  # two squares that share a side, in board order


@dataclass(frozen=True)
class StartPosition:
    """A time machine: beside `square`, on the `side` of the board, of one pawn colour."""

    square: str
    side: str
    colour: str


@dataclass(frozen=True)
class Board:
    """One board description; build it with Board.from_json or load_board, which check it."""

    id: str
    columns: tuple[str, ...]
    rows: tuple[int, ...]
    pawn_colours: tuple[str, ...]
    egg_colours: tuple[str, ...]
    start_positions: tuple[StartPosition, ...]
    meteor_stones: dict[int, int]
    start_position_steps: int = 1
    spaces_per_square: int = 6
    square_links: str = "sides"
    assumptions: tuple[str, ...] = ()
    spaces: dict[str, Any] = field(default_factory=dict)

    # ---- squares

    @cached_property
    def squares(self) -> tuple[str, ...]:
        """Every square id, column by column ("A1", "A2", ... "F6")."""
        return tuple(f"{column}{row}" for column in self.columns for row in self.rows)

    @cached_property
    def _coordinates(self) -> dict[str, tuple[int, int]]:
        return {f"{column}{row}": (x, y) for x, column in enumerate(self.columns) for y, row in enumerate(self.rows)}

    def is_square(self, square: Any) -> bool:
        return isinstance(square, str) and square in self._coordinates

    def neighbours(self, square: str) -> tuple[str, ...]:
        """The squares sharing a side with `square`."""
        return self._neighbours[square]

    @cached_property
    def _neighbours(self) -> dict[str, tuple[str, ...]]:
        by_place = {place: square for square, place in self._coordinates.items()}
        found: dict[str, tuple[str, ...]] = {}
        for square, (x, y) in self._coordinates.items():
            places = ((x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1))
            found[square] = tuple(by_place[p] for p in places if p in by_place)
        return found

    @cached_property
    def _order(self) -> dict[str, int]:
        """Each square's place in `squares`."""
        return {square: index for index, square in enumerate(self.squares)}

    def border(self, first: str, second: str) -> Border | None:
        """The side shared by two squares (in board order), or None when they do not touch."""
        if not (self.is_square(first) and self.is_square(second)) or second not in self.neighbours(first):
            return None
        return (first, second) if self._order[first] < self._order[second] else (second, first)

    @cached_property
    def borders(self) -> tuple[Border, ...]:
        """Every side shared by two squares: where a barrier may stand."""
        # A square and its neighbour always share a border (never None).
        return tuple(sorted({self.border(s, n) for s in self.squares for n in self.neighbours(s)},  # type: ignore[misc]
                            key=lambda b: (self._order[b[0]], self._order[b[1]])))

    # ---- start positions

    @cached_property
    def start_squares(self) -> frozenset[str]:
        return frozenset(position.square for position in self.start_positions)

    def start_at(self, square: str) -> StartPosition | None:
        return next((p for p in self.start_positions if p.square == square), None)

    def starts_of(self, colour: str) -> tuple[StartPosition, ...]:
        """The start positions of a pawn colour, in the order of the file (the first for pawn 1)."""
        return tuple(p for p in self.start_positions if p.colour == colour)

    # ---- distances

    def distances(self, barriers: Iterable[Border]) -> Distances:
        """Fewest sides to cross from each square to each other (UNREACHABLE when walled off), found for a
        square the first time it is asked about."""
        return Distances(self, frozenset(barriers))

    def distances_from(self, start: str, closed: frozenset[Border]) -> dict[str, int]:
        """Fewest sides to cross from `start` to each square, `closed` sides barred: one search, each square
        and side looked at once."""
        found = dict.fromkeys(self.squares, UNREACHABLE)
        found[start] = 0
        queue = deque([start])
        order, neighbours = self._order, self._neighbours
        while queue:
            square = queue.popleft()
            steps = found[square] + 1
            for neighbour in neighbours[square]:
                if found[neighbour] == UNREACHABLE:
                    side = (square, neighbour) if order[square] < order[neighbour] else (neighbour, square)
                    if side not in closed:
                        found[neighbour] = steps
                        queue.append(neighbour)
        return found

    # ---- meteor

    def meteor_for(self, players: int) -> int:
        """Stones the meteor travels with this many players (the whole track of the data)."""
        return self.meteor_stones[players]

    # ---- files

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "columns": list(self.columns), "rows": list(self.rows),
                "pawn_colours": list(self.pawn_colours), "egg_colours": list(self.egg_colours),
                "start_positions": [{"square": p.square, "side": p.side, "colour": p.colour}
                                    for p in self.start_positions],
                "meteor_stones": {str(k): v for k, v in sorted(self.meteor_stones.items())},
                "start_position_steps": self.start_position_steps, "spaces_per_square": self.spaces_per_square,
                "square_links": self.square_links, "spaces": dict(self.spaces),
                "assumptions": list(self.assumptions)}

    @classmethod
    def from_json(cls, data: Any, where: str = "board") -> Board:
        """A board from its data; anything malformed is refused as BadInput naming the field."""
        if not isinstance(data, dict):
            raise BadInput(f"{where}: a board is a mapping of fields")
        reader = _Reader(data, where)
        columns = tuple(reader.strings("columns"))
        rows = tuple(reader.ints("rows"))
        if len(columns) > MAX_COLUMNS or len(rows) > MAX_ROWS:  # before a square is counted or a side searched
            raise RuleViolation(f"{where}: a board has at most {MAX_COLUMNS} columns and {MAX_ROWS} rows",
                                Reason("dino_board_too_big", {"columns": len(columns), "rows": len(rows),
                                                              "most_columns": MAX_COLUMNS, "most_rows": MAX_ROWS}))
        if any(len(column) != 1 or not column.isalpha() for column in columns):
            raise BadInput(f"{where}: columns are single letters, not {list(columns)}")
        if any(not 1 <= row <= 9 for row in rows):
            raise BadInput(f"{where}: rows are numbers from 1 to 9, not {list(rows)}")
        board = cls(
            id=str(data.get("id", "custom")), columns=columns, rows=rows,
            pawn_colours=tuple(reader.colours("pawn_colours")), egg_colours=tuple(reader.colours("egg_colours")),
            start_positions=tuple(reader.start_positions()), meteor_stones=reader.meteor(),
            start_position_steps=reader.small_int("start_position_steps", 1, 0, 4),
            spaces_per_square=reader.small_int("spaces_per_square", 6, 1, 9),
            square_links=reader.choice("square_links", SQUARE_LINKS),
            assumptions=tuple(str(a) for a in data.get("assumptions") or ()),
            spaces=dict(data.get("spaces") or {}))
        board._check(where)
        return board

    def _check(self, where: str) -> None:
        if len(set(self.squares)) != len(self.columns) * len(self.rows):
            raise BadInput(f"{where}: columns and rows must not repeat")
        for position in self.start_positions:
            if not self.is_square(position.square):
                raise BadInput(f"{where}: start position on unknown square {position.square}")
        if len(self.start_squares) != len(self.start_positions):
            raise BadInput(f"{where}: one start position per square at most")
        for colour in self.pawn_colours:
            if len(self.starts_of(colour)) != PAWNS_PER_PLAYER:
                raise BadInput(f"{where}: pawn colour {colour} needs exactly {PAWNS_PER_PLAYER} start positions")
        if len(set(self.pawn_colours)) < MAX_PLAYERS or len(set(self.egg_colours)) != len(self.egg_colours):
            raise BadInput(f"{where}: {MAX_PLAYERS} different pawn colours and different egg colours are needed")
        if self.spaces:
            raise BadInput(f"{where}: describing the spaces inside squares is not supported yet; leave 'spaces' empty")


class Distances(Mapping[str, dict[str, int]]):
    """The fewest sides to cross between squares, by square of departure (see Board.distances)."""

    def __init__(self, board: Board, closed: frozenset[Border]):
        self._board, self._closed = board, closed
        self._found: dict[str, dict[str, int]] = {}

    def __getitem__(self, start: str) -> dict[str, int]:
        found = self._found.get(start)
        if found is None:
            if not self._board.is_square(start):
                raise KeyError(start)
            found = self._found[start] = self._board.distances_from(start, self._closed)
        return found

    def __iter__(self) -> Iterator[str]:
        return iter(self._board.squares)

    def __len__(self) -> int:
        return len(self._board.squares)


class _Reader:
    """Reads the fields of a board mapping, refusing a bad one with a message that names it."""

    def __init__(self, data: dict[str, Any], where: str):
        self.data, self.where = data, where

    def _list(self, name: str) -> list[Any]:
        value = self.data.get(name)
        if not isinstance(value, list) or not value:
            raise BadInput(f"{self.where}: '{name}' must be a non-empty list")
        return value

    def strings(self, name: str) -> list[str]:
        return [str(item) for item in self._list(name)]

    def ints(self, name: str) -> list[int]:
        values = self._list(name)
        if any(type(v) is not int for v in values):
            raise BadInput(f"{self.where}: '{name}' must list whole numbers")
        return values

    def colours(self, name: str) -> list[str]:
        values = self.strings(name)
        unknown = [v for v in values if v not in COLOURS]
        if unknown:
            raise BadInput(f"{self.where}: unknown colour '{unknown[0]}' in '{name}' (known: {', '.join(COLOURS)})")
        return values

    def start_positions(self) -> list[StartPosition]:
        found = []
        for entry in self._list("start_positions"):
            if not isinstance(entry, dict) or not {"square", "colour"} <= set(entry):
                raise BadInput(f"{self.where}: a start position needs a square and a colour: {entry!r}")
            if entry["colour"] not in COLOURS:
                raise BadInput(f"{self.where}: unknown colour '{entry['colour']}' of a start position")
            found.append(StartPosition(str(entry["square"]), str(entry.get("side", "")), str(entry["colour"])))
        return found

    def meteor(self) -> dict[int, int]:
        value = self.data.get("meteor_stones")
        if not isinstance(value, dict):
            raise BadInput(f"{self.where}: 'meteor_stones' maps each player count to a number of stones")
        stones = {}
        for players, count in value.items():
            if not str(players).isdigit() or type(count) is not int or count < 1:
                raise BadInput(f"{self.where}: meteor_stones: {players!r}: {count!r} is not a count of stones")
            stones[int(players)] = count
        missing = [n for n in range(MIN_PLAYERS, MAX_PLAYERS + 1) if n not in stones]
        if missing:
            raise BadInput(f"{self.where}: meteor_stones gives no count for {missing[0]} players")
        return stones

    def small_int(self, name: str, default: int, least: int, most: int) -> int:
        value = self.data.get(name, default)
        if type(value) is not int or not least <= value <= most:
            raise BadInput(f"{self.where}: '{name}' must be a whole number from {least} to {most}")
        return value

    def choice(self, name: str, choices: tuple[str, ...]) -> str:
        value: str = self.data.get(name, choices[0])
        if value not in choices:
            raise BadInput(f"{self.where}: '{name}' must be one of {', '.join(choices)}")
        return value


# The shipped board file, comments included, holds 4 KB; a board file is refused past 64 KiB.
BOARD_LIMIT = 64 << 10
_SQUARE_NAME = (str, int)
# The shape of a board file; Board.from_json checks the values (colours, squares, counts).
BOARD_SCHEMA = {
    "id?": (str, int), "columns": [_SQUARE_NAME], "rows": [int], "pawn_colours": [str], "egg_colours": [str],
    "start_positions": [{"square": _SQUARE_NAME, "colour": str, "side?": str}], "meteor_stones": {...: int},
    "start_position_steps?": int, "spaces_per_square?": int, "square_links?": str, "assumptions?": [str],
    "spaces?": (dict, type(None))}


def load_board(name_or_path: str | Path = DEFAULT_BOARD) -> Board:
    """A board by name (a file of companion/games/dino/boards/) or by path to a YAML file.

    The file is read by companion.files (bounded, no YAML aliases, shape checked; a board of the program's own
    kept parsed between starts): FileRefused if it cannot be used as it is, BadInput naming the field if its
    values do not make a board."""
    path = Path(name_or_path)
    if path.suffix not in (".yaml", ".yml"):
        path = BOARDS_DIR / f"{name_or_path}.yaml"
    load = load_shipped_yaml if path.parent == BOARDS_DIR else load_yaml
    return Board.from_json(load(path, BOARD_LIMIT, BOARD_SCHEMA), where=str(path.name))
