"""A sentence of the grammar for a meaning: how to say an intent with its slots in a language.

Used to offer, in the game's language, what a player said in another one ("undo" in a Spanish game is
"deshacer"). The sentence is built from the first template of the intent that can hold exactly those slots,
taking the first alternative of each choice (the grammar writes its usual wording first) and leaving
optional words out; it is spelled as the grammar writes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from hassil import (
    Alternative,
    Expression,
    Intents,
    ListReference,
    Permutation,
    RuleReference,
    TextChunk,
    TextSlotList,
    WildcardSlotList,
)
from hassil import Sequence as Group

from companion.language.grammar import PLAYER_LIST, check_state, grammar_source, state_intents

Said = frozenset[tuple[str, Any]]  # the slots a piece of template fills, with their values
Ways = dict[Said, tuple[str, ...]]  # for each set of slots filled, the first words found that fill them


@cache
def _intents(game: str, lang: str) -> Intents:
    return Intents.from_dict(grammar_source(game, lang))


def saying(game: str, lang: str, state: str, intent: str, slots: Mapping[str, Any],
           players: Sequence[str] = ()) -> str | None:
    """A sentence of `lang` that the state `state` understands as `intent` with exactly `slots`; None when its
    templates cannot say it."""
    check_state(game, state)
    if intent not in state_intents(game, state):
        return None
    target = frozenset(slots.items())
    builder = _Builder(_intents(game, lang), target, players)
    for block in builder.intents.intents[intent].data:
        fixed = frozenset(block.slots.items())
        if not fixed <= target:
            continue
        for sentence in block.sentences:
            words = builder.ways(sentence.expression).get(target - fixed)
            if words:
                return _joined(words)
    return None


def _joined(words: tuple[str, ...]) -> str:
    """Words as written: no space after an elided article ("l'île")."""
    text = ""
    for word in words:
        text += word if not text or text.endswith(("'", "’")) else f" {word}"
    return text


class _Builder:
    """The ways each piece of template can be said, keeping only those that fill slots of the target."""

    def __init__(self, intents: Intents, target: Said, players: Sequence[str]):
        self.intents, self.target, self.players = intents, target, players
        self.wanted = dict(target)
        self.rules: dict[str, Ways] = {}

    def ways(self, expression: Expression) -> Ways:
        if isinstance(expression, TextChunk):
            return {frozenset(): tuple(expression.text.split())}
        if isinstance(expression, Alternative):
            found: Ways = {frozenset(): ()} if expression.is_optional else {}
            for item in expression.items:
                for said, words in self.ways(item).items():
                    found.setdefault(said, words)
            return found
        if isinstance(expression, (Group, Permutation)):
            return self._sequence(expression.items)
        if isinstance(expression, RuleReference):
            name = expression.rule_name
            if name not in self.rules:
                self.rules[name] = {}  # a rule never holds itself
                self.rules[name] = self.ways(self.intents.expansion_rules[name].expression)
            return self.rules[name]
        if isinstance(expression, ListReference):
            return self._list(expression.list_name, expression.slot_name)
        return {}

    def _sequence(self, items: Sequence[Expression]) -> Ways:
        found: Ways = {frozenset(): ()}
        for item in items:
            ways = self.ways(item)
            joined: Ways = {}
            for said, words in found.items():
                for more, other in ways.items():
                    both = said | more
                    if len(both) == len(said) + len(more) and both <= self.target:
                        joined.setdefault(both, words + other)
            found = joined
            if not found:
                break
        return found

    def _list(self, name: str, slot: str) -> Ways:
        if slot not in self.wanted:
            return {}
        value = self.wanted[slot]
        said = frozenset({(slot, value)})
        slot_list = self.intents.slot_lists.get(name)
        if name == PLAYER_LIST or isinstance(slot_list, WildcardSlotList):
            return {said: tuple(str(value).split())} if str(value).strip() else {}
        if not isinstance(slot_list, TextSlotList):
            return {}
        for entry in slot_list.values:
            if entry.value_out == value:
                words = self.ways(entry.text_in).get(frozenset())
                if words:
                    return {said: words}
        return {}
