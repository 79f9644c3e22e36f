"""Points of the eaten grass tokens, and who wins: most points, then fewer tokens, else a shared victory."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.common import Reason
from companion.games.jurassic_snack.ids import COLORS, TOKEN_POINTS, TOKENS


@dataclass(frozen=True)
class PlayerScore:
    """One player's eaten tokens: how many of each kind, their points, and how many tokens in all."""

    name: str
    color: str
    tokens: dict[str, int]
    points: int
    count: int

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "color": self.color, "tokens": dict(self.tokens), "points": self.points,
                "count": self.count}


@dataclass(frozen=True)
class Outcome:
    """Who won (both players when the victory is shared) and why, as a Reason the narration speaks."""

    winners: tuple[int, ...]
    reason: Reason

    def to_json(self) -> dict[str, object]:
        return {"winners": list(self.winners), "reason": self.reason.to_json()}


def player_score(name: str, player: int, eaten: Sequence[str]) -> PlayerScore:
    counts = {token: eaten.count(token) for token in TOKENS if token in eaten}
    return PlayerScore(name, COLORS[player], counts, sum(TOKEN_POINTS[t] for t in eaten), len(eaten))


def points_outcome(scores: Sequence[PlayerScore]) -> Outcome:
    """The winner on points; equal points → fewer tokens wins; equal again → both win."""
    first, second = scores
    if first.points != second.points:
        winner, loser = (0, 1) if first.points > second.points else (1, 0)
        return Outcome((winner,), Reason("js_win_points", {
            "player": scores[winner].name, "points": scores[winner].points,
            "margin": scores[winner].points - scores[loser].points}))
    if first.count != second.count:
        winner, loser = (0, 1) if first.count < second.count else (1, 0)
        return Outcome((winner,), Reason("js_win_fewer_tokens", {
            "player": scores[winner].name, "points": first.points, "tokens": scores[winner].count,
            "other_tokens": scores[loser].count}))
    return Outcome((0, 1), Reason("js_win_shared", {"points": first.points, "tokens": first.count}))


def elimination_outcome(names: Sequence[str], loser: int) -> Outcome:
    """A player with no Diplo left on the area loses, whatever was eaten."""
    winner = 1 - loser
    return Outcome((winner,), Reason("js_win_elimination", {"player": names[winner], "loser": names[loser]}))
