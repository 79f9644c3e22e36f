"""The tactile number code: canonical stickers, description in words, and reading descriptions back."""

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.errors import BadInput
from companion.language.messages import LANGUAGES, catalog
from companion.language.numbers import to_words
from companion.language.tactile import MAX_TACTILE, Sticker, describe, parse, to_stickers, value
from tests.conftest import budget


def test_canonical_stickers():
    assert to_stickers(0) == []
    assert to_stickers(3) == [Sticker("dot", 3)]
    assert to_stickers(5) == [Sticker("dotted_circle", 1)]
    assert to_stickers(10) == [Sticker("dotted_square", 1)]
    assert to_stickers(17) == [Sticker("dotted_square", 1), Sticker("dotted_circle", 1), Sticker("dot", 2)]
    assert to_stickers(20) == [Sticker("square_with_dots", 2)]
    assert to_stickers(99) == [Sticker("square_with_dots", 9), Sticker("dotted_circle", 1), Sticker("dot", 4)]
    assert to_stickers(100) == [Sticker("square_with_dots", 10)]
    assert to_stickers(200) == [Sticker("square_with_dots", 20)]


def test_stickers_add_up_and_stay_small():
    for n in range(MAX_TACTILE + 1):
        stickers = to_stickers(n)
        assert value(stickers) == n
        kinds = [s.kind for s in stickers]
        assert len(kinds) == len(set(kinds))
        assert all(s.count <= 4 for s in stickers if s.kind == "dot")


def test_out_of_range():
    with pytest.raises(ValueError):
        to_stickers(MAX_TACTILE + 1)
    with pytest.raises(BadInput):
        describe(-1, "fr")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_round_trip_every_number(lang):
    seen = set()
    for n in range(MAX_TACTILE + 1):
        text = describe(n, lang)
        assert parse(text, lang) == n, (lang, n, text)
        seen.add(text)
    assert len(seen) == MAX_TACTILE + 1


@pytest.mark.parametrize("lang, n, text", [
    ("fr", 17, "un carré pointé, un rond pointé et deux points"),
    ("fr", 20, "un carré à deux points"), ("fr", 1, "un point"), ("fr", 0, "aucun autocollant"),
    ("en", 17, "one dotted square, one dotted circle and two dots"),
    ("en", 20, "a square with two dots"),
    ("es", 17, "un cuadrado punteado, un círculo punteado y dos puntos"),
    ("es", 21, "un cuadrado con dos puntos y un punto"),
])
def test_description_wording(lang, n, text):
    assert describe(n, lang) == text


@pytest.mark.parametrize("lang, text, n", [
    ("fr", "un carré pointé", 10),
    ("fr", "un carré à deux points", 20),
    ("fr", "deux points", 2),
    ("fr", "carré avec trois points plus un rond pointé et un point", 36),
    ("fr", "un carré pointé + un rond pointé + deux points", 17),
    ("fr", "Un carré pointé à deux points", 20),
    ("fr", "un carré de 4 points et un rond", 45),
    ("fr", "deux carrés pointés", 20),
    ("fr", "deux carrés à deux points chacun", 40),
    ("fr", "un rond pointé, quatre points", 9),
    ("fr", "rien", 0),
    ("fr", "dix-sept", 17),
    ("fr", "un carré qui porte cinq points", 50),
    ("en", "one dotted square, one dotted circle and two dots", 17),
    ("en", "a square with two dots", 20),
    ("en", "a two-dot square and a dotted circle", 25),
    ("en", "three dots", 3),
    ("en", "two dots and a square", 12),         # "and" keeps them apart: not a two-dot square
    ("en", "a dotted circle plus one dot", 6),
    ("en", "a square with ten dots", 100),
    ("en", "no sticker", 0),
    ("es", "un cuadrado punteado, un círculo punteado y dos puntos", 17),
    ("es", "un cuadrado con dos puntos", 20),
    ("es", "cuadrado con tres puntos más un círculo punteado y un punto", 36),
    ("es", "dos cuadrados con dos puntos cada uno", 40),
    ("es", "un círculo con un punto", 5),
    ("es", "ningún adhesivo", 0),
])
def test_hand_written_descriptions(lang, text, n):
    assert parse(text, lang) == n


@pytest.mark.parametrize("lang, text", [
    ("fr", "un carré avec des points"),      # a count is missing
    ("fr", "points"),                        # a plural with no count
    ("fr", "un carré chien"),                # a word outside the code
    ("fr", "un carré à vingt-cinq points"),  # 250: beyond the code
    ("fr", "deux points pointés"),
    ("fr", "un carré à"),
    ("fr", "deux trois points"),
    ("fr", ""),
    ("en", "a circle with two dots"),        # only squares carry dots
    ("en", "two dotted"),
    ("en", "a"),                             # an article alone is not a number
    ("es", "un cuadrado con puntos"),
    ("es", "un triángulo"),
])
def test_unreadable_descriptions_are_bad_input(lang, text):
    with pytest.raises(BadInput):
        parse(text, lang)


@pytest.fixture
def cli(monkeypatch, capsys):
    """Runs `companion tactile ...` through the real command line (which loads only this command)."""
    from companion import cli as cli_module

    def run(*args):
        code = cli_module.main(["tactile", *args])
        captured = capsys.readouterr()
        return code, captured.out, captured.err
    return run


@pytest.mark.parametrize("args, out", [
    (("17",), "un carré pointé, un rond pointé et deux points"),
    (("seventeen", "--lang", "en"), "one dotted square, one dotted circle and two dots"),
    (("--parse", "un carré à deux points"), "20"),
    (("--parse", "un cuadrado con dos puntos y un punto", "--lang", "es"), "21"),
])
def test_command(cli, args, out):
    code, printed, errors = cli(*args)
    assert code == 0, errors
    assert printed.strip() == out


@pytest.mark.parametrize("args", [("250",), ("chien",), ("--parse", "un carré chien"), ()])
def test_command_bad_input(cli, args):
    code, printed, errors = cli(*args)
    assert code == 2
    assert printed == "" and len(errors.strip().splitlines()) == 1


_GROUP = st.one_of(
    st.tuples(st.just("dot"), st.integers(1, 9)),
    st.tuples(st.just("dotted_circle"), st.integers(1, 3)),
    st.tuples(st.just("dotted_square"), st.integers(1, 3)),
    st.tuples(st.just("square_with_dots"), st.integers(1, 12)),
)


@settings(max_examples=budget(300))
@given(lang=st.sampled_from(LANGUAGES), groups=st.lists(_GROUP, min_size=1, max_size=4))
def test_any_sum_of_stickers_reads_back(lang, groups):
    """Descriptions the program would never say (several circles, six dots...) still read as their sum."""
    assume(value(groups) <= MAX_TACTILE)
    messages = catalog(lang)
    parts = []
    for kind, count in groups:
        words = to_words(count, lang, before_noun=True)
        if kind == "square_with_dots":
            parts.append(messages.say("tactile.square_with_dots", count=words))
        else:
            parts.append(messages.say(f"tactile.{kind}.{'one' if count == 1 else 'many'}", count=words))
    assert parse(messages.join(parts), lang) == value(groups)
