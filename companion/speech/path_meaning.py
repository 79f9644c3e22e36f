"""What a recogniser's words mean, read on the path they take through the state's compiled grammar: the minimal
automaton with meaning (kept_automata.meant_arcs) whose sounds Whisper's match also walks
(companion.speech.phonetic), and whose words are those PocketSphinx's FSG and Vosk's phrases are built from. The
tags on a path's arcs say the intent and the slots. Of the paths that spell the same words, the one the parser
reads first is taken: its tags' ranks (Tag.rank: the template's place, then each list value's place in the order
the parser tries them), compared in the order they are met, the parser settling each part of a sentence before the
next.

Only words a template produces whole have a path: free text (a new player's name) and pieces of phrases that Vosk
joins are read as typed (grammar.parse)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from functools import lru_cache

from companion.language.grammar import ParseResult, parse
from companion.language.recognition_grammar import Tag, spelling
from companion.speech.fsg import TAG_MARK, label
from companion.speech.kept_automata import ArcTable, meant_arcs
from companion.speech.recogniser import Meaning, meaning_of

# The ranks of a path's tags so far, in the order met (the parser's order: the least first), and its tags.
_Path = tuple[tuple[int, ...], tuple[str, ...]]


class PathReader:
    """A state's automaton with meaning, followed word by word: the arcs that leave a state are read from its
    table when a path first reaches it, and a label's tags when a path first takes it (French Draftosaurus's
    `any`: 30,197 arcs, 5,636 labels; a sentence meets a few dozen)."""

    def __init__(self, table: ArcTable):
        self.table, self.start, self.accepting = table, table.start, table.accepting
        self.arcs: dict[int, dict[str, list[tuple[int, str]]]] = {}
        self.read: dict[str, tuple[tuple[str, ...], tuple[int, ...]]] = {}

    def _leaving(self, state: int, word: str) -> list[tuple[int, str]]:
        """The arcs of `word` that leave `state`: (target, label)."""
        if state not in self.arcs:
            by_word: dict[str, list[tuple[int, str]]] = defaultdict(list)
            for target, arc_label in self.table.leaving(state):
                by_word[arc_label[arc_label.rfind(TAG_MARK) + 1:]].append((target, arc_label))
            self.arcs[state] = by_word
        return self.arcs[state].get(word, [])

    def _tags(self, arc_label: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
        """A label's tags and their ranks."""
        if arc_label not in self.read:
            tags = label(arc_label)[1]
            self.read[arc_label] = (tags, tuple(sum(Tag.rank(tag)) for tag in tags))
        return self.read[arc_label]

    def paths(self, words: Sequence[str]) -> dict[str | None, _Path]:
        """For each intent, the cheapest path that spells `words` whole (from start to an accepting state). One path
        per state and intent is kept, the least so far: exact as long as no two paths that reach the same state have
        ranks of which one begins the other (the same words follow both), as on every sentence offered to Vosk."""
        frontier: dict[int, dict[str | None, _Path]] = {self.start: {None: ((), ())}}
        for word in words:
            after: dict[int, dict[str | None, _Path]] = defaultdict(dict)
            for state, best in frontier.items():
                for target, arc_label in self._leaving(state, word):
                    tags, ranks = self._tags(arc_label)
                    for intent, (so_far, before) in best.items():
                        reached = (Tag.intent_name(tags[0]) if tags else None) if intent is None else intent
                        found = (so_far + ranks, before + tags)
                        kept = after[target].get(reached)
                        if kept is None or found[0] < kept[0]:
                            after[target][reached] = found
            frontier = after
            if not frontier:
                return {}
        ends: dict[str | None, _Path] = {}
        for state, best in frontier.items():
            if state in self.accepting:
                for intent, found in best.items():
                    if intent not in ends or found[0] < ends[intent][0]:
                        ends[intent] = found
        return ends


@lru_cache(maxsize=16)
def path_reader(game: str, lang: str, state: str, player_names: tuple[str, ...] = ()) -> PathReader:
    return PathReader(meant_arcs(game, lang, state, player_names))


def path_meaning(text: str, *, game: str, lang: str, state: str,
                 player_names: Sequence[str] = ()) -> Meaning | None:
    """What a recogniser's words mean on the cheapest path that spells them; None when no path does."""
    return words_meaning(spelling(lang).words(text), game=game, lang=lang, state=state, player_names=player_names)


def words_meaning(words: Sequence[str], *, game: str, lang: str, state: str,
                  player_names: Sequence[str] = ()) -> Meaning | None:
    """What words of the automaton (as a recogniser spells them, one by one) mean on the cheapest path that spells
    them; None when no path does."""
    ends = path_reader(game, lang, state, tuple(player_names)).paths(words) if words else {}
    if not ends:
        return None
    found = Tag.meaning(min(ends.values(), key=lambda end: end[0])[1])
    return None if found is None else meaning_of(*found)


def intents_saying(words: Sequence[str], *, game: str, lang: str, state: str,
                   player_names: Sequence[str] = ()) -> frozenset[str]:
    """The intents of the state with a sentence of exactly these recogniser words (a filler before or after them
    allowed, as recognisers hear them)."""
    ends = path_reader(game, lang, state, tuple(player_names)).paths(words) if words else {}
    return frozenset(intent for intent in ends if intent is not None)


def parse_heard(text: str, *, game: str, lang: str, state: str,
                player_names: Sequence[str] = ()) -> ParseResult:
    """What a recogniser's words mean: read on the path they take (`path_meaning`), so that a phrase kept from
    recognisers is not understood from another intent's words: in a yes/no question, "go" and "ahead" (to go on
    reading) must not count as the yes "go ahead", which only typing can give. Words that no sentence spells whole
    are parsed as typed."""
    found = path_meaning(text, game=game, lang=lang, state=state, player_names=player_names)
    if found is None:
        return parse(text, game=game, lang=lang, state=state, player_names=player_names)
    return ParseResult(found[0], dict(found[1]), text)
