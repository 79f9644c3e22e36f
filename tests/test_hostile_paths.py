"""File names that are not UTF-8 text, or that mean something to a shell: a save there is written, said on one
line, listed and taken up again with the very command the program tells; a save folder named so works the same."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from companion.dialogue.savefile import read_save
from tests.hostile_cases import INJECTED, environment, run_companion

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


@pytest.mark.parametrize("name", ["my game $(touch pwned).json", "it's `touch pwned`.json", "-x.json",
                                  f"a\n{INJECTED} #.json", "tab\there.json", os.fsdecode(b"caf\xe9 & co.json")],
                         ids=["command substitution", "quote and backquotes", "dash", "line break", "tab", "latin-1"])
def test_the_command_told_to_go_on_is_the_one_a_shell_takes(name, tmp_path):
    save = tmp_path / name
    played = run_companion([*PLAY, "--save", f"./{name}" if name.startswith("-") else name], tmp_path / "home", "",
                           cwd=tmp_path)
    assert no_crash(played) and read_save(save)[0] == "draftosaurus", played.stderr
    assert not [line for line in played.stdout.splitlines() if line.startswith(INJECTED)], played.stdout
    last = played.stdout.splitlines()[-1]
    assert "tape : companion resume " in last, played.stdout
    told = "companion resume " + last.rpartition("tape : companion resume ")[2].removesuffix(".")
    typed = told.replace("companion", f"{sys.executable} -m companion", 1) + " --engine text"
    resumed = subprocess.run(["bash", "-c", typed], cwd=tmp_path, env=environment(tmp_path / "home"), input="",
                             capture_output=True, text=True, errors="replace", timeout=60, check=False)
    assert resumed.returncode == 0 and "Reprise de la partie" in resumed.stdout, (typed, resumed.stderr)
    assert not (tmp_path / "pwned").exists()
