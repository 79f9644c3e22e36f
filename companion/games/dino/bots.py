"""A greedy Dino bot: it walks towards the eggs, takes them (a new colour first), and heads for a time machine
when the meteor is about to fall.

Dino hides nothing (the board, the nests and every pawn are in sight), so a seat's observation is a copy
of the whole game; the bot only reads it. After the fall the penalties are not a choice: each pawn left on
the board pays the least the board data allows, as the engine lists it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.errors import RuleViolation
from companion.games.bots import GREEDY, Bot, decision_random
from companion.games.common import OVER
from companion.games.dino.actions import Action, Meteor, Move
from companion.games.dino.board import UNREACHABLE, Board, Border, Distances
from companion.games.dino.engine import ON_BOARD, PENALTIES, Game
from companion.games.dino.ids import COLOUR_POINTS, EGG_POINTS, POINTS_PER_TURN

APPROACH = 0.4  # points a step further from an egg worth taking costs
HOMING = 1.0  # points a step still to walk to a time machine costs once the meteor is close
SPARE_TURNS = 0  # turns kept in hand when heading home


@dataclass(frozen=True)
class DinoObservation:
    """The player to act and a copy of the game (nothing in Dino is hidden)."""

    seat: int
    game: Game

    def key(self) -> tuple[int, int]:
        return (self.game.turn, self.seat)


def observe(game: Game, seat: int) -> DinoObservation:
    """The observation of `seat`, whose turn it must be (RuleViolation with the engine's Reason otherwise)."""
    reason = game.check(Meteor(seat))
    if reason is not None:
        raise RuleViolation(f"{seat} cannot play now: {reason.code}", reason)
    return DinoObservation(seat, game.copy())


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


def play_game(game: Game, bots: Sequence[Bot[DinoObservation, Action]]) -> Game:
    """Play a game to its end, each player's bot choosing its turns; after the fall each pawn pays the least."""
    while game.phase != OVER:
        if game.phase == PENALTIES:
            game.apply(game.legal_actions()[0])
            continue
        seat = game.current_player
        game.apply(bots[seat].choose(observe(game, seat)))
    return game


BOTS: dict[str, type[Bot[DinoObservation, Action]]] = {GREEDY: GreedyBot}
