"""A state's phone graph (what Whisper's words are matched to by sound) is kept in the cache folder and read
back the same; a damaged or altered file is refused and the graph built again; the folder keeps the newest."""

import io

import numpy as np
import pytest

from companion.language.recognition_grammar import word_graph
from companion.paths import digest_of
from companion.speech import kept_phones, phonetic
from companion.speech.pronounce import espeak_path

pytestmark = pytest.mark.skipif(espeak_path() is None, reason="espeak-ng is not installed (install.sh)")
PLAYERS = ("Alice", "Bruno")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    phonetic.phone_graph.cache_clear()
    yield tmp_path / "companion" / kept_phones.FOLDER
    phonetic.phone_graph.cache_clear()


def graph(lang: str, state: str, players: tuple[str, ...] = PLAYERS) -> phonetic.PhoneGraph:
    phonetic.phone_graph.cache_clear()  # from the folder, not from this process's memory
    return phonetic.phone_graph("draftosaurus", lang, state, players)


def same(a: phonetic.PhoneGraph, b: phonetic.PhoneGraph) -> bool:
    return (a.symbols == b.symbols and (a.size, a.start) == (b.size, b.start) and a.word_at == b.word_at
            and dict(a.incoming) == dict(b.incoming)
            and all(np.array_equal(x, y) for x, y in zip(a.arrays().values(), b.arrays().values(), strict=True)))


def test_a_kept_graph_is_the_graph_built_and_matches_the_same_sentences(cache):
    built = graph("fr", "turn")
    assert [p.suffix for p in cache.iterdir()] == [".npz"]
    kept = graph("fr", "turn")
    assert kept is not built and same(kept, built)
    for text in ("alice mais le tricératope dans la rivière", "le dé di croix", "bruneau met le t rex au roi"):
        assert kept.closest(tuple(p for w in text.split() for p in phonetic.phones_of([w], "fr").get(w, ()))) == \
            built.closest(tuple(p for w in text.split() for p in phonetic.phones_of([w], "fr").get(w, ())))


def test_each_word_graph_has_its_own_file(cache):
    graph("en", "who")
    graph("en", "who", ("Zoé", "Bruno"))  # the names are words of the state
    graph("es", "who")
    assert len(list(cache.iterdir())) == 3
    graph("en", "confirm")
    graph("en", "confirm", ("Zoé", "Bruno"))  # a yes or a no holds no name: the same graph, one file
    assert len(list(cache.iterdir())) == 4


def damage(path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("at", [0, 40, -1])
def test_a_damaged_file_is_refused_and_the_graph_built_and_kept_again(cache, at):
    built = graph("en", "confirm")
    (path,) = cache.iterdir()
    damage(path, at)
    key = kept_phones.key(word_graph("draftosaurus", "en", "confirm", PLAYERS).digest(), "en")
    assert kept_phones.read(key) is None
    again = graph("en", "confirm")
    assert same(again, built) and kept_phones.read(key) is not None  # written whole again


def test_a_file_kept_under_the_right_key_but_not_shaped_as_a_phone_graph_is_refused(cache):
    built = graph("en", "confirm")
    key = kept_phones.key(word_graph("draftosaurus", "en", "confirm", PLAYERS).digest(), "en")
    built.labels = built.labels + len(built.symbols)  # a phone no graph has
    kept_phones.keep(key, built, {})
    assert kept_phones.read(key) is None
    built.labels = built.labels - len(built.symbols)
    built.sources = built.sources[:-1]  # arcs without their sources
    kept_phones.keep(key, built, {})
    assert kept_phones.read(key) is None
    out = io.BytesIO()  # arrays of Python objects, which only pickle could make
    np.savez(out, **{name: np.array([object()] * 3) for name in ("accepting", "sources", "targets", "labels",
                                                                 "word_arcs", "header")})
    path = next(cache.iterdir())
    path.write_bytes(digest_of(key, out.getvalue()) + out.getvalue())  # a digest made to match
    assert kept_phones.read(key) is None


def test_the_folder_keeps_the_most_recently_used_graphs(cache, monkeypatch):
    monkeypatch.setattr(kept_phones, "KEPT", 2)
    graph("en", "confirm")
    first = next(cache.iterdir())
    graph("fr", "confirm")
    first.touch()  # used again
    graph("es", "confirm")
    names = {p.name for p in cache.iterdir()}
    assert len(names) == 2 and first.name in names


def test_without_espeak_ng_nothing_is_kept(cache, monkeypatch):
    monkeypatch.setattr(kept_phones, "_espeak", lambda: None)
    graph("en", "confirm")
    assert not cache.exists() or not list(cache.iterdir())


def test_a_cache_folder_that_cannot_be_written_keeps_nothing_and_hears_all_the_same(cache):
    cache.parent.mkdir(parents=True)
    cache.write_text("a file where the folder should be")
    built = graph("en", "confirm")
    assert built.size > 0 and cache.is_file()
