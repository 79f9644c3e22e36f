"""Hostile typed input: a line far longer than any command is answered at once, as not
understood, and a line without end does not fill the memory."""

from __future__ import annotations

import io
import sys

import pytest

from companion.dialogue.savefile import read_save
from companion.language.grammar import MAX_LINE, examples, games, parse
from companion.language.messages import LANGUAGES
from companion.speech.base import LINE_GIVEN_UP, LINE_KEPT, TextListener
from tests.hostile_cases import run_companion

PLAY = ["play", "draftosaurus", "--engine", "text", "--players", "Ana,Ben"]
# Scripts whose long lines never finished parsing before the bound, and the filler that was reported.
LONG_LINES = {
    "filler": "euh " * 7500,
    "scripts": ("दिनोसौर 李龍 ثعبان Ελλάδα ž̌̌̌ " * 30000)[:900_000],
    "one_word": "a" * 900_000,
}


@pytest.mark.parametrize("name", sorted(LONG_LINES))
def test_a_long_line_is_answered_at_once_and_the_game_goes_on(name, tmp_path):
    save = tmp_path / "s.json"
    run = run_companion([*PLAY, "--save", str(save)], tmp_path, LONG_LINES[name] + "\ndé : forêt\n")
    assert run.returncode == 0 and run.prompt, (run.returncode, run.cpu_seconds, run.stderr)
    assert "C'est trop long pour une commande : « " in run.stdout and "… »" in run.stdout
    assert max(len(line) for line in run.stdout.splitlines()) < 300, "the line is not read back whole"
    assert read_save(save)[1]["state"]["actions"] == [{"type": "roll", "face": "forest"}]  # the next line played


def test_a_line_without_end_is_the_end_of_the_input(tmp_path):
    run = run_companion([*PLAY, "--save", str(tmp_path / "s.json")], tmp_path, "x" * (LINE_GIVEN_UP + 10))
    assert run.returncode == 0 and run.prompt
    assert "Partie enregistrée" in run.stdout


def test_no_example_sentence_reaches_the_cap():
    longest = max(len(example.text) for game in games() for lang in LANGUAGES
                  for example in examples(game, lang).understood)
    assert longest * 4 < MAX_LINE < LINE_KEPT


def test_a_line_past_the_cap_is_not_understood_and_shown_shortened():
    result = parse("dé : forêt " * 100, game="draftosaurus", lang="fr")
    assert result.intent is None and result.suggestion is None
    assert len(result.text) < 100 and result.text.endswith("…")
    assert parse("dé : forêt", game="draftosaurus", lang="fr").intent is not None


def test_the_text_listener_keeps_the_start_of_a_long_line_and_reads_on():
    listener = TextListener(io.StringIO("y" * 10_000 + "\nnext\n"))
    assert listener.listen().text == "y" * LINE_KEPT
    assert listener.listen().text == "next"
    assert listener.listen() is None


@pytest.mark.parametrize("stream", [None, "closed"])
def test_the_text_listener_takes_a_missing_or_closed_input_for_its_end(stream, monkeypatch):
    if stream == "closed":
        stream = io.StringIO("line\n")
        stream.close()
    else:
        monkeypatch.setattr(sys, "stdin", None)  # what Python gives a program started with stdin closed
    assert TextListener(stream).listen() is None
