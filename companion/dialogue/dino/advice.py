"""Advice at a Dino table, in words: the advisor's best turn for the player whose turn it is, with the reason
they can check on the board and the playouts' chance of winning after it, and the runner-up when it is close.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from companion.games.bots import Suggestion
from companion.games.dino.actions import Move
from companion.games.dino.engine import AT_START, PLAY
from companion.games.dino.ids import POINTS_PER_TURN

if TYPE_CHECKING:
    from companion.dialogue.dino.table import DinoTable


def advise(table: DinoTable) -> None:
    """Say the best turn of the player to act and, when close, the runner-up; or why no advice is given."""
    if table.advice_refused():
        return
    game = table.game
    if game.phase != PLAY:
        table.say("meteor_fell")
        return
    from companion.games.dino.advice import advise_seat

    found = advise_seat(game, game.current_player, seed=table.seats.seed)
    chance = found.best.reason.params["win_in_ten"]
    table.session.say_text(" ".join((suggestion_words(table, found.best, "advice_best"),
                                     table.text("advice_chance", win_in_ten=chance))))
    second = found.runner_up
    if second is not None:
        its_chance = second.reason.params["win_in_ten"]
        key = "advice_runner_up_chance_margin" if its_chance >= chance else "advice_runner_up_chance"
        table.session.say_text(" ".join((suggestion_words(table, second, "advice_runner_up"),
                                         table.text(key, win_in_ten=its_chance))))


def suggestion_words(table: DinoTable, suggestion: Suggestion, key: str) -> str:
    """One suggestion: the turn, spoken to the player, and why."""
    why = table.reason_words(suggestion.reason)
    return table.text(key, turn=advised_turn(table, suggestion.action), why=why)


def advised_turn(table: DinoTable, action: object) -> str:
    """A turn said to the player who would play it ("avancer ton pion rouge qui est en B2 de 3 emplacements
    jusqu'en C3 et y prendre un œuf vert")."""
    if not isinstance(action, Move):
        return table.text("advice_turn_meteor")
    clauses = [table.text("advice_turn_home" if action.exit else "advice_turn_walk",
                          pawn=your_pawn(table, action.player, action.pawn), steps=action.steps,
                          square=action.square)]
    if action.egg is not None:
        clauses.append(table.text("advice_turn_egg", colour=action.egg))
    if action.steps < POINTS_PER_TURN:
        clauses.append(table.text("advice_turn_meteor_points", points=POINTS_PER_TURN - action.steps))
    return table.session.catalog.join(clauses)


def your_pawn(table: DinoTable, player: int, pawn: int) -> str:
    """The player's pawn, said to them; when both are in play, with where it stands or waits."""
    game = table.game
    view = game.pawn(player, pawn)
    if len(game.in_play(player)) < 2:
        return table.text("advice_pawn", colour=view.colour)
    key = "advice_pawn_waiting" if view.place == AT_START else "advice_pawn_on"
    return table.text(key, colour=view.colour, square=view.square)
