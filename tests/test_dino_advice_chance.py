"""The Dino advisor's chance of winning is said as what it is, an estimate from a few playouts: out of ten,
never as a sure win or a sure loss."""

from __future__ import annotations

import pytest

from companion.games.dino.advice import ADVICE_WORLDS, win_in_ten
from companion.language.messages import catalog
from tests.conftest import run_play
from tests.test_solo_dino import ADVICE


def test_a_few_playouts_never_make_a_sure_result():
    assert win_in_ten(1.0, ADVICE_WORLDS) == 9 and win_in_ten(0.0, ADVICE_WORLDS) == 1
    assert win_in_ten(0.5, ADVICE_WORLDS) == 5


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_the_first_advice_does_not_promise_a_sure_win(tmp_path, lang):
    """At seed 9 the first advice's turn won all its playouts: it was said as 100 times in a hundred."""
    run = run_play(["play", "dino", "--solo", "--bots", "1", "--engine", "text", "--quiet", "--lang", lang,
                    "--players", "Sam", "--seed", "9", "--new", "--save", str(tmp_path / "dino.json")],
                   [ADVICE[lang]], tmp_path)
    assert run.returncode == 0, run.stderr
    words = catalog(lang)
    said = [chance for chance in range(11) if words.say("dino.advice_chance", win_in_ten=chance) in run.stdout]
    assert said and 0 < said[0] < 10, run.stdout[-800:]
