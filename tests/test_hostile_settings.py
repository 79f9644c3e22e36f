"""The settings file: written under a name of its own, never through what an attacker
left beside it, and two processes writing at once each keep the other's section."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from companion.settings import read_settings
from tests.hostile_cases import environment, file_state, link, make_fifo, run_companion

WRITER = """
import sys
from pathlib import Path
from companion.settings import write_section
for number in range(int(sys.argv[3])):
    assert write_section(sys.argv[2], {"n": number}, Path(sys.argv[1])) is not None
print("done")
"""


@pytest.mark.parametrize("kind", ["fifo", "link"])
def test_remembering_the_voice_ignores_what_lies_at_the_old_temporary_name(kind, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    config = home / "config.json"
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    planted = make_fifo(home / "config.json.tmp") if kind == "fifo" else link(home / "config.json.tmp", victim)
    before = (file_state(planted), file_state(victim))
    run = run_companion(["say", "--rate", "1.2", "--remember", "--out", str(tmp_path / "x.wav"), "bonjour"], home)
    assert run.returncode == 0 and run.prompt, (run.returncode, run.stderr)
    assert read_settings(config)["speech"]["rate"] == 1.2
    assert (file_state(planted), file_state(victim)) == before


def test_two_processes_writing_the_settings_at_once_keep_both_sections(tmp_path):
    config = tmp_path / "config.json"
    config.write_text(json.dumps({"other": {"kept": True}}))
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(config), section, "300"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, env=environment(tmp_path))
               for section in ("first", "second")]
    results = [writer.communicate(timeout=120) for writer in writers]
    assert all(writer.returncode == 0 for writer in writers), results
    assert read_settings(config) == {"other": {"kept": True}, "first": {"n": 299}, "second": {"n": 299}}
    assert sorted(os.listdir(tmp_path)) == ["config.json"], "no temporary or lock file left"
