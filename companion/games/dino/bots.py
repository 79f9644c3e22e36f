"""Dino bots: random, greedy and strong, each turning the observation of the player to act into one turn.

- random: a uniformly random legal turn;
- greedy: it walks towards the eggs, takes them (a new colour first), and heads for a time machine when the
  meteor is about to fall (`action_value`);
- strong: determinised Monte-Carlo: in worlds where the eggs the others keep face down are drawn from those
  the seat has not seen, each of its best candidate turns (by the greedy value, each with the fewest steps and
  with all four, and the whole turn to the meteor) is followed by every player playing greedily to the end
  (playout.Position); the turn of best average result is kept (a win counts 1, shared by the winners, plus a
  little for the margin).

A seat sees what observation.observe gives: the board, the nests and every pawn, its own eggs, and of the
others only their egg on show. After the fall the penalties are not a choice: each pawn left on the board pays
the least the board data allows, as the engine lists it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from companion.games.bots import Bot, decision_random
from companion.games.common import OVER
from companion.games.dino.actions import Action, Meteor, Move
from companion.games.dino.board import UNREACHABLE, Board, Border, Distances
from companion.games.dino.engine import ON_BOARD, PENALTIES, Game
from companion.games.dino.ids import COLOUR_POINTS, EGG_POINTS, POINTS_PER_TURN
from companion.games.dino.observation import DinoObservation, observe
from companion.games.dino.playout import APPROACH, HOMING, Layout, Position, outcome
from companion.games.levels import GREEDY, RANDOM, STRONG

SPARE_TURNS = 0  # turns kept in hand when heading home

__all__ = ["BOTS", "DinoObservation", "GreedyBot", "RandomBot", "StrongBot", "observe", "play_game"]


class RandomBot(Bot[DinoObservation, Action]):
    level = RANDOM

    def choose(self, observation: DinoObservation) -> Action:
        legal = observation.game.legal_actions()
        return legal[int(decision_random(self.seed, observation.key()).random() * len(legal))]


class GreedyBot(Bot[DinoObservation, Action]):
    level = GREEDY

    def __init__(self, seed: int = 0):
        super().__init__(seed)
        self._distances: tuple[Board, tuple[Border, ...], Distances] | None = None

    def choose(self, observation: DinoObservation) -> Action:
        game, seat = observation.game, observation.seat
        distances = self._board_distances(game)
        chooser = decision_random(self.seed, observation.key())
        urgent = is_urgent(game, seat, distances)
        best, found = None, []
        for action in game.legal_actions():
            value = action_value(game, seat, action, distances, urgent)
            if best is None or value > best + 1e-9:
                best, found = value, [action]
            elif value > best - 1e-9:
                found.append(action)
        return found[int(chooser.random() * len(found))]

    def _board_distances(self, game: Game) -> Distances:
        """The board's distances with this game's barriers, kept from one turn to the next."""
        if self._distances is None or self._distances[0] is not game.board or \
                self._distances[1] != game.setup.barriers:
            self._distances = (game.board, game.setup.barriers, game.board.distances(game.setup.barriers))
        return self._distances[2]


def action_value(game: Game, seat: int, action: Action, distances: Distances, urgent: bool) -> float:
    """What a turn is worth to `seat` now: the egg it takes, and the best egg it brings within reach (less
    APPROACH a step); when `urgent` (is_urgent), the egg it takes less HOMING for each step still to walk home."""
    if not isinstance(action, Move):
        return -COLOUR_POINTS  # the whole turn to the meteor: only when no walk is worth more
    value = 0.0 if action.egg is None else _egg_points(game, seat, action.egg)
    if urgent:  # only home counts: each step still to walk will be a point of penalty
        return value if action.exit else value - HOMING * _nearest_exit(game, seat, action.square, distances)
    if action.exit:
        return value - COLOUR_POINTS  # home early: no more eggs for this pawn
    # Among equal walks, the shortest: the points it does not need go to the meteor, so that a game whose
    # eggs are gone comes to its end.
    return value + _best_prospect(game, seat, action, distances) - 0.01 * action.steps


def is_urgent(game: Game, seat: int, distances: Distances) -> bool:
    """Whether `seat` must now head home: the turns its pawns on the board need to reach a time machine are
    as many as the turns it may have left, should every other player give their turns wholly to the meteor."""
    needed = sum(-(-_nearest_exit(game, seat, view.square, distances) // POINTS_PER_TURN)
                 for view in game.pawns(seat) if view.place == ON_BOARD)
    turns_left = game.meteor_left / (POINTS_PER_TURN * max(1, len(game.players) - 1))
    return needed > 0 and needed + SPARE_TURNS >= turns_left


def _egg_points(game: Game, seat: int, colour: str, also: str | None = None) -> int:
    """What one more egg of `colour` adds to `seat`'s score (counting `also` as taken already)."""
    owned = set(game.eggs(seat)) | ({also} if also else set())
    return EGG_POINTS + (COLOUR_POINTS if colour not in owned else 0)


def _best_prospect(game: Game, seat: int, move: Move, distances: Distances) -> float:
    """The best egg within reach once the move is made: its points less APPROACH for each step to its nest."""
    best = 0.0
    for colour, (square, left) in game.nests().items():
        left -= colour == move.egg
        distance = distances[move.square][square]
        if left > 0 and distance != UNREACHABLE and not (distance == 0 and colour == move.egg):
            best = max(best, _egg_points(game, seat, colour, move.egg) - APPROACH * max(distance, 1))
    return best


def _nearest_exit(game: Game, seat: int, square: str, distances: Distances) -> int:
    reachable = [distances[square][exit] for exit in game.exits_allowed(seat)
                 if distances[square][exit] != UNREACHABLE]
    return (min(reachable) if reachable else len(distances)) + game.board.start_position_steps


MARGIN_WEIGHT = 0.02  # a point of margin over the best rival weighs this much against a win
# The walks of best greedy value searched (each with the fewest steps and with all four), and the guesses at
# the eggs face down, each followed to the end of the game by every candidate. At two players against the
# greedy bot, 8 worlds and 6 walks won 0.95 of 20 games (230 ms a turn at the median), 4 and 4 won 0.95 too
# (70 ms), 6 and 5 won 40 games of 40 (144 ms); at three players 6 and 5 won 0.7 of 20 against two greedy bots.
CANDIDATES = 5
WORLDS = 6


@dataclass(frozen=True)
class Weighed:
    """A turn and what the playouts made of it: `value` (win share plus MARGIN_WEIGHT times the margin over
    the best rival, averaged) and `win` (the average win share alone, from 0 to 1)."""

    action: Action
    value: float
    win: float


class StrongBot(Bot[DinoObservation, Action]):
    level = STRONG

    def __init__(self, seed: int = 0, worlds: int = WORLDS, candidates: int = CANDIDATES):
        super().__init__(seed)
        self.worlds, self.breadth = worlds, candidates
        self._layout: tuple[Game, Layout] | None = None

    def choose(self, observation: DinoObservation) -> Action:
        weighed = self.weigh(observation)
        return max(weighed, key=lambda entry: entry.value).action

    def weigh(self, observation: DinoObservation) -> list[Weighed]:
        """The candidate turns, each with its average result over the sampled worlds. Every candidate is played
        in the same worlds with the same random draws, so that the differences come from the turns."""
        game, seat = observation.game, observation.seat
        layout = self.layout(game)
        candidates = candidate_actions(game, seat, self.breadth)
        chooser = decision_random(self.seed, observation.key())
        values = [0.0] * len(candidates)
        wins = [0.0] * len(candidates)
        for _ in range(self.worlds):
            world = Position.from_game(game, layout, observation.eggs_guess(chooser))
            stream = chooser.getrandbits(64)
            for index, action in enumerate(candidates):
                after = world.copy()
                after.apply(after.play_of(action))
                after.play_out(random.Random(stream))
                share, margin = outcome(after, seat)
                values[index] += share + MARGIN_WEIGHT * margin
                wins[index] += share
        return [Weighed(action, value / self.worlds, win / self.worlds)
                for action, value, win in zip(candidates, values, wins, strict=True)]

    def layout(self, game: Game) -> Layout:
        """The layout of this game's setup, kept from one turn to the next."""
        if self._layout is None or self._layout[0].setup != game.setup:
            self._layout = (game, Layout.of(game))
        return self._layout[1]


def candidate_actions(game: Game, seat: int, breadth: int) -> list[Action]:
    """The turns the strong bot searches: the whole turn to the meteor, and the `breadth` walks (a pawn to a
    square, with or without an egg, or home) of best greedy value, plus the best way home of each pawn; each
    walk with the fewest steps and with all four points (the meteor then waits)."""
    distances = game.board.distances(game.setup.barriers)
    urgent = is_urgent(game, seat, distances)
    best: dict[tuple[int, str, str | None, bool], tuple[float, list[Move]]] = {}
    for action in game.legal_actions():
        if not isinstance(action, Move):
            continue
        value = action_value(game, seat, action, distances, urgent)
        group = (action.pawn, action.square, action.egg, action.exit)
        held = best.get(group)
        if held is None:
            best[group] = (value, [action])
        else:
            best[group] = (max(held[0], value), [*held[1], action])
    ranked = sorted(best, key=lambda group: -best[group][0])
    chosen = ranked[:breadth]
    for pawn in {group[0] for group in ranked}:  # each pawn's best way home, if it has one
        home = next((group for group in ranked if group[0] == pawn and group[3]), None)
        if home is not None and home not in chosen:
            chosen.append(home)
    found: list[Action] = [Meteor(seat)]
    for group in chosen:
        moves = best[group][1]
        fewest = min(moves, key=lambda move: move.steps)
        most = max(moves, key=lambda move: move.steps)
        found.extend([fewest] if fewest == most else [fewest, most])
    return found


def play_game(game: Game, bots: Sequence[Bot[DinoObservation, Action]]) -> Game:
    """Play a game to its end, each player's bot choosing its turns; after the fall each pawn pays the least."""
    while game.phase != OVER:
        if game.phase == PENALTIES:
            game.apply(game.legal_actions()[0])
            continue
        seat = game.current_player
        game.apply(bots[seat].choose(observe(game, seat)))
    return game


def bot_action(game: Game, seat: int, bot: Bot[DinoObservation, Action]) -> Action:
    """What `bot` plays for `seat`, whose turn it is (it sees only `observe`)."""
    return bot.choose(observe(game, seat))


BOTS: dict[str, type[Bot[DinoObservation, Action]]] = {RANDOM: RandomBot, GREEDY: GreedyBot, STRONG: StrongBot}
