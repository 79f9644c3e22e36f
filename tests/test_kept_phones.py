"""A state's phone graph (what Whisper's words are matched to by sound) is kept in the cache folder and read
back the same; a damaged or altered file is refused and the graph built again; the folder keeps the newest."""

import io
import json
import os
import zipfile

import numpy as np
import pytest

from companion.language import kept_templates
from companion.language.automaton import TAG_MARK
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


def key_of(lang: str, state: str, players: tuple[str, ...] = PLAYERS) -> bytes:
    found = kept_phones.key(kept_templates.key("draftosaurus", lang, state, players).hex(), lang)
    assert found is not None
    return found


def test_a_kept_graph_is_the_graph_built_and_matches_the_same_sentences(cache):
    built = graph("fr", "turn")
    assert [p.suffix for p in cache.iterdir()] == [".npz"]
    assert kept_phones.read(key_of("fr", "turn")) is not None
    kept = graph("fr", "turn")
    assert kept is not built and same(kept, built)
    for text in ("alice mais le tricératope dans la rivière", "le dé di croix", "bruneau met le t rex au roi"):
        assert kept.closest(tuple(p for w in text.split() for p in phonetic.phones_of([w], "fr").get(w, ()))) == \
            built.closest(tuple(p for w in text.split() for p in phonetic.phones_of([w], "fr").get(w, ())))


def test_each_state_and_set_of_names_has_its_own_file(cache):
    graph("en", "who")
    graph("en", "who", ("Zoé", "Bruno"))  # the names are words of the state
    graph("es", "who")
    assert len(list(cache.iterdir())) == 3
    graph("en", "who")
    assert len(list(cache.iterdir())) == 3  # read back, not kept twice
    # found by the recognisers' view of the state, which holds the names (a yes or a no holds none: the graph is
    # the same, kept twice, and nothing else is built to find it)
    graph("en", "confirm")
    graph("en", "confirm", ("Zoé", "Bruno"))
    assert len(list(cache.iterdir())) == 5


def damage(path, at: int) -> None:
    data = bytearray(path.read_bytes())
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("at", [0, 40, -1])
def test_a_damaged_file_is_refused_and_the_graph_built_and_kept_again(cache, at):
    built = graph("en", "confirm")
    (path,) = cache.iterdir()
    damage(path, at)
    key = key_of("en", "confirm")
    assert kept_phones.read(key) is None
    again = graph("en", "confirm")
    assert same(again, built) and kept_phones.read(key) is not None  # written whole again


def test_a_file_kept_under_the_right_key_but_not_shaped_as_a_phone_graph_is_refused(cache):
    built = graph("en", "confirm")
    key = key_of("en", "confirm")
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


def altered(path, key: bytes, **arrays) -> None:
    """The file at `path` made anew from `arrays` with a digest made to match."""
    out = io.BytesIO()
    np.savez_compressed(out, **arrays)
    path.write_bytes(digest_of(key, out.getvalue()) + out.getvalue())


def unpacked_size(path) -> int:
    """What the archive kept at `path` holds, unpacked (its digest of 32 bytes set aside)."""
    with zipfile.ZipFile(io.BytesIO(path.read_bytes()[32:])) as archive:
        return sum(member.file_size for member in archive.infolist())


def test_files_altered_to_make_the_reader_fail_or_fill_the_memory_are_refused(cache):
    built = graph("en", "confirm")
    key = key_of("en", "confirm")
    (path,) = cache.iterdir()
    word_arcs = np.array(sorted(built.word_at), dtype=np.int32)
    header = {"symbols": built.symbols, "size": built.size, "start": built.start,
              "words": [built.word_at[arc] for arc in word_arcs.tolist()], "phones": {}}

    def encoded(value) -> np.ndarray:
        return np.frombuffer(json.dumps(value).encode(), dtype=np.uint8)

    arrays = {**built.arrays(), "word_arcs": word_arcs}
    altered(path, key, **arrays, header=encoded(header))
    assert kept_phones.read(key) is not None  # the form itself is read
    altered(path, key, **arrays, header=encoded(header), extra=np.zeros(3))  # a member more
    assert kept_phones.read(key) is None
    altered(path, key, **arrays, header=encoded(header))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kept_phones, "MOST_BYTES", unpacked_size(path) - 1)
        assert kept_phones.read(key) is None  # unpacked, more than the bound: not unpacked
        patch.setattr(kept_phones, "MOST_BYTES", unpacked_size(path))
        assert kept_phones.read(key) is not None
    altered(path, key, **arrays, header=np.frombuffer(b"[" * 100_000 + b"]" * 100_000, dtype=np.uint8))
    assert kept_phones.read(key) is None  # nested beyond Python's recursion
    altered(path, key, **arrays, header=encoded({**header, "size": 10**13}))
    assert kept_phones.read(key) is None  # more nodes than arcs could reach
    tagged = next(k for k, word in enumerate(header["words"]) if TAG_MARK in word)
    for tag in ("not json", '["slot", "x", "y"]', '["intent", "x", [], "7"]', "12", '["slot", "x", "y", NaN]',
                '["intent", "undo", [], -100000000]', '["slot", "x", NaN, 1]', '["order", "x", null, 1]'):
        words = list(header["words"])
        words[tagged] = tag + TAG_MARK + words[tagged].split(TAG_MARK)[-1]
        altered(path, key, **arrays, header=encoded({**header, "words": words}))
        assert kept_phones.read(key) is None, tag  # a tag of meaning that is none: refused, not a crash
    phonetic.phone_graph.cache_clear()
    assert phonetic.closest_sentence("yes", "draftosaurus", "en", "confirm", PLAYERS).meaning == ("yes", ())


def test_the_folder_keeps_the_most_recently_used_graphs(cache, monkeypatch):
    """(The same rule keeps the automata: kept_arrays.keep_archive.)"""
    monkeypatch.setattr(kept_phones, "MOST_FILES", 2)
    graph("en", "confirm")
    first = next(cache.iterdir())
    os.utime(first, ns=(1, 1))  # as if kept long ago
    graph("fr", "confirm")
    graph("en", "confirm")  # read, so used again
    graph("es", "confirm")
    names = {p.name for p in cache.iterdir()}
    assert len(names) == 2 and first.name in names


def test_a_graph_read_back_gives_the_phones_of_its_words_without_espeak_ng(cache, monkeypatch):
    graph("fr", "die")
    phonetic._PHONES.clear()
    monkeypatch.setattr(phonetic, "guess_pronunciations", lambda *_: {})  # espeak-ng says nothing now
    graph("fr", "die")
    found = phonetic.closest_sentence("le dé dit croix", "draftosaurus", "fr", "die", PLAYERS)
    assert found.text == "le dé dit croix" and found.distance == 0


def test_a_graph_with_a_word_espeak_ng_failed_to_say_is_not_kept(cache, monkeypatch):
    said = phonetic.phones_of

    def one_lost(words, lang):
        return {word: phones for word, phones in said(words, lang).items() if word != "oui"}

    monkeypatch.setattr(phonetic, "phones_of", one_lost)
    graph("fr", "confirm")
    assert not cache.exists() or not list(cache.iterdir())


def test_without_espeak_ng_nothing_is_kept(cache, monkeypatch):
    monkeypatch.setattr(kept_phones, "_espeak", lambda _lang: None)
    graph("en", "confirm")
    assert not cache.exists() or not list(cache.iterdir())


def test_a_cache_folder_that_cannot_be_written_keeps_nothing_and_hears_all_the_same(cache):
    cache.parent.mkdir(parents=True)
    cache.write_text("a file where the folder should be")
    built = graph("en", "confirm")
    assert built.size > 0 and cache.is_file()
