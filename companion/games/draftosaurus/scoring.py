"""Scoring of summer-board zoos: points per pen with the reason for each, the T-Rex bonus, the winners and why.

Also the validation of zoos that come from outside (a file, a save): every pen rule, the 12-dinosaur zoo,
and the bag limit for the number of players.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NoReturn

from companion.errors import BadInput, RuleViolation
from companion.games.common import Reason
from companion.games.draftosaurus.board import (
    BAG_PER_SPECIES,
    DINOSAURS_PER_ZOO,
    ENCLOSURES,
    FOREST_OF_SAMENESS,
    KING_OF_THE_JUNGLE,
    MAX_PLAYERS,
    MEADOW_OF_DIFFERENCES,
    MIN_PLAYERS,
    NO_FACE,
    PEN_INDEX,
    PRAIRIE_OF_LOVE,
    RIVER,
    SOLITARY_ISLAND,
    SPECIES_INDEX,
    TREX,
    WOODY_TRIO,
    empty_zoo,
    placement_blocker,
    placement_reason,
    unknown_id,
)
from companion.games.draftosaurus.ids import PENS, SPECIES
from companion.games.draftosaurus.options import Options

FOREST_POINTS = (0, 2, 4, 8, 12, 18, 24)  # by number of dinosaurs
MEADOW_POINTS = (0, 1, 3, 6, 10, 15, 21)
PAIR_POINTS = 5
KING_POINTS = 7
ISLAND_POINTS = 7
TREX_BONUS_PER_PEN = 1

IndexedZoo = list[list[int]]


@dataclass(frozen=True)
class PlayerScore:
    """One zoo's score: points per pen id (river included), why each pen scored so, and the T-Rex bonus."""

    name: str
    pens: dict[str, int]
    details: dict[str, Reason]
    trex_bonus: int
    trex_pens: list[str]
    trex_count: int
    total: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "total": self.total, "pens": dict(self.pens),
                "trex_bonus": self.trex_bonus, "trex_count": self.trex_count}


@dataclass(frozen=True)
class ScoreSheet:
    """Every player's score, the winners (indices into players) and the reason they win."""

    players: list[PlayerScore]
    winners: list[int]
    reason: Reason

    @property
    def winner_names(self) -> list[str]:
        return [self.players[index].name for index in self.winners]

    def to_json(self) -> dict[str, Any]:
        return {"players": [player.to_json() for player in self.players], "winners": self.winner_names}


def score_zoos(zoos: Sequence[Mapping[str, Sequence[str]]], options: Options = Options(),
               players_count: int | None = None, names: Sequence[str] | None = None) -> ScoreSheet:
    """Validate and score zoos given as {pen id: [species ids, left to right]} (pens may be left out).

    `players_count` sets the bag limit (default: the number of zoos; one zoo alone is limited by the box).
    Raises RuleViolation naming the player, the pen and the rule for a zoo that cannot exist.
    """
    names = list(names) if names is not None else [str(index + 1) for index in range(len(zoos))]
    return score_indexed(validate_zoos(zoos, names, players_count), names, options)


def bag_limit(players_count: int) -> int:
    """How many figures of each species the bag holds for that many players (1: the whole box)."""
    if players_count not in BAG_PER_SPECIES:
        raise RuleViolation(f"{players_count} players: Draftosaurus is for 2 to {MAX_PLAYERS}",
                            Reason("draft_player_count", {"count": players_count, "least": MIN_PLAYERS,
                                                    "most": MAX_PLAYERS}))
    return BAG_PER_SPECIES[players_count]


def validate_zoos(zoos: Sequence[Any], names: Sequence[str], players_count: int | None = None) -> list[IndexedZoo]:
    """Check every zoo and the bag limit over all of them; return the zoos as index lists."""
    if not zoos:
        raise RuleViolation("no zoo to score", Reason("draft_no_players"))
    if players_count is not None and players_count < len(zoos):
        raise BadInput(f"{len(zoos)} zoos cannot come from a game of {players_count} players")
    players_count = players_count or len(zoos)
    indexed = [validate_zoo(zoo, player=name, players_count=players_count)
               for zoo, name in zip(zoos, names, strict=True)]
    check_bag([_species_counts(zoo, with_river=True) for zoo in indexed], names, players_count)
    return indexed


def check_bag(counts: Sequence[Sequence[int]], names: Sequence[str], players_count: int) -> None:
    """The zoos together (their species counts, in order) hold no more of a species than the bag: the first
    zoo that goes over the limit is refused."""
    limit = bag_limit(players_count)
    in_play = [0] * len(SPECIES)
    for zoo_counts, name in zip(counts, names, strict=True):
        for species, count in enumerate(zoo_counts):
            in_play[species] += count
        for species, count in enumerate(in_play):
            if count > limit:
                refuse_zoo(name, Reason("draft_too_many_of_species", {
                    "species": SPECIES[species], "count": count, "limit": limit, "players_count": players_count}))


def validate_zoo(zoo: Any, *, player: str = "", players_count: int = 1) -> IndexedZoo:
    """Check one zoo {pen id: [species ids]} against every pen rule, 12 dinosaurs at most and the bag limit.

    Returns it as index lists; raises ZooRefused naming the player, with a reason naming the pen and the rule.
    """
    if not isinstance(zoo, Mapping):
        refuse_zoo(player, Reason("draft_zoo_not_an_object"))
    indexed = empty_zoo()
    for pen_id, content in zoo.items():
        pen = PEN_INDEX.get(pen_id)
        if pen is None:
            refuse_zoo(player, unknown_id("draft_unknown_pen", pen_id, PENS))
        if not isinstance(content, (list, tuple)):
            refuse_zoo(player, Reason("draft_pen_not_a_list", {"pen": PENS[pen]}))
        for species_id in content:
            species = SPECIES_INDEX.get(species_id) if isinstance(species_id, str) else None
            if species is None:
                refuse_zoo(player, unknown_id("draft_unknown_species", species_id, SPECIES))
            blocker = placement_blocker(indexed, pen, species, NO_FACE)
            if blocker:
                refuse_zoo(player, placement_reason(blocker, indexed, pen, species, NO_FACE))
            indexed[pen].append(species)
    _check_zoo_totals(indexed, player, players_count)
    return indexed


def _check_zoo_totals(zoo: IndexedZoo, player: str, players_count: int) -> None:
    check_zoo_size(_species_counts(zoo, with_river=True), player, players_count)


def check_zoo_size(counts: Sequence[int], player: str, players_count: int) -> None:
    """One zoo (its species counts, the river included) holds 12 dinosaurs at most, and no more of a species
    than the bag."""
    limit = bag_limit(players_count)
    total = sum(counts)
    if total > DINOSAURS_PER_ZOO:
        refuse_zoo(player, Reason("draft_too_many_dinosaurs", {"count": total, "limit": DINOSAURS_PER_ZOO}))
    for species, count in enumerate(counts):
        if count > limit:
            refuse_zoo(player, Reason("draft_too_many_of_species", {
                "species": SPECIES[species], "count": count, "limit": limit, "players_count": players_count}))


class ZooRefused(RuleViolation):
    """A zoo that cannot exist: `player` names its owner, the reason names the pen and the rule."""

    def __init__(self, player: str, reason: Reason):
        super().__init__(f"zoo of {player or '?'}: {reason.code} {reason.params}", reason)
        self.player = player


def refuse_zoo(player: str, reason: Reason) -> NoReturn:
    """Raise the ZooRefused of `player`'s zoo, the player's name added to the reason."""
    raise ZooRefused(player, Reason(reason.code, {**reason.params, "player": player}))


def _species_counts(zoo: IndexedZoo, with_river: bool) -> list[int]:
    counts = [0] * len(SPECIES)
    for pen, content in enumerate(zoo):
        if with_river or pen != RIVER:
            for species in content:
                counts[species] += 1
    return counts


def score_indexed(zoos: list[IndexedZoo], names: Sequence[str], options: Options,
                  rivals: Sequence[tuple[str, list[int]]] = ()) -> ScoreSheet:
    """Score valid zoos held as index lists (the engine calls this directly).

    `rivals` are zoos known only by their species counts (name, count per species), as players
    who are not tracked report them: they count for the King of the Jungle, and are not scored."""
    in_pens = [_species_counts(zoo, with_river=False) for zoo in zoos]
    in_zoo = [_species_counts(zoo, with_river=True) for zoo in zoos]
    for_king = (in_zoo if options.river_counts_for_king else in_pens) + [counts for _, counts in rivals]
    for_island = in_zoo if options.river_counts_for_island else in_pens
    king_names = list(names) + [name for name, _ in rivals]
    players = [_score_zoo(index, zoos[index], king_names, options, for_king, for_island[index],
                          in_zoo[index][TREX]) for index in range(len(zoos))]
    winners, reason = decide_winners(players)
    return ScoreSheet(players, winners, reason)


def _score_zoo(index: int, zoo: IndexedZoo, names: Sequence[str], options: Options,
               for_king: list[list[int]], for_island: list[int], trex_count: int) -> PlayerScore:
    details = {
        PENS[FOREST_OF_SAMENESS]: _forest(zoo[FOREST_OF_SAMENESS]),
        PENS[WOODY_TRIO]: _trio(zoo[WOODY_TRIO], options.trio_points),
        PENS[PRAIRIE_OF_LOVE]: _prairie(zoo[PRAIRIE_OF_LOVE]),
        PENS[KING_OF_THE_JUNGLE]: _king(zoo[KING_OF_THE_JUNGLE], index, names, for_king),
        PENS[MEADOW_OF_DIFFERENCES]: _meadow(zoo[MEADOW_OF_DIFFERENCES]),
        PENS[SOLITARY_ISLAND]: _island(zoo[SOLITARY_ISLAND], for_island),
        PENS[RIVER]: Reason("draft_score_river", {"pen": PENS[RIVER], "count": len(zoo[RIVER]),
                                            "points": len(zoo[RIVER])}),
    }
    pens = {pen: detail.params["points"] for pen, detail in details.items()}
    trex_pens = [PENS[pen] for pen in ENCLOSURES if TREX in zoo[pen]]
    trex_bonus = TREX_BONUS_PER_PEN * len(trex_pens)
    return PlayerScore(names[index], pens, details, trex_bonus, trex_pens, trex_count,
                       sum(pens.values()) + trex_bonus)


def _empty(pen: int) -> Reason:
    return Reason("draft_score_empty", {"pen": PENS[pen], "points": 0})


def _forest(content: list[int]) -> Reason:
    if not content:
        return _empty(FOREST_OF_SAMENESS)
    return Reason("draft_score_forest", {"pen": PENS[FOREST_OF_SAMENESS], "species": SPECIES[content[0]],
                                   "count": len(content), "points": FOREST_POINTS[len(content)]})


def _meadow(content: list[int]) -> Reason:
    if not content:
        return _empty(MEADOW_OF_DIFFERENCES)
    return Reason("draft_score_meadow", {"pen": PENS[MEADOW_OF_DIFFERENCES], "count": len(content),
                                   "points": MEADOW_POINTS[len(content)]})


def _prairie(content: list[int]) -> Reason:
    if not content:
        return _empty(PRAIRIE_OF_LOVE)
    pairs = sum(content.count(species) // 2 for species in set(content))
    return Reason("draft_score_prairie", {"pen": PENS[PRAIRIE_OF_LOVE], "count": len(content), "pairs": pairs,
                                    "points": PAIR_POINTS * pairs})


def _trio(content: list[int], trio_points: int) -> Reason:
    if not content:
        return _empty(WOODY_TRIO)
    if len(content) == 3:
        return Reason("draft_score_trio_full", {"pen": PENS[WOODY_TRIO], "points": trio_points})
    return Reason("draft_score_trio_short", {"pen": PENS[WOODY_TRIO], "count": len(content), "points": 0})


def _king(content: list[int], index: int, names: Sequence[str], counts: list[list[int]]) -> Reason:
    if not content:
        return _empty(KING_OF_THE_JUNGLE)
    species = content[0]
    params: dict[str, Any] = {"pen": PENS[KING_OF_THE_JUNGLE], "species": SPECIES[species],
                              "count": counts[index][species]}
    rivals = [other for other in range(len(counts)) if other != index]
    if not rivals:
        return Reason("draft_score_king_alone", {**params, "points": KING_POINTS})
    best = max(rivals, key=lambda other: counts[other][species])
    params["best"] = counts[best][species]
    if params["count"] >= params["best"]:
        kept = "draft_score_king_kept" if len(rivals) > 1 else "draft_score_king_kept_one_rival"
        return Reason(kept, {**params, "points": KING_POINTS})
    return Reason("draft_score_king_lost", {**params, "rival": names[best], "points": 0})


def _island(content: list[int], counts: list[int]) -> Reason:
    if not content:
        return _empty(SOLITARY_ISLAND)
    species = content[0]
    params = {"pen": PENS[SOLITARY_ISLAND], "species": SPECIES[species], "count": counts[species]}
    if counts[species] == 1:
        return Reason("draft_score_island_alone", {**params, "points": ISLAND_POINTS})
    return Reason("draft_score_island_crowded", {**params, "points": 0})


def decide_winners(players: list[PlayerScore]) -> tuple[list[int], Reason]:
    """Most points wins; a tie goes to fewer T-Rex in the zoo (the river included); still tied, it is shared."""
    best = max(player.total for player in players)
    leaders = [index for index, player in enumerate(players) if player.total == best]
    if len(players) == 1:
        return leaders, Reason("draft_win_single_zoo", {"winners": [players[0].name], "points": best})
    if len(leaders) == 1:
        runner_up = max(player.total for index, player in enumerate(players) if index != leaders[0])
        return leaders, Reason("draft_win_most_points", {"winners": [players[leaders[0]].name], "points": best,
                                                   "margin": best - runner_up})
    fewest = min(players[index].trex_count for index in leaders)
    winners = [index for index in leaders if players[index].trex_count == fewest]
    params: dict[str, Any] = {"winners": [players[index].name for index in winners], "points": best,
                              "trex_count": fewest}
    if len(winners) == 1:
        others = [index for index in leaders if index not in winners]
        return winners, Reason("draft_win_tiebreak_fewer_trex", {
            **params, "tied": [players[index].name for index in others],
            "their_trex": min(players[index].trex_count for index in others)})
    return winners, Reason("draft_win_shared", params)
