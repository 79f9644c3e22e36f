"""What the program says a player may say, said back in a Dino game through the text engine: the advised turn
(with the pawn named by its square, the egg and the meteor's points) and the example of the help are understood
and played."""

from __future__ import annotations

import re

import pytest

from companion.games.dino.actions import Move
from companion.games.dino.engine import Game
from tests.conftest import run_play, saved_state
from tests.test_solo_dino import ADVICE

# The advised turn in the advice sentence, and how the player says it back (their own pawn, not "your" pawn).
ADVISED = {"en": re.compile(r"I suggest you (.+?): "), "fr": re.compile(r"Je te conseille d(?:e |')(.+?) : "),
           "es": re.compile(r"Te aconsejo (.+?): ")}
MINE = {"en": (("your ", "my "),), "fr": (("ton ", "mon "), ("tes ", "mes ")), "es": (("tu ", "mi "), ("tus ", "mis "))}
TURNS = 4


def solo(save, lang: str, seed: int = 9) -> list[str]:
    return ["play", "dino", "--solo", "--bots", "1", "--engine", "text", "--quiet", "--lang", lang,
            "--players", "Sam", "--seed", str(seed), "--save", str(save), "--new"]


def said_back(turn: str, lang: str) -> str:
    for yours, mine in MINE[lang]:
        turn = turn.replace(yours, mine)
    return turn


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_the_advised_turn_said_back_is_played(tmp_path, lang):
    save = tmp_path / "dino.json"
    lines: list[str] = []
    for turn in range(TURNS):
        run = run_play(solo(save, lang), [*lines, ADVICE[lang]], tmp_path)
        assert run.returncode == 0, run.stderr
        advised = ADVISED[lang].findall(run.stdout)
        assert len(advised) == turn + 1, run.stdout[-2000:]
        lines += [ADVICE[lang], said_back(advised[-1], lang)]
        run = run_play(solo(save, lang), lines, tmp_path)
        played = Game.from_json(saved_state(save)["state"])
        mine = [action for action in played.actions if getattr(action, "player", None) == 0]
        assert len(mine) == turn + 1, (lines[-1], run.stdout[-1500:])
        if played.phase != "play":
            break
    assert any(isinstance(action, Move) for action in mine)


HELP = {"en": "help", "fr": "aide", "es": "ayuda"}
EXAMPLE = {"en": re.compile(r"for example: (.+?)\. Or:"), "fr": re.compile(r"par exemple : (.+?)\. Ou :"),
           "es": re.compile(r"por ejemplo: (.+?)\. O:")}


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_the_example_of_the_solo_help_said_back_is_played(tmp_path, lang):
    save = tmp_path / "dino.json"
    run = run_play(solo(save, lang), [HELP[lang]], tmp_path)
    example = EXAMPLE[lang].findall(run.stdout)
    assert len(example) == 1, run.stdout[-1500:]
    first = example[0]
    run = run_play(solo(save, lang), [first, HELP[lang]], tmp_path)
    played = Game.from_json(saved_state(save)["state"])
    assert [action for action in played.actions if getattr(action, "player", None) == 0], run.stdout[-1500:]
    # the next turn's example is a move of that moment too
    example = EXAMPLE[lang].findall(run.stdout)
    assert len(example) == 1, run.stdout[-1500:]
    run = run_play(solo(save, lang), [first, HELP[lang], example[0]], tmp_path)
    played = Game.from_json(saved_state(save)["state"])
    assert len([action for action in played.actions if getattr(action, "player", None) == 0]) == 2, \
        run.stdout[-1500:]
