"""What players say: a sentence (typed, or heard by a recogniser) → an intent with slots.

The sentences live in grammars/<lang>/common.yaml and <grammars>/<lang>/<stem>.yaml of each game (hassil
template format; <grammars> is the game's spec's folder, grammars/ for the games of the package);
<grammars>/<stem>.states.yaml says which intents are active in each dialogue state. Templates and
input go through the same `fold` (companion.language.folding), so case, accents, punctuation, hyphens and
filler words never change the result. Loaded grammars are cached per (game, language, state).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
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
    from companion.language.matcher import Node, Trie, Vocabulary

# hassil (and the compiler of its templates) are imported where a grammar is compiled, not with this module:
# hassil's imports (unicode_rbnf, importlib.metadata, email) took 0.10 to 0.13 s of processor time at each start,
# and a game's first question needs no grammar. Once a state's templates are kept compiled in the cache folder
# (see `state_templates`), parsing in that state needs no hassil at all.

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
    return state if state == CONFIRM_STATE or state.startswith(CONFIRMING) else f"{CONFIRMING}{state}"


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
    """One game in one language: its fillers at once, the rest when first asked for (a state whose templates are
    kept compiled is parsed without hassil's reading of the templates, `written_templates`)."""

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
        matcher with (the program compiles `written_templates`)."""
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


@dataclass(frozen=True)
class Template:
    """One compiled sentence template of an intent, with the slots its block fixes."""

    intent: str
    node: Node
    fixed_slots: tuple[tuple[str, Any], ...]
    vocabulary: Vocabulary  # every word it may take (see `_recognize`)


@cache
def written_templates(game: str, lang: str) -> tuple[Intents, Compiler]:
    """A game's templates in a language as written, read by hassil once, and their one compiler (its rules and lists
    compiled once; the players' names a list filled at run time). The typed-text matcher reads its nodes folded
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


@dataclass(frozen=True)
class StateTemplates:
    """The compiled templates of a state in priority order, indexed by the word they may start with."""

    templates: tuple[Template, ...]
    by_first_word: dict[str, tuple[Template, ...]]
    open_start: tuple[Template, ...]  # templates that may start with any word

    def candidates(self, first_word: str) -> tuple[Template, ...]:
        return self.by_first_word.get(first_word, self.open_start)


@cache
def state_templates(game: str, lang: str, state: str) -> StateTemplates:
    """The compiled templates of the intents active in a state, in priority order: compiled once, then read back
    from the cache folder (see companion.language.kept_templates)."""
    from companion.language import kept_templates

    key = kept_templates.key(game, lang, state)
    found = kept_templates.read(key)
    if found is None:
        found = _compiled_state(game, lang, state)
        kept_templates.keep(key, found)
    return found


def _compiled_state(game: str, lang: str, state: str) -> StateTemplates:
    from companion.language.matcher import GrammarError, vocabulary

    load_grammar(game, lang)  # its check: every intent of the game's states has sentences
    intents = written_templates(game, lang)[0]
    compiler = folded_templates(game, lang)
    templates = []
    # Each template's vocabulary is found as it is compiled, and kept with it. Found lazily, at the first sentence
    # parsed in each state, a state's first sentence read from kept templates took up to 0.4 to 0.8 s instead of
    # 0.05 to 0.07 s (`bench parse`, the slowest English sentence). The walk's memo (rules and lists are shared
    # nodes) lives for this state only: kept for the whole grammar, it held 25 MB for the states of English.
    walked: dict[int, tuple[Node, Vocabulary]] = {}
    for name in state_intents(game, state):
        for block in intents.intents[name].data:
            fixed = tuple(block.slots.items())
            for sentence in block.sentences:
                try:
                    node = compiler.sentence(sentence)
                    templates.append(Template(name, node, fixed, vocabulary(node, walked)))
                except GrammarError as error:
                    raise GrammarError(f"grammars/{lang}, intent {name}: {error}") from None
    open_start = tuple(t for t in templates if t.node.first is None or t.node.nullable)
    # Open-start templates are looked up by identity: equal templates have the same first words, so the index is
    # the same, and comparing the dataclasses took 484,569 __eq__ calls. Indexing the French Draftosaurus `any`
    # state in a fresh process: 0.385 s by equality, 0.054 s by identity (`turn`: 0.140 s, 0.036 s).
    opens = {id(t) for t in open_start}
    words = {w for t in templates if t.node.first is not None for w in t.node.first}
    by_word = {w: tuple(t for t in templates
                        if id(t) in opens or (t.node.first is not None and w in t.node.first))
               for w in words}
    return StateTemplates(tuple(templates), by_word, open_start)


@lru_cache(maxsize=64)
def player_list(player_names: tuple[str, ...]) -> Trie:
    """The dynamic list of player names: folded for matching, given back as written."""
    from companion.language.matcher import Trie

    return Trie(PLAYER_LIST, [(fold(name).words, name.strip()) for name in player_names if fold(name).words])


@lru_cache(maxsize=64)
def _player_words(player_names: tuple[str, ...]) -> frozenset[str]:
    return frozenset().union(*_folded_names(player_names))


# ---------------------------------------------------------------- parsing

# The longest example sentence of the grammars holds 122 characters (Dino's advice said back, in French), names
# included; a line about five times longer is no command. Parsing a line of 599 characters in the `any` state
# took 0.04 s of processor time (the search grows with the square of the words: 7,500 words took 34 s). Only
# the start of a longer line is shown back.
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
    """The first template of the state (of `intents` only, when given) that takes the words as they are."""
    from companion.language.matcher import Context, Wildcard, WildSpan, match_first

    names = Wildcard(PLAYER_LIST, strangers) if strangers else player_list(players)
    ctx = Context(folded.words, {PLAYER_LIST: names})
    # A template is tried only if it may take every word of the sentence: 2 templates are tried a phrase instead of
    # 18. With it, with the names' words kept folded and with no readings searched in a sentence without fillers,
    # parsing the 35,043 phrases the English Draftosaurus recognisers may output, in a process that first makes
    # them, took a median 10.9 s of processor time instead of 19.3 s (5 paired runs, ratio 0.56).
    words = frozenset(folded.words)
    lists = {PLAYER_LIST: None if strangers else _player_words(players)}
    for template in state_templates(grammar.game, grammar.lang, state).candidates(folded.words[0]):
        if intents is not None and template.intent not in intents:
            continue
        if not template.vocabulary.may_take(words, lists):
            continue
        found = match_first(template.node, ctx)
        if found is None:
            continue
        slots: dict[str, str | int] = dict(template.fixed_slots)
        for name, value in found:
            slots[name] = folded.original_words(value.start, value.end) if isinstance(value, WildSpan) else value
        return template.intent, slots
    return None



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
