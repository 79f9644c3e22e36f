"""Choosing the pawn colours at a Dino table: "help" names the colours still free and how to say one, "Alice
in green" is understood, and the colours chosen are read back."""

from __future__ import annotations

import pytest

from companion.language.messages import catalog
from tests.conftest import run_play

NO = {"fr": "non", "en": "no", "es": "no"}
HELP = {"fr": "aide", "en": "help", "es": "ayuda"}
GREEN = {"fr": "Alice en vert", "en": "Alice in green", "es": "Alice de verde"}
RED = {"fr": "rouge", "en": "red", "es": "rojo"}
OTHER = {"fr": "Bruno en bleu", "en": "Bruno in blue", "es": "Bruno de azul"}  # said when Alice is asked: not hers


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_the_colour_help_names_the_free_colours_and_a_colour_said_with_the_name_is_taken(tmp_path, lang):
    run = run_play(["play", "dino", "--lang", lang, "--engine", "text", "--quiet", "--players", "Alice,Bruno",
                    "--seed", "4", "--new", "--save", str(tmp_path / "dino.json")],
                   [NO[lang], HELP[lang], OTHER[lang], GREEN[lang], HELP[lang], RED[lang]], tmp_path)
    words = catalog(lang)
    names = {colour: words.name("colours", colour) for colour in ("red", "yellow", "green", "blue", "orange", "purple")}
    free = words.say("dino.setup.or_join", head=words.say("list.separator").join(
        names[c] for c in ("red", "yellow", "blue", "orange")), last=names["purple"])
    assert words.say("dino.setup.help_colour", player="Bruno", colour="red", colours=free) in run.stdout, run.stdout
    pairs = words.join([words.say("dino.setup.player_colour", player="Alice", colour="green"),
                        words.say("dino.setup.player_colour", player="Bruno", colour="red")])
    assert words.say("dino.setup.colours_chosen", pairs=pairs) in run.stdout, run.stdout


def test_the_help_of_the_penalty_question_fits_it(tmp_path):
    """After the fall, "aide" to "how many points would it need to reach a machine?" speaks of those points."""
    from tests.test_dino_play import SETUP, play

    lines = [*SETUP[:-1], "non", "3", "8 pierres", "non",
             "mon pion rouge numéro 1 avance de 3 jusqu'en B2 et je prends un œuf rouge",
             "tout pour la météorite", "mon pion rouge numéro 1 avance de 1 jusqu'en B3",
             "aide", "2 points"]
    out = play(tmp_path, ["Ana", "Bruno"], lines).stdout
    assert catalog("fr").say("dino.help.penalty", least=2) in out, out[-1500:]
    assert "un carré comme B4" not in out.split("Combien de points lui faudrait-il")[-1]
