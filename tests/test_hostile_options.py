"""Options and arguments from the command line: whatever the command line takes, the program can read back and
play to the end; what it refuses, it refuses at once, in the language asked for."""

from __future__ import annotations

import pytest

from companion.dialogue.savefile import read_save, write_save
from companion.games.common import MAX_SEED
from companion.games.draftosaurus.engine import Game
from tests.conftest import random_game, run_play, saved_state, script_lines
from tests.hostile_cases import ENGLISH, PLAY_ARGS, REFUSALS, file_state, run_companion, saved_content

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


@pytest.mark.parametrize("lang, no, yes, keep", [("fr", "non", "oui", "garde"), ("en", "no", "yes", "keep")])
def test_a_match_begun_with_the_largest_seed_reaches_its_winter_game(lang, no, yes, keep, tmp_path):
    save = tmp_path / "m.json"
    summer = script_lines(random_game(["Ana", "Ben"], 3), lang)
    start = ["play", "draftosaurus", "--engine", "text", "--lang", lang, "--players", "Ana,Ben", "--match",
             "summer-winter", "--seed", str(MAX_SEED), "--save", str(save)]
    # no detail of the summer points, yes to the winter game, the winter values kept as shipped
    played = run_play(start, [*summer, no, yes, *[keep] * 6], tmp_path / "home")
    assert played.returncode == 0, played.stderr
    content = saved_state(save)
    assert len(content["match"]["played"]) == 1, played.stdout[-600:]
    winter = Game.from_json(content["state"])
    assert winter.board == "winter" and winter.seed == 0
    resumed = run_play(["resume", str(save)], [], tmp_path / "home")
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

@pytest.mark.parametrize("lang", ["fr", "es"])
@pytest.mark.parametrize("args, said", REFUSALS,
                         ids=[" ".join(a for a in args if a not in PLAY_ARGS) for args, _ in REFUSALS])
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


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_a_refusal_said_aloud_keeps_its_option_as_typed(lang, tmp_path):
    run = run_play(["play", "draftosaurus", *PLAY_ARGS, "--lang", lang, "--only-mine", "Zed"], [], tmp_path / "home")
    assert run.returncode == 2, run.stderr
    said = run.stdout.strip().splitlines()[-1]
    assert said.startswith("--only-mine") and "Zed" in said, said  # it was said and printed as "--Only-mine"
