"""Setting up a Draftosaurus table by voice: players, who holds the die, rule options."""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.dialogue.session import Answer, EndOfInput, Session
from companion.games.draftosaurus.engine import Options

MIN_PLAYERS, MAX_PLAYERS = 2, 5


@dataclass
class TableSetup:
    players: list[str] = field(default_factory=list)
    first_roller: int = 0
    options: Options = field(default_factory=Options)
    tracked: list[int] | None = None  # None: every zoo


def ask_setup(session: Session, *, free_text_names: bool) -> TableSetup:
    """Ask the questions of a new table. Names are asked only when a typed line can hold any name."""
    count = _ask_count(session)
    if free_text_names:
        players = _ask_names(session, count)
    else:
        players = [session.text("setup.player_label", number=n + 1) for n in range(count)]
        session.say("setup.default_names", names=session.catalog.join(players))
    session.set_player_names(players)
    first_roller = _ask_player(session, players, "setup.ask_roller")
    options = _ask_options(session)
    tracked = None if _ask_yes(session, "setup.ask_tracking") else [_ask_player(session, players, "setup.ask_me")]
    return TableSetup(players, first_roller, options, tracked)


def _ask(session: Session, key: str, expected: set[str], **params) -> Answer:
    question = session.text(key, **params)
    answer = session.ask(question, "setup")
    while answer.intent not in expected:
        answer = session.ask(session.text("setup.expected_answer", question=question), "setup")
    return answer


def _ask_count(session: Session) -> int:
    while True:
        count = _ask(session, "setup.ask_count", {"number"}).slots.get("number")
        if isinstance(count, int) and MIN_PLAYERS <= count <= MAX_PLAYERS:
            return count
        session.say("setup.bad_count")


def _ask_names(session: Session, count: int) -> list[str]:
    """Each name as typed: the raw line, not a parsed intent."""
    names: list[str] = []
    while len(names) < count:
        session.say("setup.ask_name", number=len(names) + 1)
        heard = session.listener.listen("setup")
        if heard is None:
            raise EndOfInput()
        name = " ".join(heard.text.split())
        if not name or name.casefold() in (n.casefold() for n in names):
            session.say("setup.bad_name")
            continue
        names.append(name)
    return names


def _ask_player(session: Session, players: list[str], question: str) -> int:
    while True:
        answer = _ask(session, question, {"player", "number"})
        value = answer.slots.get("player", answer.slots.get("number"))
        if isinstance(value, int) and 1 <= value <= len(players):
            return value - 1
        for index, name in enumerate(players):
            if isinstance(value, str) and name.casefold() == value.casefold():
                return index
        session.say("table.unknown_player", name=value)


def _ask_yes(session: Session, key: str, **params) -> bool:
    return _ask(session, key, {"yes", "no"}, **params).intent == "yes"


def _ask_options(session: Session) -> Options:
    defaults = Options()
    if _ask_yes(session, "setup.ask_default_rules", trio=defaults.trio_points):
        return defaults
    while True:
        trio = _ask(session, "setup.ask_trio", {"number"}).slots.get("number")
        if trio in (6, 7):
            break
        session.say("setup.bad_trio")
    return Options(trio_points=trio,
                   river_counts_for_island=_ask_yes(session, "setup.ask_river_island"),
                   river_counts_for_king=_ask_yes(session, "setup.ask_river_king"))
