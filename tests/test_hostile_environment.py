"""Hostile environments: a closed standard input, a terminal that cannot print
every letter, a save that cannot be written, names holding escape sequences, and SIGTERM or SIGHUP."""

from __future__ import annotations

import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from companion.dialogue.savefile import read_save
from companion.errors import EXIT_CANNOT_WRITE
from tests.hostile_cases import REFUSAL_BOUND_S, document, environment, run_companion, saved_content, write_document

PLAY = ["play", "draftosaurus", "--engine", "text", "--players", "Ana,Ben"]
MOVES = ["dé : forêt", "Ana : tricératops dans la rivière", "Ben : diplodocus dans la rivière"]
# A whole run that is not a refusal (a game started, the rules read) still ends by itself well within this.
RUN_BOUND_S = 60
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def no_crash(run) -> bool:
    return run.returncode is not None and "internal error" not in run.stderr and "Traceback" not in run.stderr


# ---- item 5: a closed standard input

@pytest.mark.parametrize("args", [
    [*PLAY, "--save", "{save}"],
    ["play", "draftosaurus", "--quiet", "--players", "Ana,Ben", "--save", "{save}"],  # --engine auto
    ["rules", "draftosaurus", "--engine", "text"],
    ["rules", "draftosaurus", "--engine", "auto"],
], ids=["play text", "play auto", "rules text", "rules auto"])
def test_a_closed_standard_input_ends_the_input(args, tmp_path):
    save = tmp_path / "save.json"
    run = run_companion([a.replace("{save}", str(save)) for a in args], tmp_path / "home", None, bound=RUN_BOUND_S)
    assert run.returncode == 0 and no_crash(run), run.stderr
    if args[0] == "play":
        assert read_save(save)[0] == "draftosaurus" and str(save) in run.stdout
    else:
        assert "Draftosaurus" in run.stdout


def _write_only_input() -> None:
    os.dup2(os.open(os.devnull, os.O_WRONLY), 0)  # open, but reading it fails (EBADF)


@pytest.mark.parametrize("args, code", [([*PLAY, "--save", "{save}"], 0),
                                        (["rules", "draftosaurus", "--engine", "text"], 0),
                                        (["score", "draftosaurus", "-"], 2)], ids=["play", "rules", "score"])
def test_a_standard_input_that_cannot_be_read_ends_the_input(args, code, tmp_path):
    save = tmp_path / "save.json"
    run = run_companion([a.replace("{save}", str(save)) for a in args], tmp_path, "", limits=_write_only_input,
                        bound=RUN_BOUND_S)
    assert run.returncode == code and no_crash(run), run.stderr
    assert code == 0 or run.refused_cleanly


def test_score_from_a_closed_standard_input_is_refused(tmp_path):
    run = run_companion(["score", "draftosaurus", "-"], tmp_path, None)
    assert run.refused_cleanly and "L'entrée standard est fermée" in run.stderr


# ---- item 5: a terminal that cannot print every letter

@pytest.mark.parametrize("encoding, shown", [("latin-1", "Zoé"), ("ascii", "Zoe")])
def test_a_latin1_or_ascii_terminal_gets_plain_letters(encoding, shown, tmp_path):
    env = environment(tmp_path, PYTHONIOENCODING=encoding)
    run = run_companion(["play", "draftosaurus", "--engine", "text", "--players", "Œdipe,Zoé", "--save",
                         str(tmp_path / "s.json")], tmp_path, "", env=env, bound=RUN_BOUND_S, encoding=encoding)
    assert run.returncode == 0 and no_crash(run), run.stderr
    assert "OEdipe" in run.stdout and shown in run.stdout
    rules = run_companion(["rules", "draftosaurus", "--engine", "text"], tmp_path, None, env=env, bound=RUN_BOUND_S,
                          encoding=encoding)  # decoding fails if a byte is not of that encoding
    assert rules.returncode == 0 and no_crash(rules) and "Draftosaurus" in rules.stdout


# ---- item 5: a save that cannot be written

def assert_cannot_write(run, path: Path, saved_before: bool) -> None:
    assert run.returncode == EXIT_CANNOT_WRITE and no_crash(run), (run.returncode, run.stderr)
    assert saved_before or run.prompt, run.cpu_seconds  # a refusal from the start, or the end of a game
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and str(path) in lines[0]
    if saved_before:
        assert "reste à l'abri" in lines[0] and f"companion resume {path}" in lines[0]
    else:
        assert "Rien n'a pu être enregistré" in lines[0] and "--save" in lines[0]


@pytest.mark.parametrize("path, reason", [("/proc/companion-test.json", "n'accepte pas de fichiers"),
                                          ("/sys/companion-test.json", "pas le droit d'écrire")])
def test_a_folder_where_nothing_can_be_written(path, reason, tmp_path):
    run = run_companion([*PLAY, "--save", path], tmp_path, "")
    assert_cannot_write(run, Path(path), saved_before=False)
    assert reason in run.stderr


def test_a_save_too_big_for_the_file_size_limit_keeps_the_last_one(tmp_path):
    save = tmp_path / "save.json"
    first = run_companion([*PLAY, "--save", str(save)], tmp_path, "", bound=RUN_BOUND_S)
    assert first.returncode == 0
    size = save.stat().st_size

    def limit() -> None:  # the first save fits, a later one does not (EFBIG; Python ignores SIGXFSZ)
        resource.setrlimit(resource.RLIMIT_FSIZE, (size + 40, size + 40))

    run = run_companion([*PLAY, "--new", "--save", str(save)], tmp_path, "\n".join(MOVES) + "\n", limits=limit,
                        bound=RUN_BOUND_S)
    assert_cannot_write(run, save, saved_before=True)
    assert "taille de fichier" in run.stderr
    assert read_save(save)[0] == "draftosaurus"  # the last good save, whole


def _in_small_folder(tmp_path: Path, command: list[str], stdin: str, read_only: bool = False):
    """`command` run with its saves in a 64 KiB tmpfs (one page left, or read-only), in a user namespace;
    the folder is copied out afterwards. None when user namespaces are not available here."""
    if shutil.which("unshare") is None or subprocess.run(["unshare", "-rm", "true"], check=False).returncode != 0:
        return None
    mount, out = tmp_path / "small", tmp_path / "copied"
    mount.mkdir()
    out.mkdir()
    fill = ("mount -o remount,ro \"$0\"" if read_only else
            "head -c 57344 /dev/zero > \"$0/filler\"")  # 14 of the 16 pages: room for the lock file and one save
    script = (f"mount -t tmpfs -o size=64k none \"$0\" && {fill} && \"$@\"; code=$?; "
              f"cp -a \"$0/.\" {out}/ 2>/dev/null; exit $code")
    wrapper = ["unshare", "-rm", "sh", "-c", script, str(mount), sys.executable, "-m", "companion"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = subprocess.run([*wrapper, *command], input=stdin, capture_output=True, text=True,
                            env=environment(tmp_path), timeout=RUN_BOUND_S, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime  # the shell and the mount included
    return result, cpu, mount, out


def test_a_full_disk_keeps_the_last_save(tmp_path):
    save_in_mount = tmp_path / "small" / "save.json"
    ran = _in_small_folder(tmp_path, [*PLAY, "--save", str(save_in_mount)], "\n".join(MOVES) + "\n")
    if ran is None:
        pytest.skip("no user namespaces here to mount a small folder")
    result, _cpu_seconds, _mount, out = ran
    assert result.returncode == EXIT_CANNOT_WRITE, result.stderr
    assert "le disque est plein" in result.stderr and "reste à l'abri" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1 and "Traceback" not in result.stderr
    assert read_save(out / "save.json")[0] == "draftosaurus"
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]


def test_a_read_only_folder_says_nothing_was_saved(tmp_path):
    ran = _in_small_folder(tmp_path, [*PLAY, "--save", str(tmp_path / "small" / "save.json")], "", read_only=True)
    if ran is None:
        pytest.skip("no user namespaces here to mount a read-only folder")
    result, cpu_seconds, _mount, _out = ran
    assert result.returncode == EXIT_CANNOT_WRITE, result.stderr
    assert "lecture seule" in result.stderr and "Rien n'a pu être enregistré" in result.stderr
    assert cpu_seconds < REFUSAL_BOUND_S


# ---- item 6: escape sequences in names

def assert_no_control(run) -> None:
    assert not CONTROL.search(run.stdout + run.stderr), repr(CONTROL.search(run.stdout + run.stderr))


def test_names_on_the_command_line_are_printed_without_escapes(tmp_path):
    run = run_companion(["play", "draftosaurus", "--engine", "text", "--players", "Ana\x1b[2J\x1b[H,B\x9b31mo\x07b",
                         "--save", str(tmp_path / "s.json")], tmp_path, "", bound=RUN_BOUND_S)
    assert run.returncode == 0, run.stderr
    assert_no_control(run)
    assert "Ana et Bob" in run.stdout
    assert read_save(tmp_path / "s.json")[1]["state"]["setup"]["players"] == ["Ana", "Bob"]


def test_typed_names_are_kept_without_escapes(tmp_path):
    lines = ["deux", "\x1b]0;owned\x07", "Zo\x1b[31mé", "Max\x1b[2J", "oui", "Zoé", "oui", "oui", "non"]
    run = run_companion(["play", "draftosaurus", "--engine", "text", "--save", str(tmp_path / "s.json")], tmp_path,
                        "\n".join(lines) + "\n", bound=RUN_BOUND_S)
    assert run.returncode == 0, run.stderr
    assert_no_control(run)
    # the line made only of an escape sequence is an empty line: asked again
    assert "2 joueurs : Zoé et Max." in run.stdout


def test_names_read_from_a_file_of_zoos_are_printed_without_escapes(tmp_path):
    players = [{"name": "Al\x1b]0;x\x07ice", "zoo": {"river": ["trex"]}}, {"name": "B\x1b[2Jo", "zoo": {}}]
    zoos = write_document(tmp_path / "zoos.json", {"players": players})
    run = run_companion(["score", "draftosaurus", str(zoos)], tmp_path, "")
    assert run.returncode == 0, run.stderr
    assert_no_control(run)
    assert "Alice" in run.stdout and "Bo" in run.stdout


def test_names_read_from_a_forged_save_are_printed_without_escapes(tmp_path):
    content = saved_content("draftosaurus")
    content["state"]["setup"]["players"] = ["Ana\x1b[2J", "Ben"]
    content["state"].pop("snapshot")
    path = write_document(tmp_path / "s.json", document("draftosaurus", content))
    run = run_companion(["resume", str(path), "--engine", "text"], tmp_path, "", bound=RUN_BOUND_S)
    assert run.returncode == 0, run.stderr
    assert_no_control(run)
    assert "Ana" in run.stdout


# ---- item 8: SIGTERM and SIGHUP stop like Ctrl-C, the game saved

@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_stop_signal_says_one_line_and_leaves_the_game_saved(number, tmp_path):
    save = tmp_path / "save.json"
    process = subprocess.Popen([sys.executable, "-m", "companion", *PLAY, "--save", str(save)],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=environment(tmp_path))
    lines: list[str] = []
    reader = threading.Thread(target=lambda: lines.extend(process.stdout), daemon=True)
    reader.start()
    process.stdin.write("\n".join(MOVES[:2]) + "\n")
    process.stdin.flush()
    deadline = time.monotonic() + RUN_BOUND_S
    while not any("Ben, quel dinosaure" in line for line in lines) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert any("Ben, quel dinosaure" in line for line in lines), lines
    sent = time.monotonic()
    process.send_signal(number)
    code = process.wait(timeout=RUN_BOUND_S)
    answered = time.monotonic() - sent
    reader.join(timeout=5)
    stderr = process.stderr.read()
    process.stdin.close()
    assert code == 128 + number and answered < REFUSAL_BOUND_S, (code, stderr)
    assert lines[-1].startswith(f"Interruption. La partie est enregistrée dans {save}.")
    assert "Traceback" not in stderr and "internal error" not in stderr
    assert len(read_save(save)[1]["state"]["actions"]) == 2  # the die and Ana's move
    resumed = run_companion(["resume", str(save), "--engine", "text"], tmp_path, MOVES[2] + "\n", bound=RUN_BOUND_S)
    placed = [a for a in read_save(save)[1]["state"]["actions"] if a["type"] == "place"]
    assert resumed.returncode == 0 and len(placed) == 2, resumed.stderr  # Ben's move, after the resume
