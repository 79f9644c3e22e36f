"""A dialogue state's grammar as a minimal deterministic automaton with meaning (`minimal_meant`): made from the
state's word graph (companion.language.recognition_grammar), each arc's label a word with the tags of meaning met
before it. Typed text and every recogniser's words are read on it (companion.language.reading), PocketSphinx
searches its words (companion.speech.fsg), Vosk's phrases and Whisper's phone graph are spelled out from it.

Minimisation uses Brzozowski's method: determinise the reversed automaton, reverse again, determinise again.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from companion.language.recognition_grammar import Tag, WordGraph


@dataclass
class WordAutomaton:
    """States 0..n_states-1; `arcs` are (from, to, word); several accepting states."""

    n_states: int
    start: int
    accepting: frozenset[int]
    arcs: list[tuple[int, int, str]]


def _closures(nulls: dict[int, list[int]]) -> Callable[[int], frozenset[int]]:
    cache: dict[int, frozenset[int]] = {}

    def closure(state: int) -> frozenset[int]:
        if state not in cache:
            seen, stack = {state}, [state]
            while stack:
                for target in nulls.get(stack.pop(), ()):
                    if target not in seen:
                        seen.add(target)
                        stack.append(target)
            cache[state] = frozenset(seen)
        return cache[state]

    return closure


def determinise(starts: Iterable[int], finals: set[int], words: dict[int, list[tuple[str, int]]],
                nulls: dict[int, list[int]] | None = None) -> WordAutomaton:
    """The subset construction (null transitions followed)."""
    closure = _closures(nulls or {})

    # Sets built in place, and none at all without null transitions (the reversed passes of `minimise`): the
    # six Draftosaurus grammars of en and fr (turn, any, die) were made minimal in 0.53 times the processor time
    # (three alternate runs: 3.4 to 4.1 s against 1.8 to 2.2 s), the same automata.
    def close(states: Iterable[int]) -> frozenset[int]:
        if not nulls:
            return frozenset(states)
        found: set[int] = set()
        for state in states:
            found.update(closure(state))
        return frozenset(found)

    first = close(starts)
    index = {first: 0}
    pending = [first]
    arcs: list[tuple[int, int, str]] = []
    accepting = set()
    while pending:
        subset = pending.pop()
        number = index[subset]
        if subset & finals:
            accepting.add(number)
        targets: dict[str, set[int]] = defaultdict(set)
        for state in subset:
            for word, reached in words.get(state, ()):
                targets[word].add(reached)
        for word in sorted(targets):
            target = close(targets[word])
            if target not in index:
                index[target] = len(index)
                pending.append(target)
            arcs.append((number, index[target], word))
    return WordAutomaton(len(index), 0, frozenset(accepting), arcs)


def _reversed(automaton: WordAutomaton) -> tuple[set[int], set[int], dict[int, list[tuple[str, int]]]]:
    words: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for source, target, word in automaton.arcs:
        words[target].append((word, source))
    return set(automaton.accepting), {automaton.start}, words


def minimise(start: int, finals: set[int], words: dict[int, list[tuple[str, int]]],
             nulls: dict[int, list[int]]) -> WordAutomaton:
    """The minimal deterministic automaton of the same language: the reversed automaton (its null transitions
    reversed too) determinised, reversed again and determinised again.

    Determinising the automaton first, as this did before, gives the same automata one pass later: the word
    graphs of Draftosaurus's French and English turn states took 0.37 and 0.27 s instead of 0.51 and 0.52 s,
    the nine graphs of tests/test_grammar_recognition.py 1.5 s instead of 2.1 s of processor time."""
    backwards: dict[int, list[tuple[str, int]]] = defaultdict(list)
    for source, arcs in words.items():
        for word, target in arcs:
            backwards[target].append((word, source))
    back_nulls: dict[int, list[int]] = defaultdict(list)
    for source, targets in nulls.items():
        for target in targets:
            back_nulls[target].append(source)
    automaton = determinise(set(finals), {start}, backwards, back_nulls)
    return determinise(*_reversed(automaton))


# Between the tags and the word of an arc of a minimal automaton with meaning (no word or tag holds it).
TAG_MARK = "\x1f"


def minimal_meant(graph: WordGraph) -> WordAutomaton:
    """The minimal deterministic automaton of a word graph built with its meaning: each arc's label is a word with
    the tags met on the way to it (`label`), so that the path a sentence takes says what it means. Paths of the
    same words that mean different things stay apart; those that mean the same merge."""
    arcs, final = _tags_pushed(graph)
    index = {graph.start: 0}
    pending = [graph.start]
    words: dict[int, list[tuple[str, int]]] = defaultdict(list)
    while pending:
        state = pending.pop()
        for tags, word, target in arcs(state):
            if target not in index:
                index[target] = len(index)
                pending.append(target)
            words[index[state]].append((TAG_MARK.join((*tags, word)), index[target]))
    return minimise(0, {index[s] for s in index if final(s)}, words, {})


def _tags_pushed(graph: WordGraph) -> tuple[Callable[[int], frozenset[tuple[tuple[str, ...], str, int]]],
                                             Callable[[int], bool]]:
    """For a state of a graph with meaning: the words that may come next, each with the tags met before it and the
    state after it; and whether a sentence may end there. A tag of meaning met after a sentence's last word is an
    error of the grammar (a value said by no word); a tag that only ranks paths is dropped there (Tag.order)."""
    memo: dict[int, tuple[frozenset[tuple[tuple[str, ...], str, int]], frozenset[tuple[str, ...]]]] = {}

    def walk(state: int) -> tuple[frozenset[tuple[tuple[str, ...], str, int]], frozenset[tuple[str, ...]]]:
        stack = [state]
        while stack:  # children first, without recursion (a graph's chains of null arcs run deep)
            top = stack[-1]
            after = [t for t in graph.nulls.get(top, ()) if t not in memo] + \
                [t for _, t in graph.tags.get(top, ()) if t not in memo]
            if after:
                stack.extend(after)
                continue
            stack.pop()
            if top in memo:
                continue
            found: set[tuple[tuple[str, ...], str, int]] = {((), word, t) for word, t in graph.words.get(top, ())}
            ends: set[tuple[str, ...]] = {()} if top in graph.finals else set()
            for target in graph.nulls.get(top, ()):
                found |= memo[target][0]
                ends |= memo[target][1]
            for tag, target in graph.tags.get(top, ()):
                found |= {((tag, *tags), word, reached) for tags, word, reached in memo[target][0]}
                ends |= {(tag, *tags) for tags in memo[target][1]}
            memo[top] = (frozenset(found), frozenset(ends))
        return memo[state]

    def final(state: int) -> bool:
        ends = {tuple(tag for tag in tags if not Tag.is_order(tag)) for tags in walk(state)[1]}
        if any(ends):
            raise ValueError(f"a meaning said by no word: {sorted(t for t in ends if t)[0]}")
        return bool(ends)

    return (lambda state: walk(state)[0]), final


def label(arc_label: str) -> tuple[str, tuple[str, ...]]:
    """The word of an arc of a minimal automaton with meaning, and the tags before it."""
    *tags, word = arc_label.split(TAG_MARK)
    return word, tuple(tags)
