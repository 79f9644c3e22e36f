"""How a solo game of Dino speaks: to the player as "you", of a bot's pawn that stood on the board from where to
where, and "an" before a vowel in English."""

from __future__ import annotations

import pytest

from tests.conftest import run_play

METEOR = {"en": "all four to the meteor", "fr": "tout pour la météorite", "es": "todo para el meteorito"}
# At seed 9 the bot's pawn enters on C3, walks on to E2, D3 and then B5 where it takes an orange egg.
SAID = {
    "en": ["You play red; your pawns start from the time machines of A1 and F6.",
           "Bot moves their yellow pawn from C3 to E2 in 3 spaces", "takes an orange egg"],
    "fr": ["Tu joues le rouge ; tes pions partent des machines de A1 et F6.",
           "Bot avance son pion jaune de C3 jusqu'en E2 en 3 emplacements"],
    "es": ["Juegas con el rojo; tus peones salen de las máquinas de A1 y F6.",
           "Bot avanza su peón amarillo de C3 hasta E2 en 3 espacios"],
}


@pytest.mark.parametrize("lang", ["en", "fr", "es"])
def test_a_solo_game_speaks_to_the_player_and_says_where_a_bot_s_pawn_came_from(tmp_path, lang):
    run = run_play(["play", "dino", "--solo", "--bots", "1", "--engine", "text", "--quiet", "--lang", lang,
                    "--players", "Sam", "--seed", "9", "--new", "--save", str(tmp_path / "dino.json")],
                   [METEOR[lang]] * 8, tmp_path)
    assert run.returncode == 0, run.stderr
    for sentence in SAID[lang]:
        assert sentence in run.stdout, (sentence, run.stdout[:3000])
    assert "Sam plays" not in run.stdout and "Sam joue" not in run.stdout and "Sam juega" not in run.stdout
