"""What one placement (or discard) brings now, for the greedy bot and for the advisor's reasons.

The gain of a placement is the change of the player's score as the zoos stand (the King of the Jungle and the
Solitary Island judged against the zoos as they are), plus a simple look ahead: half the change of what the
next fitting dinosaur would add to the pens (a forest or meadow that can grow, a trio one short, a single
waiting for its pair).
"""

from __future__ import annotations

from typing import Any

from companion.games.common import Reason
from companion.games.draftosaurus.board import (
    FOREST_OF_SAMENESS,
    KING_OF_THE_JUNGLE,
    MEADOW_OF_DIFFERENCES,
    PRAIRIE_OF_LOVE,
    RIVER,
    SOLITARY_ISLAND,
    TREX,
    WOODY_TRIO,
)
from companion.games.draftosaurus.ids import PENS, SPECIES
from companion.games.draftosaurus.playout import (
    CAPACITY_FOREST,
    CAPACITY_MEADOW,
    CAPACITY_PRAIRIE,
    CAPACITY_TRIO,
    PENS_OF,
    Position,
)
from companion.games.draftosaurus.scoring import FOREST_POINTS, MEADOW_POINTS, PAIR_POINTS

LOOK_AHEAD = 0.5  # weight of what a placement opens, against the points it scores now


def prospects(position: Position, player: int) -> float:
    """The points the next fitting dinosaur would add, summed over the pens that can still take one."""
    found = 0.0
    forest = position.forest[player]
    if 0 < forest < CAPACITY_FOREST:
        found += FOREST_POINTS[forest + 1] - FOREST_POINTS[forest]
    if position.trio[player] == CAPACITY_TRIO - 1:
        found += position.options.trio_points
    if position.prairie_count[player] < CAPACITY_PRAIRIE:
        found += PAIR_POINTS * sum(count & 1 for count in position.prairie[player])
    meadow = position.meadow_count[player]
    if 0 < meadow < CAPACITY_MEADOW:
        found += MEADOW_POINTS[meadow + 1] - MEADOW_POINTS[meadow]
    return found


def placement_points(position: Position, player: int, species: int, pen: int) -> int:
    """How many points `player`'s score changes by, as the zoos stand, if `species` goes into `pen`."""
    after = position.copy()
    after.put(player, species, pen)
    return after.total(player) - position.total(player)


def placement_gain(position: Position, player: int, species: int, pen: int) -> float:
    """The greedy value of a placement: its points now plus LOOK_AHEAD times what it opens."""
    after = position.copy()
    after.put(player, species, pen)
    return (after.total(player) - position.total(player)
            + LOOK_AHEAD * (prospects(after, player) - prospects(position, player)))


def best_placement_gain(position: Position, player: int, species: int) -> float:
    """The best greedy value `player` could make of `species` with no die (what a discard denies)."""
    return max(placement_gain(position, player, species, pen) for pen in PENS_OF[position.open_pens(player, species)])


# ---- reasons ---------------------------------------------------------------------------------------------

def placement_reason(position: Position, player: int, species: int, pen: int) -> Reason:
    """Why this placement, as data: what it does in its pen, the points it scores now (`points`, the whole
    change of the score), the T-Rex bonus it adds, and any other pen whose points it changes."""
    after = position.copy()
    after.put(player, species, pen)
    params: dict[str, Any] = {"species": SPECIES[species], "pen": PENS[pen],
                              "points": after.total(player) - position.total(player)}
    code = _pen_effect(position, after, player, species, pen, params)
    if species == TREX and pen != RIVER and not position.trex_pens[player] >> pen & 1:
        params["trex_bonus"] = 1
    changed = _other_pens_changed(position, after, player, pen)
    if changed:
        params["also"] = changed
    return Reason(code, params)


def discard_reason(position: Position, player: int, receiver: int, species: int) -> Reason:
    """Why put this species back: the best the player who gets the hand could make of it (no die)."""
    denied = max(placement_points(position, receiver, species, pen)
                 for pen in PENS_OF[position.open_pens(receiver, species)])
    return Reason("draft_advice_discard", {"species": SPECIES[species], "denied": denied})


def _pen_effect(before: Position, after: Position, player: int, species: int, pen: int,
                params: dict[str, Any]) -> str:
    if pen == PRAIRIE_OF_LOVE:
        pairs = after.prairie[player][species] % 2 == 0
        params["pen_points"] = PAIR_POINTS if pairs else 0
        if pairs:
            return "draft_advice_pair"
        return "draft_advice_pair_last" if _last_placement(before) else "draft_advice_pair_started"
    if pen == FOREST_OF_SAMENESS:
        count = after.forest[player]
        params.update(count=count, pen_points=FOREST_POINTS[count] - FOREST_POINTS[count - 1])
        return "draft_advice_forest"
    if pen == WOODY_TRIO:
        count = after.trio[player]
        params["count"] = count
        params["pen_points"] = before.options.trio_points if count == CAPACITY_TRIO else 0
        if count == CAPACITY_TRIO:
            return "draft_advice_trio_full"
        return "draft_advice_trio_last" if _last_placement(before) else "draft_advice_trio_part"
    if pen == MEADOW_OF_DIFFERENCES:
        count = after.meadow_count[player]
        params.update(count=count, pen_points=MEADOW_POINTS[count] - MEADOW_POINTS[count - 1])
        return "draft_advice_meadow"
    if pen == KING_OF_THE_JUNGLE:
        best = max((after.count_for_king(other, species) for other in range(after.players) if other != player),
                   default=0)
        points = after.king_points(player)
        params.update(count=after.count_for_king(player, species), best=best, pen_points=points)
        if not points:
            return "draft_advice_king_behind"
        return "draft_advice_king_kept" if after.players > 2 else "draft_advice_king_kept_one_rival"
    if pen == SOLITARY_ISLAND:
        points = after.island_points(player)
        params["pen_points"] = points
        return "draft_advice_island_alone" if points else "draft_advice_island_crowded"
    params["pen_points"] = 1
    return "draft_advice_river"


def _last_placement(position: Position) -> bool:
    """Whether the placement made now is each player's last of the game (no later turn to complete a pen)."""
    return position.round == position.rounds - 1 and position.turn == position.turns - 1


def _other_pens_changed(before: Position, after: Position, player: int, pen: int) -> dict[str, int]:
    """Pens other than `pen` whose points the placement changes (an island no longer alone, a King won)."""
    changed = {}
    for other, points in ((KING_OF_THE_JUNGLE, Position.king_points), (SOLITARY_ISLAND, Position.island_points)):
        delta = points(after, player) - points(before, player)
        if other != pen and delta:
            changed[PENS[other]] = delta
    return changed
