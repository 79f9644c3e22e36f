"""Options and arguments from the command line (issue 27, items 2, 8 and 9): whatever the command line takes,
the program can read back; what it refuses, it refuses at once, in the language asked for."""

from __future__ import annotations

import pytest

from companion.dialogue.savefile import read_save, write_save
from companion.games.common import MAX_SEED
from tests.hostile_cases import file_state, run_companion, saved_content

PLAY = ["play", "draftosaurus", "--engine", "text", "--players", "Ana,Ben", "--die", "virtual"]


# ---- item 2: a seed the save could not hold

@pytest.mark.parametrize("seed", ["1" + "0" * 40, "12345678901234567890123456789012345678901", str(MAX_SEED + 1), "-3"])
def test_a_seed_no_save_could_hold_is_refused_at_the_start(seed, tmp_path):
    save = tmp_path / "s.json"
    run = run_companion([*PLAY, "--seed", seed, "--save", str(save)], tmp_path / "home", "")
    assert run.refused_cleanly and run.prompt, (run.returncode, run.stderr)
    assert "--seed attend un nombre entier positif ou nul d'au plus 20 chiffres" in run.stderr
    assert not save.exists() and not (tmp_path / "home" / "saves").exists()


def test_the_largest_seed_taken_is_read_back(tmp_path):
    save = tmp_path / "s.json"
    played = run_companion([*PLAY, "--seed", str(MAX_SEED), "--save", str(save)], tmp_path / "home", "")
    assert played.returncode == 0, played.stderr
    assert read_save(save)[1]["settings"]["seed"] == MAX_SEED
    resumed = run_companion(["resume", str(save), "--engine", "text"], tmp_path / "home", "")
    assert resumed.returncode == 0 and "companion resume" in resumed.stdout, resumed.stderr


def test_no_save_is_written_that_the_reader_would_refuse(tmp_path):
    save = tmp_path / "s.json"
    write_save(save, "draftosaurus", saved_content("draftosaurus"))
    before = file_state(save)
    content = saved_content("draftosaurus")
    content["settings"]["seed"] = 10 ** 41
    with pytest.raises(ValueError, match="could not be read back"):
        write_save(save, "draftosaurus", content)
    assert file_state(save) == before


# ---- item 9: refusals in the language asked for

PLAY_ARGS = ["--engine", "text", "--players", "Ana,Ben"]
# (command, {language: words of the refusal}); every command gets --lang LANG.
REFUSALS = [
    (["say", "--rate", "9", "x"], {"fr": "--rate va de 0.5 à 2.5", "es": "--rate va de 0.5 a 2.5"}),
    (["say", "--volume", "0", "x"], {"fr": "--volume va de 0.1 à 1.0", "es": "--volume va de 0.1 a 1.0"}),
    (["say", " "], {"fr": "le texte est vide", "es": "el texto está vacío"}),
    (["tactile"], {"fr": "Donne soit un nombre", "es": "Da o bien un número"}),
    (["parse", "--game", "nogame", "x"], {"fr": "Je ne connais pas le jeu « nogame »",
                                          "es": "No conozco el juego «nogame»"}),
    (["parse"], {"fr": "Donne la phrase à comprendre", "es": "Da la frase que hay que entender"}),
    (["parse", "--state", "nope", "x"], {"fr": "n'a pas d'état de dialogue « nope »",
                                         "es": "no tiene el estado de diálogo «nope»"}),
    (["listen", "--engine", "text"], {"fr": "L'entrée s'est terminée", "es": "La entrada se ha terminado"}),
    (["listen", "--file", "/dev/zero"], {"fr": "mais un périphérique", "es": "sino un dispositivo"}),
    (["listen", "--file", "/nowhere.wav"], {"fr": "est introuvable", "es": "no existe"}),
    (["models", "download"], {"fr": "Dis quelle langue télécharger", "es": "Di qué idioma descargar"}),
    (["play", "draftosaurus", *PLAY_ARGS, "--only-mine", "Zed"], {"fr": "Zed n'est pas l'un des joueurs",
                                                                  "es": "Zed no es ninguno de los jugadores"}),
    (["play", "draftosaurus", *PLAY_ARGS, "--seed", "-3"], {"fr": "--seed attend un nombre entier",
                                                            "es": "--seed necesita un número entero"}),
    (["play", "jurassic-snack", "--engine", "text", "--players", "Ana,Ben,Cléo"],
     {"fr": "Jurassic Snack se joue à deux", "es": "Jurassic Snack se juega a dos"}),
    (["play", "draftosaurus", *PLAY_ARGS, "--solo", "--bots", "0"], {"fr": "--bots ne prend pas « 0 »",
                                                                     "es": "--bots no acepta «0»"}),
    (["play", "draftosaurus", *PLAY_ARGS, "--seed", "abc"], {"fr": "--seed attend un nombre, pas « abc »",
                                                             "es": "--seed necesita un número, no «abc»"}),
    (["play", "draftosaurus", *PLAY_ARGS, "--trio-points", "8"], {"fr": "--trio-points ne prend pas « 8 »",
                                                                  "es": "--trio-points no acepta «8»"}),
    (["play", "jurassic-snack", *PLAY_ARGS, "--quiet-turns", "0"], {"fr": "--quiet-turns ne prend pas « 0 »",
                                                                    "es": "--quiet-turns no acepta «0»"}),
]
ENGLISH = ("must be", "is empty", "give either", "unknown game", "give the sentence", "unknown dialogue",
           "input ended", "no such audio", "say which language", "is not one of", "the seed", "needs exactly",
           "invalid", "choose from")


@pytest.mark.parametrize("lang", ["fr", "es"])
@pytest.mark.parametrize("args, said", REFUSALS, ids=[" ".join(args[:3]) for args, _ in REFUSALS])
def test_a_refusal_is_said_in_the_language_asked_for(args, said, lang, tmp_path):
    run = run_companion([*args, "--lang", lang], tmp_path / "home", "")
    last = run.stderr.strip().splitlines()[-1]  # listen says first, on its own line, how to type
    assert run.returncode == 2 and run.prompt and "internal error" not in run.stderr, (run.returncode, run.stderr)
    assert said[lang] in last and last.startswith("companion: "), run.stderr
    assert not [words for words in ENGLISH if words in run.stderr.casefold()], run.stderr


def test_a_game_name_wins_over_a_folder_of_that_name(tmp_path):
    home = tmp_path / "home"
    played = run_companion(["play", "dino", "--engine", "text", "--players", "Ana,Ben"], home, "oui\noui\noui\n")
    assert played.returncode == 0, played.stderr
    (tmp_path / "dino").mkdir()
    resumed = run_companion(["resume", "dino", "--engine", "text"], home, "", cwd=tmp_path)
    assert resumed.returncode == 0 and "Reprise de la partie" in resumed.stdout, resumed.stderr
