"""The set-up questions every game asks before the first turn: an answer of an expected kind, yes or no,
a number, the players' names (one by one or all at once), one player; and what the command line may
already have said. Every question also takes the shared commands (help, repeat...), and "annule": a game asks
its questions as a list of steps (ask_steps), and "annule" goes back to the question before."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from companion import registry
from companion.dialogue.session import SHARED_INTENTS, Answer, EndOfInput, Session
from companion.errors import BadInput
from companion.games.common import name_key, same_name
from companion.language.folding import fold_phrase
from companion.language.grammar import CONFIRM_STATE, ParseResult, confirming, hesitations, parse
from companion.language.messages import Catalog, catalog
from companion.language.rules import RulesBook
from companion.terminal_text import clean_name

AGAIN = "setup.expected_answer"  # said with the question when the answer is not of the kind asked for
AGAIN_YES_NO = "setup.expected_yes_no_again"  # the same, at a yes/no question: what it awaits is said too
SETUP_STATE = "setup"
WHO_STATE = "who"  # "which player?": a name, a number, or any other name (which is nobody's)
# Between names: commas always; the language's "and" when several names are said in one line.
AND_WORDS = {"fr": ("et",), "en": ("and",), "es": ("y", "e")}
# Characters no name may hold (they separate names, or a player's name from a command: "Bruno : ...").
NAME_SEPARATORS = (",", ";", ":", "/", "&", "+", "|")
# What a line where names are asked may mean and still hold names: "my name is Paul", "add Paul", any other name.
NAME_INTENTS = frozenset({None, "player", "name_said"})
T = TypeVar("T")


class GoBack(Exception):
    """"Annule" said at a set-up question: the question answered before it is to be asked again (ask_steps)."""


@dataclass(frozen=True)
class Step:
    """One set-up question of a game's list: its answer is kept under `name`; `ask` asks it, given the answers
    before it; `when` (given them too) says whether it is asked at all; `asks` is False for a step that only
    says something (the players' labels), which "annule" passes over."""

    name: str
    ask: Callable[[dict[str, Any]], Any]
    when: Callable[[dict[str, Any]], bool] = lambda answers: True
    asks: bool = True


def ask_steps(session: Session, steps: Sequence[Step]) -> dict[str, Any]:
    """The answers to `steps` by name, asked in order (a step whose `when` is false is left out). "Annule" at
    a question goes back to the question answered before it, which is asked again, and every one after it;
    the answers before it stay. At the first question, it says there is none before and asks it again."""
    answers: dict[str, Any] = {}
    while (step := next((s for s in steps if s.name not in answers and s.when(answers)), None)) is not None:
        try:
            answers[step.name] = step.ask(answers)
        except GoBack:
            _go_back(session, steps, answers)
    return answers


def _go_back(session: Session, steps: Sequence[Step], answers: dict[str, Any]) -> None:
    """The last question answered and everything after it are forgotten, and that is said; or that no
    question was answered before."""
    asks = {step.name: step.asks for step in steps}
    asked = [name for name in answers if asks[name]]
    if not asked:
        session.say("setup.nothing_before")
        return
    names = list(answers)
    for name in names[names.index(asked[-1]):]:
        del answers[name]
    session.say("setup.going_back")


def ask_alone(session: Session, ask: Callable[[], T]) -> T:
    """The answer to a set-up question asked on its own: "annule" has no question to go back to."""
    answer: T = ask_steps(session, [Step("answer", lambda answers: ask())])["answer"]
    return answer


def ask_until(session: Session, question: str, accept: Callable[[Answer], bool], again_key: str = AGAIN, /,
              state: str = SETUP_STATE, help_key: str | None = None, help_params: dict[str, Any] | None = None,
              **again_params: Any) -> Answer:
    """Ask `question` (heard in `state`) until `accept` takes the answer; each new try says `again_key` (with
    `again_params`) once: after help or a line not understood, the question alone is said again. `help_key` is what
    "help" says for it (filled with `help_params`). "Annule", unless `accept` takes it: GoBack."""
    answer = session.ask_sure(question, state, help_key, help_params=help_params)
    while not accept(answer):
        if answer.intent == "undo":
            raise GoBack()
        if answer.intent == "rules":  # the rules (the game's usual ones) are told, then the question is asked again
            session.say_rules(RulesBook.load(registry.game(session.game).stem, session.lang), answer.slots.get("topic"))
            answer = session.ask_sure(question, state, help_key, help_params=help_params)
            continue
        answer = session.ask_sure(session.text(again_key, **again_params), state, help_key, again=lambda: question,
                                  help_params=help_params)
    return answer


_HELP = {"yes": "help.setup_yes_no", "number": "help.setup_number"}  # what "help" says when these are expected


def ask_intent(session: Session, key: str, expected: Collection[str], *, again_key: str = AGAIN,
               state: str = SETUP_STATE, help_key: str | None = None, **params: Any) -> Answer:
    """The answer to the question `key` (filled with `params`), asked again until its intent is one of `expected`;
    `help_key`, what "help" says for it (filled with the same `params`) when not what the kind of answer expected
    calls for."""
    question = session.text(key, **params)
    if help_key is None and state in (SETUP_STATE, confirming(SETUP_STATE)):
        help_key = next((_HELP[intent] for intent in expected if intent in _HELP), None)
    return ask_until(session, question, lambda answer: answer.intent in expected, again_key, state, help_key,
                     help_params=params, question=question)


def ask_yes(session: Session, key: str, *, again_key: str = AGAIN_YES_NO, **params: Any) -> bool:
    """Whether the answer to the question `key` is yes (asked again until it is yes or no). Heard as a yes/no
    question in the middle of the set-up, as its read-backs are: the same sentences, yes and no first (in French,
    Whisper's previous text then begins with them: in the set-up state a short "oui" was written "huit", a number,
    and the question asked again and again)."""
    return ask_intent(session, key, {"yes", "no"}, again_key=again_key, state=confirming(SETUP_STATE),
                      **params).intent == "yes"


def ask_choice(session: Session, key: str, accept: Callable[[Any], bool], bad_key: str, *,
               again_key: str = AGAIN, **params: Any) -> Any:
    """A number said for the question `key` that `accept` takes; after another one, `bad_key` is said (with the
    same `params`) and the question asked again."""
    while True:
        number = ask_intent(session, key, {"number"}, again_key=again_key, **params).slots.get("number")
        if accept(number):
            return number
        session.say(bad_key, **params)


# ----- names

def name_problem(name: str, taken: Sequence[str], lang: str = "en",
                 seats: int = 2) -> tuple[str, dict[str, Any]] | None:
    """Why `name` cannot be a player's (a key under setup. and its params), or None; `seats`: how many names
    the example of a list of names holds."""
    if not any(character.isalnum() for character in name):  # nothing, or marks only ("?"): no name to say
        return "name_empty", {}
    words = name.casefold().split()
    separator = next((mark for mark in NAME_SEPARATORS if mark in name), None) or next(
        (word for word in (words[0], words[-1]) if word in AND_WORDS.get(lang, ())), None)
    if separator is not None:
        return "name_separator", {"name": name, "mark": separator,
                                  "examples": example_names(catalog(lang), max(2, seats))}
    if any(same_name(name, other) for other in taken):
        return "name_taken", {"name": name}
    return None


def example_names(words: Catalog, count: int) -> str:
    """The first `count` names of the language's example ("Alice et Bruno" for two players), said as a list."""
    return words.join([name.strip() for name in words.say("setup.example_names").split(",")][:count])


def split_names(line: str, lang: str) -> list[str]:
    """The names said in one line: "Alice, Bruno, Chloé et David" gives four names (a name keeps any
    character that is not a comma, and an "and" between names separates them). Sounds of hesitation around a name
    are left out, and a part made of them only is no name: "euh, Bruno" is Bruno (grammar.hesitations)."""
    words = "|".join(AND_WORDS.get(lang, ()))
    parts = re.split(rf",|\s+(?:{words})\s+", line, flags=re.IGNORECASE) if words else line.split(",")
    sounds = hesitations(lang)
    names = []
    for part in parts:
        said = part.split()
        while said and fold_phrase(said[0]) in sounds:
            said.pop(0)
        while said and fold_phrase(said[-1]) in sounds:
            said.pop()
        if said:
            names.append(" ".join(said))
    return names


def ask_names(session: Session, count: int, keys: Sequence[str] | None = None) -> list[str]:
    """The names of `count` players, asked in turn round the table; several may be said at once, "annule"
    takes back the last one (before any: GoBack), and the whole list is read back at the end (no or "annule": the
    names are asked again; "no, Paul" or "my name is Paul": those names instead).

    `keys` gives the question for each player (default: "name of player N")."""
    names: list[str] = []
    correction: str | None = None
    while True:
        while len(names) < count:
            said: str | None = correction
            correction = None
            if said is None:
                key = keys[len(names)] if keys else ("setup.ask_first_name" if not names else "setup.ask_name")
                examples = example_names(session.catalog, count)
                said = _name_line(session, session.text(key, number=len(names) + 1, examples=examples),
                                  "help.names" if count > 1 else "help.own_name", {"examples": examples})
            if said is None:  # "annule": the last name goes
                if not names:
                    raise GoBack()
                session.say("setup.name_dropped", name=names.pop())
                continue
            _add_names(session, names, said, count, whole_table=keys is None)
        verdict = _names_confirmed(session, names)
        if verdict is True:
            return names
        names = []
        if isinstance(verdict, str):
            correction = verdict


def _add_names(session: Session, names: list[str], said: str, count: int, whole_table: bool) -> None:
    """The names of the line `said` join `names`, or what keeps them out is said (too many, a separator in a
    name, a name taken). With `whole_table` (the questions and their help invite every name at once), every name
    of the table said at once replaces the names said before: they are said again ("Alice et Bruno" after a first
    line misheard for a name)."""
    found = split_names(said, session.lang)
    replacing = whole_table and bool(names) and len(found) == count
    if len(names) + len(found) > count and not replacing:
        session.say("setup.too_many_names", count=count, names=found)
        return
    kept = [] if replacing else names
    problem = next((p for p in (name_problem(n, [*kept, *found[:i]], session.lang, count)
                                for i, n in enumerate(found)) if p), None)
    if problem is not None or not found:
        key, params = problem or ("name_empty", {})
        session.say(f"setup.{key}", **params)
        return
    names[:] = [*kept, *found]


def _names_confirmed(session: Session, names: list[str]) -> bool | str:
    """The names are read back in one sentence (one name too: any line can be a name, even a move said too
    early): True for yes; False for no or "annule" (they are asked again); the names said instead, as a line, for
    a no followed by names ("non, Jean-Pierre") or "my name is Paul"."""
    question = (session.text("setup.confirm_names", count=len(names), names=names) if len(names) > 1
                else session.text("setup.confirm_name", name=names[0]))
    prompt = True
    while True:
        line, result = ask_line(session, question, CONFIRM_STATE, help_key="help.confirm", prompt=prompt)
        prompt = False
        if result.intent == "yes":
            return True
        first, _, rest = line.partition(" ")
        refused = result.intent in ("no", "undo")
        if refused or parse(first, game=session.game, lang=session.lang, state=CONFIRM_STATE).intent == "no":
            if not refused and clean_name(rest):
                return clean_name(rest)
            session.say("setup.names_again" if len(names) > 1 else "setup.name_again")
            return False
        named = parse(line, game=session.game, lang=session.lang, state=SETUP_STATE)
        if named.intent == "player" and isinstance(named.slots.get("player"), str):
            return str(named.slots["player"])
        session.say("setup.expected_yes_no")


def _name_line(session: Session, question: str, help_key: str, help_params: dict[str, Any]) -> str | None:
    """A typed name as written (the raw line), or None for "annule"; shared commands said instead are
    answered (`help_key`: what "help" says, with `help_params`), "my name is X" and "add X" give X, and a yes, a
    no, a number or a command of the game is no name."""
    prompt = True
    while True:
        line, result = ask_line(session, question, SETUP_STATE, help_key, prompt, help_params)
        prompt = False
        if result.intent == "undo":
            return None
        if result.intent in ("yes", "no", "number"):
            session.say("setup.name_expected", question=question)
            continue
        if result.intent == "player" and isinstance(result.slots.get("player"), str):
            return str(result.slots["player"])
        command = command_said(session, line)
        if command is not None:
            session.say("setup.command_not_name", said=command, question=question)
            continue
        return line


def command_said(session: Session, line: str) -> str | None:
    """The words of `line` that the game's grammar reads as one of its commands (a query, a move): the whole
    line, else one of the names it holds; None when it is only names. A single word is a name even when the
    game knows it ("Rex", "River"); a name that reads as a command is said with "add" before it."""
    return next((part for part in (line, *split_names(line, session.lang)) if _reads_as_command(session, part)), None)


def _reads_as_command(session: Session, text: str, players: Sequence[str] = ()) -> bool:
    """Whether `text`, two words or more, is one of the game's commands, `players` named in it (a single word may
    be a name: "Rex")."""
    return len(text.split()) > 1 and parse(text, game=session.game, lang=session.lang,
                                           player_names=players).intent not in NAME_INTENTS


def ask_line(session: Session, question: str, state: str, help_key: str | None = None,
             prompt: bool = True, help_params: dict[str, Any] | None = None) -> tuple[str, ParseResult]:
    """The words said in answer to `question` as they were said (spaces made single), with what they mean in
    `state`: for answers the grammar cannot hold whole (any name, a list of numbers). Shared commands said
    instead are answered (`help_key`: what "help" says, with `help_params`), and the question stays open (said
    again after help or a change of verbosity); `prompt`: the question is said first."""
    session.help_for(help_key, help_params)
    if prompt:
        session.last_prompt = session.say_text(question)
    while True:
        instead = session.take_said_instead()  # said in answer to a read-back
        heard = instead.heard if instead is not None and instead.heard is not None else session.listener.listen(state)
        if heard is None:
            raise EndOfInput()
        session.history.new_response()
        line = clean_name(heard.text)
        if not line:
            continue
        result = parse(line, game=session.game, lang=session.lang, state=state)
        if result.intent in SHARED_INTENTS or result.intent == "quit":
            session.lost = False
            answer = session.take(heard, result, state)
            if answer is not None:
                session.handle_shared(answer, state, help_key, help_params)
            if session.lost:
                session.say_text(question)
            continue
        return line, result


def label_players(session: Session, count: int) -> list[str]:
    """"Player 1", "Player 2"...: the names of a table whose names cannot be heard, said once."""
    players = [session.text("setup.player_label", number=number + 1) for number in range(count)]
    session.say("setup.default_names", names=session.catalog.join(players))
    return players


# Whisper writes any words, names among them, but not these names well enough to ask them by voice: 16 French first
# names alone and 8 pairs ("Léa et Hugo"), said by mbrola fr1 and fr4 and resampled as the sound server does, were
# written right 5 to 6 times in 48, whatever the previous text (the set-up's words, none, the question): "Zoé" as
# "vœil", "Hugo" as "Google", "Léa" as "l'eau". Each name would be read back wrong and said again, where labels cost
# nothing; a voice table is named with --players.
def names_can_be_typed(session: Session) -> bool:
    """Whether a typed line can hold any name (recognisers hear the words of their grammar, and Whisper, which
    writes any, writes names too badly: above)."""
    return session.listener.name == "text"


def player_steps(session: Session, ask_count: Callable[[], int]) -> list[Step]:
    """The steps "count" (`ask_count`) and "players": their names, or, where a typed line cannot hold any
    name, their labels (said, not asked: "annule" passes over them); the listener hears the names."""
    typed = names_can_be_typed(session)
    return [Step("count", lambda answers: ask_count()),
            Step("players", lambda answers: seated(session, ask_names(session, answers["count"]) if typed
                                                   else label_players(session, answers["count"])), asks=typed)]


def seated(session: Session, players: list[str]) -> list[str]:
    """`players`, now the names the listener hears."""
    session.set_player_names(players)
    return players


def ask_player(session: Session, players: Sequence[str], key: str, *, again_key: str = AGAIN) -> int:
    """The index of the player named (or numbered from 1) in answer to the question `key`; a name that is
    nobody's is answered with the players' names."""
    while True:
        answer = ask_intent(session, key, {"player", "number", "name_said"}, again_key=again_key, state=WHO_STATE)
        value = answer.slots.get("player", answer.slots.get("number"))
        if isinstance(value, int) and 1 <= value <= len(players):
            return value - 1
        found = player_by_name(players, value) if isinstance(value, str) else None
        if found is not None:
            return found
        if isinstance(value, str) and _reads_as_command(session, value, players):
            session.say("session.not_now", heard=value)
            continue
        session.say("setup.unknown_player", name=value, players=list(players))


def player_by_name(players: Sequence[str], name: Any) -> int | None:
    """The index of the player called `name` as it is shown (text.clean_name: a control character or a byte that
    is not UTF-8 left out, as in the players' own names), in any case; None when nobody is."""
    wanted = name_key(clean_name(str(name)))
    return next((index for index, player in enumerate(players) if name_key(player) == wanted), None)


SHORT_WORD = 3  # letters of an article or a preposition ("la", "l'", "the", "del"), not of most names


def player_ending(players: Sequence[str], name: Any) -> int | None:
    """The player whose name the words said where a name goes end with, after one short word that is no player's
    ("la bruno", a name heard with its article, is Bruno's; "Jean Paul" and "bruno et alice" are nobody's)."""
    words = clean_name(str(name)).split()
    if len(words) < 2 or len(words[0]) > SHORT_WORD:
        return None
    if any(name_key(words[0]) in name_key(player).split() for player in players):
        return None
    return player_by_name(players, " ".join(words[1:]))


def listed_names(players: str, lang: str = "en") -> list[str]:
    """The names of a --players option ("Ana, Bo"): split at commas, cleaned (text.clean_name), empty ones left
    out; BadInput for a name no game can hold (a separator in it, the same name twice)."""
    names = [clean_name(name) for name in players.split(",") if clean_name(name)]
    for index, name in enumerate(names):
        problem = name_problem(name, names[:index], lang, len(names))
        if problem is not None:
            key, params = problem
            key = "players_option_twice" if key == "name_taken" else key  # no question: the line is the answer
            raise BadInput("--players: " + catalog(lang).say(f"setup.{key}", **params))
    if len(names) < 2:
        raise BadInput("--players: " + catalog(lang).say("setup.players_option_count"))
    return names


def table_seed(args: Any) -> int:
    """The --seed option, else a seed drawn now (and kept with the game)."""
    seed = getattr(args, "seed", None)
    return seed if seed is not None else random.SystemRandom().randrange(2 ** 31)
