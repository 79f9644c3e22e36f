"""A fast word-level matcher for hassil templates whose words are already folded.

hassil parses the templates; companion.language.compiler turns each parsed template into the nodes of this
module, which match whole words, with an index of the words each node may start with, so that a sentence is
tried only against the few branches that can fit. Slot lists become word tries. This module imports nothing
of hassil: compiled templates kept between runs are matched without it.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

Slots = tuple[tuple[str, Any], ...]
Match = tuple[int, Slots]
ANY = None  # a `first` set of None means: may start with any word


@dataclass(frozen=True)
class WildSpan:
    """The words start:end of the sentence, captured by a wildcard (turned into text later)."""

    start: int
    end: int


class GrammarError(ValueError):
    """A template that this matcher cannot compile (the message says which and why)."""


@dataclass
class Context:
    """What a match needs besides the words: the slot lists known only at run time."""

    words: tuple[str, ...]
    lists: Mapping[str, SlotValues]


class Node:
    """A compiled piece of template: which words it may start with, whether it may be empty."""

    first: frozenset[str] | None = frozenset()
    nullable: bool = False
    min_len: int = 0

    def can_start(self, ctx: Context, pos: int) -> bool:
        if pos >= len(ctx.words):
            return self.nullable
        return self.nullable or self.first is ANY or ctx.words[pos] in self.first

    def match(self, ctx: Context, pos: int, slots: Slots) -> Iterator[Match]:
        raise NotImplementedError


class Words(Node):
    def __init__(self, words: tuple[str, ...]):
        self.words = words
        self.first = frozenset(words[:1])
        self.nullable = not words
        self.min_len = len(words)

    def match(self, ctx: Context, pos: int, slots: Slots) -> Iterator[Match]:
        end = pos + len(self.words)
        if ctx.words[pos:end] == self.words:
            yield end, slots


class Seq(Node):
    def __init__(self, items: list[Node]):
        self.items = items
        self.nullable = all(i.nullable for i in items)
        self.min_len = sum(i.min_len for i in items)
        self.first = _seq_first(items)
        self._rest_min = [sum(i.min_len for i in items[k:]) for k in range(len(items) + 1)]

    def match(self, ctx: Context, pos: int, slots: Slots) -> Iterator[Match]:
        yield from self._from(ctx, 0, pos, slots)

    def _from(self, ctx: Context, index: int, pos: int, slots: Slots) -> Iterator[Match]:
        if index == len(self.items):
            yield pos, slots
            return
        if len(ctx.words) - pos < self._rest_min[index]:
            return
        item = self.items[index]
        if not item.can_start(ctx, pos):
            return
        for end, found in item.match(ctx, pos, slots):
            yield from self._from(ctx, index + 1, end, found)


class Alt(Node):
    """Alternatives, tried in the order written; an optional group finally matches nothing."""

    def __init__(self, items: list[Node], optional: bool):
        self.items = items
        self.optional = optional
        self.nullable = optional or any(i.nullable for i in items)
        self.min_len = 0 if self.nullable else min(i.min_len for i in items)
        firsts = [i.first for i in items]
        known: frozenset[str] = frozenset().union(*(f for f in firsts if f is not ANY))
        self.first = ANY if any(f is ANY for f in firsts) else known
        always = [i for i in items if i.nullable or i.first is ANY]
        self._always = always
        self._by_word: dict[str, list[Node]] = {}
        for word in known:
            self._by_word[word] = [i for i in items if i in always or (i.first is not ANY and word in i.first)]

    def match(self, ctx: Context, pos: int, slots: Slots) -> Iterator[Match]:
        candidates = self._by_word.get(ctx.words[pos], self._always) if pos < len(ctx.words) else self._always
        for item in candidates:
            if item.can_start(ctx, pos):
                yield from item.match(ctx, pos, slots)
        if self.optional:
            yield pos, slots


class Trie(Node):
    """The values of a slot list whose inputs are plain words: longest value first."""

    def __init__(self, slot: str, entries: list[tuple[tuple[str, ...], Any]]):
        self.slot = slot
        self.entries = tuple(entries)  # the values in list order (the recognisers' grammars, a meaning said)
        self.root: dict[str, Any] = {}
        for words, value in entries:
            node = self.root
            for word in words:
                node = node.setdefault(word, {})
            node.setdefault("", value)  # first value written wins
        self.first = frozenset(self.root)
        self.min_len = min((len(w) for w, _ in entries), default=1) or 1

    def renamed(self, slot: str) -> Trie:
        copy = object.__new__(Trie)
        copy.__dict__.update(self.__dict__)
        copy.slot = slot
        return copy

    def match(self, ctx: Context, pos: int, slots: Slots) -> Iterator[Match]:
        found, node, index = [], self.root, pos
        while index < len(ctx.words) and ctx.words[index] in node:
            node = node[ctx.words[index]]
            index += 1
            if "" in node:
                found.append((index, node[""]))
        for end, value in reversed(found):
            yield end, (*slots, (self.slot, value))


class TemplateValues(Node):
    """The values of a slot list whose inputs are templates."""

    def __init__(self, slot: str, values: list[tuple[Node, Any]]):
        self.slot = slot
        self.values = values
        self.alt = Alt([node for node, _ in values], optional=False)
        self.first, self.nullable, self.min_len = self.alt.first, self.alt.nullable, self.alt.min_len

    def renamed(self, slot: str) -> TemplateValues:
        return TemplateValues(slot, self.values)

    def match(self, ctx: Context, pos: int, slots: Slots) -> Iterator[Match]:
        for node, value in self.values:
            if node.can_start(ctx, pos):
                for end, _ in node.match(ctx, pos, ()):
                    yield end, (*slots, (self.slot, value))


class Wildcard(Node):
    """One or more words of free text (a name not known yet)."""

    first = ANY
    min_len = 1

    def __init__(self, slot: str, most: int | None = None):
        self.slot = slot
        self.most = most  # the most words it takes (None: any number)

    def renamed(self, slot: str) -> Wildcard:
        return Wildcard(slot, self.most)

    def match(self, ctx: Context, pos: int, slots: Slots) -> Iterator[Match]:
        last = len(ctx.words) if self.most is None else min(len(ctx.words), pos + self.most)
        for end in range(last, pos, -1):
            yield end, (*slots, (self.slot, WildSpan(pos, end)))


SlotValues = Trie | TemplateValues | Wildcard  # what a slot list compiles to (each can be renamed)


class DynamicList(Node):
    """A slot list filled at run time (the players' names), looked up in the match context."""

    first = ANY
    min_len = 1

    def __init__(self, list_name: str, slot: str):
        self.list_name, self.slot = list_name, slot

    def match(self, ctx: Context, pos: int, slots: Slots) -> Iterator[Match]:
        values = ctx.lists.get(self.list_name)
        if values is None:
            return
        if self.slot != self.list_name:
            values = values.renamed(self.slot)
        if values.can_start(ctx, pos):
            yield from values.match(ctx, pos, slots)


def _seq_first(items: list[Node]) -> frozenset[str] | None:
    first: set[str] = set()
    for item in items:
        if item.first is ANY:
            return ANY
        first |= item.first
        if not item.nullable:
            break
    return frozenset(first)


@dataclass(frozen=True)
class Vocabulary:
    """Every word a template may take: a sentence with any other word cannot match it, so it is not tried."""

    words: frozenset[str]
    lists: frozenset[str]  # the run-time lists whose words it may take too
    anything: bool  # a wildcard: it may take any word

    def may_take(self, words: frozenset[str], lists: Mapping[str, frozenset[str] | None]) -> bool:
        """Whether every one of `words` may be taken, the run-time lists holding the words given (None: any)."""
        rest = words - self.words
        if not rest or self.anything:
            return True
        for name in self.lists:
            found = lists.get(name, frozenset())
            if found is None:
                return True
            rest -= found
        return not rest


def vocabulary(node: Node, memo: dict[int, tuple[Node, Vocabulary]]) -> Vocabulary:
    """The words a compiled template may take. `memo` keeps each node walked, by id, with the node itself (so that
    the id is never given to another node): rules and lists are shared nodes, each walked once."""
    if id(node) in memo:
        return memo[id(node)][1]
    if isinstance(node, Words):
        found = Vocabulary(frozenset(node.words), frozenset(), False)
    elif isinstance(node, Trie):
        words: set[str] = set()
        pending = [node.root]
        while pending:
            branch = pending.pop()
            words.update(word for word in branch if word)
            pending.extend(child for word, child in branch.items() if word)
        found = Vocabulary(frozenset(words), frozenset(), False)
    elif isinstance(node, Wildcard):
        found = Vocabulary(frozenset(), frozenset(), True)
    elif isinstance(node, DynamicList):
        found = Vocabulary(frozenset(), frozenset({node.list_name}), False)
    elif isinstance(node, (Seq, Alt, TemplateValues)):
        parts = [vocabulary(item, memo) for item in
                 (node.items if isinstance(node, (Seq, Alt)) else [value for value, _ in node.values])]
        found = Vocabulary(frozenset().union(*(p.words for p in parts)), frozenset().union(*(p.lists for p in parts)),
                           any(p.anything for p in parts))
    else:
        raise GrammarError(f"no vocabulary for {type(node).__name__}")
    found = _SAME.setdefault(found, found)
    memo[id(node)] = node, found
    return found


# One object for each distinct vocabulary: the 3,653 found in the French Draftosaurus states are 180 distinct ones,
# 0.4 MB instead of 6.8 MB of word sets.
_SAME: dict[Vocabulary, Vocabulary] = {}


def match_first(template: Node, ctx: Context) -> Slots | None:
    """The slots of the first way the template covers the whole sentence, or None."""
    if not template.can_start(ctx, 0):
        return None
    for end, slots in template.match(ctx, 0, ()):
        if end == len(ctx.words):
            return slots
    return None
