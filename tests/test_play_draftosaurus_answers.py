"""Every prompt accepts the answer it invites, and every refusal says why and what is allowed, through the text
engine in French, English and Spanish: a species whose figures are all played, the question between the games of a
match, the lovers' bridge refused on both banks, the end of the game and of a match, places said as one."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from companion.language.messages import catalog
from tests.conftest import run_play


def play(tmp_path: Path, lang: str, players: str, lines: list[str], *options: str) -> subprocess.CompletedProcess:
    return run_play(["play", "draftosaurus", "--lang", lang, "--engine", "text", "--quiet", "--players", players,
                     "--die", "virtual", "--new", "--save", str(tmp_path / "g.json"), *options], lines, tmp_path)


def said(lang: str, key: str, **params) -> str:
    return catalog(lang).say(key, **params)


# ---------------------------------------------------------------- a species whose figures are all played

TREX_IN_THE_RIVER = {"en": "T-Rex in the river", "fr": "T-Rex dans la rivière", "es": "T-Rex en el río"}


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_a_species_all_played_is_refused_without_a_question_and_with_the_species_left(tmp_path, lang):
    out = play(tmp_path, lang, "Ann,Ben,Cy", [TREX_IN_THE_RIVER[lang]] * 7, "--seed", "1").stdout
    words = catalog(lang)
    refusal = next(line for line in out.splitlines() if words.say("reasons.draft_bag_exhausted", species="trex",
                                                                  limit=6) in line)
    assert "?" not in refusal  # no yes/no question that the turn's prompt would not take
    left = words.join(words.name("species", species) for species in
                      ("triceratops", "stegosaurus", "diplodocus", "parasaurolophus", "spinosaurus"))
    assert said(lang, "draft.bag_left", species=left) in out  # what is allowed, and undo for a misheard move
