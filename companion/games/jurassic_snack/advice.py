"""The Jurassic Snack advisor: for the player to act, the best action and, when close, the runner-up, each
with the reason the player can check on the area.

Actions are ranked by the strong bot's search; the reason says what the action does now, as data:
- js_advice_win: it ends the game with this player the winner;
- js_advice_chase: a T.Rex chases a Diplo of the other player (`square`, `color`);
- js_advice_eat: a Diplo eats the grass on `square` (`token` and `points` when the player saw it there, else
  `expected_points`, the average of the tokens not seen);
- js_advice_escape: a Diplo a T.Rex could chase moves out of its reach (`square`, `target`);
- js_advice_move: any other move (`square`, `target`, `ready`: the player's Diplos then ready to eat);
- js_advice_hatch, js_advice_fly, js_advice_erupt, js_advice_scout, js_advice_look, js_advice_pass: an
  effect's target (squares and board as named on the area; `ready` and `in_reach` say what it sets up).
"""

from __future__ import annotations

from typing import Any

from companion.games.bots import Advice, Suggestion, ranked_advice
from companion.games.common import Reason
from companion.games.jurassic_snack.bots import STRONG_WORLDS, StrongBot, readiness
from companion.games.jurassic_snack.engine import Game
from companion.games.jurassic_snack.ids import TOKEN_POINTS
from companion.games.jurassic_snack.layout import BOARDS
from companion.games.jurassic_snack.observation import SnackObservation, observe
from companion.games.jurassic_snack.playout import (
    BLUE_DIPLO,
    CONTENTS,
    ERUPT,
    FLY,
    GRASS,
    HATCH,
    LOOK_AT,
    MOVE,
    OVER,
    PASS,
    TREX_PIECE,
    Play,
    Position,
)

CLOSE = 0.5  # a runner-up within this much of the best outlook (about a third of a token) is given too
# Every code the advisor's Reasons carry; data for now: no voice speaks them until advice is said in the
# conversation.
REASONS = ("js_advice_win", "js_advice_chase", "js_advice_eat", "js_advice_escape", "js_advice_move",
           "js_advice_hatch", "js_advice_fly", "js_advice_erupt", "js_advice_scout", "js_advice_look",
           "js_advice_pass")


def advise(observation: SnackObservation, seed: int = 0, worlds: int = STRONG_WORLDS) -> Advice:
    """The best action of the player to act and, if close, the runner-up, each with its Reason."""
    position = observation.position()
    suggestions = [Suggestion(position.to_action(play), value, play_reason(observation, position, play))
                   for play, value in StrongBot(seed, worlds).weigh(observation)]
    return ranked_advice(suggestions, CLOSE)


def advise_seat(game: Game, seat: int, seed: int = 0) -> Advice:
    """Advice for `seat`, whose turn it must be (RuleViolation with the Reason otherwise)."""
    return advise(observe(game, seat), seed)


def play_reason(observation: SnackObservation, position: Position, play: Play) -> Reason:
    """What `play` does now, as a Reason (see the module's docstring)."""
    kind, first, second = play
    names = position.geometry.names
    me = position.player
    if kind == MOVE:
        target = position.slide(first, second)
        found = position.cells[target]
        if position.cells[first] != TREX_PIECE and found == GRASS:
            return _eat_reason(observation, names[target])
        after = position.copy()
        after.apply(play)
        if after.phase == OVER and after.winners == (me,):
            return Reason("js_advice_win", {"square": names[first], "target": names[target]})
        if found >= BLUE_DIPLO and found != BLUE_DIPLO + me:
            return Reason("js_advice_chase", {"square": names[target], "color": CONTENTS[found]})
        if first in readiness(position)[2] and target not in readiness(after)[2]:
            return Reason("js_advice_escape", {"square": names[first], "target": names[target]})
        return Reason("js_advice_move", {"square": names[first], "target": names[target],
                                         "ready": readiness(after)[me]})
    if kind == PASS:
        return Reason("js_advice_pass")
    after = position.copy()
    after.apply(play)
    *ready, chased = readiness(after)
    prey = BLUE_DIPLO + 1 - me
    params: dict[str, Any] = {"ready": ready[me],
                              "in_reach": sum(1 for square in chased if after.cells[square] == prey)}
    if kind == HATCH:
        return Reason("js_advice_hatch", {"square": names[first], **params})
    if kind == FLY:
        flown = position.cells[first]
        piece = {"piece": "trex"} if flown == TREX_PIECE else {"piece": "diplo", "color": CONTENTS[flown]}
        return Reason("js_advice_fly", {"square": names[first], "target": names[second], **piece, **params})
    squares = [names[first]] + ([names[second]] if second >= 0 else [])
    if kind == ERUPT:
        *before, _ = readiness(position)
        return Reason("js_advice_erupt", {"squares": squares, "denied": before[1 - me] - ready[1 - me], **params})
    if kind == LOOK_AT:
        return Reason("js_advice_look", {"squares": squares})
    return Reason("js_advice_scout", {"board": BOARDS[first]})


def _eat_reason(observation: SnackObservation, square: str) -> Reason:
    known = dict(observation.known)
    if square in known:
        token = known[square]
        return Reason("js_advice_eat", {"square": square, "token": token, "points": TOKEN_POINTS[token]})
    return Reason("js_advice_eat", {"square": square, "expected_points": round(observation.expected_points(), 1)})
