"""The vocabulary check of the matcher: a template is tried only if it may take every word of the sentence, so
the check must never turn away a template that matches."""

import pytest
import yaml
from hassil import Intents

from companion.language.compiler import Compiler
from companion.language.folding import fold
from companion.language.grammar import (
    PLAYER_LIST,
    _player_words,
    examples,
    fillers,
    games,
    load_grammar,
    player_list,
    readings,
    state_templates,
)
from companion.language.matcher import Context, Vocabulary, match_first, vocabulary
from companion.language.messages import LANGUAGES

TEMPLATES = """
language: en
intents:
  Place:
    data:
      - sentences:
          - "(place|put) [the] {dino} in <pen>"
          - "give it to {player}"
          - "call me {name}"
lists:
  dino:
    values:
      - "t rex"
      - in: "(tiny|small) raptor"
        out: raptor
  name:
    wildcard: true
expansion_rules:
  pen: "(the forest | the meadow [of love])"
"""


def compiled() -> list[Vocabulary]:
    """The vocabularies of the place, give and call templates above (hassil keeps its own order of sentences)."""
    intents = Intents.from_dict(yaml.safe_load(TEMPLATES))
    compiler = Compiler(intents.slot_lists, intents.expansion_rules, frozenset({PLAYER_LIST}))
    found = {sentence.text.split()[0]: vocabulary(compiler.sentence(sentence), {})
             for sentence in intents.intents["Place"].data[0].sentences}
    return [found["(place|put)"], found["give"], found["call"]]


def test_the_vocabulary_holds_every_word_of_templates_rules_and_lists():
    place, give, call = compiled()
    assert place.words == {"place", "put", "the", "t", "rex", "tiny", "small", "raptor", "in", "forest", "meadow",
                           "of", "love"}
    assert not place.anything and not place.lists
    assert give.words == {"give", "it", "to"} and give.lists == {PLAYER_LIST} and not give.anything
    assert call.anything


def test_a_word_outside_the_vocabulary_turns_a_template_away_unless_a_list_or_wildcard_may_take_it():
    place, give, call = compiled()
    names = {PLAYER_LIST: frozenset({"alice"})}
    assert place.may_take(frozenset(fold("put the tiny raptor in the meadow of love").words), names)
    assert not place.may_take(frozenset(fold("put the tiny raptor in the river").words), names)
    assert give.may_take(frozenset(fold("give it to Alice").words), names)
    assert not give.may_take(frozenset(fold("give it to Bruno").words), names)
    assert give.may_take(frozenset(fold("give it to Bruno").words), {PLAYER_LIST: None})  # any name may stand
    assert not give.may_take(frozenset(fold("give it to Bruno").words), {})  # no names known yet
    assert call.may_take(frozenset(fold("call me anything at all").words), {})


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", games())
def test_no_template_that_matches_an_example_is_turned_away(game, lang):
    """Every template that matches a reading of an example sentence, in the example's state, may take its words."""
    corpus = examples(game, lang)
    players = tuple(corpus.players)
    grammar = load_grammar(game, lang)
    lists = {PLAYER_LIST: _player_words(players)}
    matched = 0
    for example in corpus.understood:
        for reading in readings(fold(example.text), fillers(grammar, players)):
            ctx = Context(reading.words, {PLAYER_LIST: player_list(players)})
            for template in state_templates(game, lang, example.state).candidates(reading.words[0]):
                if match_first(template.node, ctx) is not None:
                    matched += 1
                    assert template.vocabulary.may_take(frozenset(reading.words), lists), (
                        example.text, template.intent)
    assert matched >= len(corpus.understood)


def test_equal_vocabularies_are_one_object():
    first, again = compiled(), compiled()
    assert first[0] == again[0] and first[0] is again[0]  # compiled twice, kept once
    assert first[0] is not first[1]
