"""Jurassic Snack bots: random, greedy and strong, each turning the observation of the player to act into
one action (a move, or the target of a token's effect).

- random: a uniformly random legal action;
- greedy: the action of best immediate gain (`gain`: the points eaten, on average for a token not seen, a Diplo
  chased, and a look at what it opens: Diplos ready to eat, T.Rex ready to chase);
- strong: a search over the visible area in worlds whose hidden tokens are drawn from those the seat has not
  seen: every action (the best few by `gain` when an effect offers many) is followed by the rest of the turn
  and the other player's whole turn, both played greedily, and judged by `outlook` at the start of the seat's
  next turn, averaged over the worlds.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from companion.games.bots import Bot, decision_random
from companion.games.common import OVER as GAME_OVER
from companion.games.jurassic_snack.actions import Action
from companion.games.jurassic_snack.engine import Game
from companion.games.jurassic_snack.ids import YUM_YUM
from companion.games.jurassic_snack.observation import SnackObservation, observe
from companion.games.jurassic_snack.playout import (
    BLUE_DIPLO,
    EFFECT,
    EMPTY,
    GRASS,
    MOVE,
    OVER,
    POINTS,
    TOKEN_INDEX,
    TREX_PIECE,
    YELLOW_DIPLO,
    Play,
    Position,
)
from companion.games.levels import GREEDY, RANDOM, STRONG

WIN = 100.0  # the outlook of a won game (minus for a lost one)
DIPLO_ON_AREA = 2.5  # a Diplo on the area, against one in reserve: it eats, and it keeps its player in the game
READY_TO_EAT = 0.6  # a Diplo that can eat with its next move
READY_TO_CHASE = 1.2  # a Diplo of the other player that a T.Rex can chase, for the player to act
EFFECT_VALUE = 0.5  # what a token's effect adds, on average, to its points
STRONG_WORLDS = 8
STRONG_BREADTH = 10  # actions searched when the choice is wider (a flight, an eruption): the best by gain
REPLY_BREADTH = 12  # effect targets weighed by a greedy reply inside the search, drawn at random when more
_YUM = TOKEN_INDEX[YUM_YUM]


def readiness(position: Position) -> tuple[int, int, set[int]]:
    """(Diplos of blue that can eat with their next move, of yellow, the squares of the Diplos a T.Rex can
    chase with its next move)."""
    cells, rays = position.cells, position.geometry.rays
    eaters = [0, 0, 0, 0, 0]  # indexed by content: the Diplos' colours at 2 and 3
    chased: set[int] = set()
    for square, content in enumerate(cells):
        if content < BLUE_DIPLO:
            continue
        for ray in rays[square]:
            for following in ray:
                found = cells[following]
                if found != EMPTY:
                    break
            else:
                continue
            if content == TREX_PIECE:
                if found in (BLUE_DIPLO, YELLOW_DIPLO):
                    chased.add(following)
            elif found == GRASS:
                eaters[content] += 1
                break
    return eaters[BLUE_DIPLO], eaters[YELLOW_DIPLO], chased


def outlook(position: Position, me: int) -> float:
    """How good the position looks for `me`: points, Diplos on the area, Diplos ready to eat, and the T.Rex
    chases open to whoever acts next; a finished game is WIN, -WIN, or 0 when shared."""
    if position.phase == OVER:
        winners = position.winners
        return 0.0 if len(winners) == 2 else (WIN if me in winners else -WIN)
    other = 1 - me
    value: float = position.points[me] - position.points[other]
    value += DIPLO_ON_AREA * (position.on_board[me] - position.on_board[other])
    *ready, chased = readiness(position)
    value += READY_TO_EAT * (ready[me] - ready[other])
    # the player to act may chase the other player's Diplos within a T.Rex's reach
    prey = BLUE_DIPLO + (other if position.player == me else me)
    in_reach = sum(1 for square in chased if position.cells[square] == prey)
    value += READY_TO_CHASE * (in_reach if position.player == me else -in_reach)
    return value


def gain(position: Position, play: Play, expected: float, blind: bool = False) -> float:
    """The greedy value of a play for the player to act: their outlook after it (what it gains now, and what it
    opens), up to a constant.

    A token the position does not know (any token, when `blind`) is judged at `expected` points plus
    EFFECT_VALUE, whatever it is."""
    me = position.player
    after = position.copy()
    kind, square, direction = play
    guessed = False
    if kind == MOVE and position.cells[square] != TREX_PIECE:
        target = position.slide(square, direction)
        if position.cells[target] == GRASS and (blind or position.tokens[target] < 0):
            after.tokens[target] = _YUM  # a token without effect in its place, its points corrected below
            guessed = True
    after.apply(play)
    value = outlook(after, me)
    if guessed and after.phase != OVER:
        value += expected - POINTS[_YUM] + EFFECT_VALUE
    return value


def greedy_play(position: Position, chooser: random.Random, expected: float, blind: bool = False,
                breadth: int | None = None) -> Play:
    """The play of best gain (ties broken at random); for an effect's target, among `breadth` plays drawn at
    random if there are more."""
    plays = position.legal()
    if breadth is not None and len(plays) > breadth and position.phase == EFFECT:
        plays = chooser.sample(plays, breadth)
    best, found = None, []
    for play in plays:
        value = gain(position, play, expected, blind)
        if best is None or value > best + 1e-9:
            best, found = value, [play]
        elif value > best - 1e-9:
            found.append(play)
    return found[int(chooser.random() * len(found))]


class RandomBot(Bot[SnackObservation, Action]):
    level = RANDOM

    def choose(self, observation: SnackObservation) -> Action:
        position = observation.position()
        plays = position.legal()
        chooser = decision_random(self.seed, observation.key())
        return position.to_action(plays[int(chooser.random() * len(plays))])


class GreedyBot(Bot[SnackObservation, Action]):
    level = GREEDY

    def choose(self, observation: SnackObservation) -> Action:
        position = observation.position()
        chooser = decision_random(self.seed, observation.key())
        return position.to_action(greedy_play(position, chooser, observation.expected_points()))


class StrongBot(Bot[SnackObservation, Action]):
    level = STRONG

    def __init__(self, seed: int = 0, worlds: int = STRONG_WORLDS):
        super().__init__(seed)
        self.worlds = worlds

    def choose(self, observation: SnackObservation) -> Action:
        weighed = self.weigh(observation)
        best = max(range(len(weighed)), key=lambda index: weighed[index][1])
        return observation.position().to_action(weighed[best][0])

    def weigh(self, observation: SnackObservation) -> list[tuple[Play, float]]:
        """The plays searched, each with its average outlook over the worlds (see the module's docstring)."""
        position = observation.position()
        expected = observation.expected_points()
        plays = position.legal()
        if len(plays) > STRONG_BREADTH:
            plays = sorted(plays, key=lambda play: -gain(position, play, expected))[:STRONG_BREADTH]
        chooser = decision_random(self.seed, observation.key())
        me = observation.seat
        totals = [0.0] * len(plays)
        for _ in range(self.worlds):
            world = observation.world(chooser)
            stream = chooser.random()
            for index, play in enumerate(plays):
                after = world.copy()
                after.apply(play)
                replies = random.Random(stream)
                while after.phase != OVER and after.player == me:  # the rest of the seat's turn
                    after.apply(greedy_play(after, replies, expected, True, REPLY_BREADTH))
                while after.phase != OVER and after.player != me:  # the other player's turn
                    after.apply(greedy_play(after, replies, expected, True, REPLY_BREADTH))
                totals[index] += outlook(after, me)
        return [(play, total / self.worlds) for play, total in zip(plays, totals, strict=True)]


def bot_action(game: Game, bot: Bot[SnackObservation, Action]) -> Action:
    """What `bot` plays for the player to act (it sees only `observe`)."""
    return bot.choose(observe(game, game.player))


def play_game(game: Game, bots: Sequence[Bot[SnackObservation, Action]]) -> Game:
    """Play a hidden-token game to its end, each player's bot choosing for it."""
    while game.phase != GAME_OVER:
        game.apply(bot_action(game, bots[game.player]))
    return game


BOTS: dict[str, type[Bot[SnackObservation, Action]]] = {RANDOM: RandomBot, GREEDY: GreedyBot, STRONG: StrongBot}
