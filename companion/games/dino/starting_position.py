"""The starting position of a Dino game, checked against the rules: players and colours, nests, barriers, meteor,
variants."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import BadInput
from companion.games.common import Reason, refuse, same_name
from companion.games.dino.board import Board, Border, load_board
from companion.games.dino.ids import (
    DEFAULT_EGGS_RULE,
    EGGS_RULES,
    MAX_BARRIERS,
    MAX_PLAYERS,
    MIN_BARRIERS,
    MIN_PLAYERS,
    OWN_EXITS_MAX_PLAYERS,
    eggs_per_nest,
)


@dataclass(frozen=True)
class Setup:
    """Everything decided before the first turn.

    players: names in seating order (play goes clockwise, which is this order); colours: each player's pawn
    colour; nests: egg colour -> square; barriers: the sides where a dinosaur stands; first_player: index of
    the oldest player, who starts; eggs_rule: a key of EGGS_RULES; meteor_stones: the stones the meteor
    travels (None: the whole track of the board for this many players; fewer: variant 1);
    own_colour_exits: variant 3 (two or three players leave only by their own colour's start positions).
    """

    players: tuple[str, ...]
    colours: tuple[str, ...]
    nests: dict[str, str]
    barriers: tuple[Border, ...]
    first_player: int = 0
    eggs_rule: str = DEFAULT_EGGS_RULE
    meteor_stones: int | None = None
    own_colour_exits: bool = False
    board: Board = field(default_factory=load_board)

    @property
    def eggs_per_nest(self) -> int:
        return eggs_per_nest(len(self.players), self.eggs_rule)

    @property
    def meteor_total(self) -> int:
        """The stones the meteor travels in this game."""
        return self.meteor_stones if self.meteor_stones is not None else self.board.meteor_for(len(self.players))

    def to_json(self) -> dict[str, Any]:
        return {"players": list(self.players), "colours": list(self.colours), "nests": dict(self.nests),
                "barriers": [list(b) for b in self.barriers], "first_player": self.first_player,
                "eggs_rule": self.eggs_rule, "meteor_stones": self.meteor_stones,
                "own_colour_exits": self.own_colour_exits, "board": self.board.to_json()}

    @classmethod
    def from_json(cls, data: Any) -> Setup:
        """A setup from JSON (checked with check_setup by the engine); a malformed one is BadInput."""
        if not isinstance(data, dict):
            raise BadInput("a Dino setup is a mapping of fields")
        unknown = sorted(set(data) - {"players", "colours", "nests", "barriers", "first_player", "eggs_rule",
                                      "meteor_stones", "own_colour_exits", "board"})
        if unknown:
            raise BadInput(f"unknown setup field '{unknown[0]}'")
        try:
            barriers = tuple((str(a), str(b)) for a, b in data.get("barriers", []))
            return cls(players=tuple(data["players"]), colours=tuple(data["colours"]), nests=dict(data["nests"]),
                       barriers=barriers, first_player=data.get("first_player", 0),
                       eggs_rule=data.get("eggs_rule", DEFAULT_EGGS_RULE), meteor_stones=data.get("meteor_stones"),
                       own_colour_exits=data.get("own_colour_exits", False),
                       board=Board.from_json(data["board"]) if "board" in data else load_board())
        except (KeyError, TypeError, ValueError) as error:
            raise BadInput(f"a Dino setup needs players, colours, nests and barriers ({error})") from None


def check_setup(setup: Setup) -> None:
    """Raise RuleViolation (with the Reason) for the first thing the rules forbid; BadInput for malformed data."""
    for check in (_players_reason, _colours_reason, _nests_reason, barrier_reason, _options_reason):
        reason = check(setup)
        if reason is not None:
            refuse(reason)


def _players_reason(setup: Setup) -> Reason | None:
    names = list(setup.players)
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        return Reason("dino_player_count", {"count": len(names), "least": MIN_PLAYERS, "most": MAX_PLAYERS})
    for index, name in enumerate(names):
        if not isinstance(name, str) or not name.strip():
            raise BadInput(f"player {index + 1} needs a name")
        if any(same_name(name, other) for other in names[:index]):
            return Reason("dino_duplicate_player", {"player": name})
    if type(setup.first_player) is not int or not 0 <= setup.first_player < len(names):
        raise BadInput(f"first_player must be a player index from 0 to {len(names) - 1}")
    return None


def _colours_reason(setup: Setup) -> Reason | None:
    if len(setup.colours) != len(setup.players):
        raise BadInput(f"give one pawn colour per player ({len(setup.players)}), not {len(setup.colours)}")
    for index, colour in enumerate(setup.colours):
        reason = colour_reason(setup.board.pawn_colours, colour, setup.colours[:index], setup.players)
        if reason is not None:
            return reason
    return None


def colour_reason(known: Sequence[str], colour: Any, taken: Sequence[str], players: Sequence[str]) -> Reason | None:
    """Why the next player may not take `colour` (the board's colours `known`; those `taken` by the players before,
    `players` in the same order), or None."""
    if colour not in known:
        return Reason("dino_unknown_pawn_colour", {"value": str(colour), "colours": list(known)})
    if colour in taken:
        return Reason("dino_colour_taken", {"colour": colour, "player": players[list(taken).index(colour)],
                                            "free_colours": [c for c in known if c not in taken]})
    return None


def nest_reason(board: Board, colour: Any, square: Any, placed: dict[str, str]) -> Reason | None:
    """Why the nest of `colour` may not go on `square` (given the nests already `placed`), or None."""
    if colour not in board.egg_colours:
        return Reason("dino_unknown_egg_colour", {"value": str(colour), "colours": list(board.egg_colours)})
    if colour in placed:
        return Reason("dino_nest_placed", {"colour": colour, "square": placed[colour]})
    if not board.is_square(square):
        return Reason("dino_unknown_square", {"value": str(square)})
    if square in board.start_squares:
        return Reason("dino_nest_on_start", {"colour": colour, "square": square, "starts": sorted(board.start_squares)})
    return None


def _nests_reason(setup: Setup) -> Reason | None:
    placed: dict[str, str] = {}
    for colour, square in setup.nests.items():
        reason = nest_reason(setup.board, colour, square, placed)
        if reason is not None:
            return reason
        placed[colour] = square
    missing = [colour for colour in setup.board.egg_colours if colour not in placed]
    return Reason("dino_nest_missing", {"colour": missing[0]}) if missing else None


def border_reason(board: Board, first: Any, second: Any, placed: tuple[Border, ...]) -> Reason | None:
    """Why a barrier may not stand between `first` and `second` (given the barriers `placed`), or None."""
    for square in (first, second):
        if not board.is_square(square):
            return Reason("dino_unknown_square", {"value": str(square)})
    border = board.border(first, second)
    if border is None:
        return Reason("dino_not_a_border", {"first": first, "second": second})
    if border in placed:
        return Reason("dino_barrier_twice", {"first": border[0], "second": border[1]})
    start = next((square for square in border if square in board.start_squares), None)
    if start is not None:
        return Reason("dino_barrier_at_start", {"first": border[0], "second": border[1], "square": start})
    if len(placed) >= MAX_BARRIERS:
        return Reason("dino_barrier_count", {"count": len(placed) + 1, "least": MIN_BARRIERS, "most": MAX_BARRIERS})
    return None


def barrier_reason(setup: Setup) -> Reason | None:
    placed: tuple[Border, ...] = ()
    for barrier in setup.barriers:
        if len(barrier) != 2:
            raise BadInput(f"a barrier stands between two squares, not {list(barrier)}")
        reason = border_reason(setup.board, barrier[0], barrier[1], placed)
        if reason is not None:
            return reason
        placed += (setup.board.border(*barrier),)  # type: ignore[operator]  # touching: border_reason said so
    if len(placed) < MIN_BARRIERS:
        return Reason("dino_barrier_count", {"count": len(placed), "least": MIN_BARRIERS, "most": MAX_BARRIERS})
    return None


def _options_reason(setup: Setup) -> Reason | None:
    if setup.eggs_rule not in EGGS_RULES:
        return Reason("dino_unknown_eggs_rule", {"value": str(setup.eggs_rule)})
    most = setup.board.meteor_for(len(setup.players))
    stones = setup.meteor_stones
    if stones is not None and (type(stones) is not int or not 1 <= stones <= most):
        return Reason("dino_meteor_stones", {"value": str(stones), "most": most})
    if not isinstance(setup.own_colour_exits, bool):
        raise BadInput("own_colour_exits must be true or false")
    if setup.own_colour_exits and len(setup.players) > OWN_EXITS_MAX_PLAYERS:
        return Reason("dino_own_exits_players", {"count": len(setup.players), "most": OWN_EXITS_MAX_PLAYERS})
    return None


def barriers_wanted(players: int) -> int:
    """How many barriers a table usually places: one per player but the first, at least three."""
    return min(MAX_BARRIERS, max(MIN_BARRIERS, players - 1))


def random_layout(board: Board, players: int, chooser: random.Random) -> tuple[dict[str, str], tuple[Border, ...]]:
    """Nests (each on its own square, none on a start square) and barriers that the rules allow, drawn by `chooser`.

    Our own suggestion for a first game: the layout pictured in the rules is missing."""
    free = [square for square in board.squares if square not in board.start_squares]
    squares = chooser.sample(free, len(board.egg_colours))
    nests = dict(zip(board.egg_colours, squares, strict=True))
    allowed = [b for b in board.borders if not (set(b) & board.start_squares)]
    barriers = tuple(chooser.sample(allowed, barriers_wanted(players)))
    return nests, barriers
