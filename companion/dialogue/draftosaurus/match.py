"""The summer/winter match: two games in a row with the same players, each player's two totals added.

What a save holds of it: the kind of match, each finished game (its whole saved state, replayed when read,
and the totals said at its end) and the winter board of a table's own file when one was given. A save
without it is a single game, as saves always were.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.dialogue.draftosaurus.new_game import MATCHES
from companion.games.common import OVER
from companion.games.draftosaurus.engine import Game
from companion.games.draftosaurus.winter_board import WinterBoard


@dataclass(frozen=True)
class Played:
    """One finished game of the match and the total of each followed player at its end."""

    game: Game
    totals: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        return {"state": self.game.to_json(), "totals": dict(self.totals)}

    @classmethod
    def from_json(cls, data: Any) -> Played:
        if not isinstance(data, dict) or not isinstance(data.get("totals"), dict):
            raise ValueError("a played game of the match needs its state and totals")  # see Match.from_json
        totals = data["totals"]
        if any(not isinstance(name, str) or type(total) is not int for name, total in totals.items()):
            raise ValueError("the totals of a played game are whole numbers by player")
        game = Game.from_json(data.get("state"))
        if game.phase != OVER or not set(totals) <= set(game.players):
            raise ValueError("a played game of the match is over, and its totals are its players'")
        return cls(game, dict(totals))


@dataclass
class Match:
    """A match in progress: its kind (a key of MATCHES), the games finished so far, in order, and the winter
    board of a table's own file (None: the shipped board with the values the table told)."""

    kind: str
    played: list[Played] = field(default_factory=list)
    winter_file: WinterBoard | None = None

    @property
    def sides(self) -> tuple[str, ...]:
        return MATCHES[self.kind]

    def next_side(self) -> str | None:
        """The board side of the game that follows the current one (the one after those played), None after
        the last."""
        index = len(self.played) + 1
        return self.sides[index] if index < len(self.sides) else None

    def sums(self, last: dict[str, int]) -> dict[str, int]:
        """Each player's match total: the games played and `last` (the current game's totals)."""
        sums = dict(last)
        for played in self.played:
            for name, total in played.totals.items():
                sums[name] = sums.get(name, 0) + total
        return sums

    def check(self, game: Game) -> None:
        """ValueError when the current game cannot follow the games played (other players, wrong side)."""
        if len(self.played) >= len(self.sides) or game.board != self.sides[len(self.played)]:
            raise ValueError("the current game is not the next one of the match")
        if any(played.game.players != game.players for played in self.played):
            raise ValueError("the games of a match have the same players")

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "played": [played.to_json() for played in self.played]}
        if self.winter_file is not None:
            data["winter_board"] = self.winter_file.to_json()
        return data

    @classmethod
    def from_json(cls, data: Any) -> Match:
        """The match a save holds; ValueError (or the engine's errors) for anything malformed."""
        if not isinstance(data, dict) or data.get("kind") not in MATCHES or not isinstance(data.get("played"), list):
            raise ValueError("a match needs its kind and the games played")
        board = data.get("winter_board")
        return cls(data["kind"], [Played.from_json(played) for played in data["played"]],
                   None if board is None else WinterBoard.from_json(board))
