"""A dialogue state's compiled templates kept in the cache folder (the recognisers' view; typed text's automaton is
kept as the recognisers' are, tests/test_kept_automata.py): read back by the next process, which then parses and
hears without hassil and means the same; a damaged or altered file is never used; a changed grammar is compiled
again."""

import gc
import json
import os
import pickle
import zlib
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.language import grammar, kept_templates
from companion.language.messages import LANGUAGES
from companion.language.recognition_grammar import _built_state_grammar, _is_state_grammar
from companion.paths import digest_of
from tests.conftest import run_python

PARSE = """
import json, sys
from companion.language.grammar import examples, parse
said = []
for game, lang in (("draftosaurus", "fr"), ("dino", "es"), ("jurassic-snack", "en")):
    corpus = examples(game, lang)
    for example in corpus.understood[:50]:  # (one said in another language is said back with hassil's help)
        result = parse(example.text, game=game, lang=lang, state=example.state, player_names=corpus.players)
        said.append([example.text, result.intent, result.slots, result.suggestion])
print(json.dumps(said))
print("hassil" in sys.modules, file=sys.stderr)
"""


def run_twice(script: str, tmp_path: Path) -> list:
    """What `script` prints, run in a new process and then in another one that reads what the first kept: the
    first imported hassil, the second did not, and both printed the same."""
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    first = run_python(script, env=env)
    again = run_python(script, env=env)
    assert first.returncode == again.returncode == 0, (first.stderr, again.stderr)
    assert first.stderr.split()[-1] == "True" and again.stderr.split()[-1] == "False", (first.stderr, again.stderr)
    printed = json.loads(again.stdout)
    assert json.loads(first.stdout) == printed
    return printed


def test_a_new_process_parses_with_the_kept_automata_without_hassil_and_means_the_same(tmp_path):
    from companion.language import kept_automata

    said = run_twice(PARSE, tmp_path)
    assert len(said) >= 120
    assert all(intent is not None for _, intent, _, _ in said)
    assert len(list((tmp_path / "cache" / "companion" / kept_automata.TYPED_FOLDER).iterdir())) >= 3


def read(key: bytes) -> object:
    return kept_templates.read_as(key, _is_state_grammar)


def kept_file(monkeypatch, tmp_path, state="die"):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    key = kept_templates.key("draftosaurus", "en", state, ())
    kept_templates.keep(key, _built_state_grammar("draftosaurus", "en", state, ()))
    return key, kept_templates.path(key)


def test_a_damaged_kept_file_is_not_used(monkeypatch, tmp_path):
    key, path = kept_file(monkeypatch, tmp_path)
    whole = path.read_bytes()
    for damaged in (b"", whole[:100], whole[:-1], whole[:40] + bytes([whole[40] ^ 1]) + whole[41:]):
        path.write_bytes(damaged)
        assert read(key) is None
    assert read(kept_templates.key("draftosaurus", "en", "turn", ())) is None  # another key: none kept


class Planted:
    """What an altered file might hold: an object that runs a command when it is unpickled."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return (open, (str(self.marker), "w"))


def test_a_kept_file_altered_to_make_anything_else_is_refused_and_runs_nothing(monkeypatch, tmp_path):
    key, path = kept_file(monkeypatch, tmp_path)
    marker = tmp_path / "ran"
    for payload in (pickle.dumps(Planted(marker)), pickle.dumps({"not": "templates"}), pickle.dumps([1, 2]),
                    b"not a pickle"):
        packed = zlib.compress(payload)
        path.write_bytes(digest_of(key, packed) + packed)  # a digest made to match
        assert read(key) is None
    assert not marker.exists()


def test_a_kept_file_that_unpacks_to_more_than_the_bound_is_not_unpacked_whole(monkeypatch, tmp_path):
    key, _ = kept_file(monkeypatch, tmp_path)
    assert read(key) is not None
    monkeypatch.setattr(kept_templates, "MOST_BYTES", 1000)  # a file that unpacks to gigabytes is refused the same
    assert read(key) is None


def test_a_changed_grammar_or_state_is_another_key(monkeypatch):
    keys = {kept_templates.key(game, lang, state) for game, lang, state in (
        ("draftosaurus", "en", "die"), ("draftosaurus", "en", "turn"), ("draftosaurus", "fr", "die"),
        ("dino", "en", "turn"))}
    assert len(keys) == 4
    before = kept_templates.key("draftosaurus", "en", "die")
    source = grammar.grammar_source("draftosaurus", "en")
    intents = dict(source["intents"])
    block = intents["die"]["data"][0]
    intents["die"] = {"data": [{**block, "sentences": [*block["sentences"], "golly {face}"]}]}
    changed = {**source, "intents": intents}
    monkeypatch.setattr(grammar, "grammar_source", lambda game, lang: changed)
    kept_templates._grammar.cache_clear()
    try:
        assert kept_templates.key("draftosaurus", "en", "die") != before
    finally:
        kept_templates._grammar.cache_clear()


def test_a_change_of_any_hassil_module_is_another_key(monkeypatch, tmp_path):
    """The tokenizer of templates (hassil/parser.py) is read as much as the parser is: every module counts."""
    import importlib.util

    real = importlib.util.find_spec("hassil")
    copy = tmp_path / "hassil"
    copy.mkdir()
    for module in Path(real.origin).parent.glob("*.py"):
        (copy / module.name).write_bytes(module.read_bytes())
    monkeypatch.setattr(importlib.util, "find_spec", lambda name: SimpleNamespace(origin=str(copy / "__init__.py")))
    digests = []
    try:
        for change in (None, "parser.py", "__init__.py"):
            if change:
                (copy / change).write_bytes((copy / change).read_bytes() + b"\n# changed\n")
            kept_templates._code.cache_clear()
            digests.append(kept_templates._code())
    finally:
        kept_templates._code.cache_clear()
    assert len(set(digests)) == 3


def test_every_grammar_is_read_whole_by_hassil():
    """A template hassil cannot read is found here, though a state kept compiled never reads it again."""
    for game in grammar.games():
        for lang in LANGUAGES:
            assert grammar.written_templates(game, lang)[0].intents


def test_a_grammar_file_that_empties_a_section_of_the_common_one_is_an_error():
    merged = {"lists": {"face": {"values": ["forest"]}}, "skip_words": ["um"]}
    for empty in ({"lists": None}, {"skip_words": "uh"}, {"lists": ["face"]}):
        with pytest.raises(ValueError, match="grammar key"):
            grammar._merge(merged, empty)
    grammar._merge(merged, {"skip_words": ["uh"], "lists": {"pen": {"values": ["river"]}}})
    assert merged == {"lists": {"face": {"values": ["forest"]}, "pen": {"values": ["river"]}},
                      "skip_words": ["um", "uh"]}


def test_only_the_newest_kept_files_stay(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(kept_templates, "MOST_FILES", 3)
    keys = []
    for state in ("die", "turn", "confirm", "setup", "who"):
        keys.append(kept_templates.key("draftosaurus", "en", state, ()))
        kept_templates.keep(keys[-1], _built_state_grammar("draftosaurus", "en", state, ()))
        os.utime(kept_templates.path(keys[-1]), (len(keys), len(keys)))  # one second apart, in order
    assert sorted(p.name for p in kept_templates.path(keys[0]).parent.iterdir()) == sorted(
        kept_templates.path(key).name for key in keys[-3:])
    assert read(keys[0]) is None and read(keys[-1]) is not None


def test_reading_leaves_the_garbage_collector_as_it_found_it(monkeypatch, tmp_path):
    key, path = kept_file(monkeypatch, tmp_path)
    assert gc.isenabled() and read(key) is not None and gc.isenabled()
    packed = zlib.compress(b"not a pickle")
    path.write_bytes(digest_of(key, packed) + packed)
    assert read(key) is None and gc.isenabled()
    gc.disable()
    try:
        read(key)
        assert not gc.isenabled()  # paused by the caller: left paused
    finally:
        gc.enable()


HEAR = """
import json, sys
from companion.language.grammar import examples
from companion.language.recognition_grammar import spelling
from companion.speech.path_meaning import parse_heard
heard = []
for game, lang in (("draftosaurus", "fr"), ("dino", "es"), ("jurassic-snack", "en")):
    corpus = examples(game, lang)
    for example in corpus.understood[:40]:
        words = " ".join(spelling(lang).words(example.text))
        result = parse_heard(words, game=game, lang=lang, state=example.state, player_names=corpus.players)
        heard.append([words, result.intent, result.slots])
print(json.dumps(heard))
print("hassil" in sys.modules, file=sys.stderr)
"""


def test_a_new_process_hears_with_the_kept_recognisers_view_without_hassil_and_means_the_same(tmp_path):
    heard = run_twice(HEAR, tmp_path)
    assert len(heard) >= 100 and sum(intent is not None for _, intent, _ in heard) >= 0.9 * len(heard)


def test_the_recognisers_view_is_kept_per_set_of_players_and_read_back_equal(monkeypatch, tmp_path):
    from companion.language import recognition_grammar

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    players = ("Ann", "Ben")
    key = kept_templates.key("draftosaurus", "en", "turn", players)
    assert len({key, kept_templates.key("draftosaurus", "en", "turn", ("Ann", "Cid")),
                kept_templates.key("draftosaurus", "en", "turn")}) == 3
    built = recognition_grammar._built_state_grammar("draftosaurus", "en", "turn", players)
    kept_templates.keep(key, built)
    found = kept_templates.read_as(key, recognition_grammar._is_state_grammar)
    assert found == built and found is not built


def test_a_recognisers_view_altered_in_its_file_is_refused(monkeypatch, tmp_path):
    from dataclasses import replace

    from companion.language import recognition_grammar
    from companion.language.recognition_grammar import Choice, Ref

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    key = kept_templates.key("draftosaurus", "en", "die", ())
    built = recognition_grammar._built_state_grammar("draftosaurus", "en", "die", ())
    name, templates = built.intents[0]
    def with_template(*parts):
        return replace(built, intents=((name, ((*templates[0], *parts), *templates[1:])), *built.intents[1:]))

    itself = Choice(((),))
    object.__setattr__(itself, "options", ((itself,),))  # a choice put inside itself
    a_list = next(part for part in built.named if part.startswith("list_"))
    doubling = {f"rule_{k}": Choice(((Ref(f"rule_{k + 1}"), Ref(f"rule_{k + 1}")),)) for k in range(30)}
    doubling["rule_30"] = Choice((("word",),))
    altered_views = [
        with_template(Ref("list_nowhere")),  # a part named nowhere
        replace(built, named={**built.named, "list_odd": Choice(((3.5,),))}),  # a number for a word
        replace(built, fixed=built.fixed[1:]),  # slots missing
        replace(built, named={**built.named, "rule_loop": Choice(((Ref("rule_loop"),),))}),  # a part within itself
        replace(built, named={**built.named, "rule_self": itself}),  # a choice within itself
        with_template(Ref("__wildcard__")),  # free text filling no slot
        with_template(Ref(a_list, slot=["a"])),  # a slot that is no name
        replace(built, fixed=(((("a", 1, 2),),) * len(built.fixed[0]), *built.fixed[1:])),  # slots not in pairs
        replace(built, named={**built.named, "list_odd": Choice((("x",),), values=({"not": "plain"},))}),
        replace(built, named={**built.named, **doubling}),  # a few lines that spell out a billion words
        object.__new__(type(built)),  # nothing in it
        recognition_grammar.typed_state_grammar("draftosaurus", "en", "die"),  # typed text's view: never kept
    ]
    for altered in altered_views:
        packed = zlib.compress(pickle.dumps(altered))
        kept_templates.path(key).parent.mkdir(parents=True, exist_ok=True)
        kept_templates.path(key).write_bytes(digest_of(key, packed) + packed)  # a digest made to match
        assert kept_templates.read_as(key, recognition_grammar._is_state_grammar) is None, altered
    packed = zlib.compress(pickle.dumps(built))
    kept_templates.path(key).write_bytes(digest_of(key, packed) + packed)
    assert kept_templates.read_as(key, recognition_grammar._is_state_grammar) == built  # the same file, whole
