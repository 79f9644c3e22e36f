"""A state's automaton with meaning (what every recogniser's words are read on) is kept in the cache folder and
read back the same; a damaged or altered file is refused and the automaton built again; the folder keeps the
newest."""

import io
import zipfile

import numpy as np
import pytest

from companion.language import kept_automata, kept_templates, reading
from companion.language.automaton import TAG_MARK, minimal_meant
from companion.language.kept_arrays import packed
from companion.language.recognition_grammar import OPEN_MARK, word_graph
from companion.paths import digest_of
from companion.speech import path_meaning

PLAYERS = ("Alice", "Bruno")


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    forget()
    yield tmp_path / "companion" / kept_automata.FOLDER
    forget()


def forget() -> None:
    """Nothing kept in this process's memory: read from the folder, or built."""
    kept_automata.meant_arcs.cache_clear()
    reading.path_reader.cache_clear()


def automaton(lang: str, state: str, players: tuple[str, ...] = PLAYERS):
    forget()
    return kept_automata.meant_arcs("draftosaurus", lang, state, players)


def key_of(lang: str, state: str, players: tuple[str, ...] = PLAYERS) -> bytes:
    found = kept_automata.key(kept_templates.key("draftosaurus", lang, state, players).hex())
    assert found is not None
    return found


def refuse_to_build(*args):
    raise AssertionError("built again where it was kept")


def same(a, b) -> bool:
    """The same automaton (tables, or automata as minimal_meant makes them, their arcs in the same order)."""
    a, b = (x.automaton() if isinstance(x, kept_automata.ArcTable) else x for x in (a, b))
    return (a.n_states, a.start, a.accepting) == (b.n_states, b.start, b.accepting) and \
        sorted(a.arcs, key=lambda arc: arc[0]) == sorted(b.arcs, key=lambda arc: arc[0])


def meaning(text: str, lang: str = "fr", state: str = "turn"):
    forget()
    return path_meaning.path_meaning(text, game="draftosaurus", lang=lang, state=state, player_names=PLAYERS)


def test_a_kept_automaton_is_the_automaton_built_and_reads_the_same_meanings(cache):
    built = automaton("fr", "turn")
    assert same(built, minimal_meant(word_graph("draftosaurus", "fr", "turn", PLAYERS)))
    assert [p.suffix for p in cache.iterdir()] == [".npz"]
    kept = kept_automata.read(key_of("fr", "turn"))
    assert kept is not None and kept is not built and same(kept, built)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kept_automata, "minimal_meant", refuse_to_build)
        assert same(automaton("fr", "turn"), built)  # read back, not built
    assert meaning("alice met le tricératops dans la rivière") == \
        ("place", (("pen", "river"), ("player", "Alice"), ("species", "triceratops")))


def test_each_state_and_set_of_names_has_its_own_file(cache):
    automaton("en", "who")
    automaton("en", "who", ("Zoé", "Bruno"))  # the names are words of the state
    automaton("es", "who")
    assert len(list(cache.iterdir())) == 3
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kept_automata, "minimal_meant", refuse_to_build)
        automaton("en", "who")  # read back, not built again
    assert len(list(cache.iterdir())) == 3


@pytest.mark.parametrize("at", [0, 40, -1])
def test_a_damaged_file_is_refused_and_the_automaton_built_and_kept_again(cache, at):
    built = automaton("en", "confirm")
    (path,) = cache.iterdir()
    data = bytearray(path.read_bytes())
    data[at] ^= 0xFF
    path.write_bytes(bytes(data))
    key = key_of("en", "confirm")
    assert kept_automata.read(key) is None
    assert same(automaton("en", "confirm"), built) and kept_automata.read(key) is not None  # written whole again


def altered(path, key: bytes, arrays: dict, header) -> None:
    """The file at `path` made anew from `arrays` and `header` with a digest made to match."""
    payload = packed(arrays, header)
    path.write_bytes(digest_of(key, payload) + payload)


def test_files_altered_to_make_the_reader_fail_lie_or_fill_the_memory_are_refused(cache, monkeypatch):
    built = automaton("en", "confirm")
    key = key_of("en", "confirm")
    (path,) = cache.iterdir()
    arrays = {"offsets": built.offsets, "targets": built.targets, "labels": built.labels,
              "accepting": np.array(sorted(built.accepting))}
    header = {"start": built.start, "names": built.names}
    altered(path, key, arrays, header)
    assert kept_automata.read(key) is not None  # the form itself is read
    states, arcs = len(built.offsets) - 1, len(built.targets)
    for changed in ({"targets": np.append(built.targets[:-1], states)},  # a state beyond the automaton
                    {"labels": np.append(built.labels[:-1], len(built.names))},  # a label the file does not hold
                    {"labels": np.append(built.labels[:-1], -1)},
                    {"offsets": np.append(built.offsets[:-1], arcs + 1)},  # arcs beyond the last
                    {"offsets": np.concatenate([[0, arcs], built.offsets[2:]])},  # offsets that go back
                    {"accepting": np.array([states])}, {"targets": built.targets[:-1]}):
        altered(path, key, {**arrays, **changed}, header)
        assert kept_automata.read(key) is None, changed
    for wrong in ({"start": -1}, {"start": states}, {"start": True}, {"names": [*built.names[:-1], 7]}, [header]):
        altered(path, key, arrays, wrong if isinstance(wrong, list) else {**header, **wrong})
        assert kept_automata.read(key) is None, wrong
    altered(path, key, {**arrays, "extra": np.zeros(3)}, header)
    assert kept_automata.read(key) is None  # a member more
    altered(path, key, arrays, header)
    with zipfile.ZipFile(io.BytesIO(path.read_bytes()[32:])) as archive:  # after the digest
        size = sum(member.file_size for member in archive.infolist())
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(kept_automata, "MOST_BYTES", size - 1)
        assert kept_automata.read(key) is None  # unpacked, more than the bound: not unpacked
        patch.setattr(kept_automata, "MOST_BYTES", size)
        assert kept_automata.read(key) is not None
    tagged = next(k for k, arc_label in enumerate(built.names) if TAG_MARK in arc_label)
    for tag in ("not json", '["slot", "x", "y"]', '["intent", "x", [], "7"]', "12", '["slot", "x", "y", NaN]',
                '["intent", "undo", [], -100000000]', '["slot", "x", NaN, 1]', '["order", "x", null, 1]'):
        names = list(built.names)
        names[tagged] = tag + TAG_MARK + names[tagged].split(TAG_MARK)[-1]
        altered(path, key, arrays, {**header, "names": names})
        assert kept_automata.read(key) is None, tag  # a tag of meaning that is none: refused, not a crash
    for word in ("[1, 2]", '["player", true]', '["player", 1, null]', '["player", true, 0]', '["x", false, 2.5]',
                 "not json"):  # an open part (a name, free text) that is none of ours
        names = list(built.names)
        names[tagged] = TAG_MARK.join([*names[tagged].split(TAG_MARK)[:-1], OPEN_MARK + word])
        altered(path, key, arrays, {**header, "names": names})
        assert kept_automata.read(key) is None, word
    assert meaning("yes", "en", "confirm") == ("yes", ())  # built again


def test_a_forged_open_part_in_typed_text_s_automaton_is_refused_not_a_crash(tmp_path, monkeypatch):
    from companion.language.grammar import parse

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    kept_automata.typed_arcs.cache_clear()
    reading.typed_reader.cache_clear()
    assert parse("cross", game="draftosaurus", lang="en", state="die").intent == "die"
    (path,) = (tmp_path / "companion" / kept_automata.TYPED_FOLDER).iterdir()
    key = kept_automata.key(kept_templates.key("draftosaurus", "en", "die").hex())
    built = kept_automata.read(key, kept_automata.TYPED_FOLDER)
    names = [OPEN_MARK + "[1, 2]" if OPEN_MARK in name else name for name in built.names]
    assert names != built.names
    arrays = {"offsets": built.offsets, "targets": built.targets, "labels": built.labels,
              "accepting": np.array(sorted(built.accepting))}
    altered(path, key, arrays, {"start": built.start, "names": names})
    assert kept_automata.read(key, kept_automata.TYPED_FOLDER) is None
    kept_automata.typed_arcs.cache_clear()
    reading.typed_reader.cache_clear()
    assert parse("cross", game="draftosaurus", lang="en", state="die").intent == "die"  # built again


def test_a_cache_folder_that_cannot_be_written_keeps_nothing_and_reads_all_the_same(cache):
    cache.parent.mkdir(parents=True)
    cache.write_text("a file where the folder would be")
    assert meaning("alice met le tricératops dans la rivière")[0] == "place"
    assert cache.is_file()
