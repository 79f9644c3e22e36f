"""Advice at a Draftosaurus table, what a player played, and the hand in solo, in words.

Advice is the advisor's best action for the player who asks, with the reason they can check on their zoo (the
pen's effect and the points it scores now), and the runner-up when it is close. In solo the program knows the
hand; at a table the player names the one species they consider ("où mettre le tricératops ?") or, asked for
it, the dinosaurs they hold. What a player played is their last placement, with what it brought then.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from companion.dialogue.session import Answer
from companion.errors import RuleViolation
from companion.games.bots import Advice, Suggestion
from companion.games.common import Reason
from companion.games.draftosaurus.actions import Discard, Place
from companion.games.draftosaurus.engine import PLACE

if TYPE_CHECKING:
    from companion.dialogue.draftosaurus.table import DraftosaurusTable

HAND_STATE = "hand_named"  # "which dinosaurs do you hold?": the species of a hand, each with its count
HAND_SLOTS = 6  # a hand names at most six species (card1..card6, each with its count1..count6)
HAND_INTENT = "hand_cards"


# ---------------------------------------------------------------- advice

def advise(table: DraftosaurusTable, player: int, species: str | None) -> Answer | None:
    """Say the best action of `player` (placing `species`, if named) and, when close, the runner-up; at a
    table without a species named, ask for the hand first. A new command said instead of the hand is given
    back."""
    game = table.game
    if table.advice_refused():
        if species is not None and game.phase == PLACE and player in game.waiting_for():
            table.say_legal(player, species)
        return None
    if player not in game.tracked:
        table.say("not_followed", player=game.players[player], followed=[game.players[p] for p in game.tracked])
        return None
    from companion.games.draftosaurus.advice import advise_seat, refusal

    reason = refusal(game, player)
    if reason is not None:
        table.session.say_text(table.reason_words(reason))
        return None
    cards = None if species is None else [species]
    if game.mode == "table" and cards is None:
        named = ask_hand(table, player)
        if not isinstance(named, list):
            return named
        cards = named
    try:
        found = advise_seat(game, player, cards, seed=table.settings.seed)
    except RuleViolation as refused:
        assert isinstance(refused.reason, Reason)
        table.session.say_text(table.reason_words(refused.reason))
        return None
    say_advice(table, found)
    return None


def ask_hand(table: DraftosaurusTable, player: int) -> list[str] | Answer | None:
    """The species `player` says they hold (each as many times as said), a new command said instead, or None
    after a no."""
    name = table.game.players[player]
    answer = table.session.ask(table.text("ask_hand", player=name), HAND_STATE, speaker=name,
                               help_key=table.key("help.hand_named"))
    if answer.intent == HAND_INTENT:
        return hand_of(answer.slots)
    if answer.intent in ("no", "stop"):
        table.say("advice_dropped")
        return None
    return answer


def hand_of(slots: Mapping[str, object]) -> list[str]:
    """The species a hand said names (the slots of `HAND_INTENT`), each as many times as said: once when no count
    is said ("le T-Rex et le tricératops" is one of each)."""
    return [str(slots[f"card{slot}"]) for slot in range(1, HAND_SLOTS + 1) if f"card{slot}" in slots
            for _ in range(int(str(slots.get(f"count{slot}", 1))))]


def say_advice(table: DraftosaurusTable, advice: Advice) -> None:
    """The best suggestion with the playouts' chance of winning after it, then the runner-up with its own
    chance. The runner-up's value, the margin counted, is close to the best one's even when its chance alone
    is not lower: then it is said to win by fewer points."""
    best, second = advice.best, advice.runner_up
    chance = best.reason.params["win_chance"]
    table.session.say_text(" ".join((suggestion_words(table, best, "advice_best"),
                                     table.text("advice_chance", win_chance=chance))))
    if second is not None:
        its_chance = second.reason.params["win_chance"]
        key = "advice_runner_up_chance_margin" if its_chance >= chance else "advice_runner_up_chance"
        table.session.say_text(" ".join((suggestion_words(table, second, "advice_runner_up"),
                                         table.text(key, win_chance=its_chance))))


def suggestion_words(table: DraftosaurusTable, suggestion: Suggestion, key: str) -> str:
    """One suggestion: the action and why ("le tricératops dans la prairie des amoureux : il complète un
    couple, 5 points"), and what else it changes."""
    action = suggestion.action
    why = table.reason_words(suggestion.reason)
    if isinstance(action, Discard):
        return table.text(f"{key}_discard", species=action.species, why=why)
    return " ".join((table.text(key, species=action.species, pen=action.pen, why=why),
                     *effects(table, suggestion.reason.params)))


def effects(table: DraftosaurusTable, params: dict[str, Any]) -> list[str]:
    """What a placement changes besides its pen: the T-Rex bonus, other pens' points, and the whole score
    when that differs from what its pen brings."""
    said = [table.text("advice_trex", points=params["trex_bonus"])] if params.get("trex_bonus") else []
    for pen, delta in (params.get("also") or {}).items():
        said.append(table.text("advice_pen_gains" if delta > 0 else "advice_pen_loses", pen=pen, points=abs(delta)))
    points = params["points"]
    if points != params.get("pen_points"):
        said.append(table.text("advice_total_gain" if points >= 0 else "advice_total_loss", points=abs(points)))
    return said


# ---------------------------------------------------------------- what was played, the hand

def say_played(table: DraftosaurusTable, players: list[int]) -> None:
    """The last placement of each of `players`, with what it brought when it was played, and whether a
    dinosaur went back in the box after it (which one only to the one who put it back, in solo)."""
    game = table.game
    for player in players:
        name = game.players[player]
        if player not in game.tracked:
            table.say("not_followed", player=name, followed=[game.players[p] for p in game.tracked])
            continue
        placed = [(index, action) for index, action in enumerate(game.actions)
                  if isinstance(action, Place) and action.player == player]
        if not placed:
            table.say("played_nothing", player=name)
            continue
        index, action = placed[-1]
        if game.board == "summer" and game.tracks_everyone:
            from companion.games.draftosaurus.advice import logged_reason

            reason = logged_reason(game, index)
            table.session.say_text(" ".join((
                table.text("played", player=name, species=action.species, pen=action.pen,
                           why=table.reason_words(reason)), *effects(table, reason.params))))
        else:
            table.say("played_plain", player=name, species=action.species, pen=action.pen)
        put_back = [later for later in game.actions[index + 1:]
                    if isinstance(later, Discard) and later.player == player]
        if put_back:
            shown = put_back[-1].species is not None and not table.seats.is_bot(player)
            table.say("played_discard_own" if shown else "played_discard", player=name, species=put_back[-1].species)


def say_hand(table: DraftosaurusTable, player: int) -> None:
    """The hand of the player who asks: known in solo (their own only), never at a table."""
    from companion.dialogue.draftosaurus.solo import hand_words

    game = table.game
    if game.mode != "full" or table.seats.is_bot(player):
        table.say("hand_unknown")
    elif not game.hand(player):
        table.say("hand_empty", player=game.players[player])
    else:
        table.say("hand", player=game.players[player], hand=hand_words(table, player))
