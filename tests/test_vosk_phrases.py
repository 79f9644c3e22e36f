"""Vosk's phrase list of a state is made from the state's automaton with meaning, kept in the cache folder and read
back the same; a damaged file, or one that holds no list of phrases, is made and kept again."""

import io

import numpy as np
import pytest

from companion.language import kept_automata
from companion.language.kept_arrays import packed, read_archive
from companion.paths import digest_of
from companion.speech import vosk_phrases
from companion.speech.fsg import covering_sentences, spoken_words

PLAYERS = ("Alice", "Bruno")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    forget()
    yield tmp_path / "companion" / vosk_phrases.FOLDER
    forget()


def forget() -> None:
    """Nothing kept in this process's memory: read from the folder, or made."""
    kept_automata.meant_arcs.cache_clear()
    vosk_phrases._vosk_phrases.cache_clear()


def phrases(lang: str = "en", state: str = "confirm") -> list[str]:
    forget()
    return vosk_phrases.vosk_phrases("draftosaurus", lang, state, PLAYERS)


def refuse_to_make(*args):
    raise AssertionError("made again where it was kept")


def test_the_kept_phrases_are_those_made_and_are_read_back(cache):
    made = phrases()
    meant = kept_automata.meant_arcs("draftosaurus", "en", "confirm", PLAYERS)
    covering = [" ".join(s) for s in covering_sentences(spoken_words(meant.automaton()))]
    assert made[:len(covering)] == covering and made[-1] == "[unk]"
    assert [p.suffix for p in cache.iterdir()] == [".npz"]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vosk_phrases, "covering_sentences", refuse_to_make)
        assert phrases() == made  # read back, not made
    assert phrases("es", "confirm") != made and len(list(cache.iterdir())) == 2  # another language: its own


@pytest.mark.parametrize("at", [0, 40, -1])
def test_a_damaged_file_is_made_and_kept_again(cache, at):
    made = phrases()
    (path,) = cache.iterdir()
    data = bytearray(path.read_bytes())
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))
    assert phrases() == made
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(vosk_phrases, "covering_sentences", refuse_to_make)
        assert phrases() == made  # kept whole again


def key() -> bytes:
    meant = kept_automata.meant_arcs("draftosaurus", "en", "confirm", PLAYERS)
    return digest_of(vosk_phrases._code(), meant.digest().encode())


def kept() -> list[str] | None:
    return read_archive(vosk_phrases.FOLDER, key(), (), vosk_phrases.MOST_BYTES, vosk_phrases._phrases)


@pytest.mark.parametrize("header", ["not a list", {"yes": 1}, ["yes", 7], None, [["yes"]]])
def test_a_file_that_holds_no_list_of_phrases_is_made_again(cache, header):
    made = phrases()
    covering = kept()
    assert covering is not None and made[:len(covering)] == covering
    (path,) = cache.iterdir()
    payload = packed({}, header)
    path.write_bytes(digest_of(key(), payload) + payload)  # a digest made to match what it holds
    assert kept() is None
    assert phrases() == made and kept() == covering  # made and kept whole again


def test_a_file_nested_deep_enough_to_break_the_reader_is_made_again(cache):
    made = phrases()
    (path,) = cache.iterdir()
    deep = _archive_with_header(b"[" * 100_000 + b"]" * 100_000)  # a list within a list, a hundred thousand deep
    path.write_bytes(digest_of(key(), deep) + deep)
    assert kept() is None and phrases() == made


def _archive_with_header(header: bytes) -> bytes:
    """An archive as kept_arrays.packed writes one, its header these bytes of JSON."""
    out = io.BytesIO()
    np.savez_compressed(out, header=np.frombuffer(header, dtype=np.uint8))
    return out.getvalue()
