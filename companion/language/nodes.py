"""The compiled pieces of a template (companion.language.compiler makes them from hassil's parsed templates): words,
sequences, alternatives, slot lists and free text. Every reader of the grammar starts from them: the state's
automaton with meaning, which typed text and every recogniser's words are read on
(companion.language.recognition_grammar), and the sentences said back (companion.language.saying). This module
imports nothing of hassil."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


class GrammarError(ValueError):
    """A template that cannot be compiled (the message says which and why)."""


class Node:
    """A compiled piece of template."""


class Words(Node):
    def __init__(self, words: tuple[str, ...]):
        self.words = words


class Seq(Node):
    def __init__(self, items: list[Node]):
        self.items = items


class Alt(Node):
    """Alternatives, in the order written (the order the parser tries them); an optional group may say nothing,
    which it tries last."""

    def __init__(self, items: list[Node], optional: bool):
        self.items = items
        self.optional = optional


class Trie(Node):
    """The values of a slot list whose inputs are plain words, in list order: the parser takes the longest words
    first, and of values with the same words the first written."""

    def __init__(self, slot: str, entries: Sequence[tuple[tuple[str, ...], Any]]):
        self.slot = slot
        self.entries = tuple(entries)

    def renamed(self, slot: str) -> Trie:
        return Trie(slot, self.entries)  # the same values, shared


class TemplateValues(Node):
    """The values of a slot list whose inputs are templates, in list order."""

    def __init__(self, slot: str, values: list[tuple[Node, Any]]):
        self.slot = slot
        self.values = values

    def renamed(self, slot: str) -> TemplateValues:
        return TemplateValues(slot, self.values)


class Wildcard(Node):
    """One or more words of free text (a name not known yet); the parser takes the most words first."""

    def __init__(self, slot: str, most: int | None = None):
        self.slot = slot
        self.most = most  # the most words it takes (None: any number)

    def renamed(self, slot: str) -> Wildcard:
        return Wildcard(slot, self.most)


SlotValues = Trie | TemplateValues | Wildcard  # what a slot list compiles to (each can be renamed)


class DynamicList(Node):
    """A slot list filled when a sentence is read (the players' names)."""

    def __init__(self, list_name: str, slot: str):
        self.list_name, self.slot = list_name, slot
