"""Compiling hassil templates, parsed by hassil, into the word-matching nodes of companion.language.matcher.

The one walk of hassil's parsed templates: the typed-text matcher uses the nodes, and the recognisers' grammars
(companion.language.recognition_grammar) are read from the nodes of the same templates spelled as recognisers
spell them. So that they can write a rule or a list once and refer to it by name, the compiler keeps the name of
each rule and list it compiled (`name_of`).
"""

from __future__ import annotations

from collections.abc import Mapping
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

from companion.language.matcher import (
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
    """Turns parsed hassil templates into nodes; rules and lists are compiled once and shared."""

    slot_lists: Mapping[str, SlotList]
    rules: Mapping[str, Sentence]
    dynamic_lists: frozenset[str] = frozenset()
    # Whether pieces must join at word boundaries: templates as written ("{player}'s") join a list to a word,
    # which the folded and the recognisers' spellings split; read for what they say, not matched, they may.
    whole_words: bool = True
    _rule_nodes: dict[str, Node] = field(default_factory=dict)
    _list_nodes: dict[str, SlotValues] = field(default_factory=dict)
    # The name of each rule's and slot list's node (a list's renamed copy too), by the node's id, with the node kept
    # so that the id is never given to another one: "rule_NAME", "list_NAME".
    _names: dict[int, tuple[Node, str]] = field(default_factory=dict)
    _slot_nodes: dict[tuple[str, str], Node] = field(default_factory=dict)  # by list and slot name

    def name_of(self, node: Node) -> str | None:
        """The rule or slot list that `node` was compiled for ("rule_NAME", "list_NAME"), or None."""
        found = self._names.get(id(node))
        return None if found is None else found[1]

    def list_node(self, name: str) -> Node:
        """The compiled slot list `name` (a dynamic one as a DynamicList)."""
        return self._list(name, name)

    def sentence(self, sentence: Sentence) -> Node:
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
            if self.whole_words:
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
    """Templates must join pieces at word boundaries ("(suivant|suivante)", not "suivant[e]")."""
    items = [i for i in sequence.items if not (isinstance(i, TextChunk) and i.text == "")]
    for left, right in pairwise(items):
        left_open = not isinstance(left, TextChunk) or not left.text.endswith(" ")
        right_open = not isinstance(right, TextChunk) or not right.text.startswith(" ")
        if left_open and right_open:
            raise GrammarError("a group, list or rule is glued to a word: write whole words")
