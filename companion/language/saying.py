"""A sentence of the grammar for a meaning: how to say an intent with its slots in a language.

Used to offer, in the game's language, what a player said in another one ("undo" in a Spanish game is
"deshacer"). The sentence is built from the first template of the intent that can hold exactly those slots,
taking the first alternative of each choice (the grammar writes its usual wording first) and leaving
optional words out; it is spelled as the grammar writes it. Only a sentence the state understands as meant is
given: a shorter sentence can mean something else ("on E5" places a piece where "what's on E5" asks what is
there), and a template may take only known players' names. Then the template's other ways are tried, the shortest
first, then the next template.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from companion.language.folding import fold
from companion.language.grammar import _match, check_state, load_grammar, state_intents, written_templates
from companion.language.nodes import Alt, DynamicList, Node, Seq, TemplateValues, Trie, Wildcard, Words

Said = frozenset[tuple[str, Any]]  # the slots a piece of template fills, with their values
Ways = dict[Said, tuple[tuple[str, ...], ...]]  # for each set of slots filled, words that fill them
WAYS_KEPT = 8


def saying(game: str, lang: str, state: str, intent: str, slots: Mapping[str, Any],
           players: Sequence[str] = ()) -> str | None:
    """A sentence of `lang` that the state `state` understands as `intent` with exactly `slots`; None when no
    wording of its templates is understood so."""
    check_state(game, state)
    if intent not in state_intents(game, state):
        return None
    target = frozenset(slots.items())
    intents, compiler = written_templates(game, lang)
    builder = _Builder(target)
    meant = intent, dict(slots)
    grammar = load_grammar(game, lang)
    for block in intents.intents[intent].data:
        fixed = frozenset(block.slots.items())
        if not fixed <= target:
            continue
        for sentence in block.sentences:
            for words in builder.ways(compiler.sentence(sentence)).get(target - fixed, ()):
                text = _joined(words, lang)
                # Matched as the parser does, without its suggestions when it fails (they may say a sentence again).
                if words and _match(fold(text), grammar, state, tuple(players)) == meant:
                    return text
    return None


def _joined(words: tuple[str, ...], lang: str) -> str:
    """Words as written: no space after an elided word ("l'île", "qu'il"), one after a plural's apostrophe
    ("lovers' bridge"); a name joined to the word before it as the language's grammar says ("d'Ana")."""
    from companion.language.messages import catalog

    forms = _forms(lang)
    text, last = "", ""
    for word in words:
        if isinstance(word, _Name) and last in forms:
            text = text[:len(text) - len(last)] + catalog(lang).form(str(word), forms[last])
        else:
            text += word if not text or _ELIDED.fullmatch(last) else f" {word}"
        last = word
    return text


@cache
def _forms(lang: str) -> dict[str, str]:
    """The grammatical forms of grammar.yaml that a name takes after a word, by that word ("de": the form "de")."""
    from companion.language.messages import catalog

    rules = catalog(lang).grammar.get("forms", {}).items()
    return {word: key for key, rule in rules if (word := str(rule.get("prefix", "")).strip())}


_ELIDED = re.compile(r"(?:\w|\w*qu)['’]", re.IGNORECASE)  # "l'", "d'", "qu'", "jusqu'"


class _Name(str):
    """A word of a name said as given (a player's, or free text), which the word before it may join ("d'Ana")."""


class _Builder:
    """The ways each piece of compiled template can be said, keeping only those that fill slots of the target: for
    each set of slots filled, the usual way (the first alternative of each choice, optional words left out) and the
    shortest others, WAYS_KEPT in all."""

    def __init__(self, target: Said):
        self.target = target
        self.wanted = dict(target)
        # The ways of each node walked, by its id, with the node (so that the id is never given to another one).
        self.shared: dict[int, tuple[Node, Ways]] = {}

    def ways(self, node: Node) -> Ways:
        if id(node) not in self.shared:  # rules and lists are shared nodes: each is walked once
            self.shared[id(node)] = node, {}  # a rule never holds itself
            self.shared[id(node)] = node, self._ways(node)
        return self.shared[id(node)][1]

    def _ways(self, node: Node) -> Ways:
        if isinstance(node, Words):
            return {frozenset(): (node.words,)}
        if isinstance(node, Alt):
            found: dict[Said, list[tuple[str, ...]]] = {frozenset(): [()]} if node.optional else {}
            for item in node.items:
                for said, ways in self.ways(item).items():
                    found.setdefault(said, []).extend(ways)
            return {said: _kept(ways) for said, ways in found.items()}
        if isinstance(node, Seq):
            return self._sequence(node.items)
        if isinstance(node, (Trie, TemplateValues, Wildcard, DynamicList)):
            return self._list(node)
        return {}

    def _sequence(self, items: Sequence[Node]) -> Ways:
        found: Ways = {frozenset(): ((),)}
        for item in items:
            ways = self.ways(item)
            joined: dict[Said, list[tuple[str, ...]]] = {}
            for said, heads in found.items():
                for more, tails in ways.items():
                    both = said | more
                    if len(both) == len(said) + len(more) and both <= self.target:
                        joined.setdefault(both, []).extend(head + tail for head in heads for tail in tails)
            found = {said: _kept(ways) for said, ways in joined.items()}
            if not found:
                break
        return found

    def _list(self, node: Trie | TemplateValues | Wildcard | DynamicList) -> Ways:
        if node.slot not in self.wanted:
            return {}
        value = self.wanted[node.slot]
        said = frozenset({(node.slot, value)})
        if isinstance(node, (Wildcard, DynamicList)):  # free text, players' names: said as given
            return {said: (tuple(_Name(word) for word in str(value).split()),)} if str(value).strip() else {}
        entries = node.entries if isinstance(node, Trie) else node.values
        for written, out in entries:
            if out == value:
                words = (written,) if isinstance(written, tuple) else self.ways(written).get(frozenset(), ())
                if words and words[0]:
                    return {said: words[:1]}
        return {}


def _kept(ways: list[tuple[str, ...]]) -> tuple[tuple[str, ...], ...]:
    """The first way, then the shortest others (the first written of two as long), WAYS_KEPT in all."""
    others = sorted(dict.fromkeys(way for way in ways[1:] if way != ways[0]), key=len)
    return (ways[0], *others[:WAYS_KEPT - 1])
