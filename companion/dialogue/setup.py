"""The set-up questions every game asks before the first turn: an answer of an expected kind, yes or no,
a number, the players' names, one player; and what the command line may already have said."""

from __future__ import annotations

import random
from typing import Any, Callable, Collection, Sequence

from companion.dialogue.session import Answer, EndOfInput, Session
from companion.text import clean_name

AGAIN = "setup.expected_answer"  # said with the question when the answer is not of the kind asked for


def ask_until(session: Session, question: str, accept: Callable[[Answer], bool], again_key: str = AGAIN, /,
              **again_params: Any) -> Answer:
    """Ask `question` until `accept` takes the answer; each new try says `again_key` (with `again_params`)."""
    answer = session.ask(question, "setup")
    while not accept(answer):
        answer = session.ask(session.text(again_key, **again_params), "setup")
    return answer


def ask_intent(session: Session, key: str, expected: Collection[str], *, again_key: str = AGAIN,
               **params: Any) -> Answer:
    """The answer to the question `key`, asked again until its intent is one of `expected`."""
    question = session.text(key, **params)
    return ask_until(session, question, lambda answer: answer.intent in expected, again_key, question=question)


def ask_yes(session: Session, key: str, *, again_key: str = AGAIN, **params: Any) -> bool:
    """Whether the answer to the question `key` is yes (asked again until it is yes or no)."""
    return ask_intent(session, key, {"yes", "no"}, again_key=again_key, **params).intent == "yes"


def ask_choice(session: Session, key: str, accept: Callable[[Any], bool], bad_key: str, *,
               again_key: str = AGAIN, **params: Any) -> Any:
    """A number said for the question `key` that `accept` takes; after another one, `bad_key` is said (with the
    same `params`) and the question asked again."""
    while True:
        number = ask_intent(session, key, {"number"}, again_key=again_key, **params).slots.get("number")
        if accept(number):
            return number
        session.say(bad_key, **params)


def ask_number(session: Session, question: str) -> int:
    """A whole number said in answer to `question`, asked again until one is said."""
    answer = ask_until(session, question,
                       lambda said: said.intent == "number" and isinstance(said.slots.get("number"), int),
                       question=question)
    return answer.slots["number"]


def ask_name(session: Session, taken: Sequence[str], key: str, **params: Any) -> str:
    """A name as typed (the raw line, not a parsed intent), asked with `key` until it is neither empty nor
    one of `taken` (in any case)."""
    while True:
        session.say(key, **params)
        heard = session.listener.listen("setup")
        if heard is None:
            raise EndOfInput()
        name = clean_name(heard.text)
        if name and name.casefold() not in (other.casefold() for other in taken):
            return name
        session.say("setup.bad_name")


def ask_names(session: Session, count: int) -> list[str]:
    """The names of `count` players, asked in turn round the table."""
    names: list[str] = []
    while len(names) < count:
        names.append(ask_name(session, names, "setup.ask_name", number=len(names) + 1))
    return names


def label_players(session: Session, count: int) -> list[str]:
    """"Player 1", "Player 2"...: the names of a table whose names cannot be heard, said once."""
    players = [session.text("setup.player_label", number=number + 1) for number in range(count)]
    session.say("setup.default_names", names=session.catalog.join(players))
    return players


def names_can_be_typed(session: Session) -> bool:
    """Whether a typed line can hold any name (a recogniser only hears the words of its grammar)."""
    return session.listener.name == "text"


def ask_player(session: Session, players: Sequence[str], key: str, *, again_key: str = AGAIN,
               unknown_key: str = "table.unknown_player") -> int:
    """The index of the player named (or numbered from 1) in answer to the question `key`."""
    while True:
        answer = ask_intent(session, key, {"player", "number"}, again_key=again_key)
        value = answer.slots.get("player", answer.slots.get("number"))
        if isinstance(value, int) and 1 <= value <= len(players):
            return value - 1
        found = player_by_name(players, value) if isinstance(value, str) else None
        if found is not None:
            return found
        session.say(unknown_key, name=value)


def player_by_name(players: Sequence[str], name: Any) -> int | None:
    """The index of the player called `name`, in any case; None when nobody is."""
    wanted = str(name).casefold()
    return next((index for index, player in enumerate(players) if player.casefold() == wanted), None)


def listed_names(players: str) -> list[str]:
    """The names of a --players option ("Ana, Bo"): split at commas, cleaned (see text.clean_name), empty ones
    left out."""
    return [clean_name(name) for name in players.split(",") if clean_name(name)]


def table_seed(args: Any) -> int:
    """The --seed option, else a seed drawn now (and kept with the game)."""
    seed = getattr(args, "seed", None)
    return seed if seed is not None else random.SystemRandom().randrange(2 ** 31)
