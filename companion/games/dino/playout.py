"""Fast Dino positions for the strong bot and the advisor: one game as a few flat lists of small ints.

A Position holds what the rules need and nothing more (no log, no names, no Reasons): the squares as indices
with their distances, the pawns, the eggs left in each nest, each player's eggs by colour, the meteor. It plays
a game to its end with the greedy policy of bots.GreedyBot (the same values, computed once per square instead of
once per action) and scores it as the engine does, every pawn left on the board paying the least steps home.
Tests replay seeded engine games through it and compare every legal set and every score.

Egg colours are nest indices (the order of Setup.nests); a set of nests is a bit mask.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

from companion.games.dino.actions import Action, Meteor, Move
from companion.games.dino.board import UNREACHABLE
from companion.games.dino.engine import AT_START, HOME, ON_BOARD, Game
from companion.games.dino.ids import COLOUR_POINTS, EGG_POINTS, PAWNS_PER_PLAYER, POINTS_PER_TURN

FAR = 99  # the distance of a square that barriers wall off
START, BOARD, GONE = 0, 1, 2  # where a pawn is: beside its time machine, on the board, home
_PLACES = {AT_START: START, ON_BOARD: BOARD, HOME: GONE}
# The greedy policy's weights (bots.GreedyBot's too).
APPROACH = 0.4  # points a step further from an egg worth taking costs
HOMING = 1.0  # points a step still to walk to a time machine costs once the meteor is close
STEP_COST = 0.01  # among equal walks, the shortest: the points left move the meteor

Play = tuple[int, int, int, int, int]  # (pawn, steps, square, nest of the egg taken or -1, exit 0/1); pawn -1: meteor
METEOR_PLAY: Play = (-1, 0, -1, -1, 0)


@dataclass(frozen=True)
class Layout:
    """What a game's setup fixes: squares and distances, nests, time machines (shared by every copy)."""

    squares: tuple[str, ...]
    distance: tuple[tuple[int, ...], ...]  # FAR when walled off
    nest_square: tuple[int, ...]
    nest_colour: tuple[str, ...]
    exits: tuple[tuple[int, ...], ...]  # per player, the squares whose time machine they may leave by
    entering: int  # steps from a time machine onto its square
    players: int

    @cached_property
    def reach(self) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
        """[place][square]: the (target, least steps) within a turn's points of a pawn on `square` (place BOARD)
        or beside its time machine (place START), nearest first."""
        found = []
        for entering in (self.entering, 0):  # START, BOARD
            found.append(tuple(
                tuple(sorted(((target, max(1, steps + entering)) for target, steps in enumerate(row)
                              if steps != FAR and max(1, steps + entering) <= POINTS_PER_TURN),
                             key=lambda item: item[1]))
                for row in self.distance))
        return tuple(found)

    @cached_property
    def nests_at(self) -> tuple[tuple[int, ...], ...]:
        """Per square, the nests in it."""
        return tuple(tuple(nest for nest, square in enumerate(self.nest_square) if square == target)
                     for target in range(len(self.squares)))

    @cached_property
    def home(self) -> tuple[tuple[int, ...], ...]:
        """[player][square]: the greedy policy's count of steps from the square onto one of the player's time
        machines (when barriers wall them all off, as many as there are squares)."""
        found = []
        for exits in self.exits:
            rows = []
            for row in self.distance:
                reachable = [row[exit] for exit in exits if row[exit] != FAR]
                rows.append((min(reachable) if reachable else len(row)) + self.entering)
            found.append(tuple(rows))
        return tuple(found)

    @cached_property
    def nests_near(self) -> tuple[tuple[tuple[int, float], ...], ...]:
        """Per square, the nests it can reach with the greedy policy's cost of the way (APPROACH a step, at
        least one), nearest first."""
        return tuple(tuple(sorted(((nest, APPROACH * max(row[square], 1)) for nest, square in
                                   enumerate(self.nest_square) if row[square] != FAR), key=lambda item: item[1]))
                     for row in self.distance)

    @classmethod
    def of(cls, game: Game) -> Layout:
        board = game.board
        squares = board.squares
        index = {square: number for number, square in enumerate(squares)}
        distances = board.distances(game.setup.barriers)
        distance = tuple(tuple(FAR if distances[a][b] == UNREACHABLE else distances[a][b] for b in squares)
                         for a in squares)
        nests = game.nests()
        return cls(squares, distance, tuple(index[square] for square, _ in nests.values()), tuple(nests),
                   tuple(tuple(index[square] for square in game.exits_allowed(player))
                         for player in range(len(game.players))), board.start_position_steps, len(game.players))


class Position:
    """A game of Dino in play (or over): pawns, nests, eggs, meteor, whose turn."""

    __slots__ = ("current", "eggs", "layout", "left", "meteor", "over", "penalty", "place", "square", "taken")

    def __init__(self, layout: Layout):
        self.layout = layout
        self.current = 0
        self.meteor = 0
        self.over = False
        players = range(layout.players)
        self.place = [[START] * PAWNS_PER_PLAYER for _ in players]
        self.square = [[0] * PAWNS_PER_PLAYER for _ in players]
        self.taken = [[0] * PAWNS_PER_PLAYER for _ in players]  # nests a pawn took from since it came to its square
        self.eggs = [[0] * len(layout.nest_square) for _ in players]  # per player, eggs of each nest's colour
        self.left = [0] * len(layout.nest_square)
        self.penalty = [0] * layout.players

    @classmethod
    def from_game(cls, game: Game, layout: Layout | None = None, eggs: Sequence[Sequence[str]] | None = None
                  ) -> Position:
        """The position of a game in play; `eggs` (per player, colours) in place of the game's own."""
        layout = layout or Layout.of(game)
        position = cls(layout)
        index = {square: number for number, square in enumerate(layout.squares)}
        colour_index = {colour: number for number, colour in enumerate(layout.nest_colour)}
        position.current = game.current_player
        position.meteor = game.meteor_left
        position.over = game.phase != "play"
        for view in game.pawns():
            player, pawn = view.player, view.pawn
            position.place[player][pawn] = _PLACES[view.place]
            position.square[player][pawn] = index[view.square]
            if view.place == ON_BOARD:
                free = set(game.egg_choices(player, pawn, view.square))
                position.taken[player][pawn] = sum(
                    1 << nest for nest, (square, left) in enumerate(game.nests().values())
                    if square == view.square and left > 0 and layout.nest_colour[nest] not in free)
        for nest, (_, left) in enumerate(game.nests().values()):
            position.left[nest] = left
        for player in range(layout.players):
            for colour in (game.eggs(player) if eggs is None else eggs[player]):
                position.eggs[player][colour_index[colour]] += 1
        return position

    def copy(self) -> Position:
        twin = object.__new__(Position)
        twin.layout, twin.current, twin.meteor, twin.over = self.layout, self.current, self.meteor, self.over
        twin.place = [list(row) for row in self.place]
        twin.square = [list(row) for row in self.square]
        twin.taken = [list(row) for row in self.taken]
        twin.eggs = [list(row) for row in self.eggs]
        twin.left = list(self.left)
        twin.penalty = list(self.penalty)
        return twin

    # ---- the rules -----------------------------------------------------------------------------------

    def least(self, player: int, pawn: int, target: int) -> int:
        """The fewest steps from the pawn's place to `target` (FAR when walled off), at least one."""
        steps = self.layout.distance[self.square[player][pawn]][target]
        if self.place[player][pawn] == START:
            steps += self.layout.entering
        return max(1, steps)

    def exit_least(self, square: int, exit: int) -> int:
        """The fewest steps from a pawn on `square` onto the time machine beside `exit` (FAR when walled off)."""
        steps = self.layout.distance[square][exit]
        return FAR if steps == FAR else max(1, steps + self.layout.entering)

    def home_steps(self, square: int, player: int) -> int:
        """The greedy policy's count of steps from a square onto one of `player`'s time machines (Layout.home)."""
        return self.layout.home[player][square]

    def penalty_of(self, square: int, player: int) -> int:
        """What a pawn left on `square` pays after the fall: the least steps home (0 when walled off, as the
        engine counts it)."""
        found = [least for exit in self.layout.exits[player] if (least := self.exit_least(square, exit)) != FAR]
        return min(found) if found else 0

    def occupied(self, player: int, pawn: int) -> set[int]:
        """The squares another pawn stands on."""
        return {self.square[p][k] for p in range(self.layout.players) for k in range(PAWNS_PER_PLAYER)
                if self.place[p][k] == BOARD and (p, k) != (player, pawn)}

    def egg_choices(self, player: int, pawn: int, target: int) -> list[int]:
        """The nests in `target` this pawn may take an egg from if it stops there."""
        nests = self.layout.nests_at[target]
        if not nests:
            return []
        staying = self.place[player][pawn] == BOARD and self.square[player][pawn] == target
        taken = self.taken[player][pawn] if staying else 0
        return [nest for nest in nests if self.left[nest] > 0 and not taken >> nest & 1]

    def legal(self) -> list[Play]:
        """Every legal play of the player to act, as the engine lists its actions (the meteor first)."""
        player = self.current
        found = [METEOR_PLAY]
        squares = range(len(self.layout.squares))
        for pawn in range(PAWNS_PER_PLAYER):
            if self.place[player][pawn] == GONE:
                continue
            occupied = self.occupied(player, pawn)
            for target in squares:
                least = self.least(player, pawn, target)
                if target in occupied or least > POINTS_PER_TURN:
                    continue
                eggs = [-1, *self.egg_choices(player, pawn, target)]
                found.extend((pawn, steps, target, egg, 0) for steps in range(least, POINTS_PER_TURN + 1)
                             for egg in eggs)
            if self.place[player][pawn] == BOARD:
                for exit in self.layout.exits[player]:
                    least = self.exit_least(self.square[player][pawn], exit)
                    if least <= POINTS_PER_TURN:
                        found.extend((pawn, steps, exit, -1, 1) for steps in range(least, POINTS_PER_TURN + 1))
        return found

    def apply(self, play: Play) -> None:
        """Play a legal play of the player to act; the game ends when the meteor falls."""
        pawn, steps, target, egg, exit = play
        player = self.current
        if pawn >= 0:
            if self.place[player][pawn] != BOARD or self.square[player][pawn] != target:
                self.taken[player][pawn] = 0
            self.place[player][pawn] = GONE if exit else BOARD
            self.square[player][pawn] = target
            if egg >= 0:
                self.left[egg] -= 1
                self.eggs[player][egg] += 1
                self.taken[player][pawn] |= 1 << egg
        self.meteor = max(0, self.meteor - (POINTS_PER_TURN - steps))
        if self.meteor == 0:
            self.fall()
        else:
            self.current = (player + 1) % self.layout.players

    def fall(self) -> None:
        """The meteor has fallen: each pawn on the board pays the least steps to a time machine."""
        self.over = True
        for player in range(self.layout.players):
            self.penalty[player] = sum(self.penalty_of(self.square[player][pawn], player)
                                       for pawn in range(PAWNS_PER_PLAYER) if self.place[player][pawn] == BOARD)

    def to_action(self, play: Play) -> Action:
        pawn, steps, target, egg, exit = play
        if pawn < 0:
            return Meteor(self.current)
        return Move(self.current, pawn, steps, self.layout.squares[target], bool(exit),
                    None if egg < 0 else self.layout.nest_colour[egg])

    def play_of(self, action: Action) -> Play:
        """The play of an engine action of the player to act."""
        if isinstance(action, Meteor):
            return METEOR_PLAY
        assert isinstance(action, Move)
        egg = -1 if action.egg is None else self.layout.nest_colour.index(action.egg)
        return (action.pawn, action.steps, self.layout.squares.index(action.square), egg, int(action.exit))

    # ---- the score -----------------------------------------------------------------------------------

    def total(self, player: int) -> int:
        eggs = self.eggs[player]
        return EGG_POINTS * sum(eggs) + COLOUR_POINTS * sum(1 for count in eggs if count) - self.penalty[player]

    def totals(self) -> list[int]:
        return [self.total(player) for player in range(self.layout.players)]

    # ---- the greedy policy ---------------------------------------------------------------------------

    def egg_points(self, player: int, nest: int, also: int = -1) -> int:
        """What one more egg of `nest`'s colour adds to `player` (counting `also` as taken already)."""
        new = not self.eggs[player][nest] and nest != also
        return EGG_POINTS + (COLOUR_POINTS if new else 0)

    def urgent(self, player: int) -> bool:
        """Whether `player` must head home now (bots.is_urgent)."""
        needed = sum(-(-self.home_steps(self.square[player][pawn], player) // POINTS_PER_TURN)
                     for pawn in range(PAWNS_PER_PLAYER) if self.place[player][pawn] == BOARD)
        turns_left = self.meteor / (POINTS_PER_TURN * max(1, self.layout.players - 1))
        return needed > 0 and needed >= turns_left

    def prospect(self, player: int, square: int, egg: int) -> float:
        """The best egg within reach of `square` once `egg` (a nest in `square`, or -1) is taken: its points less
        APPROACH a step (bots._best_prospect)."""
        return self._prospect(self._nest_values(player), square, egg)

    def _nest_values(self, player: int) -> list[int]:
        """What one more egg of each nest is worth to `player` now (0: the nest is empty)."""
        eggs = self.eggs[player]
        return [0 if not left else EGG_POINTS + (0 if eggs[nest] else COLOUR_POINTS)
                for nest, left in enumerate(self.left)]

    def _prospect(self, values: list[int], square: int, egg: int) -> float:
        best = 0.0
        for nest, cost in self.layout.nests_near[square]:
            worth = values[nest]
            if worth and nest != egg:  # the nest of the egg taken is in `square`: not a prospect
                best = max(best, worth - cost)
                if worth > EGG_POINTS:  # the nearest new colour: nothing farther is worth more
                    break
        return best

    def greedy(self, chooser: random.Random) -> Play:
        """The greedy bot's play (bots.action_value), ties broken at random; a walk whose steps do not count
        takes a random number of them."""
        player = self.current
        urgent = self.urgent(player)
        values = self._nest_values(player)
        nests_at, home = self.layout.nests_at, self.layout.home[player]
        best, found = -float(COLOUR_POINTS), [METEOR_PLAY]
        for pawn in range(PAWNS_PER_PLAYER):
            place = self.place[player][pawn]
            if place == GONE:
                continue
            occupied = self.occupied(player, pawn)
            for target, least in self.layout.reach[place][self.square[player][pawn]]:
                if target in occupied:
                    continue
                for egg in (-1, *self.egg_choices(player, pawn, target)) if nests_at[target] else (-1,):
                    gain = 0 if egg < 0 else values[egg]
                    if urgent:  # the steps do not count
                        value = gain - HOMING * home[target]
                        play = (pawn, -least, target, egg, 0)
                    else:
                        value = gain + self._prospect(values, target, egg) - STEP_COST * least
                        play = (pawn, least, target, egg, 0)
                    if value > best + 1e-9:
                        best, found = value, [play]
                    elif value > best - 1e-9:
                        found.append(play)
            if place == BOARD:
                value = 0.0 if urgent else -float(COLOUR_POINTS)
                for exit in self.layout.exits[player]:
                    least = self.exit_least(self.square[player][pawn], exit)
                    if least > POINTS_PER_TURN:
                        continue
                    play = (pawn, -least, exit, -1, 1)
                    if value > best + 1e-9:
                        best, found = value, [play]
                    elif value > best - 1e-9:
                        found.append(play)
        pawn, steps, target, egg, exit = found[int(chooser.random() * len(found))]
        if steps < 0:  # any number of steps from the least
            steps = -steps + int(chooser.random() * (POINTS_PER_TURN + steps + 1))
        return pawn, steps, target, egg, exit

    def play_out(self, chooser: random.Random) -> None:
        """Every player plays greedily to the end of the game. (Each player drawing from a stream of its own,
        so that one player's turn changes less of the others' draws, won fewer games against the greedy bot:
        0.47 of 40 at three players, against 0.58 with one stream.)"""
        while not self.over:
            self.apply(self.greedy(chooser))


def outcome(position: Position, seat: int) -> tuple[float, int]:
    """A finished game for `seat`: its share of the win (1/k for k winners) and its margin over the best rival."""
    totals = position.totals()
    best = max(totals)
    winners = totals.count(best)
    rivals = max(total for player, total in enumerate(totals) if player != seat)
    return (1 / winners if totals[seat] == best else 0.0), totals[seat] - rivals
