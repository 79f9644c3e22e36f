"""Sentences players say at the table (grammars/<lang>/<game>.examples.yaml) mean what they should, in
every game and language."""

import pytest

from companion.language.grammar import examples, games, parse
from companion.language.messages import LANGUAGES

GAME = "draftosaurus"
MIN_EXAMPLES = 60


def cases(kind: str) -> list:
    return [pytest.param(game, lang, example, examples(game, lang).players,
                         id=f"{game}-{lang}-{example.state}-{example.text}")
            for game in games() for lang in LANGUAGES for example in getattr(examples(game, lang), kind)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_language_has_enough_varied_examples(lang):
    corpus = examples(GAME, lang)
    assert len(corpus.understood) >= MIN_EXAMPLES
    assert len({e.intent for e in corpus.understood}) >= 30  # every intent, not 60 ways to say one thing
    assert len(corpus.not_understood) >= 5


@pytest.mark.parametrize("game, lang, example, players", cases("understood"))
def test_example_is_understood(game, lang, example, players):
    result = parse(example.text, game=game, lang=lang, state=example.state, player_names=players)
    assert (result.intent, result.slots) == (example.intent, example.slots)
    assert result.text == example.text and result.suggestion is None


@pytest.mark.parametrize("game, lang, example, players", cases("not_understood"))
def test_unknown_or_garbled_sentence_is_refused_with_a_suggestion_when_close(game, lang, example, players):
    result = parse(example.text, game=game, lang=lang, state=example.state, player_names=players)
    assert result.intent is None and result.slots == {}
    if example.suggestion_words:
        assert result.suggestion is not None
        for word in example.suggestion_words:
            assert word.lower() in result.suggestion.lower()
        # the suggestion itself is understood in the same state: offering it is safe
        again = parse(result.suggestion, game=game, lang=lang, state=example.state, player_names=players)
        assert again.intent is not None
