"""Scoring of winter-board zoos, the Quarantine's move before it, and the validation of winter zoos from a file.

The points the texts fix are constants here; the two point tables come from the WinterBoard. Players are
named in passing order (each passes to the next), so a player's right-hand neighbour is the one named before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from companion.games.common import Reason
from companion.games.draftosaurus.board import NO_FACE, TREX, unknown_id
from companion.games.draftosaurus.ids import PYRAMID_POSITIONS, SPECIES, WINTER_PENS
from companion.games.draftosaurus.scoring import (
    PlayerScore,
    ScoreSheet,
    check_bag,
    check_zoo_size,
    decide_winners,
    refuse_zoo,
)
from companion.games.draftosaurus.winter import (
    EMPTY,
    GRID,
    LEFT_BANK,
    LOOKOUT,
    PYRAMID,
    QUARANTINE,
    RIGHT_BANK,
    RIVER,
    WINTER_PEN_INDEX,
    WOOD,
    WinterRules,
    species_index,
)

# The points the winter rules fix (docs/rules-decisions.md, "The winter board").
COUPLE_POINTS = 6  # per couple of one species across the Lovers' Bridge
LOOKOUT_POINTS = 2  # per dinosaur of the Lookout's species in the right-hand neighbour's zoo
TREX_BONUS_PER_PEN = 1
# The pens that can earn the T-Rex bonus: every pen but the river, and the Quarantine, always empty once its
# dinosaur has moved before scoring.
TREX_PENS = (WOOD, LEFT_BANK, RIGHT_BANK, PYRAMID, LOOKOUT)

IndexedZoo = list[list[int]]


def pen_counts(zoo: IndexedZoo) -> list[int]:
    """How many of each species the zoo's pens hold; river dinosaurs are not counted, as for the summer
    Solitary Island, where a French text settles it."""
    counts = [0] * len(SPECIES)
    for pen in range(len(WINTER_PENS)):
        if pen != RIVER:
            for species in zoo[pen]:
                counts[species] += 1
    return counts


def zoo_counts(zoo: IndexedZoo) -> list[int]:
    """How many of each species the whole zoo holds, the river included."""
    counts = pen_counts(zoo)
    for species in zoo[RIVER]:
        counts[species] += 1
    return counts


NameT = TypeVar("NameT")  # a player's name, or what stands for it (a seat)


@dataclass(frozen=True)
class Neighbour(Generic[NameT]):
    """Who sits on a player's right, and how many of each species their pens hold."""

    name: NameT
    counts: Sequence[int]


def right_neighbours(names: Sequence[NameT], counts: Sequence[Sequence[int]]) -> list[Neighbour[NameT] | None]:
    """For each seat, its right-hand neighbour: the player named before (the last one for the first);
    with two players, the other one; None for a zoo scored alone."""
    if len(names) < 2:
        return [None] * len(names)
    return [Neighbour(names[index - 1], counts[index - 1]) for index in range(len(names))]


def score_winter(rules: WinterRules, zoos: Sequence[IndexedZoo], names: Sequence[str],
                 neighbours: Sequence[Neighbour[str] | None]) -> ScoreSheet:
    """Score valid winter zoos as they stand (a dinosaur still in the Quarantine scores nothing)."""
    players = [score_zoo(rules, zoo, name, neighbour)
               for zoo, name, neighbour in zip(zoos, names, neighbours, strict=True)]
    winners, reason = decide_winners(players)
    return ScoreSheet(players, winners, reason)


def score_zoo(rules: WinterRules, zoo: IndexedZoo, name: str, neighbour: Neighbour[str] | None) -> PlayerScore:
    details = {
        "well_ordered_wood": _wood(rules, zoo[WOOD]),
        "lovers_bridge": _bridge(zoo[LEFT_BANK], zoo[RIGHT_BANK]),
        "pyramid": _pyramid(rules, zoo[GRID]),
        "lookout": _lookout(zoo[LOOKOUT], neighbour),
        "quarantine": _quarantine(zoo[QUARANTINE]),
        "river": Reason("draft_score_river", {"pen": "river", "count": len(zoo[RIVER]), "points": len(zoo[RIVER])}),
    }
    pens = {pen: detail.params["points"] for pen, detail in details.items()}
    trex_pens = [WINTER_PENS[pen] for pen in TREX_PENS if TREX in zoo[pen]]
    trex_bonus = TREX_BONUS_PER_PEN * len(trex_pens)
    trex_count = zoo_counts(zoo)[TREX]
    return PlayerScore(name, pens, details, trex_bonus, trex_pens, trex_count, sum(pens.values()) + trex_bonus)


def _empty(pen: str) -> Reason:
    return Reason("draft_score_empty", {"pen": pen, "points": 0})


def _wood(rules: WinterRules, content: list[int]) -> Reason:
    if not content:
        return _empty("well_ordered_wood")
    return Reason("draft_score_wood", {"pen": "well_ordered_wood", "count": len(content),
                                       "points": rules.board.wood_points[len(content)]})


def _bridge(left: list[int], right: list[int]) -> Reason:
    if not left and not right:
        return _empty("lovers_bridge")
    couples = sum(min(left.count(species), right.count(species)) for species in set(left))
    return Reason("draft_score_bridge", {"pen": "lovers_bridge", "left": len(left), "right": len(right),
                                         "couples": couples, "points": COUPLE_POINTS * couples})


def _pyramid(rules: WinterRules, grid: list[int]) -> Reason:
    filled = [place for place, species in enumerate(grid) if species != EMPTY]
    if not filled:
        return _empty("pyramid")
    return Reason("draft_score_pyramid", {"pen": "pyramid", "count": len(filled),
                                          "points": sum(rules.board.pyramid_points[place] for place in filled)})


def _lookout(content: list[int], neighbour: Neighbour[str] | None) -> Reason:
    if not content:
        return _empty("lookout")
    species = content[0]
    if neighbour is None:
        return Reason("draft_score_lookout_alone", {"pen": "lookout", "species": SPECIES[species], "points": 0})
    count = neighbour.counts[species]
    return Reason("draft_score_lookout", {"pen": "lookout", "species": SPECIES[species], "neighbour": neighbour.name,
                                          "count": count, "points": LOOKOUT_POINTS * count})


def _quarantine(content: list[int]) -> Reason:
    if not content:
        return _empty("quarantine")
    return Reason("draft_score_quarantine_waiting", {"pen": "quarantine", "species": SPECIES[content[0]],
                                                     "points": 0})


# ---- the Quarantine's move ------------------------------------------------------------------------------

@dataclass(frozen=True)
class QuarantineChoice:
    """One place the Quarantine's dinosaur may go (a pen id, the pyramid place id or None), and the owner's
    total if it goes there."""

    pen: str
    position: str | None
    total: int

    def to_json(self) -> dict[str, Any]:
        return {"pen": self.pen, "position": self.position, "total": self.total}


def quarantine_choices(rules: WinterRules, zoo: IndexedZoo, name: str,
                       neighbour: Neighbour[str] | None) -> list[QuarantineChoice]:
    """Every legal destination of the zoo's Quarantine dinosaur (board order, the river last) with the
    owner's total after that move, the other zoos as they stand; [] when the Quarantine is empty."""
    choices = []
    for pen, place in rules.destinations(zoo):
        moved = move_out_of_quarantine(rules, zoo, pen, place)
        choices.append(QuarantineChoice(WINTER_PENS[pen], None if place is None else PYRAMID_POSITIONS[place],
                                        score_zoo(rules, moved, name, neighbour).total))
    return choices


def best_choice(choices: Sequence[QuarantineChoice]) -> QuarantineChoice | None:
    """The choice with the highest total; on a tie, the first in board order (None if there is no choice)."""
    return max(choices, key=lambda choice: choice.total, default=None)


def move_out_of_quarantine(rules: WinterRules, zoo: IndexedZoo, pen: int, place: int | None) -> IndexedZoo:
    """A copy of the zoo with its Quarantine dinosaur moved to `pen` (at pyramid `place`)."""
    moved = [list(content) for content in zoo]
    species = moved[QUARANTINE].pop()
    rules.put(moved, pen, species, place)
    return moved


# ---- winter zoos from a file ------------------------------------------------------------------------------

def validate_winter_zoos(rules: WinterRules, zoos: Sequence[Any], names: Sequence[str],
                         players_count: int) -> list[IndexedZoo]:
    """Check every zoo against every winter pen rule, 12 dinosaurs at most and the bag limit over all."""
    indexed = [validate_winter_zoo(rules, zoo, name, players_count) for zoo, name in zip(zoos, names, strict=True)]
    check_bag([zoo_counts(zoo) for zoo in indexed], names, players_count)
    return indexed


def validate_winter_zoo(rules: WinterRules, zoo: Any, player: str, players_count: int) -> IndexedZoo:
    """One zoo {pen id: [species ids]}: the pyramid place by place (bottom row left to right, middle, top;
    null for an empty place), the wood left to right. Each dinosaur is placed in that order with no die, so
    a refusal is the one the engine would give; raises ZooRefused naming the player."""
    if not isinstance(zoo, Mapping):
        refuse_zoo(player, Reason("draft_zoo_not_an_object"))
    indexed = rules.empty_zoo()
    for pen_id, content in zoo.items():
        pen = WINTER_PEN_INDEX.get(pen_id)
        if pen is None:
            refuse_zoo(player, unknown_id("draft_unknown_pen", pen_id, WINTER_PENS))
        if not isinstance(content, (list, tuple)):
            refuse_zoo(player, Reason("draft_pen_not_a_list", {"pen": WINTER_PENS[pen]}))
        for place, species_id in enumerate(content):
            if pen == PYRAMID and species_id is None:
                continue
            species = species_index(species_id)
            if species is None:
                refuse_zoo(player, unknown_id("draft_unknown_species", species_id, SPECIES))
            _place(rules, indexed, player, pen, species, place if pen == PYRAMID else None)
    check_zoo_size(zoo_counts(indexed), player, players_count)
    return indexed


def _place(rules: WinterRules, zoo: IndexedZoo, player: str, pen: int, species: int, place: int | None) -> None:
    if place is not None and place >= len(PYRAMID_POSITIONS):
        refuse_zoo(player, Reason("draft_pen_full", {"pen": "pyramid", "capacity": len(PYRAMID_POSITIONS)}))
    blocker = rules.pen_blockers(zoo, species, NO_FACE, (pen,))[0]
    if blocker:
        refuse_zoo(player, rules.placement_reason(blocker, zoo, pen, species, NO_FACE))
    if pen == PYRAMID:
        refusal = rules.position_refusal(zoo, species, place)
        if refusal:
            refuse_zoo(player, refusal)
    rules.put(zoo, pen, species, place)


# ---- winter zoos scored at once (companion score) ---------------------------------------------------------

@dataclass(frozen=True)
class QuarantineMoveMade:
    """The move chosen for one zoo's Quarantine dinosaur before scoring: the best of its legal choices."""

    player: str
    species: str
    choice: QuarantineChoice
    choices: int  # how many legal destinations there were


def score_winter_zoos(rules: WinterRules, zoos: Sequence[Any], names: Sequence[str]
                      ) -> tuple[ScoreSheet, list[QuarantineMoveMade]]:
    """Validate zoos given as {pen id: [species ids]} (players in passing order), move each Quarantine
    dinosaur to its owner's best-scoring legal destination (players in order, each seeing the moves made
    before), then score. Raises ZooRefused for a zoo that cannot exist."""
    indexed = validate_winter_zoos(rules, zoos, names, len(zoos))
    moves: list[QuarantineMoveMade] = []
    for index, zoo in enumerate(indexed):
        if not zoo[QUARANTINE]:
            continue
        neighbour = right_neighbours(names, [pen_counts(other) for other in indexed])[index]
        choices = quarantine_choices(rules, zoo, names[index], neighbour)
        best = best_choice(choices)
        if best is None:  # cannot happen: the river always takes it
            raise AssertionError("a Quarantine dinosaur with nowhere to go")
        moves.append(QuarantineMoveMade(names[index], SPECIES[zoo[QUARANTINE][0]], best, len(choices)))
        indexed[index] = move_out_of_quarantine(rules, zoo, WINTER_PEN_INDEX[best.pen],
                                                None if best.position is None
                                                else PYRAMID_POSITIONS.index(best.position))
    neighbours = right_neighbours(names, [pen_counts(zoo) for zoo in indexed])
    return score_winter(rules, indexed, names, neighbours), moves
