"""A solo game of Draftosaurus: the player against bots, the program dealing and rolling.

The player is asked first each time (with their hand); then each bot plays in seat order, as an automatic
action of the table, and its placement is said in one sentence. The bots do not see the player's placement of
the same turn (everyone places at once), so asking the player first changes nothing of what they play. In the
2-player variant the player then says which dinosaur goes back in the box; the bot's discard stays unseen. The
last card of a hand goes back without a question (there is nothing to choose), and an undo takes it back with
the placement before it. After an undo the die is said again before the hand. On the winter board the
Quarantine's moves come last: the player's is asked as at a table, the bots' are played.
(A game dealt by the program without bots, as a forged save may hold, asks each player in turn the same way.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.dialogue.draftosaurus import winter
from companion.dialogue.draftosaurus.words import counted_species
from companion.dialogue.session import Answer
from companion.dialogue.solo import PLAYER_SEAT
from companion.dialogue.turn import Act, Expected, Outcome, Question
from companion.games.draftosaurus.actions import Action, Discard, Roll
from companion.games.draftosaurus.engine import DISCARD, PLACE
from companion.games.draftosaurus.winter_game import QUARANTINE_MOVES

if TYPE_CHECKING:
    from companion.dialogue.draftosaurus.table import DraftosaurusTable

DISCARD_STATE = "discard"  # "which dinosaur goes back in the box?": a species alone answers it


def question(table: DraftosaurusTable) -> Question | Act[Action]:
    """The player's placement (or discard, or Quarantine move) with their hand, else the next bot's action."""
    game = table.game
    waiting = game.waiting_for()
    people = [seat for seat in waiting if not table.seats.is_bot(seat)]
    if not people:
        return Act(table.bot_choice(waiting[0]))
    seat = people[0]
    if game.phase == QUARANTINE_MOVES:
        return winter.quarantine_question(table, seat)
    hand = game.hand(seat)
    if game.phase == DISCARD and len(hand) == 1:  # the last card: nothing to choose
        return Act(Discard(seat, hand[0]))
    params = {"player": game.players[seat], "hand": hand_words(table, seat)}
    if game.phase == DISCARD:
        return Question(table.key("solo_ask_discard"), DISCARD_STATE, params, seat)
    return Question(table.key("solo_ask_place"), table.state_of("turn"), params, seat)


def prompt_again(table: DraftosaurusTable, question: Question, query: Answer) -> str | None:
    """After "ma main", the question again without the hand the query has just said."""
    for name in ("solo_ask_place", "solo_ask_discard"):
        if query.intent == "hand" and question.key == table.key(name):
            return table.text(f"{name}_again", **question.params)
    return None


def forced_discard(table: DraftosaurusTable, action: object) -> bool:
    """Whether `action` (logged) put back the last card of the player's hand: the program made it without
    asking, as it made the bots' moves (an undo takes it back with the placement before it)."""
    game = table.game
    if not isinstance(action, Discard) or action.species is None or game.mode != "full" or \
            table.seats.is_bot(action.player):
        return False
    index = next((place for place, logged in enumerate(game.actions) if logged is action), None)
    if index is None:
        return False
    rolls = sum(1 for logged in game.actions[:index] if isinstance(logged, Roll))
    return rolls % game.turns_per_round == 0  # the last turn of a round: one card left after the placement


def after_undo(table: DraftosaurusTable) -> None:
    """After an undo in solo that takes back a placement, the die of the turn again (the hand comes with the
    question); a discard does not depend on the die."""
    if table.seats.solo and table.game.phase == PLACE:
        table.say_face()


def hand_words(table: DraftosaurusTable, seat: int) -> str:
    """The hand of `seat` in words, the species held most first: "deux tricératops, un T-Rex et un
    stégosaure"."""
    return counted_species(table, table.game.hand(seat))


def interpret_discard(table: DraftosaurusTable, question: Question, answer: Answer) -> Outcome[Action]:
    """The answer of the player asked "which dinosaur goes back in the box?"."""
    species, seat = answer.slots.get("species"), question.player
    assert seat is not None
    if answer.intent in ("discard", "place") and species is not None and answer.slots.get("pen") is None:
        return Act(Discard(seat, str(species)))
    return Expected("solo_expected_discard", {"hand": hand_words(table, seat)})


def narrate_discard(table: DraftosaurusTable, action: Discard) -> None:
    """The player's discard in full (the last card of a hand: that there was no choice); a bot's without its
    species (it stays unseen)."""
    name = table.game.players[action.player]
    if table.seats.is_bot(action.player):
        table.say("solo_bot_discarded", player=name)
    elif forced_discard(table, action):
        table.say("solo_discarded_last", player=name, species=action.species)
    else:
        table.say("solo_discarded", player=name, species=action.species)


def giver(table: DraftosaurusTable) -> str:
    """Who passed the player the hand they now hold (the hands go to the left, each player getting the hand of
    the one before)."""
    players = table.game.players
    return players[(PLAYER_SEAT - 1) % len(players)]
