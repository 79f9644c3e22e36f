"""The winter board's printed values at the table: the ones a table told before (kept in the settings file),
the ones still unconfirmed, said, and asked once each; or a table's own board file, used as it is.

Each question says what form of answer it wants and what the provisional value is; "garde" keeps that value
(still unconfirmed, so asked again next time). The answers are read from the words said: the numbers of a
point table in any spelling, a list of pens joined by commas or "et".
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.dialogue.session import Session
from companion.dialogue.setup_questions import AND_WORDS, ask_line, split_names
from companion.errors import BadInput, RuleViolation
from companion.games.draftosaurus.ids import PYRAMID_POSITIONS
from companion.games.draftosaurus.winter_board import (
    AREA_CHOICES,
    AREAS,
    ENCLOSURE_IDS,
    LEFT_CAPACITY,
    MOST_BANK_PLACES,
    MOST_POINTS,
    PYRAMID_POINTS,
    RIGHT_CAPACITY,
    SIDE_CHOICES,
    SIDES,
    TABLE_LENGTH,
    WOOD_POINTS,
    WinterBoard,
    check_value,
    load_winter_board,
)
from companion.language.folding import words
from companion.language.grammar import parse
from companion.language.messages import Catalog
from companion.language.numbers import match_number
from companion.settings import SettingsUnreadable, read_section, settings_path, write_section

SECTION = "draftosaurus_winter_board"  # of the settings file: value key -> the value a table told
STATE = "board_value"
REMEMBERED = "told by this table"
# What each area or side question names: the pens in the first choice; the others are in the second.
_LISTED = {AREAS: AREA_CHOICES, SIDES: SIDE_CHOICES}


class Unclear(Exception):
    """An answer that does not give the value: `key` (under draft.board.) says why, with `params`."""

    def __init__(self, key: str, **params: Any):
        super().__init__(key)
        self.key = key
        self.params = params


# ----- where the values come from

def board_from_file(path: str | Path | None, words: Catalog) -> WinterBoard:
    """A table's own winter board file (--board FILE; None: the shipped one); BadInput saying why a file is
    refused."""
    try:
        return load_winter_board() if path is None else load_winter_board(path)
    except RuleViolation as error:
        problem = words.say(f"reasons.{error.reason.code}", **error.reason.params)
        raise BadInput(words.say("score.board_file_refused", problem=problem)) from None


def remembered_values() -> tuple[dict[str, Any], SettingsUnreadable | None]:
    """The values a table told before, each checked (a value the settings hold wrongly is left out, and will be
    asked again); and why the settings file cannot be read, if it cannot."""
    try:
        section = read_section(SECTION)
    except SettingsUnreadable as problem:
        return {}, problem
    told: dict[str, Any] = {}
    for key, value in (section.items() if isinstance(section, dict) else ()):
        try:
            told[key] = check_value(key, value)
        except RuleViolation:
            continue
    return told, None


def remember(told: dict[str, Any]) -> Path | None:
    """Add the values a table just told to those the settings remember; None when they are written, else the
    settings file that could not be read (it is then left as it is) or written (a read-only folder)."""
    try:
        section = read_section(SECTION)
        kept = dict(section) if isinstance(section, dict) else {}
        kept.update({key: _plain(value) for key, value in told.items()})
        if write_section(SECTION, kept) is None:
            return settings_path()
    except SettingsUnreadable as problem:
        return problem.path
    return None


def _plain(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else dict(value) if isinstance(value, dict) else value


# ----- at the table

def table_winter_board(session: Session) -> WinterBoard:
    """The shipped winter board with the values this table told before; the values still unconfirmed are
    said, asked once each, and remembered."""
    told, problem = remembered_values()
    board = load_winter_board().with_values(told, REMEMBERED)
    missing = board.unconfirmed()
    if not missing:
        return board
    session.say("draft.board.unconfirmed", board_values=list(missing))
    if problem is not None:
        session.say("draft.board.settings_unreadable", path=str(problem.path))
    new: dict[str, Any] = {}
    index = 0
    while index < len(missing):
        key = missing[index]
        value = ask_value(session, board, key)
        if value is GO_BACK:  # "annule": the value told before is asked again
            if index == 0:
                session.say("setup.nothing_before")
                continue
            index -= 1
            new.pop(missing[index], None)
            session.say("setup.going_back")
            continue
        if value is None:
            session.say("draft.board.kept", board_value=key)
        else:
            new[key] = value
            session.say("draft.board.noted", board_value=key, value=value_words(session, key, value))
        index += 1
    if not new:
        return board
    not_written = problem.path if problem is not None else remember(new)
    if not_written is None:
        session.say("draft.board.remembered")
    else:
        session.say("draft.board.not_remembered", path=str(not_written))
    return board.with_values(new, REMEMBERED)


def solo_winter_board() -> WinterBoard:
    """The shipped winter board with the values a table told before, nothing asked (a solo game has no board
    on the table to read them from): the others stay provisional, as the game's start says."""
    return load_winter_board().with_values(remembered_values()[0], REMEMBERED)


GO_BACK = object()  # what ask_value gives for "annule"


def ask_value(session: Session, board: WinterBoard, key: str) -> Any | None:
    """The value the table gives for `key`, checked; None when the table keeps the provisional one, GO_BACK for
    "annule"."""
    question = session.text(f"draft.board.ask.{key}", current=value_words(session, key, board.values[key].value))
    while True:
        line, result = ask_line(session, question, STATE)
        if result.intent == "keep_value":
            return None
        if result.intent == "undo":
            return GO_BACK
        try:
            value = read_value(session, key, line, result)
            return check_value(key, value)
        except Unclear as unclear:
            session.say(f"draft.board.{unclear.key}", **unclear.params)
        except RuleViolation as error:
            session.say(f"reasons.{error.reason.code}", **error.reason.params)


def read_value(session: Session, key: str, line: str, result: Any) -> Any:
    """What the words said give for `key` (checked afterwards); Unclear when they do not give it."""
    if key in (WOOD_POINTS, PYRAMID_POINTS):
        found = read_numbers(line, session.lang)
        if found is None or len(found) != TABLE_LENGTH:
            raise Unclear("expected_numbers", count=TABLE_LENGTH, most=MOST_POINTS)
        return found
    if key in (LEFT_CAPACITY, RIGHT_CAPACITY):
        found = read_numbers(line, session.lang)
        if found is None or len(found) != 1:
            raise Unclear("expected_capacity", least=1, most=MOST_BANK_PLACES)
        return found[0]
    first, second = _LISTED[key]
    listed = [] if result.intent == "no_pen" else read_pens(session, line)
    return {pen: first if pen in listed else second for pen in ENCLOSURE_IDS}


def read_numbers(line: str, lang: str) -> list[int] | None:
    """The numbers said in a row ("2, 4, 8", "deux quatre huit", "dix-huit et vingt-quatre"); None when
    something else is said. Commas part numbers that words would join ("quatre, vingt" is 4 and 20)."""
    found: list[int] = []
    for part in line.replace(";", ",").split(","):
        tokens, index = words(part), 0
        while index < len(tokens):
            number = match_number(tokens, index, lang)
            if number is not None:
                found.append(number[0])
                index = number[1]
            elif tokens[index] in AND_WORDS.get(lang, ()) and found:  # "2, 4 et 8"
                index += 1
            else:
                return None
    return found


def read_pens(session: Session, line: str) -> list[str]:
    """The winter pens (not the river) named in a list ("le bois, la pyramide et le point de vue")."""
    pens: list[str] = []
    for part in split_names(line, session.lang):
        said = parse(part, game=session.game, lang=session.lang, state=STATE)
        pen = said.slots.get("pen") if said.intent == "winter_place" and set(said.slots) == {"pen"} else None
        if pen == "lovers_bridge":
            raise Unclear("which_bank")
        if pen not in ENCLOSURE_IDS:
            raise Unclear("unknown_pen", text=part, pens=list(ENCLOSURE_IDS))
        if pen not in pens:
            pens.append(str(pen))
    return pens


def value_words(session: Session, key: str, value: Any) -> str:
    """A board value as said: the numbers of a table (the pyramid's with their places), a number, or the pens
    of each area or side."""
    catalog = session.catalog
    if key == WOOD_POINTS:
        return catalog.join(str(points) for points in value)
    if key == PYRAMID_POINTS:
        return catalog.join(session.text("draft.board.place_points", position=position, points=points)
                            for position, points in zip(PYRAMID_POSITIONS, value, strict=True))
    if key in (LEFT_CAPACITY, RIGHT_CAPACITY):
        return str(value)
    parts = []
    for choice in _LISTED[key]:
        pens = [pen for pen in ENCLOSURE_IDS if value[pen] == choice]
        listed = catalog.join(catalog.name("pens", pen) for pen in pens) if pens else session.text("draft.board.none")
        parts.append(session.text(f"draft.board.{choice}_pens", pens=listed))
    return session.text("draft.board.two_lists", first=parts[0], second=parts[1])

