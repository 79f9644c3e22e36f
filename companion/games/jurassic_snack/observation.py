"""What the player to act in Jurassic Snack knows: the area, the eaten tokens, and its own secret looks.

Everything on the area is public, and so is every eaten token; what lies under the grass is not. The
observation keeps, of the private notes, only the seat's own (a Scouting or a look at two tokens), and of
those only the squares still under grass: the other player's looks are never read, nor the tokens the
engine dealt.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.errors import RuleViolation
from companion.games.common import OVER, Reason
from companion.games.jurassic_snack.engine import EFFECT, GRASS, REVEAL, Game
from companion.games.jurassic_snack.ids import TOKEN_COUNTS, TOKENS
from companion.games.jurassic_snack.layout import Layout
from companion.games.jurassic_snack.playout import ACTION as POSITION_ACTION
from companion.games.jurassic_snack.playout import CONTENTS, EFFECT_INDEX, POINTS, TOKEN_INDEX, Position
from companion.games.jurassic_snack.playout import EFFECT as POSITION_EFFECT


@dataclass(frozen=True)
class SnackObservation:
    """The seat's knowledge when it must act. `cells` follow the layout's reading order; `known` pairs a
    square still under grass with the token the seat saw there."""

    seat: int
    layout: Layout
    quiet_limit: int
    cells: tuple[str, ...]
    reserve: tuple[int, int]
    trex_waiting: int
    eaten: tuple[tuple[str, ...], tuple[str, ...]]
    removed: int
    phase: str
    pending: str | None
    actions_left: int
    turn: int
    quiet: int
    lively: bool
    known: tuple[tuple[str, str], ...]

    def key(self) -> tuple[int, int, str, str | None, int]:
        """Where this decision stands in the game (seeds the bots' randomness)."""
        return (self.turn, self.actions_left, self.phase, self.pending, self.seat)

    def unseen(self) -> dict[str, int]:
        """Per kind, the tokens the seat has not seen: under grass it has not looked at, or in the box."""
        eaten = self.eaten[0] + self.eaten[1]
        counts = {token: TOKEN_COUNTS[token] - eaten.count(token) for token in TOKENS}
        for _, token in self.known:
            counts[token] -= 1
        return counts

    def expected_points(self) -> float:
        """The points a token the seat has not seen is worth on average."""
        unseen = self.unseen()
        total = sum(unseen.values())
        return sum(POINTS[TOKEN_INDEX[t]] * n for t, n in unseen.items()) / total if total else 0.0

    def world(self, chooser: random.Random) -> Position:
        """One Position the seat cannot tell from the game: its known tokens in place, every other grass
        square given a token drawn from those it has not seen."""
        pool = [TOKEN_INDEX[token] for token, count in self.unseen().items() for _ in range(count)]
        chooser.shuffle(pool)
        known = dict(self.known)
        tokens = [-1] * len(self.cells)
        for index, (square, content) in enumerate(zip(self.layout.squares, self.cells, strict=True)):
            if content == GRASS:
                tokens[index] = TOKEN_INDEX[known[square]] if square in known else pool.pop()
        return self._position(tokens)

    def position(self) -> Position:
        """The area as a Position with no token known (for the legal actions and what is in sight)."""
        return self._position([-1] * len(self.cells))

    def _position(self, tokens: list[int]) -> Position:
        position = Position(self.layout, tokens, self.quiet_limit)
        position.cells = [CONTENTS.index(content) for content in self.cells]
        position.reserve = list(self.reserve)
        position.on_board = [self.cells.count(color) for color in CONTENTS[2:4]]
        position.trex_waiting = self.trex_waiting
        position.points = [sum(POINTS[TOKEN_INDEX[t]] for t in eaten) for eaten in self.eaten]
        position.counts = [len(eaten) for eaten in self.eaten]
        position.removed = self.removed
        position.grass = self.cells.count(GRASS)
        position.phase = POSITION_EFFECT if self.phase == EFFECT else POSITION_ACTION
        position.pending = -1 if self.pending is None else EFFECT_INDEX[self.pending]
        position.actions_left, position.player, position.turn = self.actions_left, self.seat, self.turn
        position.quiet, position.lively = self.quiet, self.lively
        return position


def observe(game: Game, seat: int) -> SnackObservation:
    """What `seat` knows now, when it is that seat's turn to move or to choose an effect's target."""
    if game.phase == OVER:
        raise RuleViolation("the game is over", Reason("js_game_over"))
    if type(seat) is not int or seat not in (0, 1):
        raise RuleViolation(f"no player {seat}", Reason("js_unknown_player", {"value": str(seat)}))
    if seat != game.player:
        raise RuleViolation("not this player's turn", Reason("js_not_your_turn", {
            "player": game.players[seat], "current": game.players[game.player]}))
    if game.phase == REVEAL:
        raise RuleViolation("the eaten token must be said first", Reason("js_reveal_first", {"square": game.eater}))
    known = {}
    for note in game.notes_for(seat):
        for square, token in note.tokens:
            if token is not None and game.content(square) == GRASS:
                known[square] = token
    return SnackObservation(
        seat=seat, layout=game.layout, quiet_limit=game.options.quiet_turns,
        cells=tuple(game.content(square) for square in game.layout.squares),
        reserve=(game.reserve(0), game.reserve(1)), trex_waiting=game.trex_waiting,
        eaten=(tuple(game.eaten(0)), tuple(game.eaten(1))), removed=game.removed, phase=game.phase,
        pending=game.pending, actions_left=game.actions_left, turn=game.turn, quiet=game.quiet_turns,
        lively=game.lively, known=tuple(sorted(known.items())))
