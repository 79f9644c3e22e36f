"""Two processes on one save, a save link re-pointed during the game, a save changed by another program: no
acknowledged move is lost and nothing but the game's own save is written."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion.dialogue.savefile import read_save, write_save
from tests.hostile_cases import REFUSAL_BOUND_S, Live, file_state, run_companion, saved_actions, saved_content

PLAY = ["play", "draftosaurus", "--engine", "text", "--players", "Ana,Ben,Cléo"]  # three: no discards
MOVES = ["dé : forêt", "Ana : tricératops dans la rivière", "Ben : diplodocus dans la rivière"]
MOVES_IN = {"fr": MOVES, "en": ["the die says forest", "Ana: triceratops in the river", "Ben: diplodocus in the river"],
            "es": ["dado: bosque", "Ana: tricerátops en el río", "Ben: diplodocus en el río"]}


def started(tmp_path: Path, args: list[str], actions: int, *lines: str) -> Live:
    """A game running in its own process, holding its save, once `actions` actions are saved."""
    save = Path(args[args.index("--save") + 1]) if "--save" in args else None
    live = Live(args, tmp_path / "home")
    live.send(*lines)
    target = save if save is not None else Path(args[1])
    live.wait_for(lambda: target.exists() and _count(target) >= actions)
    return live


def fresh_save(tmp_path: Path, path: Path) -> Path:
    """A new table's save at `path`, as `play` writes it (no move yet)."""
    run = run_companion([*PLAY, "--save", str(path)], tmp_path / "home", "")
    assert run.returncode == 0 and read_save(path)[0] == "draftosaurus", run.stderr
    return path


def _count(path: Path) -> int:
    try:
        return len(saved_actions(path))
    except (ValueError, KeyError, OSError):
        return -1


def assert_refused_as_in_use(run, holder: Live, path: Path) -> None:
    assert run.refused_cleanly, (run.returncode, run.stderr)
    assert run.prompt, run.cpu_seconds
    assert "sert déjà à une autre partie en cours" in run.stderr and f"processus {holder.pid}" in run.stderr
    assert str(path) in run.stderr


# ---- item 1: a second process on the same save is refused at once

def test_a_second_resume_of_a_save_in_play_is_refused_and_loses_nothing(tmp_path):
    save = fresh_save(tmp_path, tmp_path / "g.json")
    first = started(tmp_path, ["resume", str(save), "--engine", "text"], 1, MOVES[0])
    before = file_state(save)
    second = run_companion(["resume", str(save), "--engine", "text"], tmp_path / "home", "\n".join(MOVES) + "\n")
    assert_refused_as_in_use(second, first, save)
    assert file_state(save) == before
    first.send(*MOVES[1:])
    first.wait_for(lambda: _count(save) == 3)
    assert first.finish() == 0
    assert [a["type"] for a in read_save(save)[1]["state"]["actions"]] == ["roll", "place", "place"]


def test_a_second_play_on_the_same_new_path_is_refused(tmp_path):
    save = tmp_path / "new.json"
    first = started(tmp_path, [*PLAY, "--save", str(save)], 1, MOVES[0])
    second = run_companion([*PLAY, "--new", "--save", str(save)], tmp_path / "home", "\n".join(MOVES) + "\n")
    assert_refused_as_in_use(second, first, save)
    first.send(MOVES[1])
    first.wait_for(lambda: _count(save) == 2)
    assert first.finish() == 0
    assert len(read_save(save)[1]["state"]["actions"]) == 2


IN_USE = {"fr": "sert déjà à une autre partie en cours : celle du processus {pid}",
          "en": "is already used by another game in progress: that of process {pid}",
          "es": "ya lo usa otra partida en curso: la del proceso {pid}"}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_play_on_a_save_another_process_plays_says_so_not_to_resume_it(lang, tmp_path):
    save = tmp_path / "g.json"
    first = started(tmp_path, [*PLAY, "--save", str(save)], 1, MOVES[0])
    second = run_companion([*PLAY, "--lang", lang, "--save", str(save)], tmp_path / "home", "")  # without --new
    assert second.refused_cleanly and second.prompt, (second.returncode, second.stderr)
    assert IN_USE[lang].format(pid=first.pid) in second.stderr and "companion resume" not in second.stderr
    assert first.finish() == 0


def test_a_save_held_through_a_link_is_held_by_its_own_name_too(tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    save = fresh_save(tmp_path, real / "g.json")
    link = tmp_path / "link.json"
    link.symlink_to(save)
    first = started(tmp_path, ["resume", str(link), "--engine", "text"], 1, MOVES[0])
    second = run_companion(["resume", str(save), "--engine", "text"], tmp_path / "home", MOVES[1] + "\n")
    assert_refused_as_in_use(second, first, save)
    assert first.finish() == 0 and _count(save) == 1


def test_the_usual_save_of_a_game_is_held_too(tmp_path):
    home = tmp_path / "home"
    first = Live(PLAY, home)
    first.send(MOVES[0])
    usual = home / "saves" / "draftosaurus.json"
    first.wait_for(lambda: usual.exists() and _count(usual) == 1)
    second = run_companion(["resume", "--engine", "text"], home, "")
    assert_refused_as_in_use(second, first, usual)
    assert first.finish() == 0


def test_a_game_killed_holds_its_save_no_more(tmp_path):
    save = tmp_path / "g.json"
    first = started(tmp_path, [*PLAY, "--save", str(save)], 2, *MOVES[:2])
    first.kill()  # SIGKILL: nothing runs on the way out
    resumed = run_companion(["resume", str(save), "--engine", "text"], tmp_path / "home", MOVES[2] + "\n")
    assert resumed.returncode == 0, resumed.stderr
    assert len(read_save(save)[1]["state"]["actions"]) == 3


def test_every_way_out_lets_go_of_the_save(tmp_path):
    save = tmp_path / "g.json"
    for lines in ([MOVES[0], "quitter", "oui"], [MOVES[1]], []):  # quit, the input ending, nothing said
        run = run_companion(["resume", str(save), "--engine", "text"] if save.exists()
                            else [*PLAY, "--save", str(save)],
                            tmp_path / "home", "".join(f"{line}\n" for line in lines))
        assert run.returncode == 0, run.stderr
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".lock")], "no lock file left"


# ---- item 1: a save changed under the game is never written over

def test_a_save_replaced_by_another_program_is_kept_and_the_game_goes_on_beside_it(tmp_path):
    save = tmp_path / "g.json"
    first = started(tmp_path, [*PLAY, "--save", str(save)], 1, MOVES[0])
    write_save(save, "dino", saved_content("dino"))  # another program, which takes no lock
    theirs = file_state(save)
    first.send(MOVES[1])
    beside = tmp_path / "g-2.json"
    first.wait_for(lambda: beside.exists() and _count(beside) == 2)
    first.send(MOVES[2])
    first.wait_for(lambda: _count(beside) == 3)
    assert first.finish() == 0
    assert file_state(save) == theirs
    assert [a["type"] for a in read_save(beside)[1]["state"]["actions"]] == ["roll", "place", "place"]
    said = first.output()
    assert f"Le fichier {save} a été modifié par un autre programme" in said
    assert f"companion resume {beside}" in said


# ---- item 6: a link re-pointed during the game

NAME_MOVED = {"fr": "Le nom {link} ne mène plus à la sauvegarde de cette partie : je n'y touche pas.",
              "en": "The name {link} no longer leads to this game's save: I leave it as it is.",
              "es": "El nombre {link} ya no lleva al archivo de esta partida: no lo toco."}


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_a_save_link_re_pointed_during_the_game_writes_nothing_but_the_save(lang, tmp_path):
    real = tmp_path / "real"
    real.mkdir()
    save = fresh_save(tmp_path, real / "g.json")
    link = tmp_path / "link.json"
    link.symlink_to(save)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    moves = MOVES_IN[lang]
    first = started(tmp_path, ["resume", str(link), "--engine", "text", "--lang", lang], 1, moves[0])
    os.unlink(link)
    link.symlink_to(victim)  # ln -sfn victim.txt link.json
    first.send(moves[1])
    first.wait_for(lambda: _count(save) == 2)
    assert first.finish() == 0
    assert victim.read_text() == "precious\n" and oct(victim.stat().st_mode & 0o777) != "0o600"
    assert len(read_save(save)[1]["state"]["actions"]) == 2
    said = first.output()  # the game is told under its file's own name, never the link's (now the victim's)
    assert NAME_MOVED[lang].format(link=link) in said
    assert said.splitlines()[-1].endswith(f"companion resume {save}."), said[-300:]
    resumed = run_companion(["resume", str(save), "--engine", "text"], tmp_path / "home", moves[2] + "\n")
    assert resumed.returncode == 0 and _count(save) == 3, resumed.stdout


def test_the_refusal_comes_within_the_bound(tmp_path):
    save = tmp_path / "g.json"
    first = started(tmp_path, [*PLAY, "--save", str(save)], 0)
    runs = [run_companion(["resume", str(save), "--engine", "text"], tmp_path / "home", "") for _ in range(3)]
    assert all(run.refused_cleanly and run.cpu_seconds < REFUSAL_BOUND_S for run in runs)
    assert first.finish() == 0


def test_a_lock_file_that_is_a_link_or_a_pipe_is_refused_and_left_alone(tmp_path):
    save = fresh_save(tmp_path, tmp_path / "g.json")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    lock = tmp_path / ".g.json.lock"
    for make in (lambda: lock.symlink_to(victim), lambda: os.mkfifo(lock)):
        make()
        before = (file_state(save), file_state(lock), file_state(victim))
        run = run_companion(["resume", str(save), "--engine", "text"], tmp_path / "home", MOVES[0] + "\n")
        assert run.refused_cleanly and run.prompt, (run.returncode, run.stderr)
        assert "fichier de verrou" in run.stderr and str(lock) in run.stderr
        assert (file_state(save), file_state(lock), file_state(victim)) == before
        lock.unlink()
