"""Message catalogs: everything the program says comes from voices/<lang>/.

`messages/*.yaml` hold sentences with {placeholders}, one file per concern, merged into one catalog;
`names/*.yaml` hold the spoken names of game pieces, one section per kind of piece ("pens"). A game kept in a
folder of its own (its spec's `voices`) adds its own messages/ and names/ files. Keys are dotted paths
("reasons.draft_die_forest"), and a key (or a names section) defined in two files is an error. A key missing
from a catalog is an error, never a silent blank. Which parameters hold ids that names/ translate, each game's
spec says (`ids`, `id_lists`).
"""

from __future__ import annotations

import string
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Self

from companion.errors import BadInput
from companion.paths import read_data, voices_dir
from companion.terminal_text import clean_line, shown

LANGUAGES: tuple[str, ...] = ("fr", "en", "es")
DEFAULT_LANGUAGE = "fr"


# Languages where 0 takes the singular ("0 point" in French, "0 points" in English).
_ZERO_IS_SINGULAR = frozenset({"fr"})
# Where a counted form says its number, when a word that agrees with it comes first ("quedan # huevos").
COUNT_MARK = "#"
# Format specs that give a word a grammatical form; voices/<lang>/grammar.yaml says how. "an" is the indefinite
# article that depends on the word's first sound (English "a red egg", "an orange egg").
FORMS = ("the", "de", "a", "in", "an", "que")


class Spoken(str):
    """A piece's spoken name that knows its definite form ("le trio des bois", "l'île du solitaire"), and any
    form its entry in names/ writes out because the language's rule does not fit it ("in": "sur la rive
    gauche du pont des amoureux", where the rule would say "dans")."""

    the: str
    forms: dict[str, str]

    def __new__(cls, name: str, the: str | None = None, forms: dict[str, str] | None = None) -> Self:
        word = super().__new__(cls, name)
        word.the = the or name
        word.forms = dict(forms or {})
        return word


class _Formatter(string.Formatter):
    """str.format, plus two kinds of format spec:
    - counted words: "{count:dinosaur|dinosaurs}" gives "1 dinosaur" or "3 dinosaurs", and a third form is
      said for zero: "{pairs:couple|couples|aucun couple}"; a form holding "#" says the number there, for a word
      that agrees with it and comes first ("{left:queda # huevo|quedan # huevos|ya no queda ningún huevo}"
      gives "queda 1 huevo", "quedan 2 huevos"); a decimal count is said with one decimal and the
      language's mark, in the singular below grammar.yaml's `decimal_singular_below` ("1,6 point" in French);
    - grammatical forms (FORMS): "{pen:the}" "le trio des bois", "{pen:de}" "du trio des bois", "{player:de}"
      "d'Alice", "{pen:in}" "dans le trio des bois", "{player:que}" "qu'Alice", as voices/<lang>/grammar.yaml
      writes them."""

    def __init__(self, lang: str, grammar: dict[str, Any]):
        super().__init__()
        self.singular_counts = (0, 1) if lang in _ZERO_IS_SINGULAR else (1,)
        self.grammar = grammar

    def format_field(self, value: Any, format_spec: str) -> str:
        if "|" in format_spec and isinstance(value, int):
            singular, plural, *zero = format_spec.split("|")
            if value == 0 and zero:
                return zero[0]
            form = singular if value in self.singular_counts else plural
            return form.replace(COUNT_MARK, str(value)) if COUNT_MARK in form else f"{value} {form}"
        if "|" in format_spec and isinstance(value, float):
            singular, plural, *_ = format_spec.split("|")
            below = self.grammar.get("decimal_singular_below")
            number = f"{value:.1f}".replace(".", str(self.grammar.get("decimal_mark", ".")))
            return f"{number} {singular if below is not None and abs(value) < below else plural}"
        if format_spec in FORMS:
            return self.form(value, format_spec)
        formatted: str = super().format_field(value, format_spec)
        return formatted

    def form(self, value: Any, form: str) -> str:
        """`value` in the grammatical form `form`: a piece with its article, a name as it is."""
        if isinstance(value, Spoken) and form in value.forms:
            return value.forms[form]
        word = value.the if isinstance(value, Spoken) else str(value)
        if form == "the":
            return word
        rule = self.grammar.get("forms", {}).get(form, {})
        contracted: str
        for start, contracted in (rule.get("contract") or {}).items() if isinstance(value, Spoken) else ():
            if word.startswith(start):  # "de" + "le trio" gives "du trio"; a person's name is never contracted
                return contracted + word[len(start):]
        elided: str | None = rule.get("elided")
        folded = word.casefold()
        letters, exceptions = rule.get("letters", self.grammar.get("elision_letters", "")), rule.get(
            "not", self.grammar.get("no_elision"))  # a form may have sounds of its own ("an" before a vowel)
        if elided and folded[:1] in letters and not folded.startswith(tuple(exceptions or ())):
            return elided + word
        prefix: str = rule.get("prefix", "")
        return prefix + word


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise BadInput(f"unknown language '{lang}': choose one of {', '.join(LANGUAGES)}")
    return lang


def _flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in tree.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, path + "."))
        else:
            flat[path] = value
    return flat


def _load_yaml(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    return read_data(path) or {}


class Catalog:
    """The sentences and names of one language."""

    def __init__(self, lang: str = DEFAULT_LANGUAGE):
        from companion import registry  # here: `companion --version` and the tests of one file need no game

        self.lang = check_language(lang)
        folders = [voices_dir() / lang, *(spec.voices / lang for spec in registry.GAMES if spec.voices)]
        self.messages: dict[str, Any] = {}
        self.names: dict[str, Any] = {}
        for path in (path for folder in folders for path in sorted((folder / "messages").glob("*.yaml"))):
            _merge(self.messages, _flatten(_load_yaml(path)), path, "message")
        for path in (path for folder in folders for path in sorted((folder / "names").glob("*.yaml"))):
            _merge(self.names, _load_yaml(path), path, "names section")
        self.grammar = _load_yaml(voices_dir() / lang / "grammar.yaml")
        self.id_params = _ids_said(spec.ids for spec in registry.GAMES)
        self.id_list_params = _ids_said(spec.id_lists for spec in registry.GAMES)

    def keys(self) -> Iterable[str]:
        return self.messages.keys()

    def say(self, key: str, **params: Any) -> str:
        """The sentence `key`, filled with `params` (canonical ids are translated to spoken names)."""
        try:
            template = self.messages[key]
        except KeyError:
            raise KeyError(f"message '{key}' is missing from voices/{self.lang}/messages/") from None
        return _Formatter(self.lang, self.grammar).format(str(template), **self._spoken_params(params))

    def form(self, value: Any, form: str) -> str:
        """`value` (a name) in the grammatical form `form` of grammar.yaml: form("Ana", "de") is "d'Ana" in French."""
        return _Formatter(self.lang, self.grammar).form(value, form)

    def name(self, section: str, item_id: str, field: str = "name") -> str:
        """The spoken name of a piece: name("pens", "river"), name("faces", "forest", "sticker"); a name that
        knows its article (Spoken) when the entry gives one ("the")."""
        entry = self.names[section][item_id]
        if isinstance(entry, str):
            return entry
        if field != "name":
            named: str = entry[field]
            return named
        return Spoken(entry[field], entry.get("the"), {form: entry[form] for form in FORMS if form in entry
                                                       and form != "the"})

    def join(self, items: Iterable[str], word: str = "and") -> str:
        """'a, b and c' (`word` "or": 'a, b or c', for a choice) in this language; the last word may change
        with the word after it, as grammar.yaml's join_before says (Spanish: "Ana e Isabel", "siete u ocho")."""
        items = list(items)
        if len(items) <= 1:
            return "".join(items)
        head, last = self.say("list.separator").join(items[:-1]), items[-1]
        folded = last.casefold()
        for rule in self.grammar.get("join_before") or ():
            if rule.get("word", "and") == word and folded.startswith(tuple(rule["starts"])) and not folded.startswith(
                    tuple(rule.get("not") or ())):
                return str(rule["join"]).format(head=head, last=last)
        return self.say("list.join" if word == "and" else "list.join_or", head=head, last=last)

    def _spoken_params(self, params: dict[str, Any]) -> dict[str, Any]:
        spoken = dict(params)
        for param, section in self.id_params.items():
            if isinstance(params.get(param), str) and params[param] in self.names.get(section, {}):
                spoken[param] = self.name(section, params[param])
        for param, section in self.id_list_params.items():
            if isinstance(params.get(param), (list, tuple)):
                spoken[param] = self.join(self.name(section, item) for item in params[param])
        for param, value in params.items():  # other lists (player names...) are said as "a, b and c"
            if param not in self.id_list_params and isinstance(value, (list, tuple)):
                spoken[param] = self.join(str(item) for item in value)
        for param, value in spoken.items():  # a file name that is not UTF-8 is said and printed all the same, and
            if isinstance(value, (Path, str)) and not isinstance(value, Spoken):  # a line break in a name never
                spoken[param] = clean_line(shown(str(value)))  # starts a line of its own
        return spoken


def _merge(into: dict[str, Any], entries: dict[str, Any], path: Path, what: str) -> None:
    for key, value in entries.items():
        if key in into:
            raise ValueError(f"{what} '{key}' of {path} is defined twice")
        into[key] = value


def _ids_said(mappings: Iterable[Mapping[str, str]]) -> dict[str, str]:
    """The games' parameters that hold ids, each with its names section; one parameter, one section."""
    merged: dict[str, str] = {}
    for mapping in mappings:
        for param, section in mapping.items():
            if merged.setdefault(param, section) != section:
                raise ValueError(f"the parameter '{param}' holds ids of both '{merged[param]}' and '{section}'")
    return merged


def catalog(lang: str = DEFAULT_LANGUAGE) -> Catalog:
    """The shared, cached catalog of a language (of the games registered)."""
    from companion import registry

    return _catalog(lang, registry.ids())


@cache
def _catalog(lang: str, games: tuple[str, ...]) -> Catalog:
    return Catalog(lang)
