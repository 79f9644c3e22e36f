"""Advice at a Jurassic Snack table, and what a player played last, in words.

Advice is the advisor's best action for the player whose turn it is, with the reason they can check on the
area (what it eats, chases or sets up), and the runner-up when it is close. What a player played is their last
turn, action by action, as it was narrated then.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.errors import RuleViolation
from companion.games.bots import Suggestion
from companion.games.common import Reason

if TYPE_CHECKING:
    from companion.dialogue.jurassic_snack.table import JurassicSnackTable

# Events that the next question says anyway, and the result that the final scores say: left out of narration.
UNSAID_EVENTS = frozenset({"js_effect", "js_turn_token", "js_win_points", "js_win_fewer_tokens", "js_win_shared",
                           "js_win_elimination"})


def advise(table: JurassicSnackTable, player: int) -> None:
    """Say the best action of `player` and, when close, the runner-up; or why no advice is given."""
    if table.advice_refused():
        return
    from companion.games.jurassic_snack.advice import advise_seat

    try:
        found = advise_seat(table.game, player, seed=table.game.seed)
    except RuleViolation as refused:
        assert isinstance(refused.reason, Reason)
        table.session.say_text(table.reason_words(refused.reason))
        return
    table.session.say_text(suggestion_words(table, found.best, "advice_best"))
    if found.runner_up is not None:
        table.session.say_text(suggestion_words(table, found.runner_up, "advice_runner_up"))


def suggestion_words(table: JurassicSnackTable, suggestion: Suggestion, key: str) -> str:
    """One suggestion: the action, and what it does now ("le coup du diplo de B5 vers le nord : il mange
    l'herbe de B6...")."""
    return table.text(key, action=table.describe(suggestion.action), why=why_words(table, suggestion.reason))


def why_words(table: JurassicSnackTable, reason: Reason) -> str:
    """The advisor's reason in words; a token seen under the grass has a sentence of its own, an average of
    the tokens not seen is said as a decimal count of points."""
    params: dict[str, Any] = dict(reason.params)
    code = reason.code
    if code == "js_advice_eat" and "token" in params:
        code = "js_advice_eat_seen"
    if "expected_points" in params:  # a decimal count: said with the language's mark and its unit
        params["expected_points"] = float(params["expected_points"])
    if "piece" in params:  # what flies: a T-Rex, or a Diplo of its colour ("le diplo jaune")
        color = params.get("color")
        params["mover"] = table.text(f"advice_mover.{params['piece']}",
                                     color=table.text(f"colors.{color}") if color else "")
    if "denied" in params:  # an eruption that leaves the other player more Diplos ready denies none
        params["denied"] = max(0, int(params["denied"]))
    return table.session.catalog.say(f"reasons.{code}", **table.param_words(params))


def say_played(table: JurassicSnackTable, player: int) -> None:
    """The last turn of `player`, action by action, as it was narrated (never what a look showed)."""
    game = table.game
    actions = game.actions
    last = max((index for index, action in enumerate(actions) if action.player == player), default=None)
    if last is None:
        table.say("played_nothing", player=game.players[player])
        return
    first = last
    while first > 0 and actions[first - 1].player == player:
        first -= 1
    replayed = game.replay(game.setup_json(), actions[:first])
    turn = replayed.turn
    said: list[str] = []
    for action in actions[first:last + 1]:
        said.extend(table.event_words(event, player) for event in replayed.apply(action)
                    if event.code not in UNSAID_EVENTS and event.code != "js_next_turn")
    table.say("played", player=game.players[player], turn=turn, events=" ".join(said))
