"""Hostile files given to every reader: the real command refuses each one with exit
code 2 and one line, within the bound, without running out of memory, and leaves the file as it was."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest

from companion.files import FileRefused, load_json, load_yaml, parse_json
from tests.hostile_cases import (
    HANG_BOUND_S,
    board_text,
    crashing_documents,
    file_state,
    link,
    make_fifo,
    nested,
    run_companion,
    write_document,
    yaml_bomb,
)

TEXT_PLAY = ["--engine", "text", "--players", "Ana,Ben"]
# A run reads a few files and the grammars: 42 MiB measured; a blow-up would pass a gigabyte.
PEAK_KIB_BOUND = 200 << 10


def json_readers(path: Path, folder: Path) -> dict[str, list[str]]:
    """Every command that reads a JSON file from outside, given `path`."""
    return {
        "resume": ["resume", str(path), "--engine", "text"],
        "play --new --save": ["play", "draftosaurus", *TEXT_PLAY, "--new", "--save", str(path)],
        "score": ["score", "draftosaurus", str(path)],
        "--layout": ["play", "jurassic-snack", *TEXT_PLAY, "--tokens", "hidden", "--layout", str(path),
                     "--save", str(folder / "js.json")],
    }


def board_reader(path: Path, folder: Path) -> list[str]:
    return ["play", "dino", *TEXT_PLAY, "--board", str(path), "--save", str(folder / "dino.json")]


def board_text_with(line: str) -> str:
    """The shipped board with one field replaced by `line`."""
    key = line.split(":")[0]
    return "\n".join(line if row.startswith(f"{key}:") else row for row in board_text().splitlines()) + "\n"


def assert_refused(args: list[str], path: Path, home: Path, *words: str) -> None:
    before = file_state(path)
    run = run_companion(args, home)
    assert run.returncode is not None, f"no answer within {HANG_BOUND_S} s: {args}"
    assert run.refused_cleanly, (args, run.returncode, run.stderr)
    assert run.prompt, run.cpu_seconds
    assert run.peak_kib is None or run.peak_kib < PEAK_KIB_BOUND, run.peak_kib
    assert file_state(path) == before, "the refused file was changed"
    for word in words:
        assert word in run.stderr, (word, run.stderr)


# ---- item 2: what made the readers crash

@pytest.mark.parametrize("reader", ["resume", "play --new --save", "score", "--layout"])
@pytest.mark.parametrize("name", sorted(crashing_documents()))
def test_documents_that_crashed_the_readers_are_refused(name, reader, tmp_path):
    path = write_document(tmp_path / f"{name}.json", None, crashing_documents()[name])
    assert_refused(json_readers(path, tmp_path)[reader], path, tmp_path / "home")


@pytest.mark.parametrize("name, text, words", [
    ("deep", nested(5000), ["imbrique plus de 32 niveaux"]),
    ("huge_integer", "rows: [" + "7" * 5000 + "]\n", ["nombre inutilisable"]),
    ("not_a_mapping", "- just\n- a list\n", ["forme attendue", "un objet"]),
    ("pawn_colours_a_mapping", board_text_with("pawn_colours: {a: 1}"), ["pawn_colours", "une liste"]),
    ("date_for_a_colour", board_text_with("egg_colours: [2024-01-01]"), ["egg_colours[0]", "du texte"]),
])
def test_board_files_that_crashed_the_reader_are_refused(name, text, words, tmp_path):
    path = write_document(tmp_path / f"{name}.yaml", None, text)
    assert_refused(board_reader(path, tmp_path), path, tmp_path / "home", *words)


# ---- item 3: hangs and memory

@pytest.mark.parametrize("reader", ["resume", "play --new --save", "score", "--layout"])
def test_a_fifo_is_refused_without_waiting(reader, tmp_path):
    path = make_fifo(tmp_path / "save.json")
    assert_refused(json_readers(path, tmp_path)[reader], path, tmp_path / "home", "tube")


@pytest.mark.parametrize("reader", ["resume", "play --new --save", "score", "--layout"])
def test_a_link_to_an_endless_device_is_refused(reader, tmp_path):
    path = link(tmp_path / "save.json", "/dev/zero")
    assert_refused(json_readers(path, tmp_path)[reader], path, tmp_path / "home", "périphérique")


@pytest.mark.parametrize("name", ["fifo", "zero", "bomb"])
def test_board_files_that_hung_or_blew_up_are_refused(name, tmp_path):
    path = tmp_path / f"{name}.yaml"
    if name == "fifo":
        make_fifo(path)
    elif name == "zero":
        link(path, "/dev/zero")
    else:
        write_document(path, None, yaml_bomb())
    assert_refused(board_reader(path, tmp_path), path, tmp_path / "home")


def test_a_fifo_on_standard_input_is_read_but_bounded(tmp_path):
    """score - reads standard input: at most the limit, then a refusal."""
    run = run_companion(["score", "draftosaurus", "-"], tmp_path, "[" + "1," * (1 << 20) + "1]")
    assert run.refused_cleanly and "trop gros" in run.stderr


# ---- the loader itself, in-process

def test_a_big_regular_file_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "big.json"
    path.write_text(" " * (2 << 20) + "{}")
    with pytest.raises(FileRefused) as caught:
        load_json(path, 1 << 20)
    assert caught.value.code == "too_big"


def test_a_folder_and_a_missing_file_are_refused(tmp_path):
    for path, code in ((tmp_path, "not_a_file"), (tmp_path / "nope.json", "missing"),
                       (link(tmp_path / "dangling.json", tmp_path / "nope.json"), "dangling_link")):
        with pytest.raises(FileRefused) as caught:
            load_json(path, 1024)
        assert caught.value.code == code
        assert str(path) in caught.value.explain("en")


@pytest.mark.parametrize("text, code", [
    ("NaN", "bad_number"), ("[1e400]", "bad_number"), ('{"a": -Infinity}', "bad_number"),
    ("1" * 41, "bad_number"), ('"\\udc00"', "bad_text"), (nested(40), "too_deep"), ("{", "not_json"),
])
def test_json_that_no_file_of_ours_holds_is_refused(text, code):
    with pytest.raises(FileRefused) as caught:
        parse_json(text, "x.json")
    assert caught.value.code == code
    for lang in ("fr", "en", "es"):
        assert "x.json" in caught.value.explain(lang)


def test_yaml_anchors_without_aliases_are_fine_and_aliases_are_refused(tmp_path):
    path = tmp_path / "a.yaml"
    path.write_text("a: &x 1\nb: 2\n")
    assert load_yaml(path, 1024) == {"a": 1, "b": 2}
    path.write_text("a: &x [1]\nb: *x\n")
    with pytest.raises(FileRefused) as caught:
        load_yaml(path, 1024)
    assert caught.value.code == "yaml_alias" and caught.value.params["line"] == 2


SETTINGS_PROBE = """
import sys
from pathlib import Path
from companion.speech.config import SpeechConfig, load_config, save_config
path = Path(sys.argv[1])
print(load_config(path) == SpeechConfig(), save_config(SpeechConfig(rate=2.0), path))
"""


@pytest.mark.parametrize("kind", ["fifo", "zero", "list"])
def test_a_settings_file_that_cannot_be_read_gives_defaults_and_is_not_written_over(kind, tmp_path):
    path = tmp_path / "config.json"
    if kind == "fifo":
        make_fifo(path)
    elif kind == "zero":
        link(path, "/dev/zero")
    else:
        path.write_text("[1, 2]")
    before = file_state(path)
    probe = subprocess.run([sys.executable, "-c", SETTINGS_PROBE, str(path)], capture_output=True, text=True,
                           timeout=30, check=False)
    assert probe.stdout.split() == ["True", "None"], probe.stderr
    assert file_state(path) == before


def test_a_socket_is_refused_as_a_special_file(tmp_path):
    path = tmp_path / "save.json"
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    try:
        with pytest.raises(FileRefused) as caught:
            load_json(path, 1024)
        assert caught.value.code == "not_a_file" and "fichier spécial" in caught.value.explain("fr")
    finally:
        server.close()
