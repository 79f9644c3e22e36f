"""What can still be said to a recogniser that lacks some words of our grammars.

A Vosk model drops the grammar words it does not know without a word, so a phrase holding one can never be
heard. Given the words a model knows, `coverage` lists the grammar words it lacks, for each of them what to
say instead (another name of the same species, pen or face, another wording of the same command, or leaving
an optional word out), and whatever could no longer be said at all: a value of a list (a species, a pen, a
die face...) none of whose names the model knows, or a command none of whose sentences it can hear.

Alternatives are looked for where the word is written: among the other options of the same choice
("(trike|triceratops)"), else in the enclosing choice, up to the other sentences of the same command. The
values of a list are never alternatives to each other: saying "stegosaurus" is no way to say "triceratops".
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from companion.language.grammar import ANY_STATE, games
from companion.language.recognition_grammar import WILDCARD, Choice, Ref, spoken_values, state_grammar, vocabulary

LIST_PREFIX = "list_"
LEAVE_OUT: tuple[str, ...] = ()  # the alternative "say nothing there" (an optional word)
FREE_TEXT = "…"


@dataclass(frozen=True)
class Unsayable:
    """A value of a list (`value` set) or a command (`value` None) that no phrase known to the model says."""

    game: str
    name: str  # the list (species, pen, face...) or the intent
    value: Any = None
    said_as: str = ""  # a value's first name, as the grammar writes it

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "kind": "command" if self.value is None else "list", "name": self.name,
                **({} if self.value is None else {"value": self.value, "said_as": self.said_as})}


Context = tuple[Any, ...]  # ("list", list name, value id, its first name), ("command", intent), or () for a
#                           wording shared by several commands


@dataclass(frozen=True)
class Instead:
    """A way to say what a missing word said: `words` (empty: leave the word out), for a value of a list or a
    command (`context`), or wherever the shared wording holding the word is used (`context` empty)."""

    context: Context
    words: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        where = {} if not self.context else {"command": self.context[1]} if self.context[0] == "command" else {
            "list": self.context[1], "value": self.context[2], "said_as": self.context[3]}
        return {**where, "say": " ".join(self.words)}


@dataclass
class Coverage:
    """The grammar words a vocabulary lacks, what covers each, and what cannot be said at all."""

    lang: str
    words: int  # grammar words in all
    missing: list[str] = field(default_factory=list)
    instead: dict[str, list[Instead]] = field(default_factory=dict)
    unsayable: list[Unsayable] = field(default_factory=list)

    @property
    def all_sayable(self) -> bool:
        return not self.unsayable

    def to_json(self) -> dict[str, Any]:
        return {"lang": self.lang, "grammar_words": self.words, "missing": self.missing,
                "instead": {w: [a.to_json() for a in alternatives] for w, alternatives in self.instead.items()},
                "unsayable": [u.to_json() for u in self.unsayable], "all_sayable": self.all_sayable}


def coverage(lang: str, known: Iterable[str] | Callable[[str], bool],
             game_ids: Iterable[str] | None = None) -> Coverage:
    """How well a recogniser knowing the words `known` can hear every game (or those given) in `lang`."""
    knows = known if callable(known) else frozenset(known).__contains__
    grammar_words: set[str] = set()
    instead: dict[str, dict[Instead, None]] = {}
    unsayable: dict[Unsayable, None] = {}
    for game in game_ids or games():
        grammar_words.update(vocabulary(game, lang, ANY_STATE))
        grammar = state_grammar(game, lang, ANY_STATE)
        commands = _Checker(grammar.named, knows)
        for intent, templates in grammar.intents:
            commands.context = ("command", intent)
            commands.choice(Choice(templates))
            if not commands.sayable_choice(Choice(templates)):
                unsayable[Unsayable(game, intent)] = None
        values = spoken_values(game, lang)
        names = _Checker(values.named, knows)
        for name, entries in values.values.items():
            for value, sequence in entries:
                said_as = " ".join(names.written(sequence))
                names.context = ("list", name, value, said_as)
                names.sequence(sequence)
                if sequence and not names.sayable(sequence):
                    unsayable[Unsayable(game, name, value, said_as)] = None
        for checker in (names, commands):
            for word, alternatives in checker.alternatives.items():
                instead.setdefault(word, {}).update(dict.fromkeys(alternatives))
    missing = sorted(w for w in grammar_words if not knows(w))
    return Coverage(lang, len(grammar_words), missing, {w: list(instead.get(w, {})) for w in missing},
                    list(unsayable))


class _Checker:
    """Sayability of grammar parts under a vocabulary, and the alternatives found for missing words.

    The lists' values are checked one by one (with their ids) by `coverage`: here a list in a sentence is
    sayable when one of its values is, and the words of its values are left to that check."""

    def __init__(self, named: dict[str, Choice], knows: Callable[[str], bool]):
        self.named, self.knows = named, knows
        self.context: Context = ()
        self._sayable: dict[str, bool] = {}
        self._unresolved: dict[str, frozenset[str]] = {}
        self.alternatives: dict[str, list[Instead]] = {}

    # ---------------------------------------------------------------- can it be said at all

    def sayable(self, sequence: tuple[object, ...]) -> bool:
        return all(self._part_sayable(part) for part in sequence)

    def sayable_choice(self, choice: Choice) -> bool:
        return choice.optional or any(self.sayable(option) for option in choice.options)

    def _part_sayable(self, part: object) -> bool:
        if isinstance(part, str):
            return self.knows(part)
        if part == WILDCARD:
            return True
        if isinstance(part, Ref):
            if part.name not in self._sayable:
                self._sayable[part.name] = False  # rules never refer to themselves; this only ends a loop
                self._sayable[part.name] = self.sayable_choice(self.named[part.name])
            return self._sayable[part.name]
        assert isinstance(part, Choice)
        return self.sayable_choice(part)

    # ---------------------------------------------------------------- what to say instead

    def choice(self, choice: Choice) -> frozenset[str]:
        """The missing words of `choice` for which no alternative was found inside it; alternatives found are
        recorded."""
        unresolved: set[str] = set()
        for index, option in enumerate(choice.options):
            left = self.sequence(option)
            if not left:
                continue
            other = next((o for k, o in enumerate(choice.options) if k != index and self.sayable(o)), None)
            if other is not None:
                self._record(left, self.render(other))
            elif choice.optional:
                self._record(left, LEAVE_OUT)
            else:
                unresolved |= left
        return frozenset(unresolved)

    def sequence(self, sequence: tuple[object, ...]) -> frozenset[str]:
        unresolved: set[str] = set()
        for part in sequence:
            if isinstance(part, str):
                if not self.knows(part):
                    unresolved.add(part)
            elif isinstance(part, Ref) and part != WILDCARD and not part.name.startswith(LIST_PREFIX):
                unresolved |= self._rule(part.name)
            elif isinstance(part, Choice):
                unresolved |= self.choice(part)
        return frozenset(unresolved)

    def _rule(self, name: str) -> frozenset[str]:
        """An expansion rule is checked once: what covers a word inside it covers it wherever it is used."""
        if name not in self._unresolved:
            self._unresolved[name] = frozenset()  # rules never refer to themselves; this only ends a loop
            context, self.context = self.context, ()
            self._unresolved[name] = self.choice(self.named[name])
            self.context = context
        return self._unresolved[name]

    def _record(self, words: Iterable[str], alternative: tuple[str, ...]) -> None:
        for word in words:
            found = self.alternatives.setdefault(word, [])
            instead = Instead(self.context, alternative)
            if instead not in found:
                found.append(instead)

    def render(self, sequence: tuple[object, ...]) -> tuple[str, ...]:
        """The shortest-written sayable words of a sayable sequence: optional parts left out, the first sayable
        option of each choice, a list's first sayable value."""
        return self._first_words(sequence, self.sayable)

    def written(self, sequence: tuple[object, ...]) -> tuple[str, ...]:
        """The first way the grammar writes a sequence (sayable or not): first options, optional parts left out."""
        return self._first_words(sequence, None)

    def _first_words(self, sequence: tuple[object, ...],
                     sayable: Callable[[tuple[object, ...]], bool] | None) -> tuple[str, ...]:
        """The words of `sequence` with its optional parts left out and, of each choice, the first option (the
        first that `sayable` accepts, when given)."""
        words: list[str] = []
        for part in sequence:
            if isinstance(part, str):
                words.append(part)
            elif part == WILDCARD:
                words.append(FREE_TEXT)
            else:
                choice = self.named[part.name] if isinstance(part, Ref) else part
                assert isinstance(choice, Choice)
                if choice.optional or (sayable is None and not choice.options):
                    continue
                option = choice.options[0] if sayable is None else next(o for o in choice.options if sayable(o))
                words += self._first_words(option, sayable)
        return tuple(words)
