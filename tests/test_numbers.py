"""Number words 0–999 in fr, en, es: every spelling reads back to its number, and known spellings are right."""

import pytest

from companion.errors import BadInput
from companion.language.folding import words
from companion.language.messages import LANGUAGES
from companion.language.numbers import MAX_NUMBER, from_words, match_number, spellings, to_words


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_spelling_reads_back(lang):
    for n in range(MAX_NUMBER + 1):
        for spelling in spellings(n, lang):
            assert from_words(spelling, lang) == n, (lang, spelling)
        assert from_words(to_words(n, lang), lang) == n
        assert from_words(str(n), lang) == n


@pytest.mark.parametrize("lang, n, spoken", [
    ("fr", 0, "zéro"), ("fr", 17, "dix-sept"), ("fr", 21, "vingt et un"), ("fr", 71, "soixante et onze"),
    ("fr", 80, "quatre-vingts"), ("fr", 81, "quatre-vingt-un"), ("fr", 97, "quatre-vingt-dix-sept"),
    ("fr", 100, "cent"), ("fr", 180, "cent quatre-vingts"), ("fr", 200, "deux cents"), ("fr", 201, "deux cent un"),
    ("en", 0, "zero"), ("en", 17, "seventeen"), ("en", 21, "twenty-one"), ("en", 100, "one hundred"),
    ("en", 115, "one hundred and fifteen"), ("en", 200, "two hundred"),
    ("es", 1, "uno"), ("es", 16, "dieciséis"), ("es", 21, "veintiuno"), ("es", 31, "treinta y uno"),
    ("es", 100, "cien"), ("es", 101, "ciento uno"), ("es", 200, "doscientos"), ("es", 500, "quinientos"),
])
def test_canonical_spelling(lang, n, spoken):
    assert to_words(n, lang) == spoken


@pytest.mark.parametrize("lang, text, n", [
    ("fr", "Vingt-et-un", 21), ("fr", "septante-deux", 72), ("fr", "huitante", 80), ("fr", "octante et un", 81),
    ("fr", "nonante-neuf", 99), ("fr", "quatre-vingt", 80), ("fr", "deux cent", 200), ("fr", "une", 1),
    ("fr", "vingt et une", 21), ("fr", "DIX SEPT", 17),
    ("en", "a hundred", 100), ("en", "one hundred five", 105), ("en", "Twenty One", 21), ("en", "nought", 0),
    ("es", "veintiún", 21), ("es", "veinte y dos", 22), ("es", "diez y seis", 16), ("es", "ciento", 100),
    ("es", "doscientas", 200), ("es", "treinta y una", 31), ("es", "un", 1), ("es", "dieciseis", 16),
])
def test_other_usual_spellings(lang, text, n):
    assert from_words(text, lang) == n


def test_spanish_before_a_noun():
    assert to_words(21, "es", before_noun=True) == "veintiún"
    assert to_words(31, "es", before_noun=True) == "treinta y un"
    assert to_words(1, "es", before_noun=True) == "un"
    assert to_words(121, "es", before_noun=True) == "ciento veintiún"
    assert to_words(21, "fr", before_noun=True) == "vingt et un"


@pytest.mark.parametrize("lang, text", [
    ("fr", "deux deux"), ("fr", "vingt et"), ("fr", "chien"), ("fr", ""), ("en", "twenty twenty"),
    ("en", "one and"), ("es", "dos tres"), ("es", "perro"), ("fr", "-3"),
])
def test_not_a_number_is_bad_input(lang, text):
    with pytest.raises(BadInput):
        from_words(text, lang)


def test_match_number_takes_the_longest_number_in_a_sentence():
    tokens = words("un carré à vingt et un points")
    assert match_number(tokens, 0, "fr") == (1, 1)
    assert match_number(tokens, 3, "fr") == (21, 6)
    assert match_number(tokens, 1, "fr") is None
    assert match_number(words("quatre-vingt-dix-sept moutons"), 0, "fr") == (97, 4)


def test_words_folds_case_accents_and_punctuation():
    assert words("L'Île, du Solitaire !") == ("l", "ile", "du", "solitaire")
    assert words("cœur") == ("coeur",)


def test_out_of_range_is_refused():
    with pytest.raises(ValueError):
        to_words(MAX_NUMBER + 1, "fr")
    with pytest.raises(ValueError):
        to_words(3, "de")
