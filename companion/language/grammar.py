"""What players say: a sentence (typed, or heard by a recogniser) → an intent with slots.

The sentences live in grammars/<lang>/common.yaml and <grammars>/<lang>/<stem>.yaml of each game (hassil
template format; <grammars> is the game's spec's folder, grammars/ for the games of the package);
<grammars>/<stem>.states.yaml says which intents are active in each dialogue state. Templates and
input go through the same `fold` (companion.language.folding), so case, accents, punctuation, hyphens and
filler words never change the result. Loaded grammars are cached per (game, language, state).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import registry
from companion.errors import BadInput
from companion.language.folding import WORD, Folded, fold, fold_phrase, fold_word
from companion.language.messages import check_language
from companion.paths import grammars_dir, read_data

if TYPE_CHECKING:
    from hassil import Intents

    from companion.language.compiler import Compiler, Respelled

# hassil (and the compiler of its templates) are imported where a grammar is compiled, not with this module:
# hassil's imports (unicode_rbnf, importlib.metadata, email) took 0.10 to 0.13 s of processor time at each start,
# and a game's first question needs no grammar. Once a state's automaton with meaning is kept in the cache folder
# (see `_recognize`), parsing in that state needs no hassil at all.

STATES_FILE = "states.yaml"
COMMON_FILE = "common"
ANY_STATE = "any"
CONFIRM_STATE = "confirm"
CONFIRMING = "confirm:"  # "confirm:turn": a yes/no question asked in the middle of the state "turn"
PLAYER_LIST = "player"

_WORD = WORD
# Template syntax kept as is; list {...} and rule <...> names are never folded.
_TEMPLATE_PART = re.compile(r"(\{[^}]*\}|<[^>]*>|[()\[\]|;])")


# ---------------------------------------------------------------- normalisation (companion.language.folding)

def map_template_words(template: str, words: Callable[[str], Sequence[str]]) -> str:
    """A hassil template whose plain text is rewritten word by word by `words`; its syntax is kept."""
    parts = []
    for part in _TEMPLATE_PART.split(template):
        if not part or _TEMPLATE_PART.fullmatch(part):
            parts.append(part)
            continue
        text = " ".join(words(part))
        lead = " " if not part[:1].isalnum() else ""
        trail = " " if not part[-1:].isalnum() else ""
        parts.append(f"{lead}{text}{trail}" if text else " ")
    return re.sub(r" {2,}", " ", "".join(parts))


def fold_template(template: str) -> str:
    """A hassil template with its words folded like player input."""
    return map_template_words(template, lambda text: fold(text).words)


# ---------------------------------------------------------------- grammar files

def _read_yaml(path: Path) -> dict[str, Any]:
    return read_data(path) or {}


@cache
def shared_groups() -> dict[str, list[str]]:
    """The groups of intents every game shares (grammars/states.yaml)."""
    return dict(_read_yaml(grammars_dir() / STATES_FILE).get("groups", {}))


@cache
def game_states(game: str) -> dict[str, Any]:
    """grammars/<stem>.states.yaml of a game: its own groups and its states."""
    spec = registry.game(check_game(game))
    return _read_yaml(spec.grammars_folder() / f"{spec.stem}.states.yaml")


def games() -> tuple[str, ...]:
    return registry.ids()


def check_game(game: str) -> str:
    if game not in games():
        raise BadInput(f"unknown game '{game}': choose one of {', '.join(games())}")
    return game


def states(game: str) -> tuple[str, ...]:
    """The dialogue states of a game, `any` included (not the confirmation states derived from them)."""
    return tuple(game_states(game)["states"])


def confirming(state: str) -> str:
    """The state of a yes/no question asked in the middle of `state` (a read-back, a suggestion): yes and no
    first, then everything `state` accepts, so that a new command may answer it."""
    return state if is_confirming(state) else f"{CONFIRMING}{state}"


def is_confirming(state: str) -> bool:
    """Whether `state` is a yes/no question's (`confirm`, or `confirm:` in the middle of another state)."""
    return state == CONFIRM_STATE or state.startswith(CONFIRMING)


def check_state(game: str, state: str) -> str:
    base = state.removeprefix(CONFIRMING)
    if base not in states(game):
        raise BadInput(f"unknown dialogue state '{state}' for {game}: choose one of {', '.join(states(game))}")
    return state


def state_intents(game: str, state: str) -> tuple[str, ...]:
    """The intents active in a state, in priority order (groups expanded, duplicates dropped)."""
    check_state(game, state)
    config = game_states(game)
    groups = {**shared_groups(), **config.get("groups", {})}
    entries = list(config["states"][state]) if not state.startswith(CONFIRMING) else [
        *config["states"][CONFIRM_STATE], *config["states"][state[len(CONFIRMING):]]]
    names: list[str] = []
    for entry in entries:
        for name in groups.get(entry, [entry]):
            if name not in names:
                names.append(name)
    return tuple(names)


@cache
def grammar_source(game: str, lang: str) -> dict[str, Any]:
    """The merged YAML of a game in a language (common.yaml first), as written: not folded."""
    merged: dict[str, Any] = {}
    _merge(merged, read_grammar_file(lang, COMMON_FILE))
    _merge(merged, game_grammar_file(game, lang))
    return merged


def _merge(base: dict[str, Any], new: dict[str, Any]) -> None:
    """`new` merged into `base` as hassil merges grammar files: mappings merged, lists extended, the rest replaced.
    A mapping or a list given something else (an empty `lists:` is None) is an error, as it is for hassil."""
    for key, value in new.items():
        old = base.get(key)
        if isinstance(old, dict | list) and not isinstance(value, type(old)):
            raise ValueError(f"grammar key '{key}': {type(old).__name__} in one file, "
                             f"{type(value).__name__} in the other")
        if isinstance(old, dict):
            _merge(old, value)
        elif isinstance(old, list):
            old.extend(value)
        else:
            base[key] = value


def read_grammar_file(lang: str, name: str, folder: Path | None = None) -> dict[str, Any]:
    """One file of <folder>/<lang>/ (grammars/ by default; name without .yaml), as written."""
    path = (folder or grammars_dir()) / check_language(lang) / f"{name}.yaml"
    if not path.is_file():
        raise FileNotFoundError(f"grammar file {path} is missing")
    return _read_yaml(path)


def game_grammar_file(game: str, lang: str, suffix: str = "") -> dict[str, Any]:
    """A game's own grammar file in a language (`suffix` ".examples": its examples), from its spec's folder."""
    spec = registry.game(check_game(game))
    return read_grammar_file(lang, spec.stem + suffix, spec.grammars_folder())


def rewrite_templates(source: dict[str, Any], template: Callable[[str], str]) -> dict[str, Any]:
    """A copy of a grammar with every sentence, expansion rule and list input passed through `template`."""
    rewritten = dict(source)
    rewritten["expansion_rules"] = {name: template(body) for name, body in source.get("expansion_rules", {}).items()}
    rewritten["lists"] = {name: _rewrite_list(body, template) for name, body in source.get("lists", {}).items()}
    rewritten["intents"] = {
        name: {"data": [{**block, "sentences": [template(s) for s in block["sentences"]]} for block in intent["data"]]}
        for name, intent in source.get("intents", {}).items()}
    return rewritten


def _rewrite_list(body: dict[str, Any], template: Callable[[str], str]) -> dict[str, Any]:
    if "values" not in body:
        return body
    values = [value if isinstance(value, dict) else {"in": value, "out": value} for value in body["values"] or []]
    return {**body, "values": [{**value, "in": template(str(value["in"]))} for value in values]}


class GameGrammar:
    """One game in one language: its fillers at once, the rest when first asked for (a state whose automaton is
    kept is parsed without hassil's reading of the templates, `written_templates`)."""

    def __init__(self, game: str, lang: str, source: dict[str, Any]):
        self.game, self.lang, self.source = game, lang, source
        self.skip_words = [fold_phrase(w) for w in source.get("skip_words", [])]
        self.skip_phrases: tuple[tuple[str, ...], ...] = tuple(tuple(w.split()) for w in self.skip_words if w)

    @cached_property
    def folded(self) -> dict[str, Any]:
        """The grammar with the words of its templates folded."""
        return {**rewrite_templates(self.source, fold_template), "skip_words": self.skip_words}

    @cached_property
    def intents(self) -> Intents:
        """Every intent, its folded templates read by hassil: hassil's own matching, which the tests compare the
        parser with (the program compiles `written_templates`)."""
        from hassil import Intents

        return Intents.from_dict(self.folded)

    @cached_property
    def spellings(self) -> dict[str, str]:
        """Every word of the grammar, folded → as written."""
        return _spellings(self.source)

    @cached_property
    def vocabulary(self) -> frozenset[str]:
        return frozenset(self.spellings)

    @cached_property
    def meaning_words(self) -> frozenset[str]:
        """Words that only the values of lists hold (a species, a pen, a face...): a guess never drops or changes
        one, as that would change what the sentence means ("prado del amor" is not "prado")."""
        return _meaning_words(self.folded)


@cache
def load_grammar(game: str, lang: str) -> GameGrammar:
    """The cached grammar of a game in a language."""
    source = grammar_source(game, lang)
    written = source.get("intents") or {}
    missing = [name for state in states(game) for name in state_intents(game, state) if name not in written]
    if missing:
        raise ValueError(f"grammars/{lang}: no sentences for intent(s) {', '.join(sorted(set(missing)))}")
    return GameGrammar(game, lang, source)


def _meaning_words(folded: dict[str, Any]) -> frozenset[str]:
    """The words of list values that no sentence or expansion rule holds outside its lists."""
    def words_of(template: str) -> set[str]:
        return {word for part in _TEMPLATE_PART.split(template) if part and not _TEMPLATE_PART.fullmatch(part)
                for word in part.split()}

    values = {word for body in folded.get("lists", {}).values() for value in body.get("values") or ()
              if isinstance(value, dict) for word in words_of(str(value["in"]))}
    frame = {word for body in folded.get("expansion_rules", {}).values() for word in words_of(body)}
    frame |= {word for intent in folded.get("intents", {}).values() for block in intent["data"]
              for sentence in block["sentences"] for word in words_of(sentence)}
    return frozenset(values - frame)


@cache
def hesitations(lang: str) -> frozenset[str]:
    """Sounds of hesitation (`hesitations:` in grammars/<lang>/common.yaml), folded: never a name."""
    return frozenset(fold_phrase(str(sound)) for sound in read_grammar_file(lang, COMMON_FILE).get("hesitations") or ())


@cache
def words_known(game: str, lang: str) -> frozenset[str]:
    """Every word of a game's grammar in a language, folded (without compiling the grammar)."""
    return frozenset(_spellings(grammar_source(game, lang)))


def _spellings(source: dict[str, Any]) -> dict[str, str]:
    """Every word of the grammar, folded → as written (first spelling wins)."""
    spellings: dict[str, str] = {}

    def words_of(text: str) -> list[str]:
        for match in _WORD.finditer(text):
            spellings.setdefault(fold_word(match.group()), match.group().lower())
        return []

    def record(template: str) -> str:
        map_template_words(template, words_of)
        return template

    rewrite_templates(source, record)
    return spellings


@cache
def written_templates(game: str, lang: str) -> tuple[Intents, Compiler]:
    """A game's templates in a language as written, read by hassil once, and their one compiler (its rules and lists
    compiled once; the players' names a list filled at run time). The parser reads its nodes folded
    (`folded_templates`), the recognisers spelled as they hear words (companion.language.recognition_grammar), and
    companion.language.saying as written."""
    from hassil import Intents  # hassil's classes: only where templates are compiled

    from companion.language.compiler import Compiler

    intents = Intents.from_dict(grammar_source(check_game(game), lang))
    return intents, Compiler(intents.slot_lists, intents.expansion_rules, frozenset({PLAYER_LIST}))


@cache
def folded_templates(game: str, lang: str) -> Respelled:
    """The compiled templates with their words folded, as typed text is (companion.language.folding)."""
    from companion.language.compiler import Respelled

    return Respelled(written_templates(game, lang)[1], lambda word: fold(word).words)


@lru_cache(maxsize=64)
def _names(player_names: tuple[str, ...]) -> dict[str, Any]:
    """The players' names as a tree of their folded words, the name as written under "" where one ends (of two
    names folded alike, the first)."""
    root: dict[str, Any] = {}
    for name in player_names:
        node = root
        for word in fold(name).words:
            node = node.setdefault(word, {})
        if node is not root:
            node.setdefault("", name.strip())
    return root


# ---------------------------------------------------------------- parsing

# The longest example sentence of the grammars holds 122 characters (Dino's advice said back, in French), names
# included; a line about five times longer is no command. Parsing a line of 599 characters in the `any` state
# took 0.09 s of processor time, most of it looking for a suggestion (reading it on the state's automaton: 0.007 s;
# 7,500 words: 0.03 s). Only the start of a longer line is shown back.
MAX_LINE = 600
SHOWN_OF_LONG_LINE = 60

@dataclass(frozen=True)
class ParseResult:
    """What a sentence meant: an intent and its slots (canonical ids), or nothing and a suggestion."""

    intent: str | None
    slots: dict[str, str | int]
    text: str
    suggestion: str | None = None
    stranger: str | None = None  # a name said where a player's goes, that is no player's and close to none

    @property
    def understood(self) -> bool:
        return self.intent is not None

    def to_json(self) -> dict[str, Any]:
        said = {"intent": self.intent, "slots": dict(self.slots), "text": self.text, "suggestion": self.suggestion}
        return said if self.stranger is None else {**said, "stranger": self.stranger}


def parse(text: str, *, game: str, lang: str, state: str = ANY_STATE,
          player_names: Sequence[str] = ()) -> ParseResult:
    """The intent and slots of one sentence in the given dialogue state.

    Nothing understood → intent None, and `suggestion` holds the closest sentence the grammar
    accepts when there is one (never applied on its own: the caller asks the player).
    """
    grammar = load_grammar(check_game(game), check_language(lang))
    check_state(game, state)
    if len(text) > MAX_LINE:  # no sentence of a grammar is this long: not understood, and not searched
        return ParseResult(None, {}, text[:SHOWN_OF_LONG_LINE] + "…")
    players = tuple(player_names)
    folded = fold(text)
    match = _match(folded, grammar, state, players)
    if match is not None:
        intent, slots = match
        return ParseResult(intent, slots, text)
    from companion.language.suggest import guess  # the slower path, loaded only when needed
    suggestion, stranger = guess(folded, grammar, state, players)
    return ParseResult(None, {}, text, suggestion, stranger)


# A sentence with more fillers than this is not tried once per filler kept (see `readings`).
MAX_KEPT_FILLERS = 8


def readings(folded: Folded, skip_phrases: Sequence[tuple[str, ...]]) -> list[Folded]:
    """The ways a sentence is tried, in order: without any filler, even one that a removal brings together;
    then without the fillers as said ("what would, uh, you play" keeps its "would you"); then without all
    fillers but one, for each of them in turn, the longest first, then from the last ("donc, tu peux dis, euh,
    ça encore" keeps the "dis" it needs, "bon, c'est bon" its second "bon", "dis, d'accord" and "d'accord,
    dis" are a yes); then without fillers only at its start and end, the most left out first; then as
    written. Empty readings are left out."""
    spans = folded.occurrences(skip_phrases)
    if not spans:  # no filler: the sentence as written is the only reading
        return [folded] if folded.words else []
    bare = folded.without(skip_phrases)
    found = {bare.words: bare}
    once = folded.keeping(spans)
    found.setdefault(once.words, once)
    if len(spans) <= MAX_KEPT_FILLERS:
        for kept in sorted(spans, key=lambda span: (span[0] - span[1], -span[0])):  # longest first, then the last
            reading = folded.keeping(span for span in spans if span != kept)
            found.setdefault(reading.words, reading)
    heads, tails = folded.edge_cuts(skip_phrases)
    for start in reversed(heads):
        for end in reversed(tails):
            if start < end:
                found.setdefault(folded.words[start:end], folded.part(start, end))
    found.setdefault(folded.words, folded)
    return [reading for reading in found.values() if reading.words]


def fillers(grammar: GameGrammar, players: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """The filler words set aside in a sentence, but for a player's name ("Ben" is a French filler)."""
    names = _folded_names(tuple(players))
    return tuple(phrase for phrase in grammar.skip_phrases if phrase not in names) if names else grammar.skip_phrases


@lru_cache(maxsize=64)
def _folded_names(players: tuple[str, ...]) -> frozenset[tuple[str, ...]]:
    return frozenset(fold(player).words for player in players)


def _match(folded: Folded, grammar: GameGrammar, state: str, players: tuple[str, ...],
           strangers: int = 0) -> tuple[str, dict[str, str | int]] | None:
    """The first intent of the state that accepts the sentence, read as `readings` says; with `strangers`,
    any words (at most that many) may stand where a player's name goes."""
    for candidate in readings(folded, fillers(grammar, players)):
        found = _recognize(candidate, grammar, state, players, strangers=strangers)
        if found is not None:
            return found
    return None


def _recognize(folded: Folded, grammar: GameGrammar, state: str, players: tuple[str, ...],
               intents: frozenset[str] | None = None, strangers: int = 0) -> tuple[str, dict[str, str | int]] | None:
    """The first template of the state (of `intents` only, when given) that takes the words as they are, read on
    the path they take through the state's automaton with meaning (companion.language.recognition_grammar: the
    least ranked path is the one the templates' order gives; the players' names and free text are read as the
    path meets them)."""
    from companion.language.reading import typed_reader
    from companion.language.recognition_grammar import Open, Tag

    names = None if strangers else _names(players)

    def fill(part: Open, words: Sequence[str], place: int) -> Iterator[tuple[int, str]]:
        """What an open part may take from `place`, in the order tried: a player's name (the longest first), or
        any words (the most first, said back as written)."""
        if part.names and names is not None:
            found, node = [], names
            for end in range(place, len(words)):
                if words[end] not in node:
                    break
                node = node[words[end]]
                if "" in node:
                    found.append((end + 1, node[""]))
            yield from reversed(found)
            return
        most = strangers if part.names else part.most
        last = len(words) if most is None else min(len(words), place + most)
        for end in range(last, place, -1):
            yield end, folded.original_words(place, end)

    ends = typed_reader(grammar.game, grammar.lang, state).paths(folded.words, fill)
    chosen = [end for intent, end in ends.items() if intent is not None and (intents is None or intent in intents)]
    return Tag.meaning(min(chosen, key=lambda end: end[0])[1]) if chosen else None


# ---------------------------------------------------------------- example sentences

@dataclass(frozen=True)
class Example:
    """A sentence a player may say and what it must mean (intent None: must not be understood)."""

    text: str
    intent: str | None
    slots: dict[str, Any]
    state: str = ANY_STATE
    suggestion_words: tuple[str, ...] = ()


@dataclass(frozen=True)
class Examples:
    players: tuple[str, ...]
    understood: tuple[Example, ...]
    not_understood: tuple[Example, ...]


@cache
def examples(game: str, lang: str) -> Examples:
    """The example sentences of a game's <lang>/<stem>.examples.yaml (used by tests and benchmarks)."""
    data = game_grammar_file(game, lang, ".examples")
    understood = tuple(Example(str(e[0]), str(e[1]), dict(e[2]), *(e[3:4] or [ANY_STATE]))
                       for e in data["examples"])
    refused = tuple(Example(str(e[0]), None, {}, str(e[1]), tuple(e[2])) for e in data.get("not_understood", []))
    return Examples(tuple(data.get("players", [])), understood, refused)
