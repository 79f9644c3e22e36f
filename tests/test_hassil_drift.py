"""Drift check against stock hassil: on every example sentence of grammars/<lang>/*.examples.yaml, understood
or refused, and on sentences sampled from each state's automaton, hassil's own `recognize_all`, given the same
templates and the same words, means what our parser (grammar.parse, reading the state's automaton with meaning)
means: the same intent, the same slots.

companion/language/compiler.py compiles the templates hassil parses, importing hassil's expression classes (hence
the pin hassil>=3,<4 in pyproject.toml); an upgrade of hassil that changes what a template means fails here.
Where the two differ on purpose, the test applies our rule, and says so:
- words: hassil is given the sentence folded by companion.language.folding (the templates are folded the same
  way), read in turn as grammar.readings says (without our fillers, then without those at its ends only, then
  as written) until one reading matches, as grammar.parse does; hassil's own skip-word handling is not used;
- players: the names known at the table are a list filled at run time, given to hassil as a text list; a new
  name caught by a wildcard comes back from hassil folded ("zoe"), from us as it was said ("Zoé"), with the
  fillers said between its first and last words (hassil drops them);
- priority: hassil yields every intent that matches; the dialogue state's order (grammars/states.yaml) picks
  one, and ours must be that one.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from hassil import Intents, ListReference, TextSlotList, WildcardSlotList, recognize_all

from companion.language.automaton import label
from companion.language.folding import fold
from companion.language.grammar import (
    Example,
    GameGrammar,
    examples,
    games,
    load_grammar,
    parse,
    readings,
    state_intents,
    states,
)
from companion.language.kept_automata import typed_arcs
from companion.language.messages import LANGUAGES
from companion.language.recognition_grammar import Open

Meaning = tuple[str, dict]


def hassil_meanings(words: str, grammar: GameGrammar, state: str, players: tuple[str, ...]) -> list[Meaning]:
    """Every (intent, slots) stock hassil finds for the folded words among the intents active in `state`."""
    active = Intents(language=grammar.lang,
                     intents={name: grammar.intents.intents[name] for name in state_intents(grammar.game, state)},
                     slot_lists=grammar.intents.slot_lists, expansion_rules=grammar.intents.expansion_rules)
    names = TextSlotList.from_tuples([(fold(name).text, name) for name in players], name="player")
    found = recognize_all(words, active, slot_lists={"player": names}, skip_words=[])
    return [(result.intent.name, {e.name: e.value for e in result.entities_list}) for result in found]


def hassil_reading(example: Example, grammar: GameGrammar, players: tuple[str, ...]) -> list[Meaning]:
    """What hassil makes of an example under our filler rule: the first of our readings it matches."""
    for reading in readings(fold(example.text), grammar.skip_phrases):
        meanings = hassil_meanings(reading.text, grammar, example.state, players)
        if meanings:
            return meanings
    return []


def wildcard_slots(grammar: GameGrammar) -> frozenset[str]:
    """The slots that templates fill from a wildcard list ("{new_player:player}")."""
    wild = {name for name, values in grammar.intents.slot_lists.items() if isinstance(values, WildcardSlotList)}
    slots: set[str] = set()

    def visit(expression) -> None:
        if isinstance(expression, ListReference) and expression.list_name in wild:
            slots.add(expression.slot_name)
        for item in getattr(expression, "items", ()):
            visit(item)

    sentences = [s for intent in grammar.intents.intents.values() for block in intent.data for s in block.sentences]
    for sentence in [*sentences, *grammar.intents.expansion_rules.values()]:
        visit(sentence.expression)
    return frozenset(slots)


def as_hassil_gives_it(ours: Meaning, grammar: GameGrammar, players: tuple[str, ...]) -> Meaning:
    """Our meaning with the words caught by a wildcard folded, as hassil returns them (a name of a player at
    the table comes from the list of players, as written, in both)."""
    intent, slots = ours
    wild = wildcard_slots(grammar)
    return intent, {k: fold(v).without(grammar.skip_phrases).text if k in wild and isinstance(v, str)
                    and v not in players else v for k, v in slots.items()}


@pytest.mark.parametrize("game", games())
@pytest.mark.parametrize("lang", LANGUAGES)
def test_stock_hassil_means_what_our_parser_means(game, lang):
    corpus = examples(game, lang)
    differences = _differences(game, lang, corpus.understood + corpus.not_understood, corpus.players)
    assert not differences, "\n".join(map(str, differences))


# Sentences per state, each a random path through its automaton: its open arcs take a player's name or words of
# no template, then one word in five sentences left out. 9 games and languages, 31 states: 1,116 sentences.
SAMPLED_PER_STATE = 12
STRANGE_WORDS = ("zut", "bob", "un", "de", "le", "x")


def sampled(game: str, lang: str, players: tuple[str, ...], seed: int) -> list[Example]:
    rng = random.Random(seed)
    found = []
    for state in states(game):
        table = typed_arcs(game, lang, state)
        while sum(e.state == state for e in found) < SAMPLED_PER_STATE:
            at, words = table.start, []
            while len(words) < 30 and (at not in table.accepting or (table.leaving(at) and rng.random() < 0.7)):
                at, arc_label = rng.choice(table.leaving(at))
                word = label(arc_label)[0]
                part = Open.of(word)
                if part is None:
                    words.append(word)
                elif part.names and rng.random() < 0.7:
                    words += rng.choice(players).split()
                else:
                    words += rng.choices(STRANGE_WORDS, k=rng.randint(1, 2))
            if rng.random() < 0.2 and len(words) > 1:
                words.pop(rng.randrange(len(words)))
            found.append(Example(" ".join(words), None, {}, state))
    return found


@pytest.mark.parametrize("game", games())
@pytest.mark.parametrize("lang", LANGUAGES)
def test_stock_hassil_means_what_our_parser_means_on_sentences_sampled_from_the_automaton(game, lang):
    players = examples(game, lang).players
    differences = _differences(game, lang, sampled(game, lang, players, seed=len(game) * 7 + len(lang)), players)
    assert not differences, "\n".join(map(str, differences))


def _differences(game: str, lang: str, said: Sequence[Example], players: tuple[str, ...]) -> list[tuple]:
    grammar = load_grammar(game, lang)
    differences = []
    for example in said:
        result = parse(example.text, game=game, lang=lang, state=example.state, player_names=players)
        theirs = hassil_reading(example, grammar, players)
        if result.intent is None:
            if theirs:
                differences.append((example.state, example.text, "refused by us", theirs))
            continue
        ours = as_hassil_gives_it((result.intent, result.slots), grammar, players)
        order = state_intents(game, example.state)
        first = min((order.index(intent) for intent, _ in theirs), default=None)
        if ours not in theirs or order.index(ours[0]) != first:
            differences.append((example.state, example.text, ours, theirs))
    return differences


def test_the_check_sees_a_change_of_meaning():
    """A template read differently by the two matchers is reported: the check can fail."""
    grammar = load_grammar("draftosaurus", "en")
    example = examples("draftosaurus", "en").understood[0]
    players = examples("draftosaurus", "en").players
    theirs = hassil_reading(example, grammar, players)
    ours = as_hassil_gives_it((example.intent, example.slots), grammar, players)
    assert ours in theirs
    changed = (ours[0], {**ours[1], "pen": "river" if ours[1].get("pen") != "river" else "cafeteria"})
    assert changed not in theirs
