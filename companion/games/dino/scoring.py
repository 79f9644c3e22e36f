"""Scoring of Dino: 1 point per egg, 5 per colour among them, minus the steps pawns left on the board would need.

The rules give no tie-break: players level on the most points share the victory.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from companion.games.common import Reason
from companion.games.dino.ids import COLOUR_POINTS, EGG_POINTS


@dataclass(frozen=True)
class PlayerScore:
    """One player's score: eggs picked up, different colours among them, the penalty and the total."""

    name: str
    colour: str
    eggs: int
    colours: list[str]
    penalty: int
    total: int

    @property
    def egg_points(self) -> int:
        return self.eggs * EGG_POINTS

    @property
    def colour_points(self) -> int:
        return len(self.colours) * COLOUR_POINTS

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "colour": self.colour, "eggs": self.eggs, "colours": list(self.colours),
                "penalty": self.penalty, "total": self.total}


@dataclass(frozen=True)
class ScoreSheet:
    """Every player's score, the leaders (indices) and why they lead; `final` once the game is over."""

    players: list[PlayerScore]
    winners: list[int]
    reason: Reason
    final: bool

    def to_json(self) -> dict[str, Any]:
        return {"players": [p.to_json() for p in self.players],
                "winners": [self.players[i].name for i in self.winners], "final": self.final}


def score_player(name: str, colour: str, eggs: Sequence[str], penalty: int) -> PlayerScore:
    """The score of one player from the colours of the eggs picked up and the penalty of pawns left out."""
    colours = sorted(set(eggs), key=list(eggs).index)
    total = len(eggs) * EGG_POINTS + len(colours) * COLOUR_POINTS - penalty
    return PlayerScore(name, colour, len(eggs), colours, penalty, total)


def score_players(names: Sequence[str], colours: Sequence[str], eggs: Sequence[Sequence[str]],
                  penalties: Sequence[int], final: bool) -> ScoreSheet:
    """Everyone's score; the leaders are all the players on the highest total."""
    players = [score_player(name, colour, picked, penalty)
               for name, colour, picked, penalty in zip(names, colours, eggs, penalties, strict=True)]
    best = max(player.total for player in players)
    winners = [index for index, player in enumerate(players) if player.total == best]
    leaders = [players[index].name for index in winners]
    prefix = "dino_win" if final else "dino_lead"
    if len(winners) == 1:
        reason = Reason(prefix, {"player": leaders[0], "points": best})
    else:
        reason = Reason(f"{prefix}_shared", {"players": leaders, "points": best})
    return ScoreSheet(players, winners, reason, final)
