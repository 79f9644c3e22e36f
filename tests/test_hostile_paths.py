"""File names that are not UTF-8 text (issue 27, item 5): a save there is written, said, listed and taken up
again; a save folder named so works the same."""

from __future__ import annotations

import os

from companion.dialogue.savefile import read_save
from tests.hostile_cases import environment, run_companion

PLAY = ["play", "draftosaurus", "--engine", "text", "--players", "Ana,Ben"]


def no_crash(run) -> bool:
    return run.returncode == 0 and "internal error" not in run.stderr and "Traceback" not in run.stderr


def test_a_save_whose_name_is_not_utf8_is_written_said_and_resumed(tmp_path):
    save = tmp_path / os.fsdecode(b"x\xff.json")
    played = run_companion([*PLAY, "--save", str(save)], tmp_path / "home", "")
    assert no_crash(played), played.stderr
    assert read_save(save)[0] == "draftosaurus"
    assert "x\ufffd.json" in played.stdout  # said with the replacement character
    assert f"companion resume $'{tmp_path}/x\\xff.json'" in played.stdout  # typed as a shell takes it
    resumed = run_companion(["resume", str(save), "--engine", "text"], tmp_path / "home", "")
    assert no_crash(resumed), resumed.stderr
    latest = run_companion(["resume", "--engine", "text"], tmp_path / "home", "")
    assert no_crash(latest), latest.stderr


def test_a_data_folder_whose_name_is_not_utf8_holds_the_usual_saves(tmp_path):
    home = tmp_path / os.fsdecode(b"h\xe9")
    env = environment(home)
    played = run_companion(PLAY, home, "", env=env)
    assert no_crash(played), played.stderr
    assert read_save(home / "saves" / "draftosaurus.json")[0] == "draftosaurus"
    assert "companion resume draftosaurus" in played.stdout
    for args in (["resume", "--engine", "text"], ["resume", "draftosaurus", "--engine", "text"]):
        resumed = run_companion(args, home, "", env=env)
        assert no_crash(resumed), resumed.stderr
