"""Accents, case, punctuation, hyphens and filler words never change what a sentence means."""

import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.language.grammar import examples, fold, fold_template, grammar_source, parse
from companion.language.messages import LANGUAGES
from tests.conftest import budget

GAME = "draftosaurus"
PUNCTUATION = [",", ".", "!", "?", ";", ":", "…", "«", "»", "\"", "(", ")", "¿", "¡", " - "]


def without_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


def comparable(slots: dict) -> dict:
    """A new player's name is given back as said: compare it folded."""
    return {k: fold(v).text if k == "player" and isinstance(v, str) else v for k, v in slots.items()}


def understood(lang):
    return [e for e in examples(GAME, lang).understood]


@st.composite
def variant(draw, lang):
    """An example sentence as someone may type it or a recogniser may write it, and the example."""
    example = draw(st.sampled_from(understood(lang)))
    fillers = [w for w in grammar_source(GAME, lang)["skip_words"] if w not in example.text.lower()]
    words = example.text.split()
    out = []
    for word in words:
        if draw(st.booleans()):
            word = without_accents(word)
        word = draw(st.sampled_from([word, word.upper(), word.capitalize(), word.lower()]))
        if draw(st.integers(0, 4)) == 0:
            word += draw(st.sampled_from(PUNCTUATION))
        if draw(st.integers(0, 6)) == 0:
            out.append(draw(st.sampled_from(fillers)))
        out.append(word)
    if draw(st.booleans()):
        out.insert(0, draw(st.sampled_from(fillers)) + ",")
    text = " ".join(out)
    if draw(st.booleans()):
        text = text.replace("-", " ")
    return example, text


@pytest.mark.parametrize("lang", LANGUAGES)
def test_spelling_and_fillers_do_not_change_the_meaning(lang):
    players = examples(GAME, lang).players

    @settings(max_examples=budget(150), suppress_health_check=[HealthCheck.too_slow])
    @given(variant(lang))
    def check(case):
        example, text = case
        result = parse(text, game=GAME, lang=lang, state=example.state, player_names=players)
        assert (result.intent, comparable(result.slots)) == (example.intent, comparable(example.slots)), text

    check()


@pytest.mark.parametrize("text, words", [
    ("Le T-Rex, dans l'Île !", ("le", "t", "rex", "dans", "l", "ile")),
    ("T.Rex", ("t", "rex")),
    ("CŒUR", ("coeur",)),
    ("¿Dónde puede ir?", ("donde", "puede", "ir")),
    ("what’s", ("what", "s")),
    ("  ", ()),
])
def test_fold_splits_words_like_the_templates_do(text, words):
    assert fold(text).words == words


def test_fold_keeps_each_word_original_spelling():
    folded = fold("Je m'appelle Zoé-Lou !")
    assert folded.original_words(3, 5) == "Zoé-Lou"


def test_template_syntax_survives_folding():
    assert fold_template("[<det>] (forêt|l'île) {pen:topic} t. rex") == "[<det>] (foret|l ile) {pen:topic} t rex"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_empty_and_filler_only_sentences_are_not_understood(lang):
    for text in ("", "   ", "?!", grammar_source(GAME, lang)["skip_words"][0]):
        result = parse(text, game=GAME, lang=lang)
        assert result.intent is None and result.slots == {}
