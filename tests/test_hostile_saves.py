"""Saves that must never be written over, stray temporary files, and telling a real save from anything else."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.commands.play import check_save_target
from companion.dialogue.savefile import (
    SaveFileError,
    is_save_file,
    newest_save,
    read_save,
    remove_leftovers,
    write_save,
)
from tests.hostile_cases import (
    GAMES,
    document,
    file_state,
    forged_saves,
    link,
    make_fifo,
    resume_outcome,
    run_companion,
    saved_content,
    write_document,
)


def play_args(game: str, path: Path, *extra: str) -> list[str]:
    tokens = ["--tokens", "hidden"] if game == "jurassic-snack" else []
    return ["play", game, "--engine", "text", "--players", "Ana,Ben", *tokens, *extra, "--save", str(path)]


FORGED = [(game, name) for game in GAMES for name in sorted(forged_saves(game))]


# ---- item 4: refused files are never written over

@pytest.mark.parametrize("game, name", FORGED)
def test_play_new_never_replaces_a_save_that_resume_refuses(game, name, tmp_path):
    path = write_document(tmp_path / "save.json", forged_saves(game)[name])
    assert resume_outcome(path) == 2, "the forged save must be one resume refuses"
    before = file_state(path)
    with pytest.raises(SaveFileError) as caught:
        check_save_target(path, replace=True, game=game)
    assert f"mv {path} {path}.old" in caught.value.explain("fr"), "say how to move it aside"
    assert file_state(path) == before


@pytest.mark.parametrize("game, name", [("draftosaurus", "illegal_move"), ("dino", "snapshot_mismatch"),
                                        ("jurassic-snack", "finished_no")])
def test_the_real_play_new_refuses_them_promptly(game, name, tmp_path):
    path = write_document(tmp_path / "save.json", forged_saves(game)[name])
    before = file_state(path)
    run = run_companion(play_args(game, path, "--new"), tmp_path / "home")
    assert run.refused_cleanly, (run.returncode, run.stderr)
    assert run.prompt, run.cpu_seconds
    assert file_state(path) == before
    assert f"mv {path} {path}.old" in run.stderr, "say how to move it aside"


@pytest.mark.parametrize("game", GAMES)
def test_resume_refuses_the_forged_saves_too(game, tmp_path):
    path = write_document(tmp_path / "save.json", forged_saves(game)["illegal_move"])
    before = file_state(path)
    run = run_companion(["resume", str(path), "--engine", "text"], tmp_path / "home")
    assert run.returncode == 2 and run.prompt and "abîmé" in run.stdout + run.stderr
    assert file_state(path) == before


def test_a_save_of_another_game_is_not_replaced_even_with_new(tmp_path):
    path = tmp_path / "save.json"
    write_save(path, "dino", saved_content("dino"))
    before = file_state(path)
    for extra in ((), ("--new",)):
        run = run_companion(play_args("draftosaurus", path, *extra), tmp_path / "home")
        assert run.refused_cleanly and "autre jeu : dino" in run.stderr and "mv " in run.stderr
        assert file_state(path) == before


@pytest.mark.parametrize("kind", ["dangling", "loop"])
@pytest.mark.parametrize("new", [False, True])
def test_a_dangling_link_or_a_link_loop_is_not_replaced(kind, new, tmp_path):
    path = tmp_path / "save.json"
    link(path, tmp_path / "gone.json" if kind == "dangling" else path)
    before = file_state(path)
    run = run_companion(play_args("draftosaurus", path, *(["--new"] if new else [])), tmp_path / "home")
    assert run.refused_cleanly and run.prompt, run.stderr
    assert ("gone.json" if kind == "dangling" else "boucle") in run.stderr
    assert file_state(path) == before and not (tmp_path / "gone.json").exists()


def test_only_a_finished_game_is_replaced_without_new(tmp_path):
    path = tmp_path / "save.json"
    over = saved_content("draftosaurus", finished=True)
    for flag, replaced in ((True, True), ("yes", False), (1, False)):
        write_document(path, document("draftosaurus", {**over, "finished": flag}))
        try:
            check_save_target(path, replace=False, game="draftosaurus")
            assert replaced, flag
        except SaveFileError:
            assert not replaced, flag
    in_progress = saved_content("draftosaurus")
    write_document(path, document("draftosaurus", {**in_progress, "finished": True}))  # forged: not over
    with pytest.raises(SaveFileError) as caught:
        check_save_target(path, replace=False, game="draftosaurus")
    assert caught.value.code == "in_progress"


def test_a_link_to_a_good_save_is_followed_and_kept(tmp_path):
    real = tmp_path / "real.json"
    write_save(real, "draftosaurus", saved_content("draftosaurus", finished=True))
    path = link(tmp_path / "save.json", real)
    run = run_companion(play_args("draftosaurus", path), tmp_path / "home", bound=30)
    assert run.returncode == 0, run.stderr
    assert path.is_symlink() and read_save(real)[1]["finished"] is False  # the new game, written in the target


# ---- item 7: leftovers of a killed write, and which files are saves

KILLED_WRITE = """
import json, os, signal, sys, tempfile
folder = sys.argv[1]
handle, name = tempfile.mkstemp(prefix=".draftosaurus.json.", suffix=".tmp", dir=folder)
os.write(handle, json.dumps({"kind": "companion-save", "version": 1}, indent=1)[:20].encode())
os.kill(os.getpid(), signal.SIGKILL)
"""


def test_temporary_files_of_a_killed_write_are_removed_and_nothing_else(tmp_path):
    saves = tmp_path / "saves"
    saves.mkdir()
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITE, str(saves)], check=False)
    assert killed.returncode == -9
    leftover = [p for p in saves.iterdir()]
    assert len(leftover) == 1 and leftover[0].name.startswith(".draftosaurus.json.")
    others = {".draftosaurus.json.abcd1234.tmp": "not ours at all", ".x.json.ABCDEFGH.tmp": "",
              "notes.tmp": "", ".draftosaurus.json.abcd1234.tmp.bak": ""}
    for name, text in others.items():
        (saves / name).write_text(text)
    locked = saves / ".dino.json.live0000.tmp"
    locked.write_text("")
    with open(locked) as held:
        fcntl.flock(held, fcntl.LOCK_EX)  # a write under way in another process
        probe = subprocess.run([sys.executable, "-c",
                                ("import sys; from pathlib import Path; "
                                 "from companion.dialogue.savefile import remove_leftovers; "
                                 "print(len(remove_leftovers(Path(sys.argv[1]))))"), str(saves)],
                               capture_output=True, text=True, check=False)
    assert probe.stdout.strip() == "1", probe.stderr
    assert not leftover[0].exists()
    assert sorted(p.name for p in saves.iterdir()) == sorted([*others, locked.name])
    assert all((saves / name).read_text() == text for name, text in others.items())


def test_the_first_save_written_in_a_folder_removes_its_leftovers(tmp_path):
    saves = tmp_path / "home" / "saves"
    saves.mkdir(parents=True)
    subprocess.run([sys.executable, "-c", KILLED_WRITE, str(saves)], check=False)
    run = run_companion(["play", "draftosaurus", "--engine", "text", "--players", "Ana,Ben"], tmp_path / "home",
                        bound=30)
    assert run.returncode == 0
    assert [p.name for p in saves.iterdir()] == ["draftosaurus.json"]


def test_a_real_save_is_told_from_anything_else(tmp_path):
    good = tmp_path / "good.json"
    write_save(good, "dino", saved_content("dino"))
    not_a_save = write_document(tmp_path / "zoos.json", {"players": []})
    damaged = write_document(tmp_path / "damaged.json", None, good.read_text()[:-10])
    fifo = make_fifo(tmp_path / "fifo.json")
    dangling = link(tmp_path / "dangling.json", tmp_path / "gone.json")
    loop = link(tmp_path / "loop.json", tmp_path / "loop.json")
    (tmp_path / "folder.json").mkdir()
    assert is_save_file(good)
    for path in (not_a_save, damaged, fifo, dangling, loop, tmp_path / "folder.json", tmp_path / "gone.json"):
        assert not is_save_file(path), path


def test_the_newest_save_skips_newer_files_that_are_no_saves(tmp_path):
    older, newer = tmp_path / "dino.json", tmp_path / "draftosaurus.json"
    write_save(older, "dino", saved_content("dino"))
    write_save(newer, "draftosaurus", saved_content("draftosaurus"))
    os.utime(older, (1_000_000, 1_000_000))
    os.utime(newer, (2_000_000, 2_000_000))
    write_document(tmp_path / "notes.json", {"kind": "something else"})
    link(tmp_path / "zz.json", tmp_path / "gone.json")
    assert newest_save(tmp_path) == newer
    newer.write_text(json.dumps({"kind": "companion-save"}))
    assert newest_save(tmp_path) == older
    assert newest_save(tmp_path / "nothing-here") is None
    assert remove_leftovers(tmp_path / "nothing-here") == []
