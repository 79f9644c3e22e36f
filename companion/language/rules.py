"""The rules of each game, read aloud section by section: a RulesBook to find a topic, a RulesReader to move in it.

Texts: <voices>/<lang>/rules/<stem>.yaml of each game (its spec's voices folder), an ordered list of sections
(id, title, names, text); the ids are the topic ids, the same in every language. A text may hold {option}
placeholders (the value in force, e.g. {trio_points}) and {option_reading} placeholders (the sentence of the
file's `options` block that says which reading is in force). Defaults come from the game's rule options
(docs/rules-decisions.md, "Where the texts disagree: the rule options"). What a player may say to the reader:
grammars/<lang>/rules_nav.yaml.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple, overload

from companion import registry
from companion.errors import BadInput
from companion.language.folding import without, words
from companion.language.messages import DEFAULT_LANGUAGE, catalog, check_language
from companion.paths import grammars_dir, read_data

NAVIGATION = ("next", "previous", "repeat", "stop", "contents", "help", "first")


def game_id(name: str, lang: str = DEFAULT_LANGUAGE) -> str:
    """The rules book of a game named "draftosaurus", "jurassic-snack", "Jurassic Snack"...; BadInput otherwise."""
    try:
        return registry.game(name).stem
    except BadInput:
        raise BadInput(catalog(lang).say("rules.unknown_game", game=name,
                                         games=catalog(lang).join(registry.ids()))) from None


@dataclass(frozen=True)
class Section:
    """One topic of the rules: `text` is already filled with the options in force."""

    id: str
    title: str
    names: tuple[str, ...]
    text: str

    @property
    def short_name(self) -> str:
        """The first name a player may say for it, used in lists of topics."""
        return self.names[0] if self.names else self.title


@cache
def _raw_book(game: str, lang: str) -> dict[str, Any]:
    book: dict[str, Any] = read_data(registry.game(game).voices_folder() / lang / "rules" / f"{game}.yaml")
    return book


@cache
def _navigation(lang: str) -> dict[str, list[tuple[str, ...]]]:
    """grammars/<lang>/rules_nav.yaml, every phrase as a tuple of words."""
    data = read_data(grammars_dir() / lang / "rules_nav.yaml")
    return {key: [words(str(phrase)) for phrase in phrases] for key, phrases in data.items()}


def _without_articles(tokens: tuple[str, ...], lang: str, keep_last: bool = True) -> tuple[str, ...]:
    """`tokens` without articles; the last word is kept, so "le dé" keeps "de" (accents are folded)."""
    articles = _navigation(lang)["articles"]
    last = len(tokens) - 1 if keep_last else len(tokens)
    return tuple(token for index, token in enumerate(tokens) if index == last or (token,) not in articles)


def _strip_ends(tokens: tuple[str, ...], phrases: list[tuple[str, ...]], at_start: bool) -> tuple[str, ...]:
    """`tokens` without the given phrases at the start (or end), as long as something is left."""
    ordered = sorted(phrases, key=len, reverse=True)
    while True:
        phrase = next((p for p in ordered if p and len(tokens) > len(p)
                       and (tokens[:len(p)] if at_start else tokens[-len(p):]) == p), None)
        if phrase is None:
            return tokens
        tokens = tokens[len(phrase):] if at_start else tokens[:-len(phrase)]


@cache
def _topic_affixes(lang: str) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    navigation = _navigation(lang)
    return ([_without_articles(p, lang, keep_last=False) for p in navigation["topic_prefixes"]],
            [_without_articles(p, lang, keep_last=False) for p in navigation["topic_suffixes"]])


def topic_key(text: str, lang: str) -> tuple[str, ...]:
    """How a topic name is compared: its words, without fillers, articles, "explique" or "ça veut dire quoi"."""
    tokens = _without_articles(without(words(text), _navigation(lang)["fillers"]), lang)
    prefixes, suffixes = _topic_affixes(lang)
    return _strip_ends(_strip_ends(tokens, prefixes, at_start=True), suffixes, at_start=False)


class RulesBook:
    """The rules of one game in one language, with the rule options in force."""

    def __init__(self, game: str, lang: str, title: str, sections: tuple[Section, ...],
                 options: dict[str, Any]):
        self.game, self.lang, self.title, self.sections, self.options = game, lang, title, sections, options
        self._by_key: dict[tuple[str, ...], Section] = {}
        for section in sections:
            for name in (section.title, *section.names):
                key = topic_key(name, lang)
                other = self._by_key.setdefault(key, section)
                if other is not section:
                    raise ValueError(f"voices/{lang}/rules/{game}.yaml: '{name}' names both "
                                     f"'{other.id}' and '{section.id}'")

    @classmethod
    def load(cls, game: str, lang: str = DEFAULT_LANGUAGE, options: dict[str, Any] | None = None) -> RulesBook:
        """The rules of `game` in `lang`; `options` (name -> value) override the game's defaults."""
        lang = check_language(lang)
        game = game_id(game, lang)
        raw = _raw_book(game, lang)
        in_force = _options_in_force(game, lang, raw.get("options") or {}, options or {})
        params = _option_params(raw.get("options") or {}, in_force)
        sections = tuple(Section(id=entry["id"], title=entry["title"],
                                 names=tuple(entry.get("names") or ()),
                                 text=" ".join(str(entry["text"]).split()).format(**params))
                         for entry in raw["sections"])
        return cls(game, lang, raw["title"], sections, in_force)

    @property
    def ids(self) -> list[str]:
        return [section.id for section in self.sections]

    def find(self, topic: str) -> Section | None:
        """The section a topic id or spoken name designates ("l'étoile", "explique la rivière"), or None.

        An exact id wins over the spoken names: "forest" is the die face, while French "forêt" names the pen.
        """
        by_id = next((section for section in self.sections if section.id == topic.strip()), None)
        if by_id:
            return by_id
        key = topic_key(topic, self.lang)
        return self._by_key.get(key) if key else None

    def section(self, topic_id: str) -> Section:
        """The section with this id (KeyError if there is none)."""
        for section in self.sections:
            if section.id == topic_id:
                return section
        raise KeyError(f"no section '{topic_id}' in the rules of {self.game}")

    def index(self, section: Section) -> int:
        return self.sections.index(section)

    def spoken(self, section: Section) -> str:
        """A section as it is said: its title, then its text."""
        return catalog(self.lang).say("rules.section", title=section.title, text=section.text)

    def read(self, topic: str) -> str | None:
        """The spoken text of a topic, or None when no section has that name."""
        section = self.find(topic)
        return self.spoken(section) if section else None

    def heading(self) -> str:
        return catalog(self.lang).say("rules.heading", game=self.title, count=len(self.sections))

    def contents(self) -> str:
        return catalog(self.lang).say("rules.contents",
                                      topics=catalog(self.lang).join(s.short_name for s in self.sections))

    def unknown_topic(self, topic: str) -> BadInput:
        """The error for a topic this book does not have, listing the topics it has."""
        return BadInput(catalog(self.lang).say("rules.unknown_topic", topic=topic, game=self.title,
                                               topics=", ".join(s.short_name for s in self.sections)))


def _options_in_force(game: str, lang: str, readings: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """The game's default options with `given` on top; values may be given as text ("6", "true")."""
    options_class = registry.game(game).rule_options_class()
    in_force = options_class().to_json() if options_class else {}
    for name, value in given.items():
        if name not in readings:
            raise BadInput(catalog(lang).say("rules.unknown_option", option=name,
                                             options=", ".join(readings) or "-"))
        in_force[name] = next((choice for choice in readings[name] if _same_value(choice, value)), value)
    for name, choices in readings.items():
        if not any(_same_value(choice, in_force.get(name)) for choice in choices):
            raise BadInput(catalog(lang).say("rules.bad_option_value", option=name, value=in_force.get(name),
                                             choices=", ".join(str(choice).lower() for choice in choices)))
    if options_class:
        options_class.from_json(in_force)  # BadInput on a set of options the game refuses
    return in_force


def _same_value(choice: Any, given: Any) -> bool:
    if isinstance(given, str):
        return str(choice).casefold() == given.strip().casefold()
    return type(choice) is type(given) and choice == given


def _option_params(readings: dict[str, Any], in_force: dict[str, Any]) -> dict[str, Any]:
    """Placeholders for the texts: each option's value, and `<option>_reading`, its sentence."""
    params: dict[str, Any] = dict(in_force)
    for name, sentences in readings.items():
        params[f"{name}_reading"] = " ".join(str(sentences[in_force[name]]).split()).format(**in_force)
    return params


class NavCommand(NamedTuple):
    """What a player asked the reader: one of NAVIGATION, or "jump" to `section`."""

    action: str
    section: Section | None = None


def understand(text: str, book: RulesBook) -> NavCommand | None:
    """A typed or heard line as a reader command, or None when it is neither a command nor a topic."""
    navigation = _navigation(book.lang)
    tokens = without(words(text), navigation["fillers"])
    for action in NAVIGATION:
        if tokens in navigation[action]:
            return NavCommand(action)
    section = book.find(text)
    return NavCommand("jump", section) if section else None


class RulesReader:
    """Moves through a RulesBook; every method returns the text to say next."""

    def __init__(self, book: RulesBook, start: Section | None = None):
        self.book = book
        self.position = book.index(start) if start else 0
        self.finished = False

    @property
    def current(self) -> Section:
        return self.book.sections[self.position]

    def _say(self, key: str, **params: Any) -> str:
        return catalog(self.book.lang).say(key, **params)

    def intro(self) -> str:
        """The book's heading and how to move in it."""
        return f"{self.book.heading()} {self._say('rules.hint')}"

    def repeat(self) -> str:
        return self.book.spoken(self.current)

    def next(self) -> str:
        if self.position + 1 >= len(self.book.sections):
            return self._say("rules.at_end", game=self.book.title)
        self.position += 1
        return self.repeat()

    def previous(self) -> str:
        if self.position == 0:
            return self._say("rules.at_start")
        self.position -= 1
        return self.repeat()

    @overload
    def jump(self, topic: Section) -> str: ...
    @overload
    def jump(self, topic: str) -> str | None: ...

    def jump(self, topic: str | Section) -> str | None:
        """Go to a topic (a Section, an id or a spoken name) and read it; None if there is no such topic."""
        section = topic if isinstance(topic, Section) else self.book.find(topic)
        if section is None:
            return None
        self.position = self.book.index(section)
        return self.repeat()

    def first(self) -> str:
        self.position = 0
        return self.repeat()

    def stop(self) -> str:
        self.finished = True
        return self._say("rules.goodbye")

    def respond(self, text: str) -> str:
        """What to say after a player's line: navigation, a topic, or a short help when it is not understood."""
        command = understand(text, self.book)
        if command is None:
            return self._say("rules.not_understood", heard=text.strip())
        if command.action == "jump" and command.section is not None:
            return self.jump(command.section)
        if command.action == "contents":
            return self.book.contents()
        if command.action == "help":
            return self._say("rules.hint")
        said: str = getattr(self, command.action)()
        return said
