"""Reading a sentence on a state's minimal automaton with meaning (companion.language.automaton): typed text
(grammar.parse) and every recogniser's words (companion.speech.path_meaning). The tags on a path's arcs say the
intent and the slots. Of the paths that spell the same words, the one the parser reads first is taken: its tags'
ranks (Tag.rank: the template's place, then each part's place among the choices of its template, in the order the
templates give them), compared in the order they are met, each part of a sentence settled before the next. This
is the order hassil's templates are read in (tests/test_hassil_drift.py): of the templates, the first; within
one, each alternative in the order written, an optional group's silence last, a list's longest words first.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from functools import lru_cache
from typing import Any

from companion.language.automaton import TAG_MARK, label
from companion.language.kept_automata import ArcTable, meant_arcs, typed_arcs
from companion.language.recognition_grammar import Open, Tag

# The ranks of a path's tags so far, in the order met (the parser's order: the least first), and its tags (a slot
# an open arc filled among them, where the path filled it).
_Path = tuple[tuple[int, ...], tuple[str, ...]]
# What an open arc may take at a place in the words: (end, the slot's value) in the order the parser tries them.
Fill = Callable[[Open, Sequence[str], int], Iterable[tuple[int, Any]]]


class PathReader:
    """A state's automaton with meaning, followed word by word: the arcs that leave a state are read from its
    table when a path first reaches it, and a label's tags when a path first takes it (French Draftosaurus's
    `any`: 30,197 arcs, 5,636 labels; a sentence meets a few dozen)."""

    def __init__(self, table: ArcTable):
        self.table, self.start, self.accepting = table, table.start, table.accepting
        self.arcs: dict[int, tuple[dict[str, list[tuple[int, str]]], list[tuple[int, str, Open]]]] = {}
        self.read: dict[str, tuple[tuple[str, ...], tuple[int, ...], str | None]] = {}

    def _leaving(self, state: int) -> tuple[dict[str, list[tuple[int, str]]], list[tuple[int, str, Open]]]:
        """The arcs that leave `state`: by word (target, label), and its open arcs (target, label, open part)."""
        if state not in self.arcs:
            by_word: dict[str, list[tuple[int, str]]] = defaultdict(list)
            opens: list[tuple[int, str, Open]] = []
            for target, arc_label in self.table.leaving(state):
                word = arc_label[arc_label.rfind(TAG_MARK) + 1:]
                part = Open.of(word)
                if part is None:
                    by_word[word].append((target, arc_label))
                else:
                    opens.append((target, arc_label, part))
            self.arcs[state] = (by_word, opens)
        return self.arcs[state]

    def _tags(self, arc_label: str) -> tuple[tuple[str, ...], tuple[int, ...], str | None]:
        """A label's tags, their ranks, and the intent its first tag names (a path's first label names it)."""
        if arc_label not in self.read:
            tags = label(arc_label)[1]
            self.read[arc_label] = (tags, tuple(sum(Tag.rank(tag)) for tag in tags),
                                    Tag.intent_name(tags[0]) if tags else None)
        return self.read[arc_label]

    def paths(self, words: Sequence[str], fill: Fill | None = None) -> dict[str | None, _Path]:
        """For each intent, the cheapest path that spells `words` whole (from start to an accepting state); open
        arcs take what `fill` gives them (none without it), each value a slot's tag where the path takes it.

        One path per place in the words, state and intent is kept, the least so far: exact as long as no two paths
        that reach the same state have ranks of which one begins the other (the same words follow both). On every
        sentence offered to Vosk, none do; in typed text's automata every option of every choice is ranked, each
        rank of a template's choices met once and rising along its paths (recognition_grammar._GraphBuilder), so
        that two paths of one template part at their first different choice (tests/test_reading.py compares the
        path kept with every path)."""
        reached_at: dict[int, dict[int, dict[str | None, _Path]]] = defaultdict(lambda: defaultdict(dict))
        reached_at[0][self.start][None] = ((), ())
        for place, word in enumerate(words):
            frontier = reached_at.pop(place, None)
            if not frontier:
                continue
            for state, best in frontier.items():
                by_word, opens = self._leaving(state)
                moves: list[tuple[int, str, int, tuple[int, ...], tuple[str, ...]]] = [
                    (target, arc_label, place + 1, (), ()) for target, arc_label in by_word.get(word, ())]
                if fill is not None:
                    moves += [(target, arc_label, end, (order,), (Tag.slot(part.slot, value, 0),))
                              for target, arc_label, part in opens
                              for order, (end, value) in enumerate(fill(part, words, place))]
                for target, arc_label, end, order, filled in moves:
                    tags, ranks, named = self._tags(arc_label)
                    for intent, (so_far, before) in best.items():
                        reached = named if intent is None else intent
                        found = (so_far + ranks + order, before + tags + filled)
                        kept = reached_at[end][target].get(reached)
                        if kept is None or found[0] < kept[0]:
                            reached_at[end][target][reached] = found
        ends: dict[str | None, _Path] = {}
        for state, best in reached_at.get(len(words), {}).items():
            if state in self.accepting:
                for intent, found in best.items():
                    if intent not in ends or found[0] < ends[intent][0]:
                        ends[intent] = found
        return ends


@lru_cache(maxsize=16)
def path_reader(game: str, lang: str, state: str, player_names: tuple[str, ...] = ()) -> PathReader:
    return PathReader(meant_arcs(game, lang, state, player_names))


@lru_cache(maxsize=64)
def typed_reader(game: str, lang: str, state: str) -> PathReader:
    """The reader of what may be typed in a state (kept_automata.typed_arcs)."""
    return PathReader(typed_arcs(game, lang, state))
