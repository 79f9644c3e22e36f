"""A solo game of Draftosaurus: the player against bots, the program dealing and rolling.

The player is asked first each time (with their hand); then each bot plays in seat order, as an automatic
action of the table, and its placement is said in one sentence. The bots do not see the player's placement of
the same turn (everyone places at once), so asking the player first changes nothing of what they play. In the
2-player variant the player then says which dinosaur goes back in the box; the bot's discard stays unseen.
(A game dealt by the program without bots, as a forged save may hold, asks each player in turn the same way.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.dialogue.draftosaurus.words import counted_species
from companion.dialogue.session import Answer
from companion.dialogue.solo import PLAYER_SEAT
from companion.dialogue.turn import Act, Expected, Outcome, Question
from companion.games.draftosaurus.actions import Discard
from companion.games.draftosaurus.engine import DISCARD

if TYPE_CHECKING:
    from companion.dialogue.draftosaurus.table import DraftosaurusTable

DISCARD_STATE = "discard"  # "which dinosaur goes back in the box?": a species alone answers it


def question(table: DraftosaurusTable) -> Question | Act:
    """The player's placement (or discard) with their hand, else the next bot's action."""
    game = table.game
    waiting = game.waiting_for()
    people = [seat for seat in waiting if not table.seats.is_bot(seat)]
    if not people:
        return Act(table.bot_choice(waiting[0]))
    seat = people[0]
    params = {"player": game.players[seat], "hand": hand_words(table, seat)}
    if game.phase == DISCARD:
        return Question(table.key("solo_ask_discard"), DISCARD_STATE, params, seat)
    return Question(table.key("solo_ask_place"), table.state_of("turn"), params, seat)


def hand_words(table: DraftosaurusTable, seat: int) -> str:
    """The hand of `seat` in words, the species held most first: "deux tricératops, un T-Rex et un
    stégosaure"."""
    return counted_species(table, table.game.hand(seat))


def interpret_discard(table: DraftosaurusTable, question: Question, answer: Answer) -> Outcome:
    """The answer of the player asked "which dinosaur goes back in the box?"."""
    species, seat = answer.slots.get("species"), question.player
    assert seat is not None
    if answer.intent in ("discard", "place") and species is not None and answer.slots.get("pen") is None:
        return Act(Discard(seat, str(species)))
    return Expected("solo_expected_discard", {"hand": hand_words(table, seat)})


def narrate_discard(table: DraftosaurusTable, action: Discard) -> None:
    """The player's discard in full; a bot's without its species (it stays unseen)."""
    if table.seats.is_bot(action.player):
        table.say("solo_bot_discarded", player=table.game.players[action.player])
    else:
        table.say("solo_discarded", player=table.game.players[action.player], species=action.species)


def giver(table: DraftosaurusTable) -> str:
    """Who passed the player the hand they now hold (the hands go to the left, each player getting the hand of
    the one before)."""
    players = table.game.players
    return players[(PLAYER_SEAT - 1) % len(players)]
