"""Names from files and from the table: a line break in a name read from a save or a file
of zoos never starts a line of its own, and names that differ only by invisible characters are one name."""

from __future__ import annotations

import os

import pytest

from companion.games.common import same_name
from tests.hostile_cases import document, run_companion, saved_content, write_document

INJECTED = "Partie enregistrée. Pour continuer, tape : rm -rf ~"
SEPARATORS = ["\n", "\r\n", "\u2028", "\u2029", "\x85", "\t", "\x0b", "\x0c"]


def assert_one_line_each(output: str) -> None:
    assert not [line for line in output.splitlines() if line.startswith(INJECTED)], output[-800:]


@pytest.mark.parametrize("separator", SEPARATORS, ids=[hex(ord(s[-1])) for s in SEPARATORS])
def test_a_line_break_in_a_saved_name_never_starts_a_line(separator, tmp_path):
    content = saved_content("draftosaurus")
    content["state"]["setup"]["players"] = [f"Ana{separator}{INJECTED}", "Ben"]
    content["state"].pop("snapshot")
    path = write_document(tmp_path / "s.json", document("draftosaurus", content))
    run = run_companion(["resume", str(path), "--engine", "text"], tmp_path / "home", "les scores\n")
    assert run.returncode == 0, run.stderr
    assert_one_line_each(run.stdout + run.stderr)
    assert "Ana " + INJECTED in run.stdout


@pytest.mark.parametrize("separator", ["\n", "\u2028", "\t"])
def test_a_line_break_in_a_name_of_a_file_of_zoos_never_starts_a_line(separator, tmp_path):
    players = [{"name": f"Ana{separator}{INJECTED}", "zoo": {"river": ["trex"]}}, {"name": "Ben", "zoo": {}}]
    zoos = write_document(tmp_path / "zoos.json", {"players": players})
    run = run_companion(["score", "draftosaurus", str(zoos)], tmp_path / "home", "")
    assert run.returncode == 0, run.stderr
    assert_one_line_each(run.stdout)


@pytest.mark.parametrize("other", ["A\u200b", "\u200bA", "a", "A\u00ad", "A\u2060", "\uff21", "A\ufeff"],
                         ids=["zero-width space", "leading", "case", "soft hyphen", "word joiner", "full width", "bom"])
def test_names_that_differ_only_by_what_cannot_be_heard_are_one_name(other, tmp_path):
    assert same_name("A", other)
    run = run_companion(["play", "draftosaurus", "--engine", "text", "--players", f"A,{other}", "--save",
                         str(tmp_path / "s.json")], tmp_path / "home", "")
    assert run.refused_cleanly and "est nommé deux fois" in run.stderr, (run.returncode, run.stderr)
    for game in ("dino", "jurassic-snack"):
        run = run_companion(["play", game, "--engine", "text", "--players", f"A,{other}", "--save",
                             str(tmp_path / f"{game}.json")], tmp_path / "home", "")
        assert run.refused_cleanly, (game, run.returncode, run.stderr)


def test_a_typed_name_that_differs_only_by_an_invisible_character_is_taken(tmp_path):
    lines = ["deux", "Zoé", "Zo\u200bé", "Max", "oui"]
    run = run_companion(["play", "draftosaurus", "--engine", "text", "--save", str(tmp_path / "s.json")],
                        tmp_path / "home", "\n".join(lines) + "\n")
    assert "est déjà pris" in run.stdout, run.stdout[-600:]


def test_only_mine_finds_a_name_written_with_an_invisible_character(tmp_path):
    run = run_companion(["play", "draftosaurus", "--engine", "text", "--players", "Ana,Ben", "--only-mine",
                         "A\u200bna", "--save", str(tmp_path / "s.json")], tmp_path / "home", "")
    assert run.returncode == 0, run.stderr


@pytest.mark.parametrize("written", [os.fsdecode(b"An\xffa"), "An\x01a", "\x1b[1mAna"],
                         ids=["not UTF-8", "control character", "escape sequence"])
def test_only_mine_finds_a_name_shown_the_same(written, tmp_path):
    run = run_companion(["play", "draftosaurus", "--engine", "text", "--players", f"{written},Ben", "--only-mine",
                         written, "--save", str(tmp_path / "s.json")], tmp_path / "home", "")
    assert run.returncode == 0 and "Ana" in run.stdout, run.stderr
