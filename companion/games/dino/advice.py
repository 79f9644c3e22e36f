"""The Dino advisor: for the player to act, the best turn and, when close, the runner-up, each with the reason
the player can check on the board.

Turns are ranked by the strong bot's playouts; the reason says what the turn does now, as data:
- dino_advice_new_colour: the pawn takes an egg of a colour the player does not hold yet (`colour`, `points`,
  `left`: eggs left in that nest after it);
- dino_advice_egg: the pawn takes one more egg of a colour the player holds (same params);
- dino_advice_home: the pawn goes home by the time machine of `square` and leaves the board (`saved`: the
  penalty it would pay if the meteor fell now);
- dino_advice_towards: the pawn comes closer to the nest of `colour` in `square`, still `steps` away at least;
- dino_advice_walk: the pawn goes to `square` (no nest worth it in reach);
- dino_advice_meteor: the whole turn to the meteor (`left`: stones before its fall after it).
Every reason also carries `win_in_ten`, the playouts' chance of winning after the turn, as a count out of ten.
It is an estimate from a few playouts (ADVICE_WORLDS) in which every other player plays greedily, so it is said
coarsely and never as a sure win or a sure loss: the share of wins is counted as if one more playout had been
won and one more lost (Laplace's rule of succession), then rounded to tenths. At seed 9, two players, the first
advice won its 6 playouts of 6 ("100 in a hundred"), and the strong bot then won the game 21 to 3.
"""

from __future__ import annotations

from companion.games.bots import Advice, Suggestion, ranked_advice
from companion.games.common import Reason
from companion.games.dino.actions import Action, Move
from companion.games.dino.bots import WORLDS, StrongBot
from companion.games.dino.engine import Game
from companion.games.dino.ids import COLOUR_POINTS, EGG_POINTS, POINTS_PER_TURN
from companion.games.dino.observation import DinoObservation, observe

CLOSE = 0.03  # a runner-up within this much of the best value is given too (about 3 % of a win)
# The advisor searches as the strong bot does. Twice its worlds (12) took 0.24 s of processor time an advice at
# two players (10 advices, the median of 5 runs), over the 0.3 s the advice of every game must take at the 95th
# percentile, and still ranked a first turn's close candidates differently from one seed to the next.
ADVICE_WORLDS = WORLDS
REASONS = ("dino_advice_new_colour", "dino_advice_egg", "dino_advice_home", "dino_advice_towards",
           "dino_advice_walk", "dino_advice_meteor")


def advise(observation: DinoObservation, seed: int = 0, worlds: int = ADVICE_WORLDS) -> Advice:
    """The best turn of the observed seat and, if close, the runner-up, each with its Reason."""
    suggestions = []
    for weighed in StrongBot(seed, worlds).weigh(observation):
        reason = turn_reason(observation.game, observation.seat, weighed.action)
        reason = Reason(reason.code, {**reason.params, "win_in_ten": win_in_ten(weighed.win, worlds)})
        suggestions.append(Suggestion(weighed.action, weighed.value, reason))
    return ranked_advice(suggestions, CLOSE)


def win_in_ten(share: float, playouts: int) -> int:
    """The chance of winning said out of ten, from the average win share of `playouts` playouts: one win and one
    loss more are counted, so that a few playouts never make a sure result (1 to 9 out of ten)."""
    return round(10 * (share * playouts + 1) / (playouts + 2))


def advise_seat(game: Game, seat: int, seed: int = 0) -> Advice:
    """Advice for `seat`, whose turn it must be (RuleViolation with the Reason otherwise)."""
    return advise(observe(game, seat), seed)


def turn_reason(game: Game, seat: int, action: Action) -> Reason:
    """What a turn of `seat` does now, as a Reason (see the module's docstring)."""
    if not isinstance(action, Move):
        return Reason("dino_advice_meteor", {"left": max(0, game.meteor_left - POINTS_PER_TURN)})
    if action.exit:
        view = game.pawn(seat, action.pawn)
        return Reason("dino_advice_home", {"square": action.square, "saved": game.penalty_least(seat, action.pawn),
                                           "from_square": view.square})
    if action.egg is not None:
        new = action.egg not in game.eggs(seat)
        return Reason("dino_advice_new_colour" if new else "dino_advice_egg",
                      {"colour": action.egg, "points": EGG_POINTS + (COLOUR_POINTS if new else 0),
                       "left": game.nests()[action.egg][1] - 1})
    nest = _nearest_worth(game, seat, action)
    if nest is None:
        return Reason("dino_advice_walk", {"square": action.square})
    colour, square, steps = nest
    return Reason("dino_advice_towards", {"colour": colour, "square": square, "steps": steps})


def _nearest_worth(game: Game, seat: int, move: Move) -> tuple[str, str, int] | None:
    """The nest the walk brings closer: the nearest one of a colour the player lacks, else the nearest with an
    egg left, that is farther from where the pawn stood (colour, square, steps from the square reached)."""
    distances = game.board.distances(game.setup.barriers)
    start = game.pawn(seat, move.pawn).square
    owned = set(game.eggs(seat))
    found = []
    for colour, (square, left) in game.nests().items():
        after, before = distances[move.square][square], distances[start][square]
        if left and after > 0 and (before < 0 or after < before):
            found.append((colour in owned, after, colour, square))
    if not found:
        return None
    _, steps, colour, square = min(found)
    return colour, square, steps
