"""Compiling hassil templates, parsed by hassil, into the nodes of companion.language.nodes.

The one walk of hassil's parsed templates. A game's templates are read by hassil once, as written
(companion.language.grammar.written_templates), and compiled by one compiler, whose rules and lists are compiled
once; each reader takes the nodes in its own spelling (`Respelled`): the automaton typed text is read on folded,
the recognisers' (both made by companion.language.recognition_grammar) spelled as recognisers spell words,
companion.language.saying as written. So that they can write a rule or a list once and refer to it by name, the
compiler keeps the name of each rule and list it compiled (`name_of`).
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from itertools import pairwise, permutations
from typing import cast

from hassil import (
    Alternative,
    Expression,
    ListReference,
    Permutation,
    RuleReference,
    Sentence,
    Sequence,
    TextChunk,
    TextSlotList,
    WildcardSlotList,
)
from hassil.intents import SlotList

from companion.language.nodes import (
    Alt,
    DynamicList,
    GrammarError,
    Node,
    Seq,
    SlotValues,
    TemplateValues,
    Trie,
    Wildcard,
    Words,
)


@dataclass
class Compiler:
    """Turns parsed hassil templates into nodes; rules and lists are compiled once and shared. One thread at a
    time (`lock`): the typed-text parser and a recogniser's thread may read the same compiler, and a rule being
    compiled stands in for itself meanwhile."""

    slot_lists: Mapping[str, SlotList]
    rules: Mapping[str, Sentence]
    dynamic_lists: frozenset[str] = frozenset()
    _rule_nodes: dict[str, Node] = field(default_factory=dict)
    _list_nodes: dict[str, SlotValues] = field(default_factory=dict)
    # The name of each rule's and slot list's node (a list's renamed copy too), by the node's id, with the node kept
    # so that the id is never given to another one: "rule_NAME", "list_NAME".
    _names: dict[int, tuple[Node, str]] = field(default_factory=dict)
    _slot_nodes: dict[tuple[str, str], Node] = field(default_factory=dict)  # by list and slot name
    lock: threading.RLock = field(default_factory=threading.RLock, repr=False, compare=False)

    def name_of(self, node: Node) -> str | None:
        """The rule or slot list that `node` was compiled for ("rule_NAME", "list_NAME"), or None."""
        found = self._names.get(id(node))
        return None if found is None else found[1]

    def list_node(self, name: str) -> Node:
        """The compiled slot list `name` (a dynamic one as a DynamicList)."""
        with self.lock:
            return self._list(name, name)

    def sentence(self, sentence: Sentence) -> Node:
        with self.lock:
            try:
                return self.node(sentence.expression)
            except GrammarError as error:
                raise GrammarError(f"{error} in template '{sentence.text}'") from None

    def node(self, expression: Expression) -> Node:
        if isinstance(expression, TextChunk):
            return Words(tuple(expression.text.split()))
        if isinstance(expression, Permutation):
            orders: list[Node] = [Seq([self.node(e) for e in order]) for order in permutations(expression.items)]
            return Alt(orders, optional=False)
        if isinstance(expression, Alternative):
            items = [self.node(e) for e in expression.items
                     if not (isinstance(e, TextChunk) and e.text == "")]
            return Alt(items, optional=expression.is_optional)
        if isinstance(expression, Sequence):
            _check_whole_words(expression)
            items = [self.node(e) for e in expression.items]
            items = [i for i in items if not (isinstance(i, Words) and not i.words)]
            return items[0] if len(items) == 1 else Seq(items)
        if isinstance(expression, RuleReference):
            return self._rule(expression.rule_name)
        if isinstance(expression, ListReference):
            return self._list(expression.list_name, expression.slot_name)
        raise GrammarError(f"unsupported template part {type(expression).__name__}")

    def _rule(self, name: str) -> Node:
        if name not in self._rule_nodes:
            if name not in self.rules:
                raise GrammarError(f"unknown rule <{name}>")
            self._rule_nodes[name] = Alt([], optional=True)  # guard against a rule using itself
            node = self.node(self.rules[name].expression)
            if id(node) in self._names:  # a rule that is only another rule or a list: its own node, to be named
                node = Seq([node])
            self._rule_nodes[name] = node
            self._names[id(node)] = node, f"rule_{name}"
        return self._rule_nodes[name]

    def _list(self, name: str, slot: str) -> Node:
        if (name, slot) not in self._slot_nodes:
            node: Node
            if name in self.dynamic_lists:
                node = DynamicList(name, slot)
            else:
                if name not in self.slot_lists:
                    raise GrammarError(f"unknown list {{{name}}}")
                if name not in self._list_nodes:
                    self._list_nodes[name] = self.slot_list(name, self.slot_lists[name])
                node = self._list_nodes[name]
                node = node if slot == name else node.renamed(slot)
            self._slot_nodes[name, slot] = node
            self._names[id(node)] = node, f"list_{name}"
        return self._slot_nodes[name, slot]

    def slot_list(self, slot: str, slot_list: SlotList) -> SlotValues:
        if isinstance(slot_list, WildcardSlotList):
            return Wildcard(slot)
        if not isinstance(slot_list, TextSlotList):
            raise GrammarError(f"list {{{slot}}}: only text lists and wildcards are supported")
        if all(isinstance(v.text_in, TextChunk) for v in slot_list.values):
            return Trie(slot, [(tuple(cast(TextChunk, v.text_in).text.split()), v.value_out) for v in slot_list.values])
        return TemplateValues(slot, [(self.node(v.text_in), v.value_out) for v in slot_list.values])


def _check_whole_words(sequence: Sequence) -> None:
    """Templates must join pieces between words ("(suivant|suivante)", not "suivant[e]"): at a space, or at a mark
    that ends a word ("l'{species}", "{player}'s"), never between two letters or digits."""
    items = [i for i in sequence.items if not (isinstance(i, TextChunk) and i.text == "")]
    for left, right in pairwise(items):
        left_open = not isinstance(left, TextChunk) or left.text[-1:].isalnum()
        right_open = not isinstance(right, TextChunk) or right.text[:1].isalnum()
        if left_open and right_open:
            raise GrammarError("a group, list or rule is glued to a word: write whole words")


class Respelled:
    """The nodes of a compiler with each word respelled by `words`: one word written in a template may become none
    ("?"), one, or several ("t-rex" → "t rex"). Templates are compiled once, as written; typed text is read on them
    folded (companion.language.folding), recognisers' words on them spelled as recognisers spell words. Rules and
    lists stay shared, and keep their names (`name_of`)."""

    def __init__(self, compiler: Compiler, words: Callable[[str], Iterable[str]]):
        self.compiler, self.words = compiler, words
        # Each named node of the compiler (a rule, a list) respelled once, by the id of the node it was made from,
        # that node kept so that the id is never given to another one.
        self._named: dict[int, tuple[Node, Node]] = {}
        self._names: dict[int, tuple[Node, str]] = {}

    def name_of(self, node: Node) -> str | None:
        """The rule or slot list that `node` was respelled from ("rule_NAME", "list_NAME"), or None."""
        found = self._names.get(id(node))
        return None if found is None else found[1]

    def list_node(self, name: str) -> Node:
        with self.compiler.lock:
            return self.node(self.compiler.list_node(name))

    def sentence(self, sentence: Sentence) -> Node:
        with self.compiler.lock:
            return self.node(self.compiler.sentence(sentence))

    def node(self, node: Node) -> Node:
        name = self.compiler.name_of(node)
        if name is None:
            return self._respelled(node)
        if id(node) not in self._named:
            listed = name.removeprefix("list_")
            made: Node
            if isinstance(node, (Trie, TemplateValues, Wildcard)) and name.startswith("list_") and node.slot != listed:
                # A list filling another slot ("{square:from_square}"): the list respelled once, then renamed, so
                # that its words stay shared as the compiler shares them.
                made = cast(SlotValues, self.node(self.compiler.list_node(listed))).renamed(node.slot)
            else:
                made = self._respelled(node)
            if id(made) in self._names:  # respelled to another named node alone ("{species} ?"): named apart
                made = Seq([made])
            self._named[id(node)] = node, made
            self._names[id(made)] = made, name
        return self._named[id(node)][1]

    def _said(self, words: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(said for word in words for said in self.words(word))

    def _respelled(self, node: Node) -> Node:
        if isinstance(node, Words):
            return Words(self._said(node.words))
        if isinstance(node, Seq):
            items = [self.node(item) for item in node.items]
            kept = [i for i in items if not (isinstance(i, Words) and not i.words)]
            # A sequence of one part is the compiler's own (a rule that is another rule or a list, named apart).
            return kept[0] if len(kept) == 1 and len(node.items) > 1 else Seq(kept)
        if isinstance(node, Alt):
            return Alt([self.node(item) for item in node.items], node.optional)
        if isinstance(node, Trie):
            return Trie(node.slot, [(self._said(words), value) for words, value in node.entries])
        if isinstance(node, TemplateValues):
            return TemplateValues(node.slot, [(self.node(item), value) for item, value in node.values])
        if isinstance(node, (Wildcard, DynamicList)):
            return node
        raise GrammarError(f"no respelling of {type(node).__name__}")
