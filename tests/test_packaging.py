"""voices/ and grammars/ travel inside the wheel as companion.voices and companion.grammars, and an installed
wheel finds them (and speaks) from any folder, with nothing but the installed package."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
import yaml

from companion import paths

ROOT = Path(__file__).resolve().parents[1]
DATA = {"voices": "companion/voices", "grammars": "companion/grammars"}


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A folder holding the wheel of this repository, unpacked as pip installs a pure wheel."""
    out = tmp_path_factory.mktemp("wheel")
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(ROOT), "-w", str(out)],
                           capture_output=True, text=True, timeout=300, check=False)
    if built.returncode != 0:
        pytest.skip(f"the wheel could not be built here (no build tools from PyPI?): {built.stderr[-300:]}")
    site = out / "site"
    with zipfile.ZipFile(next(out.glob("companion-*.whl"))) as wheel:
        wheel.extractall(site)
    return site


def test_every_data_file_is_in_the_wheel(installed):
    for folder, package in DATA.items():
        expected = {p.relative_to(ROOT / folder) for p in (ROOT / folder).rglob("*")
                    if p.is_file() and p.suffix in (".yaml", ".dict", ".py") and "__pycache__" not in p.parts}
        shipped = {p.relative_to(installed / package) for p in (installed / package).rglob("*") if p.is_file()}
        assert expected and expected <= shipped, sorted(map(str, expected - shipped))


def test_the_installed_wheel_works_from_another_folder(installed, tmp_path):
    env = {**os.environ, "PYTHONPATH": str(installed), "COMPANION_CONFIG": str(tmp_path / "config.json")}

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=tmp_path,
                              timeout=60, check=False)

    where = run("-c", "from companion import paths; print(paths.voices_dir(), paths.grammars_dir())")
    assert where.stdout.split() == [str(installed / DATA["voices"]), str(installed / DATA["grammars"])]
    parsed = run("-m", "companion", "parse", "--game", "draftosaurus", "--lang", "fr", "--json", "dé croix")
    assert parsed.returncode == 0, parsed.stderr
    assert json.loads(parsed.stdout)["intent"] == "die"
    said = run("-m", "companion", "say", "--out", "x.wav", "bonjour")
    assert said.returncode == 0, said.stderr
    assert (tmp_path / "x.wav").stat().st_size > 1000


def test_this_checkout_is_found_through_its_packages():
    """The editable install used for development maps the packages to the repository's own folders."""
    assert paths.voices_dir() == ROOT / "voices" and paths.grammars_dir() == ROOT / "grammars"


@pytest.mark.parametrize("folder", ["voices", "grammars"])
def test_data_files_read_the_same_without_libyaml(folder):
    """read_data uses libyaml's parser where PyYAML has it; PyYAML's own parser must give the same data."""
    files = sorted((ROOT / folder).rglob("*.yaml"))
    assert files
    for path in files:
        assert paths.read_data(path) == yaml.load(path.read_text(encoding="utf-8"), Loader=yaml.SafeLoader), path
