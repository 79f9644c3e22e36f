"""Fast Jurassic Snack positions for the bots' search: the area as a list of small ints, the tokens known.

A Position is one world: every grass square holds a token the search knows (a bot's world samples the ones
its seat has not seen). It keeps what the rules need and nothing more (no log, no Reasons, no private notes),
and plays exactly as the engine plays with hidden tokens; tests replay seeded engine games through it and
compare every legal set, every state and every outcome.

Squares are indices into the layout's reading order; actions are small tuples (see the kinds below), turned
into the engine's actions by `to_action`.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from companion.games.jurassic_snack.actions import Action, Erupt, Fly, Hatch, Look, Move, Pass, Scout
from companion.games.jurassic_snack.ids import (
    AIR_STRIKE,
    AIR_TRANSPORT,
    BIRTH,
    COLORS,
    DIPLO,
    DIRECTIONS,
    ERUPTION,
    LOOK,
    SCOUTING,
    SURPRISE,
    TOKEN_POINTS,
    TOKENS,
    TREX,
    TREX_COUNT,
    YUM_YUM,
)
from companion.games.jurassic_snack.layout import BOARDS, Layout

EMPTY, GRASS, BLUE_DIPLO, YELLOW_DIPLO, TREX_PIECE = range(5)  # what a square holds; a Diplo is 2 + player
CONTENTS = ("empty", "grass", COLORS[0], COLORS[1], TREX)
ACTION, EFFECT, OVER = range(3)
MOVE, PASS, HATCH, SCOUT, FLY, ERUPT, LOOK_AT = range(7)  # action kinds: (kind, a, b)
TOKEN_INDEX = {token: index for index, token in enumerate(TOKENS)}
EFFECT_INDEX = {BIRTH: TOKEN_INDEX[BIRTH], SCOUTING: TOKEN_INDEX[SCOUTING], AIR_TRANSPORT: TOKEN_INDEX[AIR_TRANSPORT],
                AIR_STRIKE: TOKEN_INDEX[AIR_STRIKE], ERUPTION: TOKEN_INDEX[ERUPTION], LOOK: len(TOKENS)}
EFFECT_NAMES = {index: name for name, index in EFFECT_INDEX.items()}
POINTS = tuple(TOKEN_POINTS[token] for token in TOKENS)
_BIRTH, _SCOUTING, _TRANSPORT, _STRIKE, _ERUPTION = (EFFECT_INDEX[e] for e in (BIRTH, SCOUTING, AIR_TRANSPORT,
                                                                               AIR_STRIKE, ERUPTION))
_SURPRISE, _YUM, _LOOK = TOKEN_INDEX[SURPRISE], TOKEN_INDEX[YUM_YUM], EFFECT_INDEX[LOOK]
Play = tuple[int, int, int]


class Geometry:
    """What never changes in a game: square names, each square's board, and the rays along each direction."""

    def __init__(self, layout: Layout):
        self.layout = layout
        self.names: tuple[str, ...] = layout.squares
        index = {name: number for number, name in enumerate(self.names)}
        self.index = index
        self.board_of = tuple(BOARDS.index(layout.board_of[name]) for name in self.names)
        self.board_squares = tuple(tuple(index[s] for s in layout.board_squares(board)) for board in BOARDS)
        rays = []
        for name in self.names:
            per_direction = []
            for direction in DIRECTIONS:
                ray, current = [], layout.neighbour(name, direction)
                while current is not None:
                    ray.append(index[current])
                    current = layout.neighbour(current, direction)
                per_direction.append(tuple(ray))
            rays.append(tuple(per_direction))
        self.rays: tuple[tuple[tuple[int, ...], ...], ...] = tuple(rays)
        self.eggs = tuple(tuple(index[s] for s in layout.eggs[color]) for color in COLORS)


@lru_cache(maxsize=8)
def geometry(layout: Layout) -> Geometry:
    return Geometry(layout)


class Position:
    """One game of Jurassic Snack whose every token the position knows."""

    __slots__ = ("actions_left", "cells", "counts", "eater", "geometry", "grass", "lively", "on_board", "pending",
                 "phase", "player", "points", "quiet", "quiet_limit", "removed", "reserve", "tokens", "trex_waiting",
                 "turn", "winners")

    def __init__(self, layout: Layout, tokens: Sequence[int], quiet_limit: int = 2):
        """A new game: Diplos on their eggs, `tokens` (token ints, one per square in reading order, -1 on eggs)
        under the grass, Blue to play a single action."""
        self.geometry = geometry(layout)
        cells = [GRASS] * len(self.geometry.names)
        for player, eggs in enumerate(self.geometry.eggs):
            for square in eggs:
                cells[square] = BLUE_DIPLO + player
        self.cells = cells
        self.tokens = list(tokens)
        self.on_board = [len(eggs) for eggs in self.geometry.eggs]
        self.reserve = [5 - count for count in self.on_board]
        self.trex_waiting = TREX_COUNT
        self.points = [0, 0]
        self.counts = [0, 0]
        self.removed = 0
        self.grass = cells.count(GRASS)
        self.phase, self.pending, self.eater = ACTION, -1, -1
        self.actions_left, self.player, self.turn = 1, 0, 1
        self.quiet, self.lively, self.quiet_limit = 0, False, quiet_limit
        self.winners: tuple[int, ...] = ()

    def copy(self) -> Position:
        twin = object.__new__(Position)
        twin.geometry, twin.trex_waiting, twin.removed, twin.grass = (self.geometry, self.trex_waiting, self.removed,
                                                                      self.grass)
        twin.phase, twin.pending, twin.eater, twin.actions_left = (self.phase, self.pending, self.eater,
                                                                   self.actions_left)
        twin.player, twin.turn, twin.quiet, twin.lively = self.player, self.turn, self.quiet, self.lively
        twin.quiet_limit, twin.winners = self.quiet_limit, self.winners
        twin.cells = self.cells[:]
        twin.tokens = self.tokens[:]
        twin.reserve = self.reserve[:]
        twin.on_board = self.on_board[:]
        twin.points = self.points[:]
        twin.counts = self.counts[:]
        return twin

    # ---- moving ----------------------------------------------------------------------------------------

    def slide(self, square: int, direction: int) -> int:
        """Where the piece on `square` stops going `direction` (-1: it cannot move)."""
        cells = self.cells
        trex = cells[square] == TREX_PIECE
        stop = -1
        for following in self.geometry.rays[square][direction]:
            found = cells[following]
            if found == EMPTY:
                stop = following
            elif (found == GRASS and not trex) or (trex and found in (BLUE_DIPLO, YELLOW_DIPLO)):
                return following
            else:
                return stop
        return stop

    def moves(self) -> list[Play]:
        """The Moves of the player to act: their Diplos and every T.Rex, each direction it can go."""
        cells = self.cells
        own = BLUE_DIPLO + self.player
        found = []
        for square, content in enumerate(cells):
            if content in (own, TREX_PIECE):
                for direction in range(4):
                    if self.slide(square, direction) >= 0:
                        found.append((MOVE, square, direction))
        return found

    def legal(self) -> list[Play]:
        """Every legal action now."""
        if self.phase == OVER:
            return []
        if self.phase == ACTION:
            return self.moves() or [(PASS, -1, -1)]
        cells = self.cells
        pending = self.pending
        empty = [square for square, content in enumerate(cells) if content == EMPTY]
        if pending == _BIRTH:
            return [(HATCH, square, -1) for square in empty]
        if pending == _SCOUTING:
            return [(SCOUT, board, -1) for board, squares in enumerate(self.geometry.board_squares)
                    if any(cells[square] == GRASS for square in squares)]
        if pending in (_TRANSPORT, _STRIKE):
            wanted = (TREX_PIECE,) if pending == _STRIKE else (BLUE_DIPLO, YELLOW_DIPLO)
            sources = [square for square, content in enumerate(cells) if content in wanted]
            return [(FLY, source, target) for source in sources for target in empty]
        grass = [square for square, content in enumerate(cells) if content == GRASS]
        kind = ERUPT if pending == _ERUPTION else LOOK_AT
        if len(grass) == 1:
            return [(kind, grass[0], -1)]
        return [(kind, first, second) for first, second in combinations(grass, 2)]

    def apply(self, play: Play) -> None:
        """Play a legal action (unchecked)."""
        kind, first, second = play
        cells = self.cells
        if kind == MOVE:
            target = self.slide(first, second)
            mover, swallowed = cells[first], cells[target]
            cells[first] = EMPTY
            cells[target] = mover
            if mover == TREX_PIECE and swallowed >= BLUE_DIPLO:
                owner = swallowed - BLUE_DIPLO
                self.reserve[owner] += 1
                self.on_board[owner] -= 1
                if owner != self.player:
                    self.lively = True
                self._check_elimination()
            elif mover != TREX_PIECE and swallowed == GRASS:
                self._eat(target)
                return
            self._action_done()
        elif kind == PASS:
            self.actions_left = 1
            self._action_done()
        elif kind == HATCH:
            self.reserve[self.player] -= 1
            self.on_board[self.player] += 1
            cells[first] = BLUE_DIPLO + self.player
            self._finish_effect()
        elif kind == FLY:
            cells[second] = cells[first]
            cells[first] = EMPTY
            self._finish_effect()
        elif kind == ERUPT:
            for square in (first, second) if second >= 0 else (first,):
                cells[square] = EMPTY
                self.tokens[square] = -1
                self.grass -= 1
                self.removed += 1
            if self.grass == 0:
                self._finish_on_points()
            else:
                self._finish_effect()
        else:  # SCOUT and LOOK_AT only show tokens: nothing changes on the area
            self._finish_effect()

    # ---- tokens and turns --------------------------------------------------------------------------------

    def _eat(self, square: int) -> None:
        player = self.player
        self.lively = True
        self.eater = square
        self.grass -= 1
        token = self.tokens[square]
        self.tokens[square] = -1
        self.counts[player] += 1
        self.points[player] += POINTS[token]
        if self.grass == 0:
            self._finish_on_points()
            return
        if token == _YUM:
            self._finish_effect()
        elif token == _SURPRISE and self.trex_waiting > 0:
            self.trex_waiting -= 1
            self.cells[square] = TREX_PIECE
            self.reserve[player] += 1
            self.on_board[player] -= 1
            if not self._check_elimination():
                self._finish_effect()
        else:
            self.pending = token if token != _SURPRISE and self._effect_applies(token) else _LOOK
            self.phase = EFFECT

    def _effect_applies(self, token: int) -> bool:
        if token in (_SCOUTING, _ERUPTION):
            return True
        if EMPTY not in self.cells:
            return False
        if token == _BIRTH:
            return self.reserve[self.player] > 0
        if token == _STRIKE:
            return TREX_PIECE in self.cells
        return True  # air transport: some Diplo is always on the area while the game goes on

    def _finish_effect(self) -> None:
        self.pending = -1
        self.phase = ACTION
        self._action_done()

    def _action_done(self) -> None:
        self.eater = -1
        if self.phase == OVER:
            return
        self.actions_left -= 1
        if self.actions_left == 0:
            self.quiet = 0 if self.lively else self.quiet + 1
            if self.quiet >= self.quiet_limit:
                self._finish_on_points()
                return
            self.player = 1 - self.player
            self.turn += 1
            self.actions_left = 2
            self.lively = False

    def _check_elimination(self) -> bool:
        for player in (0, 1):
            if self.on_board[player] == 0:
                self._finish((1 - player,))
                return True
        return False

    def _finish_on_points(self) -> None:
        points, counts = self.points, self.counts
        if points[0] != points[1]:
            self._finish((0,) if points[0] > points[1] else (1,))
        elif counts[0] != counts[1]:
            self._finish((0,) if counts[0] < counts[1] else (1,))
        else:
            self._finish((0, 1))

    def _finish(self, winners: tuple[int, ...]) -> None:
        self.winners = winners
        self.phase = OVER
        self.pending = -1
        self.eater = -1

    # ---- the engine's actions ----------------------------------------------------------------------------

    def to_action(self, play: Play) -> Action:
        """The engine's action for a play of the player to act."""
        kind, first, second = play
        names, player = self.geometry.names, self.player
        if kind == MOVE:
            piece = TREX if self.cells[first] == TREX_PIECE else DIPLO
            return Move(player, piece, names[first], DIRECTIONS[second])
        if kind == PASS:
            return Pass(player)
        if kind == HATCH:
            return Hatch(player, names[first])
        if kind == SCOUT:
            return Scout(player, BOARDS[first])
        if kind == FLY:
            return Fly(player, names[first], names[second])
        squares = (names[first],) if second < 0 else (names[first], names[second])
        return Erupt(player, squares) if kind == ERUPT else Look(player, squares)
