"""The summer board as data: pens, areas, sides, die faces, the bag, and the placement rule of every pen.

Internally species, pens and faces are small ints (their position in SPECIES, PENS, DIE_FACES); a zoo is
a list of 7 lists of species ints, one per pen in PENS order, each from left to right.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.games.common import Reason
from companion.games.draftosaurus.ids import DIE_FACES, PENS, SPECIES

SPECIES_INDEX: dict[str, int] = {name: index for index, name in enumerate(SPECIES)}
PEN_INDEX: dict[str, int] = {name: index for index, name in enumerate(PENS)}
FACE_INDEX: dict[str, int] = {name: index for index, name in enumerate(DIE_FACES)}

TREX = SPECIES_INDEX["trex"]
FOREST_OF_SAMENESS = PEN_INDEX["forest_of_sameness"]
WOODY_TRIO = PEN_INDEX["woody_trio"]
PRAIRIE_OF_LOVE = PEN_INDEX["prairie_of_love"]
KING_OF_THE_JUNGLE = PEN_INDEX["king_of_the_jungle"]
MEADOW_OF_DIFFERENCES = PEN_INDEX["meadow_of_differences"]
SOLITARY_ISLAND = PEN_INDEX["solitary_island"]
RIVER = PEN_INDEX["river"]
ENCLOSURES: tuple[int, ...] = tuple(pen for pen in range(len(PENS)) if pen != RIVER)
NO_FACE = -1  # no die constraint: before the roll, or for the player who rolled

_CAPACITY_BY_ID = {"forest_of_sameness": 6, "woody_trio": 3, "prairie_of_love": 6,
                   "king_of_the_jungle": 1, "meadow_of_differences": 6, "solitary_island": 1}
# Places in each pen, indexed by pen; the river has no limit (a zoo holds 12 dinosaurs at most).
CAPACITY: tuple[int, ...] = tuple(_CAPACITY_BY_ID.get(pen, 10 ** 6) for pen in PENS)
FOREST_AREA = frozenset({FOREST_OF_SAMENESS, WOODY_TRIO, KING_OF_THE_JUNGLE})
GRASSLAND_AREA = frozenset({PRAIRIE_OF_LOVE, MEADOW_OF_DIFFERENCES, SOLITARY_ISLAND})
CAFETERIA_SIDE = frozenset({FOREST_OF_SAMENESS, WOODY_TRIO, PRAIRIE_OF_LOVE})  # left of the river
TOILETS_SIDE = frozenset({KING_OF_THE_JUNGLE, MEADOW_OF_DIFFERENCES, SOLITARY_ISLAND})  # right of it

# The four faces that allow a fixed set of pens (an area or a side), and the reason code for a pen outside it.
DIE_AREA_CODES: dict[str, str] = {"forest": "draft_die_forest", "grassland": "draft_die_grassland",
                                  "toilets": "draft_die_toilets", "cafeteria": "draft_die_cafeteria"}
_FACE_AREAS: dict[str, tuple[frozenset[int], str]] = {
    "forest": (FOREST_AREA, DIE_AREA_CODES["forest"]),
    "grassland": (GRASSLAND_AREA, DIE_AREA_CODES["grassland"]),
    "toilets": (TOILETS_SIDE, DIE_AREA_CODES["toilets"]),
    "cafeteria": (CAFETERIA_SIDE, DIE_AREA_CODES["cafeteria"]),
}
# _FACE_BLOCK[face][pen]: the reason code when that face alone rules the pen out (never the river), else None;
# the last row, _FACE_BLOCK[NO_FACE], rules nothing out.
_FACE_BLOCK: tuple[tuple[str | None, ...], ...] = tuple(
    tuple(None if face not in _FACE_AREAS or pen == RIVER or pen in _FACE_AREAS[face][0] else _FACE_AREAS[face][1]
          for pen in range(len(PENS)))
    for face in (*DIE_FACES, None))
# Per face (and NO_FACE), the pens that face does not rule out by area or side.
_FACE_CANDIDATES: tuple[tuple[int, ...], ...] = tuple(
    tuple(pen for pen in range(len(PENS)) if blocks[pen] is None) for blocks in _FACE_BLOCK)
EMPTY_PEN_FACE = FACE_INDEX["empty_pen"]
NO_TREX_FACE = FACE_INDEX["no_trex"]

BOX_PER_SPECIES = 10
# Figures of each species in the bag, by number of players (1: a zoo scored alone, limited by the box).
BAG_PER_SPECIES: dict[int, int] = {1: BOX_PER_SPECIES, 2: 8, 3: 6, 4: 8, 5: 10}
MIN_PLAYERS, MAX_PLAYERS = 2, 5
DINOSAURS_PER_ZOO = 12
HAND_SIZE = 6


def rounds_and_turns(players: int) -> tuple[int, int]:
    """Rounds in a game and turns in a round: two rounds of a whole hand, or in the 2-player variant four
    rounds of three turns (docs/rules-decisions.md, "The two-player variant")."""
    return (4, 3) if players == 2 else (2, HAND_SIZE)


class RoundClock:
    """The round, the turn within it and whose turn it is to roll, for the fast copies of a game (`Position`,
    `Batch`); the engine keeps its own, which also runs the winter board's last moves."""

    __slots__ = ("players", "roller", "round", "rounds", "turn", "turns")

    def start_clock(self, players: int) -> None:
        self.players = players
        self.rounds, self.turns = rounds_and_turns(self.players)
        self.round = self.turn = self.roller = 0

    def next_turn(self) -> bool:
        """The die passes to the left and the turn ends; True when a new round begins (the caller deals)."""
        self.roller = (self.roller + 1) % self.players
        self.turn += 1
        if self.turn < self.turns:
            return False
        self.round += 1
        self.turn = 0
        return self.round < self.rounds

    @property
    def over(self) -> bool:
        return self.round >= self.rounds


def placement_blocker(zoo: list[list[int]], pen: int, species: int, face: int) -> str | None:
    """The code of the rule that keeps `species` out of `pen` under die `face` (NO_FACE: none), or None."""
    return pen_blockers(zoo, species, face, (pen,))[0]


# A pen's own placement rule: (zoo, pen, species) -> the code that keeps `species` out, or None.
PenRule = Callable[[list[list[int]], int, int], "str | None"]


def blockers(face_blocks: Sequence[str | None], capacity: Sequence[int], own_rules: Sequence[PenRule | None],
             river: int, zoo: list[list[int]], species: int, face: int, pens: Sequence[int]) -> list[str | None]:
    """For each of `pens`, the code of the rule that keeps `species` out of it under die `face`, or None, on
    either side of the board: `face_blocks` (what the face alone rules out, per pen), `capacity` and
    `own_rules` (per pen, None for a pen without one) describe the board.

    The die is checked first (its area or side, then an empty pen, then no T-Rex), then the pen's places,
    then its own rule; the river is always allowed."""
    codes: list[str | None] = []
    for pen in pens:
        code = face_blocks[pen]
        if code is None and pen != river:
            content = zoo[pen]
            if face == EMPTY_PEN_FACE and content:
                code = "draft_pen_not_empty"
            elif face == NO_TREX_FACE and TREX in content:
                code = "draft_pen_has_trex"
            elif len(content) >= capacity[pen]:
                code = "draft_pen_full"
            elif (own_rule := own_rules[pen]) is not None:
                code = own_rule(zoo, pen, species)
        codes.append(code)
    return codes


def _forest_rule(zoo: list[list[int]], pen: int, species: int) -> str | None:
    content = zoo[pen]
    return "draft_forest_other_species" if content and content[0] != species else None


def _meadow_rule(zoo: list[list[int]], pen: int, species: int) -> str | None:
    return "draft_meadow_same_species" if species in zoo[pen] else None


_OWN_RULES: tuple[PenRule | None, ...] = tuple({FOREST_OF_SAMENESS: _forest_rule, MEADOW_OF_DIFFERENCES: _meadow_rule}
                                               .get(pen) for pen in range(len(PENS)))


def pen_blockers(zoo: list[list[int]], species: int, face: int, pens: Sequence[int]) -> list[str | None]:
    """For each of `pens`, the code of the rule that keeps `species` out of it under die `face`, or None.

    The die is checked before the pen's own rule; the river is always allowed.
    """
    return blockers(_FACE_BLOCK[face], CAPACITY, _OWN_RULES, RIVER, zoo, species, face, pens)


def legal_pens(zoo: list[list[int]], species: int, face: int) -> list[int]:
    """Every pen (the river included) where `species` may go now."""
    candidates = _FACE_CANDIDATES[face]
    return [pen for pen, code in zip(candidates, pen_blockers(zoo, species, face, candidates), strict=True)
            if code is None]


_PARAMS: dict[str, Callable[[list[list[int]], int, int, int], dict[str, Any]]] = {
    "draft_pen_full": lambda zoo, pen, species, face: {"capacity": CAPACITY[pen]},
    "draft_forest_other_species": lambda zoo, pen, species, face: {"species": SPECIES[zoo[pen][0]]},
    "draft_meadow_same_species": lambda zoo, pen, species, face: {"species": SPECIES[species]},
}


def placement_reason(code: str, zoo: list[list[int]], pen: int, species: int, face: int) -> Reason:
    """The speakable Reason for a code returned by placement_blocker."""
    params: dict[str, Any] = {"pen": PENS[pen]}
    extra = _PARAMS.get(code)
    params.update(extra(zoo, pen, species, face) if extra else {"face": DIE_FACES[face]})
    return Reason(code, params)


def unknown_id(code: str, value: Any, known: Sequence[str]) -> Reason:
    """A Reason for a word that is not one of the canonical ids `known` (which it lists)."""
    return Reason(code, {"value": str(getattr(value, "value", value)), "known": list(known)})


def empty_zoo() -> list[list[int]]:
    return [[] for _ in PENS]


def zoo_to_ids(zoo: list[list[int]]) -> dict[str, list[str | None]]:
    """A zoo as the API shows it: pen id -> species ids, left to right, every pen present."""
    return {PENS[pen]: [SPECIES[s] for s in content] for pen, content in enumerate(zoo)}


class SummerRules:
    """The summer board's rules behind the interface the engine shares with the winter board's WinterRules."""

    kind = "summer"
    pens = PENS
    pen_index = PEN_INDEX
    capacity = CAPACITY
    empty_zoo = staticmethod(empty_zoo)
    zoo_to_ids = staticmethod(zoo_to_ids)
    pen_blockers = staticmethod(pen_blockers)
    legal_pens = staticmethod(legal_pens)
    placement_reason = staticmethod(placement_reason)

    @staticmethod
    def put(zoo: list[list[int]], pen: int, species: int, position: int | None) -> None:
        """Add one dinosaur (already checked); the summer pens have no places to choose."""
        zoo[pen].append(species)


SUMMER_RULES = SummerRules()
