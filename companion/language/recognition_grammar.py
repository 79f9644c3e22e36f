"""A dialogue state's grammar as word trees and a word graph with meaning, read from the compiled templates
(companion.language.compiler): what typed text is read on, and what every recogniser listens with.

Per game, language and dialogue state: the recognisers' view of the state as word trees (`state_grammar`), the
word graph with meaning made from them (`word_graph`: compiled into the automaton every recogniser's words are read
on, companion.language.automaton; Vosk's phrase list, PocketSphinx's grammar and Whisper's phone graph are made from
it, companion.speech), the phrases of its templates of free text ("[unk]" catches the free text) and a JSGF grammar
of the same sentences. Typed text's view (`typed_state_grammar`) is made by the same builders from the templates
folded, with every alternative, the players' names and free text as open parts (`Open`), read when a sentence is.
Recognisers spell words as their dictionaries do (lower case, accents kept), so these grammars keep
the spelling of the templates; `recognizer:` in grammars/<lang>/common.yaml says how hyphens and
apostrophes split words for that language's models. Alternatives written with digits are left
out (recognisers hear words). Filler words (`recognizer: fillers:`, words the parser drops) may be said once
before and once after any command. A grammar word missing from a model's dictionary must be reported
(`missing_words`), never dropped: English words that pocketsphinx's dictionary lacks get
pronunciations in grammars/en/pronunciations.dict. A state's word graph (`word_graph`, `Tag`) carries its
meaning on its arcs: the intent, and the slots its lists fill. What a sentence means is read off the path it takes
through the automaton (companion.language.reading), not parsed again, the words of the path Whisper's match by sound
took in it (companion.speech.phonetic) too.
"""

from __future__ import annotations

import json
import math
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard

from companion.language.grammar import (
    COMMON_FILE,
    PLAYER_LIST,
    check_game,
    check_state,
    load_grammar,
    read_grammar_file,
    state_intents,
    written_templates,
)
from companion.language.nodes import (
    Alt,
    DynamicList,
    Node,
    Seq,
    TemplateValues,
    Trie,
    Wildcard,
    Words,
)
from companion.paths import grammars_dir

if TYPE_CHECKING:
    from companion.language.compiler import Respelled

# hassil, and the compiler of its templates, are imported where templates are compiled: a state whose recognisers'
# view is kept (state_grammar) is heard without them.

UNKNOWN_WORD = "[unk]"
PRONUNCIATIONS_FILE = "pronunciations.dict"
_SPOKEN_WORD = re.compile(r"[^\W_]+(?:['’-][^\W_]+)*['’]?")
_JSGF_SAFE = re.compile(r"[^\w'\-\[\]]", re.UNICODE)


# ---------------------------------------------------------------- spelling words as recognisers do

@dataclass(frozen=True)
class Spelling:
    """How one language's recognisers split words: hyphens ("t-rex") and apostrophes ("l'île")."""

    split_hyphens: bool = True
    split_after_apostrophe: bool = False

    def words(self, text: str) -> list[str]:
        return [word for word, _, _ in self.spans(text)]

    def spans(self, text: str) -> list[tuple[str, int, int]]:
        """Each word with the characters it spans in `text` lower-cased (the same places in `text`, unless
        lower-casing changed its length)."""
        words: list[tuple[str, int, int]] = []
        for match in _SPOKEN_WORD.finditer(text.lower().replace("’", "'")):
            word, at = match.group(), match.start()
            parts = word.split("-") if self.split_hyphens else [word]
            for part in parts:
                if self.split_after_apostrophe and "'" in part.rstrip("'"):
                    head, tail = part.split("'", 1)
                    words.extend([(f"{head}'", at, at + len(head) + 1), (tail, at + len(head) + 1, at + len(part))])
                elif part:
                    words.append((part, at, at + len(part)))
                at += len(part) + 1
        return words


@cache
def recognizer_settings(lang: str) -> dict[str, Any]:
    """The `recognizer:` section of grammars/<lang>/common.yaml: how the language's recognisers are spoken to."""
    return dict(read_grammar_file(lang, COMMON_FILE).get("recognizer") or {})


@cache
def spelling(lang: str) -> Spelling:
    """How the recognisers of a language spell words (`recognizer:` in grammars/<lang>/common.yaml)."""
    settings = recognizer_settings(lang)
    return Spelling(split_hyphens=bool(settings.get("split_hyphens", True)),
                    split_after_apostrophe=bool(settings.get("split_after_apostrophe", False)))


def _recognizer_phrases(lang: str, key: str) -> frozenset[tuple[str, ...]]:
    """A phrase list of common.yaml's `recognizer:` section, as recogniser words."""
    phrases = recognizer_settings(lang).get(key) or ()
    return frozenset(tuple(spelling(lang).words(phrase)) for phrase in phrases)


@cache
def not_as_written(lang: str) -> frozenset[tuple[str, ...]]:
    """Phrases a free-text recogniser (Whisper) writes for other words (`recognizer: not_as_written:` in
    common.yaml, each also unheard): a transcript holding one is matched by sound, not taken as written."""
    return _recognizer_phrases(lang, "not_as_written")


@cache
def unheard(lang: str) -> frozenset[tuple[str, ...]]:
    """Alternatives that recognisers are never offered (`recognizer: unheard:` in common.yaml): words that
    sound too much like their opposite ("no" heard as "o k"). Typed, they are still understood."""
    return _recognizer_phrases(lang, "unheard")


@cache
def yes_no_prompt(lang: str) -> str:
    """What Whisper's previous text begins with in a yes/no question (`recognizer: yes_no_prompt:` in common.yaml;
    "" for none)."""
    return str(recognizer_settings(lang).get("yes_no_prompt") or "")


@cache
def fillers(lang: str) -> tuple[tuple[tuple[str, ...], ...], tuple[tuple[str, ...], ...]]:
    """The filler phrases recognisers hear before a command and after it (`recognizer: fillers:` in
    common.yaml), as recogniser words; digits and unheard phrases are left out."""
    settings = recognizer_settings(lang).get("fillers") or {}

    def phrases(key: str) -> tuple[tuple[str, ...], ...]:
        said = (tuple(spelling(lang).words(str(phrase))) for phrase in settings.get(key) or ())
        return tuple(dict.fromkeys(p for p in said if p and p not in unheard(lang) and not _has_digits(p)))

    return phrases("before"), phrases("after")


# ---------------------------------------------------------------- a small tree of words

@dataclass(frozen=True)
class Choice:
    """Alternatives (optional when `optional`): each a sequence of words and named sub-grammars. A slot list's
    choice also holds the value each option means (`values`, in the same order)."""

    options: tuple[tuple[object, ...], ...]
    optional: bool = False
    values: tuple[Any, ...] | None = field(default=None, compare=False, repr=False)
    longest_first: bool = field(default=False, compare=False, repr=False)  # a list of words: as the parser takes it


@dataclass(frozen=True)
class Ref:
    """A named sub-grammar: an expansion rule or a slot list (with the slot it fills, which is not part of its
    identity: `{species}` and `{species:second}` are the same words)."""

    name: str
    slot: str | None = field(default=None, compare=False, repr=False)


WILDCARD = Ref("__wildcard__")  # any words; equal to every wildcard, whatever slot it fills
Slots = tuple[tuple[str, Any], ...]


@dataclass(frozen=True)
class Open:
    """In the typed text's view of a state (`typed_state_grammar`), words that no template lists, found when a
    sentence is read: the players' names (`names`), or free text of at most `most` words (None: any number)."""

    slot: str
    names: bool
    most: int | None = None

    @property
    def word(self) -> str:
        """The label of its arc in a word graph: no word holds OPEN_MARK."""
        return OPEN_MARK + json.dumps([self.slot, self.names, self.most])

    @staticmethod
    def of(word: str) -> Open | None:
        """The open part an arc's word stands for (None for a word); ValueError when it is not one of ours (a kept
        file may hold anything)."""
        if not word.startswith(OPEN_MARK):
            return None
        try:
            slot, names, most = json.loads(word[len(OPEN_MARK):])
        except (ValueError, TypeError):
            raise ValueError(f"not an open part: {word!r}") from None
        if not (isinstance(slot, str) and isinstance(names, bool)
                and (most is None or (type(most) is int and most > 0))):
            raise ValueError(f"not an open part: {word!r}")
        return Open(slot, names, most)


OPEN_MARK = "\x1e"


class _Builder:
    """Reads the compiled templates of the grammar (companion.language.compiler, the one walk of hassil's
    templates) as Choice trees, collecting the named sub-grammars they use. Spelled for recognisers, players' names
    fill their list, and options written with digits or kept from recognisers are left out; `typed` (folded as
    typed text is), every option is kept, and the names and free text are open parts (`Open`)."""

    def __init__(self, compiler: Respelled, players: Sequence[str], lang: str, typed: bool = False):
        self.compiler, self.players, self.lang, self.typed = compiler, players, lang, typed
        self.named: dict[str, Choice] = {}

    def build(self, node: Node) -> tuple[object, ...]:
        name = self.compiler.name_of(node)
        if name is None:
            return self._body(node)
        if self.typed and isinstance(node, Wildcard | DynamicList):
            return (Open(node.slot, isinstance(node, DynamicList), getattr(node, "most", None)),)
        if isinstance(node, Wildcard):
            return (Ref(WILDCARD.name, node.slot),)
        if isinstance(node, DynamicList):
            said = [(tuple(spelling(self.lang).words(p)), p.strip()) for p in self.players]
            self.named[name] = Choice(tuple(o for o, _ in said if o), values=tuple(p for o, p in said if o),
                                      longest_first=True)
            return (Ref(name, node.slot),)
        if name not in self.named:
            self.named[name] = Choice(())  # placeholder while building (rules do not recurse)
            built = self._body(node)
            self.named[name] = built[0] if len(built) == 1 and isinstance(built[0], Choice) else Choice((built,))
        return (Ref(name, node.slot if isinstance(node, (Trie, TemplateValues)) else None),)

    def _body(self, node: Node) -> tuple[object, ...]:
        if isinstance(node, Words):
            return node.words
        if isinstance(node, Seq):
            return sum((self.build(item) for item in node.items), ())
        if isinstance(node, Alt):
            return (self._choice([self.build(item) for item in node.items], node.optional),)
        if isinstance(node, (Trie, TemplateValues)):  # a list's values (for recognisers, those with digits left out)
            said = [(value, words) for value, words in self.values(node) if self.typed or not _has_digits(words)]
            return (Choice(tuple(words for _, words in said), values=tuple(value for value, _ in said),
                           longest_first=isinstance(node, Trie)),)
        raise ValueError(f"no recogniser grammar for {type(node).__name__}")

    def _choice(self, options: list[tuple[object, ...]], optional: bool) -> Choice:
        if self.typed:
            return Choice(tuple(options), optional)
        return Choice(tuple(o for o in options if not _has_digits(o) and o not in unheard(self.lang)), optional)

    def values(self, node: Trie | TemplateValues) -> tuple[tuple[object, tuple[object, ...]], ...]:
        """Each value of a text list with its words: (value, word tree)."""
        if isinstance(node, Trie):
            return tuple((value, words) for words, value in node.entries)
        return tuple((value, self.build(item)) for item, value in node.values)


@cache
def _spoken_compiler(game: str, lang: str) -> Respelled:
    """The compiled templates (grammar.written_templates) with their words spelled as recognisers spell them."""
    from companion.language.compiler import Respelled

    return Respelled(written_templates(game, lang)[1], spelling(lang).words)


# Kept for the process: French Draftosaurus's compiled templates hold 2.5 MB more than the word trees alone (8.1
# against 10.6 MB with every state's built), all nine games and languages about 23 MB; a game hears one of them.
@cache
def _spoken_templates(game: str, lang: str, intent: str) -> tuple[tuple[Node, Slots], ...]:
    """An intent's templates spelled for recognisers, compiled (once: many states share an intent), each with
    the slots its block fixes."""
    return _templates(_spoken_compiler(game, lang), game, lang, intent)


def _templates(compiler: Respelled, game: str, lang: str, intent: str) -> tuple[tuple[Node, Slots], ...]:
    return tuple((compiler.sentence(sentence), tuple(block.slots.items()))
                 for block in written_templates(game, lang)[0].intents[intent].data for sentence in block.sentences)


def _has_digits(option: tuple[object, ...]) -> bool:
    return any(isinstance(w, str) and any(c.isdigit() for c in w) for w in option)


@dataclass(frozen=True)
class StateGrammar:
    """The recogniser view of one state: each intent's templates as word trees, and named parts; `fixed`, the
    slots each template fixes (per intent, in the same order as `intents`)."""

    intents: tuple[tuple[str, tuple[tuple[object, ...], ...]], ...]
    named: dict[str, Choice]
    fixed: tuple[tuple[Slots, ...], ...]


@lru_cache(maxsize=256)
def state_grammar(game: str, lang: str, state: str, player_names: tuple[str, ...] = ()) -> StateGrammar:
    """The recognisers' view of a state for these players' names: built once, then read back from the cache folder
    (companion.language.kept_templates), without hassil."""
    from companion.language import kept_templates

    load_grammar(check_game(game), lang)  # the parser's check (every intent of a state has sentences) applies too
    check_state(game, state)
    key = kept_templates.key(game, lang, state, player_names)
    found = kept_templates.read_as(key, _is_state_grammar)
    if found is None:
        found = _built_state_grammar(game, lang, state, player_names)
        kept_templates.keep(key, found)
    return found


def typed_state_grammar(game: str, lang: str, state: str) -> StateGrammar:
    """The typed text's view of a state: its templates folded (grammar.folded_templates), every option kept, the
    players' names and free text open parts (`Open`)."""
    from companion.language.grammar import folded_templates

    load_grammar(check_game(game), lang)
    check_state(game, state)
    compiler = folded_templates(game, lang)
    builder = _Builder(compiler, (), lang, typed=True)
    return _pruned(builder, [(name, [(builder.build(node), fixed) for node, fixed in
                                     _templates(compiler, game, lang, name)]) for name in state_intents(game, state)])


def _built_state_grammar(game: str, lang: str, state: str, player_names: tuple[str, ...]) -> StateGrammar:
    builder = _Builder(_spoken_compiler(game, lang), player_names, lang)
    return _pruned(builder, [(name, [(builder.build(node), fixed) for node, fixed in
                                     _spoken_templates(game, lang, name)]) for name in state_intents(game, state)])


def _pruned(builder: _Builder, built: list[tuple[str, list[tuple[tuple[object, ...], Slots]]]]) -> StateGrammar:
    pruner = _Pruner(builder.named)
    kept = [(name, [(t, fixed) for t, fixed in ((pruner.sequence(t), fixed) for t, fixed in templates) if t])
            for name, templates in built]
    return StateGrammar(tuple((name, tuple(t for t, _ in templates)) for name, templates in kept), pruner.kept(),
                        tuple(tuple(fixed for _, fixed in templates) for _, templates in kept))


# A kept view is refused when its word trees would spell out more words than this (the largest, French
# Draftosaurus's `any`, spells 16,239) or nest deeper (11 at most): a file made so would fill the memory of the
# word graph built from it.
MOST_WORDS = 200_000
MOST_DEPTH = 100
_VALUES = (str, int, float, bool, type(None))


def _is_state_grammar(found: object) -> TypeGuard[StateGrammar]:
    """Whether `found` is a recognisers' view of a state: word trees of words, named parts and choices only, each
    named part there and none within itself, spelling out at most MOST_WORDS words, each value a plain one, and
    the slots of each template."""
    if not (isinstance(found, StateGrammar) and isinstance(found.intents, tuple) and isinstance(found.named, dict)
            and isinstance(found.fixed, tuple) and len(found.fixed) == len(found.intents)
            and all(isinstance(name, str) and isinstance(choice, Choice) for name, choice in found.named.items())):
        return False
    named = found.named
    words: dict[int, int] = {}  # the words each choice spells out, once known
    inside: set[int] = set()  # the choices being read

    def size(item: object, depth: int) -> int | None:
        if depth > MOST_DEPTH:
            return None
        if isinstance(item, str):
            return 1
        if isinstance(item, Ref):
            if not isinstance(item.name, str) or not isinstance(item.slot, str | None):
                return None
            if item == WILDCARD:
                return 1 if isinstance(item.slot, str) else None
            target = named.get(item.name)
            return None if target is None else size(target, depth + 1)
        if not isinstance(item, Choice) or not isinstance(item.options, tuple) or id(item) in inside:
            return None
        if id(item) not in words:
            values = item.values
            if values is not None and not (isinstance(values, tuple) and len(values) == len(item.options)
                                           and all(isinstance(v, _VALUES) for v in values)):
                return None
            inside.add(id(item))
            total = sequences(item.options, depth + 1)
            inside.discard(id(item))
            if total is None:
                return None
            words[id(item)] = total
        return words[id(item)]

    def sequences(options: object, depth: int) -> int | None:
        if not isinstance(options, tuple):
            return None
        total = 0
        for option in options:
            if not isinstance(option, tuple):
                return None
            for part in option:
                counted = size(part, depth)
                if counted is None or total + counted > MOST_WORDS:
                    return None
                total += counted
        return total

    def slots(fixed: object) -> bool:
        return isinstance(fixed, tuple) and all(
            isinstance(pair, tuple) and len(pair) == 2 and isinstance(pair[0], str) and isinstance(pair[1], _VALUES)
            for pair in fixed)

    total = 0
    for entry, fixed in zip(found.intents, found.fixed, strict=True):
        if not (isinstance(entry, tuple) and len(entry) == 2 and isinstance(entry[0], str)
                and isinstance(entry[1], tuple) and isinstance(fixed, tuple) and len(fixed) == len(entry[1])
                and all(slots(f) for f in fixed)):
            return False
        counted = sequences(entry[1], 0)
        if counted is None or total + counted > MOST_WORDS:
            return False
        total += counted
    return all(size(choice, 0) is not None for choice in named.values())


@lru_cache(maxsize=256)
def slot_meanings(game: str, lang: str, state: str,
                  player_names: tuple[str, ...] = ()) -> tuple[tuple[tuple[tuple[str, ...], ...], ...], ...]:
    """The slot lists a state's recogniser grammar uses (species, pens, faces, players...): for each list, its
    meanings, each as every word sequence a recogniser may hear for it ("t rex", "tyrannosaurus"...). Read from the
    state's view (`state_grammar`), whose list choices hold each value's words."""
    grammar = state_grammar(game, lang, state, player_names)
    lists: list[tuple[tuple[tuple[str, ...], ...], ...]] = []
    for key, choice in grammar.named.items():
        if not key.startswith("list_") or choice.values is None:
            continue
        by_value: dict[str, list[tuple[str, ...]]] = {}
        for option, value in zip(choice.options, choice.values, strict=True):
            forms = by_value.setdefault(repr(value), [])
            forms += [f for f in dict.fromkeys(_expand(option, grammar.named)) if f not in forms]
        kept = tuple(tuple(f for f in forms if f and not _has_digits(f) and f not in unheard(lang))
                     for forms in by_value.values())
        if sum(1 for forms in kept if forms) > 1:
            lists.append(tuple(forms for forms in kept if forms))
    return tuple(lists)


def _expand(sequence: tuple[object, ...], named: dict[str, Choice]) -> list[tuple[str, ...]]:
    """Every word sequence of a small part of the grammar (a slot value)."""
    phrases: list[tuple[str, ...]] = [()]
    for part in sequence:
        options: list[tuple[str, ...]]
        if isinstance(part, str):
            options = [(part,)]
        else:
            choice = named[part.name] if isinstance(part, Ref) else part
            assert isinstance(choice, Choice)
            options = [words for option in choice.options for words in _expand(option, named)]
            options += [()] if choice.optional else []
        phrases = [head + tail for head in phrases for tail in options]
    return phrases


@dataclass(frozen=True)
class SpokenValues:
    """The values of each text list of a game, as recogniser word trees: (canonical id, words) in list order;
    `named` holds the expansion rules they use."""

    values: dict[str, tuple[tuple[object, tuple[object, ...]], ...]]
    named: dict[str, Choice]


@cache
def spoken_values(game: str, lang: str) -> SpokenValues:
    """Every value of every text list of a game (players' names aside), spelled for recognisers."""
    from hassil import TextSlotList

    intents = written_templates(check_game(game), lang)[0]
    compiler = _spoken_compiler(game, lang)
    builder = _Builder(compiler, (), lang)
    values = {name: builder.values(node) for name, slot_list in intents.slot_lists.items()
              if isinstance(slot_list, TextSlotList) and name != PLAYER_LIST
              for node in [compiler.list_node(name)] if isinstance(node, (Trie, TemplateValues))}
    return SpokenValues(values, builder.named)


class _Pruner:
    """Removes what can never be said: an empty list (no players yet) voids what requires it."""

    def __init__(self, named: dict[str, Choice]):
        self.named = named
        self.pruned: dict[str, Choice | None] = {}

    def kept(self) -> dict[str, Choice]:
        return {name: choice for name, choice in self.pruned.items() if choice is not None}

    def sequence(self, sequence: tuple[object, ...]) -> tuple[object, ...] | None:
        kept: list[object] = []
        for part in sequence:
            if isinstance(part, Ref) and part != WILDCARD:
                if self._ref(part.name) is None:
                    return None
                kept.append(part)
            elif isinstance(part, Choice):
                choice = self.choice(part)
                if choice is None:
                    return None
                if choice.options:
                    kept.append(choice)
            else:
                kept.append(part)
        return tuple(kept)

    def choice(self, choice: Choice) -> Choice | None:
        sequences = [self.sequence(o) for o in choice.options]
        optional = choice.optional or any(o == () for o in sequences)
        kept = [k for k, o in enumerate(sequences) if o]
        if not kept and not optional:
            return None
        values = None if choice.values is None else tuple(choice.values[k] for k in kept)
        return Choice(tuple(o for o in sequences if o), optional, values, choice.longest_first)

    def _ref(self, name: str) -> Choice | None:
        if name not in self.pruned:
            self.pruned[name] = Choice(())  # rules do not refer to themselves; this only ends a loop
            self.pruned[name] = self.choice(self.named[name])
        return self.pruned[name]


# ---------------------------------------------------------------- free text

def free_text_phrases(game: str, lang: str, state: str, player_names: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Phrases of the state's templates of free text (a new player's name), which no word graph holds: the free
    text said as "[unk]", the word a Vosk model hears for a word it does not know. Each alternative and list value
    of such a template appears in at least one phrase (a wildcard alone is the "[unk]" Vosk's list ends with)."""
    grammar = state_grammar(game, lang, state, player_names)
    phrases = [" ".join(words) for _, templates in grammar.intents for template in templates
               if _uses(template, grammar.named, WILDCARD) for words in _cover(template, grammar.named)
               if words and words != (UNKNOWN_WORD,)]
    return tuple(dict.fromkeys(phrases))


def _cover(sequence: tuple[object, ...], named: dict[str, Choice]) -> list[tuple[str, ...]]:
    """Phrases using every variant of every part at least once (not every combination)."""
    variants = [_variants(part, named) for part in sequence]
    if any(not v for v in variants):
        return []
    count = max((len(v) for v in variants), default=1)
    return [sum((v[k % len(v)] for v in variants), ()) for k in range(count)]


def _variants(part: object, named: dict[str, Choice]) -> list[tuple[str, ...]]:
    if isinstance(part, str):
        return [(part,)]
    if part == WILDCARD:
        return [(UNKNOWN_WORD,)]
    if isinstance(part, Ref):
        part = named[part.name]
    assert isinstance(part, Choice)
    found = [words for option in part.options for words in _cover(option, named)]
    return [*found, ()] if part.optional else found


# ---------------------------------------------------------------- JSGF

def jsgf(game: str, lang: str, state: str, player_names: Sequence[str] = (),
         without: frozenset[str] = frozenset()) -> str:
    """A JSGF grammar for pocketsphinx: one public rule, one rule per intent and per named part; the intents
    `without` left out.

    Templates with free text (a new player's name) are left out: JSGF cannot hear unknown words. A filler
    may come before the command and after it.
    """
    grammar = state_grammar(game, lang, state, tuple(player_names))
    lines = ["#JSGF V1.0;", f"grammar {_jsgf_name(f'{game}_{lang}_{state}')};", ""]
    bodies = []
    for intent, templates in grammar.intents:
        if intent in without:
            continue
        options = [_jsgf_sequence(t) for t in templates if not _uses(t, grammar.named, WILDCARD)]
        options = [o for o in options if o]
        if options:
            bodies.append((f"intent_{intent}", options))
    commands = " | ".join(f"<{_jsgf_name(n)}>" for n, _ in bodies)
    around: list[str] = []
    lines.append(f"public <utterance> = {_jsgf_fillers(lang, commands, around)};")
    lines += around
    for name, options in bodies:
        lines.append(f"<{_jsgf_name(name)}> = " + " | ".join(f"( {o} )" for o in options) + ";")
    for name, choice in sorted(grammar.named.items()):
        lines.append(f"<{_jsgf_name(name)}> = {_jsgf_choice(choice, top=True)};")
    return "\n".join(lines) + "\n"


def _jsgf_fillers(lang: str, commands: str, lines: list[str]) -> str:
    """The public rule's body with a filler allowed before and after the command (rules added to `lines`).

    The commands are written once: referred to twice (with fillers, and without), pocketsphinx copies every
    intent of the state into the automaton it builds from the JSGF, and compiling a state's word automaton
    (companion.speech.fsg) took three times the states and peaked at 1.9 GB in `companion bench listen`."""
    before, after = fillers(lang)
    for name, phrases in (("filler_before", before), ("filler_after", after)):
        if phrases:
            lines.append(f"<{name}> = " + " | ".join(_jsgf_sequence(p) for p in phrases) + ";")
    if not (before or after):
        return commands
    return " ".join([*(["[ <filler_before> ]"] if before else []), f"( {commands} )",
                     *(["[ <filler_after> ]"] if after else [])])


def _jsgf_name(name: str) -> str:
    return re.sub(r"\W", "_", name)


def _jsgf_sequence(sequence: tuple[object, ...]) -> str:
    return " ".join(p for p in (_jsgf_part(part) for part in sequence) if p)


def _jsgf_part(part: object) -> str:
    if isinstance(part, str):
        return _JSGF_SAFE.sub("", part)
    if part == WILDCARD:
        return "<VOID>"
    if isinstance(part, Ref):
        return f"<{_jsgf_name(part.name)}>"
    assert isinstance(part, Choice)
    return _jsgf_choice(part)


def _jsgf_choice(choice: Choice, top: bool = False) -> str:
    options = [o for o in (_jsgf_sequence(option) for option in choice.options) if o]
    if not options:
        return "<NULL>" if choice.optional else "<VOID>"
    body = " | ".join(options)
    if choice.optional:
        return f"[ {body} ]"
    return body if top else f"( {body} )"


def _uses(sequence: tuple[object, ...], named: dict[str, Choice], target: Ref, seen: set[str] | None = None) -> bool:
    seen = set() if seen is None else seen
    for part in sequence:
        if part == target:
            return True
        if isinstance(part, Ref) and part.name in named and part.name not in seen:
            seen.add(part.name)
            part = named[part.name]
        if isinstance(part, Choice) and any(_uses(o, named, target, seen) for o in part.options):
            return True
    return False


# ---------------------------------------------------------------- a word graph

@dataclass(frozen=True)
class WordGraph:
    """The sentences of a grammar as a graph of words: states 0..size-1 from `start` to any of `finals`;
    `words[state]` the (word, next state) arcs, `nulls[state]` the states reached without a word, `tags[state]`
    the (tag, next state) arcs taken without a word, each a part of what the sentence means (`Tag`), met before
    the words that say it."""

    size: int
    start: int
    finals: frozenset[int]
    words: dict[int, list[tuple[str, int]]]
    nulls: dict[int, list[int]]
    tags: dict[int, list[tuple[str, int]]]


MOST_RANK = 1_000_000  # far above a state's templates (a few thousand) and a template's list values


def _plain(value: Any) -> bool:
    """A value a slot may hold: text, a whole number, yes/no or none (a number that is not finite is none)."""
    return isinstance(value, _VALUES) and not (isinstance(value, float) and not math.isfinite(value))


class Tag:
    """What a sentence means, written on the arcs of a graph built with its meaning: an intent with the slots its
    template fixes, then each value a list fills, in the order they are said. Each tag is JSON text, with the
    rank the parser gives it among those that read the same words (`rank`): the template's place among the
    state's, the value's place among those the template's lists offer, in the order the parser tries them."""

    @staticmethod
    def intent(name: str, fixed: Slots, rank: int) -> str:
        return json.dumps(["intent", name, [list(pair) for pair in fixed], rank], ensure_ascii=False)

    @staticmethod
    def slot(name: str, value: Any, rank: int) -> str:
        return json.dumps(["slot", name, value, rank], ensure_ascii=False)

    @staticmethod
    def order(rank: int) -> str:
        """A tag that means nothing, only ranks a path: an option that fills no slot in a choice that may."""
        return json.dumps(["order", None, None, rank])

    @staticmethod
    def valid(tag: str) -> bool:
        """Whether `tag` is one of these tags (a kept file may hold anything): a kind, a name and a value of the
        right types, and a whole rank within MOST_RANK."""
        try:
            kind, name, value, rank = json.loads(tag)
        except (ValueError, TypeError):
            return False
        if isinstance(rank, bool) or not isinstance(rank, int) or not 0 <= rank <= MOST_RANK:
            return False
        if kind == "order":
            return name is None and value is None
        if kind == "slot":
            return isinstance(name, str) and _plain(value)
        return kind == "intent" and isinstance(name, str) and isinstance(value, list) and all(
            isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str) and _plain(pair[1])
            for pair in value)

    @staticmethod
    def intent_name(tag: str) -> str | None:
        """The intent a tag names (None for a tag of another kind)."""
        kind, name, _, _ = json.loads(tag)
        return name if kind == "intent" and isinstance(name, str) else None

    @staticmethod
    def is_order(tag: str) -> bool:
        return tag.startswith('["order"')

    @staticmethod
    def rank(tag: str) -> tuple[int, int]:
        """(the template's rank, the value's rank): the parser takes the first template that reads a sentence, and
        in it the first value it tries."""
        kind, _, _, rank = json.loads(tag)
        return (rank, 0) if kind == "intent" else (0, rank)

    @staticmethod
    def meaning(tags: Iterable[str]) -> tuple[str, dict[str, Any]] | None:
        """The intent and slots the tags of a path say (None when they name no intent, or are not tags)."""
        intent, slots = None, {}
        try:
            for tag in tags:
                kind, name, value, _ = json.loads(tag)
                if kind == "order":
                    continue
                if kind == "intent" and intent is None and isinstance(name, str) and isinstance(value, list):
                    intent = name
                    slots.update({str(k): v for k, v in value if isinstance(v, _VALUES)})
                elif kind == "slot" and isinstance(name, str) and isinstance(value, _VALUES):
                    slots[name] = value
                else:
                    return None
        except (ValueError, TypeError):
            return None
        return None if intent is None else (intent, slots)


def word_graph(game: str, lang: str, state: str, player_names: Sequence[str] = ()) -> WordGraph:
    """The sentences of `jsgf` (same arguments) as a word graph, built from the state's word trees directly,
    each with its meaning on tag arcs (`Tag`): the intent first, then each list's value before its words. It is
    compiled once into the state's automaton with meaning (companion.language.kept_automata), which every recogniser
    listens with or is read on."""
    return grammar_graph(state_grammar(game, lang, state, tuple(player_names)), lang)


def grammar_graph(grammar: StateGrammar, lang: str, typed: bool = False) -> WordGraph:
    """The word graph of a state's grammar (`word_graph`), with a filler phrase of `lang` allowed before and after;
    `typed`, the graph of the typed text's view (`typed_state_grammar`): free text in it, and no fillers (the
    parser sets them aside itself)."""
    graph = _GraphBuilder(grammar.named, every_choice=typed)
    start, end = graph.new(), graph.new()
    in_order = [(intent, t, fixed) for (intent, templates), slots in zip(grammar.intents, grammar.fixed, strict=True)
                for t, fixed in zip(templates, slots, strict=True)]  # as the parser tries them
    commands = [(Tag.intent(intent, fixed, rank), t) for rank, (intent, t, fixed) in enumerate(in_order)
                if (typed or not _uses(t, grammar.named, WILDCARD)) and _said(t)]
    before, after = ((), ()) if typed else fillers(lang)
    begin, finish = graph.new(), graph.new()
    for tag, template in commands:
        graph.values_met = 0
        graph.sequence(template, graph.tagged(begin, tag), finish)
    for phrases, source, target in ((before, start, begin), (after, finish, end)):
        graph.null(source, target)  # each filler is optional
        for phrase in phrases:
            graph.sequence(phrase, source, target)
    return WordGraph(graph.size, start, frozenset({end}), dict(graph.words), dict(graph.nulls), dict(graph.tags))


def _said(sequence: tuple[object, ...]) -> bool:
    """Whether a sequence is more than words that JSGF's spelling leaves empty (such a template is left out)."""
    return any(not isinstance(part, str) or _JSGF_SAFE.sub("", part) for part in sequence)


class _GraphBuilder:
    """Thompson's construction over word trees: every part between two given states, named parts copied
    where they are used (as pocketsphinx does with JSGF rules); tag arcs say what each path means."""

    def __init__(self, named: dict[str, Choice], every_choice: bool = False):
        # every_choice: each option of every choice ranked, not only of those that may fill a slot. Free text takes
        # its longest words first, so an option before it decides what it takes: read with a name where any words
        # may stand, "for alice stegosaurus in the king of the jungle" took "for alice" as the name, where the
        # templates' order reads "for" first, then "alice" (8 of the 2,776 readings of the example sentences with
        # names as free text read otherwise, none with every choice ranked; the 93 typed automata hold 0.91 to 1.47
        # times the arcs, 1.16 in the median).
        self.named, self.every_choice = named, every_choice
        self.size = 0
        self.words: dict[int, list[tuple[str, int]]] = defaultdict(list)
        self.nulls: dict[int, list[int]] = defaultdict(list)
        self.tags: dict[int, list[tuple[str, int]]] = defaultdict(list)
        self.values_met = 0  # the list values of the template being built, in the order the parser tries them
        self.filling: dict[int, bool] = {}  # whether a choice (by id) may fill a slot

    def new(self) -> int:
        self.size += 1
        return self.size - 1

    def null(self, source: int, target: int) -> None:
        self.nulls[source].append(target)

    def tagged(self, source: int, tag: str) -> int:
        """The state after `tag` from `source`."""
        target = self.new()
        self.tags[source].append((tag, target))
        return target

    def sequence(self, sequence: tuple[object, ...], source: int, target: int) -> None:
        parts = [p for p in sequence if not isinstance(p, str) or _JSGF_SAFE.sub("", p)]
        if not parts:
            self.null(source, target)
            return
        for number, part in enumerate(parts):
            following = target if number == len(parts) - 1 else self.new()
            self.part(part, source, following)
            source = following

    def part(self, part: object, source: int, target: int) -> None:
        if isinstance(part, str):
            self.words[source].append((_JSGF_SAFE.sub("", part), target))
        elif isinstance(part, Open):  # ranked as a list's value is, where the parser tries it
            self.values_met += 1
            self.words[self.tagged(source, Tag.order(self.values_met))].append((part.word, target))
        elif part == WILDCARD:
            return  # no sentence goes through free text
        elif isinstance(part, Ref):
            self.choice(self.named[part.name], source, target, part.slot)
        else:
            assert isinstance(part, Choice)
            self.choice(part, source, target)

    def choice(self, choice: Choice, source: int, target: int, slot: str | None = None) -> None:
        """A choice's options between two states. A list's value is tagged before its words; in a
        choice that may fill a slot, an option that fills none (and leaving an optional one out) is tagged too,
        with its place among the values, so that paths of the same words rank as the parser tries them (the longest
        words of a list first, when it takes them so)."""
        values = choice.values
        ordered = self.every_choice or self._fills(choice)
        tried: list[int] = list(range(len(choice.options)))
        if choice.longest_first:  # a list of words (stable: of the same length, as written)
            tried = sorted(tried, key=lambda index: -len(choice.options[index]))
        for index in tried:
            option = choice.options[index]
            if not _said(option):
                continue
            start = source
            if values is not None and slot is not None:
                self.values_met += 1
                start = self.tagged(source, Tag.slot(slot, values[index], self.values_met))
            elif ordered and not any(self._part_fills(part) for part in option):
                self.values_met += 1
                start = self.tagged(source, Tag.order(self.values_met))
            self.sequence(option, start, target)
        if choice.optional:
            self.values_met += ordered
            self.null(self.tagged(source, Tag.order(self.values_met)) if ordered else source, target)

    def _fills(self, choice: Choice) -> bool:
        """Whether a choice may fill a slot (a list's value within it)."""
        if id(choice) not in self.filling:
            self.filling[id(choice)] = any(self._part_fills(part) for option in choice.options for part in option)
        return self.filling[id(choice)]

    def _part_fills(self, part: object) -> bool:
        if isinstance(part, Open):
            return True
        if isinstance(part, Ref) and part.name in self.named:
            return (part.slot is not None and self.named[part.name].values is not None) or \
                self._fills(self.named[part.name])
        return isinstance(part, Choice) and self._fills(part)


# ---------------------------------------------------------------- vocabulary and dictionaries

def vocabulary(game: str, lang: str, state: str = "any", player_names: Sequence[str] = ()) -> list[str]:
    """Every word a recogniser must know for this state (sorted, without "[unk]")."""
    return list(_vocabulary(game, lang, state, tuple(player_names)))


@lru_cache(maxsize=64)
def _vocabulary(game: str, lang: str, state: str, player_names: tuple[str, ...]) -> tuple[str, ...]:
    grammar = state_grammar(game, lang, state, player_names)
    words: set[str] = set()
    pending: list[object] = [template for _, templates in grammar.intents for template in templates]
    pending += grammar.named.values()  # the named parts the templates use, and only those (state_grammar)
    pending += [phrase for phrases in fillers(lang) for phrase in phrases]  # heard before and after a command
    while pending:
        part = pending.pop()
        if isinstance(part, str):
            words.add(part)
        elif isinstance(part, tuple):
            pending.extend(part)
        elif isinstance(part, Choice):
            pending.extend(part.options)
    return tuple(sorted(words))


def dictionary_words(dictionary_path: Path | str) -> set[str]:
    """The words of a pronunciation dictionary (CMU style "word(2) PH ONES") or a Vosk words.txt."""
    words = set()
    with Path(dictionary_path).open(encoding="utf-8", errors="replace") as handle:
        for line in handle:
            fields = line.split()
            if fields:
                words.add(re.sub(r"\(\d+\)$", "", fields[0]))
    return words


def missing_words(words: Iterable[str], dictionary_path: Path | str) -> list[str]:
    """The words that the dictionary (or model words.txt) does not know, sorted."""
    known = dictionary_words(dictionary_path)
    return sorted({w for w in words if w != UNKNOWN_WORD and w not in known})


class MissingWords(RuntimeError):
    """Grammar words that a recogniser's dictionary lacks: they could never be heard."""

    def __init__(self, words: list[str], dictionary_path: Path | str):
        super().__init__(f"{len(words)} grammar word(s) missing from {dictionary_path}: {', '.join(words)}")
        self.words = words


def require_words(words: Iterable[str], dictionary_path: Path | str) -> None:
    """Raise MissingWords when the dictionary lacks any of the words."""
    missing = missing_words(words, dictionary_path)
    if missing:
        raise MissingWords(missing, dictionary_path)


def pronunciations_path(lang: str = "en") -> Path:
    return grammars_dir() / lang / PRONUNCIATIONS_FILE


def pronunciations(lang: str = "en") -> dict[str, str]:
    """Our added pronunciations (word → phones, one per word) for a language, empty when there are none."""
    path = pronunciations_path(lang)
    if not path.is_file():
        return {}
    entries = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            word, phones = line.split(maxsplit=1)
            entries[word] = phones.strip()
    return entries


def pocketsphinx_default_dictionary() -> Path:
    import pocketsphinx
    return Path(pocketsphinx.get_model_path()) / "en-us" / "cmudict-en-us.dict"


def write_pocketsphinx_dictionary(target: Path | str, lang: str = "en",
                                  base: Path | str | None = None) -> Path:
    """Write pocketsphinx's default dictionary plus our pronunciations to `target`; return it."""
    target = Path(target)
    base_text = Path(base or pocketsphinx_default_dictionary()).read_text(encoding="utf-8")
    known = dictionary_words(base or pocketsphinx_default_dictionary())
    added = [f"{w} {p}" for w, p in pronunciations(lang).items() if w not in known]
    target.write_text(base_text.rstrip("\n") + "\n" + "\n".join(added) + ("\n" if added else ""), encoding="utf-8")
    return target
