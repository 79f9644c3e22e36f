"""What the program claims and the codes it exits with: nothing said to be remembered that
was not written, no internal error for a seventh Dino player or a full standard output, a plain resume that
does not read every file of the data folder, and a second stop signal that changes nothing."""

from __future__ import annotations

import json
import os
import platform
import signal
import subprocess
import sys
import time

import pytest

from companion.dialogue.savefile import read_save
from companion.errors import EXIT_CANNOT_WRITE, EXIT_INTERRUPTED
from tests.hostile_cases import (
    Live,
    document,
    environment,
    run_companion,
    saved_content,
)

PLAY = ["play", "draftosaurus", "--engine", "text", "--players", "Ana,Ben,Cléo"]


def unwritable_settings(tmp_path) -> dict[str, str]:
    """An environment whose settings file lies under a plain file: no folder can be made there, even as root."""
    (tmp_path / "a-file").write_text("")
    return {**environment(tmp_path / "home"), "COMPANION_CONFIG": str(tmp_path / "a-file" / "config.json")}


# ---- claims

def test_the_winter_board_says_its_answers_are_not_kept_when_the_settings_take_nothing(tmp_path):
    answers = ["garde", "un, un, un, trois, trois, sept", *["garde"] * 6]
    run = run_companion([*PLAY, "--board", "winter", "--save", str(tmp_path / "g.json")], tmp_path / "home",
                        "\n".join(answers) + "\n", env=unwritable_settings(tmp_path))
    assert run.returncode == 0, run.stderr
    assert "Je retiens ces réponses" not in run.stdout
    assert "ces réponses ne valent que pour cette partie" in run.stdout


def test_say_remember_says_when_the_setting_cannot_be_kept(tmp_path):
    run = run_companion(["say", "--rate", "1.2", "--remember", "--out", str(tmp_path / "x.wav"), "bonjour"],
                        tmp_path / "home", "", env=unwritable_settings(tmp_path))
    assert run.returncode == EXIT_CANNOT_WRITE, (run.returncode, run.stderr)
    assert "ce réglage ne vaut que pour cette fois" in run.stderr and (tmp_path / "x.wav").stat().st_size > 44


# ---- codes

def test_a_seventh_dino_player_is_refused_at_the_start(tmp_path):
    run = run_companion(["play", "dino", "--engine", "text", "--players", "Ana,Ben,Cléo,Dan,Éva,Fred,Gil", "--save",
                         str(tmp_path / "d.json")], tmp_path / "home", "oui\n")
    assert run.refused_cleanly and run.prompt, (run.returncode, run.stderr)
    assert "Dino se joue de 2 à 6 joueurs, pas 7." in run.stderr and "Je propose" not in run.stdout


@pytest.mark.parametrize("out, kind", [("{tmp}", "un dossier"), ("/dev/full", "un périphérique")])
def test_say_out_to_a_folder_or_a_device_is_refused_as_bad_input(out, kind, tmp_path):
    run = run_companion(["say", "--out", out.format(tmp=tmp_path), "bonjour"], tmp_path / "home", "")
    assert run.refused_cleanly and run.prompt, (run.returncode, run.stderr)
    assert f"n'est pas un fichier ordinaire mais {kind} : je n'écris pas dedans" in run.stderr


def test_say_takes_bytes_that_are_not_utf8(tmp_path):
    out = tmp_path / "x.wav"
    run = run_companion(["say", "--out", str(out), os.fsdecode(b"bon\x9bjour \x1b[2J")], tmp_path / "home", "")
    assert run.returncode == 0 and "internal error" not in run.stderr, run.stderr
    assert out.stat().st_size > 44


def test_parse_prints_no_escape_or_bell(tmp_path):
    for extra in ([], ["--json"]):
        run = run_companion(["parse", *extra, "tric\x1b[2J\x07ératops dans la \x9b31mrivière\x85"], tmp_path / "home",
                            "")
        assert run.returncode == 0, run.stderr
        assert not [c for c in run.stdout if (ord(c) < 32 and c != "\n") or 0x7f <= ord(c) < 0xa0], repr(run.stdout)


def test_a_full_standard_output_stops_the_game_saved_with_one_line(tmp_path):
    save = tmp_path / "g.json"
    with open("/dev/full", "w") as full:
        process = subprocess.run([sys.executable, "-m", "companion", *PLAY, "--save", str(save)], input="dé : forêt\n",
                                 stdout=full, stderr=subprocess.PIPE, text=True, env=environment(tmp_path / "home"),
                                 timeout=60, check=False)
    assert process.returncode == EXIT_CANNOT_WRITE, process.stderr
    lines = process.stderr.strip().splitlines()
    assert len(lines) == 1 and "internal error" not in process.stderr, process.stderr
    assert "sortie standard" in lines[0] and "le disque est plein" in lines[0] and str(save) in lines[0]
    assert read_save(save)[0] == "draftosaurus"


# ---- a plain resume among many files

def test_a_plain_resume_does_not_read_every_file_of_the_data_folder(tmp_path):
    home = tmp_path / "home"
    played = run_companion(PLAY, home, "dé : forêt\n")
    assert played.returncode == 0, played.stderr
    saves = home / "saves"
    bulky = saved_content("draftosaurus")
    bulky["padding"] = ["x"] * 110_000  # about 0.9 MB (under the 1 MiB a save may hold), each value checked
    damaged = document("draftosaurus", bulky)
    damaged["checksum"] = "0" * 64
    first = saves / "copy-000.json"
    first.write_text(json.dumps(damaged, indent=1))
    later = time.time() + 60
    os.utime(first, (later, later))  # newer than the game's own save
    for number in range(1, 600):  # 600 names of one file, as many reads before: 35.7 s
        os.link(first, saves / f"copy-{number:03}.json")
    run = run_companion(["resume", "--engine", "text"], home, "")
    assert run.returncode == 0 and run.prompt, (run.returncode, round(run.cpu_seconds, 2), run.stderr)
    assert "companion resume draftosaurus" in run.stdout


# ---- a second stop signal

@pytest.mark.parametrize("first, second", [(signal.SIGTERM, signal.SIGTERM), (signal.SIGTERM, signal.SIGINT),
                                           (signal.SIGINT, signal.SIGINT), (signal.SIGHUP, signal.SIGTERM)],
                         ids=["TERM TERM", "TERM INT", "INT INT", "HUP TERM"])
@pytest.mark.parametrize("delay", [0.0, 0.005, 0.02])
def test_a_second_stop_signal_soon_after_the_first_changes_nothing(first, second, delay, tmp_path):
    save = tmp_path / "g.json"
    live = Live([*PLAY, "--save", str(save)], tmp_path / "home")
    live.send("dé : forêt", "Ana : tricératops dans la rivière")
    live.wait_for(lambda: "Ben, quel dinosaure" in live.output())
    live.process.send_signal(first)
    time.sleep(delay)
    live.process.send_signal(second)
    code = live.process.wait(timeout=30)
    live.close()
    codes = {number: EXIT_INTERRUPTED if number == signal.SIGINT else 128 + number for number in (first, second)}
    # Two signals both pending before the interpreter runs its handler (at once, or a few milliseconds apart on a
    # busy machine: 130 for TERM then INT 5 ms later was seen) are handled in signal-number order: either code.
    # The order they were sent in is lost before the program runs at all: Linux delivers the standard signals
    # pending for a process lowest number first, so no handler (nor signal.set_wakeup_fd) could tell it.
    assert code in (codes[first], codes[second]), (code, live.errors())
    assert "Traceback" not in live.errors() and "internal error" not in live.errors(), live.errors()
    assert len(read_save(save)[1]["state"]["actions"]) == 2
    assert "Interruption. La partie est enregistrée" in live.output().splitlines()[-1]


TGKILL = {"x86_64": 234, "aarch64": 131}  # the system call that signals one thread of a process, on Linux


@pytest.mark.skipif(not sys.platform.startswith("linux") or platform.machine() not in TGKILL,
                    reason="threads are read from /proc and signalled by tgkill")
@pytest.mark.parametrize("number", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=["TERM", "INT", "HUP"])
@pytest.mark.parametrize("which", [0, -1], ids=["first", "last"])
def test_a_stop_signal_another_thread_receives_stops_a_game_waiting_for_its_input(number, which, tmp_path):
    """The system may give a signal sent to the process to any of its threads (numpy's import starts one, the
    newest). Sent to a thread that is not the main one (tgkill), the oldest or the newest, it stops the game waiting
    for a line all the same."""
    import ctypes

    save = tmp_path / "g.json"
    live = Live([*PLAY, "--save", str(save)], tmp_path / "home")
    live.send("dé : forêt", "Ana : tricératops dans la rivière")
    live.wait_for(lambda: "Ben, quel dinosaure" in live.output())
    others = sorted(int(tid) for tid in os.listdir(f"/proc/{live.pid}/task") if int(tid) != live.pid)
    assert len(others) >= 2, "besides the main thread, the relay's and numpy's"
    libc = ctypes.CDLL(None, use_errno=True)
    assert libc.syscall(TGKILL[platform.machine()], live.pid, others[which], int(number)) == 0, ctypes.get_errno()
    code = live.process.wait(timeout=30)
    live.close()
    assert code == (EXIT_INTERRUPTED if number == signal.SIGINT else 128 + number), (code, live.errors())
    assert "Interruption. La partie est enregistrée" in live.output().splitlines()[-1]
    assert len(read_save(save)[1]["state"]["actions"]) == 2


@pytest.mark.parametrize("args", [["parse", "tricératops dans la rivière"], ["tactile", "12"], ["rules", "dino"],
                                  ["--help"]], ids=["parse", "tactile", "rules", "help"])
def test_any_command_on_a_full_standard_output_says_so_in_one_line(args, tmp_path):
    with open("/dev/full", "w") as full:
        process = subprocess.run([sys.executable, "-m", "companion", *args], stdin=subprocess.DEVNULL, stdout=full,
                                 stderr=subprocess.PIPE, text=True, env=environment(tmp_path / "home"), timeout=60,
                                 check=False)
    lines = process.stderr.strip().splitlines()
    assert process.returncode == EXIT_CANNOT_WRITE and len(lines) == 1, process.stderr  # was an internal error
    assert "sortie standard" in lines[0] and "le disque est plein" in lines[0], process.stderr
