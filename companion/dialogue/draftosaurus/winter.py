"""What the winter board adds at the table: the Quarantine's question before scoring, destinations that still
lack their bank or pyramid place, and the words of the winter pens (the pyramid row by row, the bridge bank by
bank, what a die face allows on this board)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from companion.dialogue.draftosaurus.words import counted_species
from companion.dialogue.session import Answer
from companion.dialogue.turn import Act, Expected, Missing, Outcome, Question, Refused
from companion.games.common import Reason
from companion.games.draftosaurus.actions import Action, Place, QuarantineMove
from companion.games.draftosaurus.ids import PYRAMID_POSITIONS
from companion.games.draftosaurus.winter import ROWS
from companion.games.draftosaurus.winter_board import ENCLOSURE_IDS
from companion.games.draftosaurus.winter_scoring import QuarantineChoice, best_choice

if TYPE_CHECKING:
    from companion.dialogue.draftosaurus.table import DraftosaurusTable

QUARANTINE_STATE = "quarantine"
BRIDGE, BANKS = "lovers_bridge", ("lovers_bridge_left", "lovers_bridge_right")
# The pyramid's rows, bottom first, and the side of each place in its row (the top has one place).
ROW_NAMES = ("bottom", "middle", "top")
ROW_SIDES = (("left", "centre", "right"), ("left", "right"), ("top",))
# The die faces whose pens the board's values decide, and which value: the area or the side of each pen.
_FACE_VALUES = {"forest": "area", "grassland": "area", "cafeteria": "side", "toilets": "side"}


def destination(slots: dict[str, Any]) -> tuple[str | None, str | None]:
    """The pen and pyramid place said; a place said alone is in the pyramid."""
    pen, position = slots.get("pen"), slots.get("position")
    if position is not None and pen is None:
        pen = "pyramid"
    return (None if pen is None else str(pen)), (None if position is None else str(position))


def complete(table: DraftosaurusTable, question: Question, answer: Answer, action: Place | QuarantineMove,
             open_pens: list[str]) -> Outcome[Action]:
    """`action`, or the question for what its destination lacks: which bank of the bridge (among those of
    `open_pens`), which pyramid place when several would do."""
    name = table.game.players[action.player]
    if action.pen == BRIDGE:
        banks = [pen for pen in open_pens if pen in BANKS]
        if not banks:
            return Refused(bridge_refusal(table, [table.game.check(replace(action, pen=bank)) for bank in BANKS]),
                           action)
        if len(banks) == 1:  # one bank left open: the bridge can only mean that one
            return Act(replace(action, pen=banks[0]))
        return Missing(Question(table.key("which_bank"), question.state,
                                {"player": name, "pens": table.choice("pens", banks)}, action.player), answer)
    if action.pen == "pyramid" and action.position is None:
        reason = table.game.check(action)
        if reason is not None and reason.code == "draft_pyramid_which_position":
            return Missing(Question(table.key("which_position"), question.state,
                                    {"player": name,
                                     "positions": table.choice("positions", reason.params["positions"])},
                                    action.player),
                           answer)
    return Act(action)


def bridge_refusal(table: DraftosaurusTable, why: list[Reason | None]) -> Reason:
    """Why neither bank of the bridge takes a dinosaur: one reason said of the whole bridge when both banks refuse
    it for the same rule (both full: the places of both banks), else each bank's reason in the words of a
    refusal of that bank."""
    left, right = why
    if left is not None and right is not None and left.code == right.code and _apart_from_bank(left) == \
            _apart_from_bank(right):
        params = {**left.params, "pen": BRIDGE}
        if "capacity" in params:
            params["capacity"] = left.params["capacity"] + right.params["capacity"]
        return Reason(left.code, params)
    return Reason("draft_bridge_closed", {"pen": BRIDGE, "why": " ".join(
        table.reason_words(reason) for reason in why if reason is not None)})


def _apart_from_bank(reason: Reason) -> dict[str, Any]:
    """A bank's refusal without what names or counts that bank."""
    return {key: value for key, value in reason.params.items() if key not in ("pen", "capacity")}


# ----- the Quarantine's move

def quarantine_choices(table: DraftosaurusTable, player: int) -> list[QuarantineChoice]:
    return table.game.quarantine_choices(player, table.reported_counts())


def quarantine_species(table: DraftosaurusTable, player: int) -> str:
    return str(table.game.zoos[player]["quarantine"][0])


def quarantine_question(table: DraftosaurusTable, player: int) -> Question:
    """Where the dinosaur of `player`'s Quarantine goes: the legal destinations with the total each gives,
    the best one suggested."""
    choices = quarantine_choices(table, player)
    best = best_choice(choices)
    assert best is not None  # the river always takes it
    return Question(table.key("ask_quarantine"), QUARANTINE_STATE,
                    {"player": table.game.players[player], "species": quarantine_species(table, player),
                     "choices": choice_list(table, choices), "best": choice_words(table, best)}, player)


def interpret_quarantine(table: DraftosaurusTable, question: Question, answer: Answer) -> Outcome[Action]:
    """Yes takes the destination suggested; a destination is checked (the bank or place asked when missing);
    anything else is answered with the choices."""
    asked = question.player
    assert asked is not None
    if answer.intent == "yes":
        best = best_choice(quarantine_choices(table, asked))
        assert best is not None
        return Act(QuarantineMove(asked, best.pen, best.position))
    if answer.intent != "winter_place":
        return expected_destination(table, asked)
    slots = answer.slots
    player = table.player_index(slots.get("player"), default=asked)
    if player is None:
        return table.unknown_player(slots.get("player"))
    pen, position = destination(slots)
    if player not in table.game.waiting_for():
        return Act(QuarantineMove(player, pen or "river", position))  # the engine says why it cannot
    if pen is None:
        return expected_destination(table, player)
    species = slots.get("species")
    if species is not None and species != quarantine_species(table, player):
        return Expected("quarantine_other_species", {"player": table.game.players[player],
                                                     "species": quarantine_species(table, player)})
    open_pens = [choice.pen for choice in quarantine_choices(table, player)]
    return complete(table, question, answer, QuarantineMove(player, pen, position), open_pens)


def expected_destination(table: DraftosaurusTable, player: int) -> Expected:
    """The reminder of what the Quarantine's question wants, with the choices."""
    return Expected("quarantine_expected", {"player": table.game.players[player],
                                            "choices": choice_list(table, quarantine_choices(table, player))})


def say_quarantine_choices(table: DraftosaurusTable, player: int) -> None:
    table.say("quarantine_choices", player=table.game.players[player],
              choices=choice_list(table, quarantine_choices(table, player)))


def choice_list(table: DraftosaurusTable, choices: list[QuarantineChoice]) -> str:
    return table.session.catalog.join(table.text("choice_item", destination=destination_words(table, choice.pen,
                                                                                               choice.position),
                                                 total=choice.total) for choice in choices)


def choice_words(table: DraftosaurusTable, choice: QuarantineChoice) -> str:
    return table.text("choice_item", destination=destination_words(table, choice.pen, choice.position),
                      total=choice.total)


def destination_words(table: DraftosaurusTable, pen: str, position: str | None) -> str:
    """A pen with its article, and a pyramid place: "la pyramide en haut"."""
    if position is None:
        return table.text("destination", pen=pen)
    return table.text("destination_position", pen=pen, position=position)


def moved_species(table: DraftosaurusTable, action: QuarantineMove) -> str:
    """The species a Quarantine move took where it went (read from the zoo after the move)."""
    content = table.game.zoos[action.player][action.pen]
    if action.position is None:
        return str(content[-1])
    return str(content[PYRAMID_POSITIONS.index(action.position)])


# ----- the winter pens in words

def pyramid_words(table: DraftosaurusTable, places: list[str | None]) -> str:
    """The pyramid row by row, each place by its side: "en bas, tricératops à gauche, libre au centre..."."""
    catalog = table.session.catalog
    rows = []
    for row, (name, sides) in enumerate(zip(ROW_NAMES, ROW_SIDES, strict=True)):
        content = [places[place] if place < len(places) else None for place in ROWS[row]]
        if not any(content):
            rows.append(table.text("pyramid_row_empty", row=table.text(f"pyramid_rows.{name}")))
            continue
        items = [table.text(f"pyramid_sides.{side}", content=catalog.name("species", species) if species
                            else table.text("pyramid_free")) for side, species in zip(sides, content, strict=True)]
        rows.append(table.text("pyramid_row", row=table.text(f"pyramid_rows.{name}"), places=catalog.join(items)))
    return table.text("rows_separator").join(rows)


def bridge_words(table: DraftosaurusTable, zoo: dict[str, list[Any]]) -> str:
    """Both banks of the bridge: "rive gauche, tricératops ; rive droite, rien"."""
    banks = [counted_species(table, zoo[bank]) or table.text("bank_empty") for bank in BANKS]
    return table.text("bridge_banks", left=banks[0], right=banks[1])


def pen_words(table: DraftosaurusTable, zoo: dict[str, list[Any]], pen: str) -> str:
    """What one winter pen holds, in words (the pyramid by rows, the bridge by banks, others left to right)."""
    if pen == "pyramid":
        return pyramid_words(table, zoo["pyramid"])
    if pen == BRIDGE:
        return bridge_words(table, zoo)
    if pen == "well_ordered_wood":  # two species alternating: their order is the pen's rule
        catalog = table.session.catalog
        return catalog.join(catalog.name("species", species) for species in zoo[pen])
    return counted_species(table, zoo[pen])


def zoo_parts(table: DraftosaurusTable, zoo: dict[str, list[Any]]) -> tuple[list[str], list[str]]:
    """The pens that hold something, each in words, in board order (the bridge as one pen, the river last),
    and the pens still empty (not the river)."""
    pens = ["well_ordered_wood", BRIDGE, "pyramid", "lookout", "quarantine", "river"]
    held = {pen: any(zoo[bank] for bank in BANKS) if pen == BRIDGE else any(zoo[pen]) for pen in pens}
    parts = [table.text("pen_content", pen=pen, content=pen_words(table, zoo, pen)) for pen in pens if held[pen]]
    return parts, [pen for pen in pens if not held[pen] and pen != "river"]


def face_meaning(table: DraftosaurusTable, face: str) -> str:
    """What a die face allows on this winter board: the pens of its area or side, as the board's values say."""
    board = table.game.winter_board
    if face not in _FACE_VALUES or board is None:
        return table.text(f"faces.{face}")
    value = board.area if _FACE_VALUES[face] == "area" else board.side
    pens = [pen for pen in ENCLOSURE_IDS if value(pen) == face]
    if not pens:
        return table.text("winter_faces.river_only")
    return table.text(f"winter_faces.{face}", pens=table.choice("pens", pens))  # a choice: "a, b ou c"
