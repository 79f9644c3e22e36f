"""The winter board's placement rules: the pens, the die, the pyramid's places, the Quarantine's destinations.

A winter zoo is a list of 8 lists: one per pen in WINTER_PENS order (species ints, left to right; the
pyramid's in place order), then GRID, the pyramid's six places (a species int, or EMPTY). put() keeps the
two views of the pyramid together. The values no text gives (areas, sides, bank capacities) come from the
WinterBoard; everything the texts fix is here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.games.common import Reason
from companion.games.draftosaurus.board import DIE_AREA_CODES, NO_FACE, SPECIES_INDEX, PenRule, blockers
from companion.games.draftosaurus.ids import DIE_FACES, PYRAMID_POSITIONS, SPECIES, WINTER_PENS
from companion.games.draftosaurus.winter_board import WinterBoard

WINTER_PEN_INDEX: dict[str, int] = {name: index for index, name in enumerate(WINTER_PENS)}
POSITION_INDEX: dict[str, int] = {name: index for index, name in enumerate(PYRAMID_POSITIONS)}
WOOD, LEFT_BANK, RIGHT_BANK, PYRAMID, LOOKOUT, QUARANTINE, RIVER = (
    WINTER_PEN_INDEX[pen] for pen in ("well_ordered_wood", "lovers_bridge_left", "lovers_bridge_right", "pyramid",
                                      "lookout", "quarantine", "river"))
GRID = len(WINTER_PENS)
EMPTY = -1

WOOD_PLACES = 6  # the alternation 1/2/1/2/1/2 of the texts
PYRAMID_PLACES = len(PYRAMID_POSITIONS)
# The pyramid's rows, bottom first (places in PYRAMID_POSITIONS order), and the row of each place.
ROWS: tuple[tuple[int, ...], ...] = ((0, 1, 2), (3, 4), (5,))
ROW_OF: tuple[int, ...] = tuple(row for row, places in enumerate(ROWS) for _ in places)
# The open row by number of dinosaurs in the pyramid (rows fill in order; None: full).
_OPEN_ROW: tuple[int | None, ...] = (*(row for row, places in enumerate(ROWS) for _ in places), None)
# The places each place touches: side by side in a row, and a middle place with the two bottom places under
# it, the top with both middle places.
TOUCHING: tuple[tuple[int, ...], ...] = ((1, 3), (0, 2, 3, 4), (1, 4), (0, 1, 4, 5), (1, 2, 3, 5), (3, 4))


def open_row(zoo: list[list[int]]) -> int | None:
    """The row the next pyramid dinosaur goes in (the lowest one not full), None when the pyramid is full."""
    return _OPEN_ROW[len(zoo[PYRAMID])]


class WinterRules:
    """The placement rules of the winter board whose printed values `board` gives."""

    kind = "winter"
    pens = WINTER_PENS
    pen_index = WINTER_PEN_INDEX

    def __init__(self, board: WinterBoard):
        self.board = board
        self.capacity: tuple[int, ...] = (WOOD_PLACES, board.capacity("lovers_bridge_left"),
                                          board.capacity("lovers_bridge_right"), PYRAMID_PLACES, 1, 1, 10 ** 6)
        where = {"forest": lambda pen: board.area(pen) == "forest",
                 "grassland": lambda pen: board.area(pen) == "grassland",
                 "cafeteria": lambda pen: board.side(pen) == "cafeteria",
                 "toilets": lambda pen: board.side(pen) == "toilets"}
        # _face_block[face][pen]: the code when that face alone rules the pen out; the last row is NO_FACE.
        self._face_block: tuple[tuple[str | None, ...], ...] = tuple(
            tuple(None if face not in where or pen == RIVER or where[face](WINTER_PENS[pen]) else DIE_AREA_CODES[face]
                  for pen in range(len(WINTER_PENS)))
            for face in (*DIE_FACES, None))
        # Per face (and NO_FACE), the pens that face does not rule out by area or side.
        self._face_candidates: tuple[tuple[int, ...], ...] = tuple(
            tuple(pen for pen in range(len(WINTER_PENS)) if blocks[pen] is None) for blocks in self._face_block)

    # ---- zoos ---------------------------------------------------------------------------------------------

    @staticmethod
    def empty_zoo() -> list[list[int]]:
        return [[] for _ in WINTER_PENS] + [[EMPTY] * PYRAMID_PLACES]

    @staticmethod
    def put(zoo: list[list[int]], pen: int, species: int, position: int | None) -> None:
        """Add one dinosaur (already checked); in the pyramid `position` is its place."""
        if pen != PYRAMID:
            zoo[pen].append(species)
            return
        grid = zoo[GRID]
        grid[position] = species  # type: ignore[index]  # a pyramid place is always given
        zoo[PYRAMID] = [s for s in grid if s != EMPTY]

    @staticmethod
    def zoo_to_ids(zoo: list[list[int]]) -> dict[str, list[str | None]]:
        """A zoo as the API shows it: pen id -> species ids left to right; the pyramid place by place
        (bottom row left to right, middle, top), None for an empty place, empty places at the end left out."""
        shown: dict[str, list[str | None]] = {WINTER_PENS[pen]: [SPECIES[s] for s in zoo[pen]]
                                              for pen in range(len(WINTER_PENS))}
        places = [None if s == EMPTY else SPECIES[s] for s in zoo[GRID]]
        while places and places[-1] is None:
            places.pop()
        shown["pyramid"] = places
        return shown

    # ---- placement ----------------------------------------------------------------------------------------

    def pen_blockers(self, zoo: list[list[int]], species: int, face: int, pens: Sequence[int]) -> list[str | None]:
        """For each of `pens`, the code of the rule that keeps `species` out of it under die `face`, or None.

        The die is checked before the pen's own rule; the river is always allowed. The pyramid is open
        when at least one place of its open row takes `species`."""
        return blockers(self._face_block[face], self.capacity, _OWN_RULES, RIVER, zoo, species, face, pens)

    def legal_pens(self, zoo: list[list[int]], species: int, face: int) -> list[int]:
        """Every pen (the river included) where `species` may go now."""
        pens = self._face_candidates[face]
        return [pen for pen, code in zip(pens, self.pen_blockers(zoo, species, face, pens), strict=True)
                if code is None]

    @staticmethod
    def legal_positions(zoo: list[list[int]], species: int) -> list[int]:
        """The pyramid places `species` may take now: free, in the open row, touching none of its species."""
        row = open_row(zoo)
        if row is None:
            return []
        grid = zoo[GRID]
        return [place for place in ROWS[row]
                if grid[place] == EMPTY and species not in [grid[other] for other in TOUCHING[place]]]

    def position_refusal(self, zoo: list[list[int]], species: int, position: int | None) -> Reason | None:
        """Why `species` cannot take pyramid place `position` (None: the one place it can take), or None.

        Each refusal but a full pyramid or draft_pyramid_no_place (no place would do) lists the places that
        would."""
        if open_row(zoo) is None:
            return Reason("draft_pen_full", {"pen": "pyramid", "capacity": PYRAMID_PLACES})
        legal = self.legal_positions(zoo, species)
        if not legal:
            return Reason("draft_pyramid_no_place", {"pen": "pyramid", "species": SPECIES[species]})
        base = {"pen": "pyramid", "positions": [PYRAMID_POSITIONS[place] for place in legal]}
        if position is None:
            return None if len(legal) == 1 else Reason("draft_pyramid_which_position", base)
        if position in legal:
            return None
        grid = zoo[GRID]
        params = {**base, "position": PYRAMID_POSITIONS[position]}
        if grid[position] != EMPTY:
            return Reason("draft_pyramid_place_taken", {**params, "species": SPECIES[grid[position]]})
        if ROW_OF[position] != open_row(zoo):
            return Reason("draft_pyramid_row_first", params)
        beside = next(other for other in TOUCHING[position] if grid[other] == species)
        return Reason("draft_pyramid_touching", {**params, "species": SPECIES[species],
                                                  "beside": PYRAMID_POSITIONS[beside]})

    def placement_reason(self, code: str, zoo: list[list[int]], pen: int, species: int, face: int) -> Reason:
        """The speakable Reason for a code returned by pen_blockers."""
        params: dict[str, Any] = {"pen": WINTER_PENS[pen]}
        extra = _PARAMS.get(code)
        params.update(extra(self, zoo, pen, species) if extra else {"face": DIE_FACES[face]})
        return Reason(code, params)

    def destinations(self, zoo: list[list[int]]) -> list[tuple[int, int | None]]:
        """Where the Quarantine's dinosaur may go before scoring: (pen, pyramid place or None), in board
        order, the river last. No die binds this move; every pen keeps its own rule."""
        if not zoo[QUARANTINE]:
            return []
        species = zoo[QUARANTINE][0]
        found: list[tuple[int, int | None]] = []
        for pen in self.legal_pens(zoo, species, NO_FACE):
            if pen == PYRAMID:
                found.extend((PYRAMID, place) for place in self.legal_positions(zoo, species))
            elif pen != QUARANTINE:
                found.append((pen, None))
        return found


def _wood_rule(zoo: list[list[int]], pen: int, species: int) -> str | None:
    """The Well-Ordered Wood: the second dinosaur is of another species, then each repeats the one two before."""
    content = zoo[pen]
    if not content:
        return None
    if len(content) == 1:
        return "draft_wood_second_species" if species == content[0] else None
    return None if species == content[-2] else "draft_wood_alternate"


def _pyramid_rule(zoo: list[list[int]], pen: int, species: int) -> str | None:
    """The Pyramid takes `species` when one place of its open row does."""
    return None if WinterRules.legal_positions(zoo, species) else "draft_pyramid_no_place"


_OWN_RULES: tuple[PenRule | None, ...] = tuple({WOOD: _wood_rule, PYRAMID: _pyramid_rule}.get(pen)
                                               for pen in range(len(WINTER_PENS)))


_PARAMS: dict[str, Callable[[WinterRules, list[list[int]], int, int], dict[str, Any]]] = {
    "draft_pen_full": lambda rules, zoo, pen, species: {"capacity": rules.capacity[pen]},
    "draft_wood_second_species": lambda rules, zoo, pen, species: {"species": SPECIES[zoo[pen][0]]},
    "draft_wood_alternate": lambda rules, zoo, pen, species: {"species": SPECIES[zoo[pen][-2]]},
    "draft_pyramid_no_place": lambda rules, zoo, pen, species: {"species": SPECIES[species]},
}


def species_index(value: Any) -> int | None:
    """The int of a species id, None if it is not one."""
    return SPECIES_INDEX.get(value) if isinstance(value, str) else None
