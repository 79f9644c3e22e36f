"""Where the user's files go: today's Linux folders are kept (existing saves are found), the environment
variables move them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion import paths
from companion.dialogue.savefile import data_home, default_save_path
from companion.speech.config import config_path
from companion.speech.fsg import cache_dir
from companion.speech.models import vosk_cache_dir, vosk_search_dirs

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG folders are Linux's")


@pytest.fixture
def bare_home(tmp_path, monkeypatch):
    """A home folder with none of the variables that move the user's files."""
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("COMPANION_HOME", "COMPANION_CONFIG", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME",
                 "VOSK_MODEL_PATH"):
        monkeypatch.delenv(name, raising=False)
    return tmp_path


@linux_only
def test_linux_folders_are_the_ones_saves_and_settings_always_used(bare_home):
    assert default_save_path("draftosaurus") == bare_home / ".local/share/companion/saves/draftosaurus.json"
    assert config_path() == bare_home / ".config/companion/config.json"
    assert cache_dir() == bare_home / ".cache/companion/fsg"
    assert vosk_cache_dir() == bare_home / ".cache/vosk"
    assert vosk_search_dirs().count(bare_home / ".cache/vosk") == 1


@linux_only
def test_xdg_variables_move_each_folder(bare_home, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(bare_home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(bare_home / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(bare_home / "cache"))
    assert data_home() == bare_home / "data/companion"
    assert config_path() == bare_home / "config/companion/config.json"
    assert cache_dir() == bare_home / "cache/companion/fsg"
    assert vosk_cache_dir() in vosk_search_dirs()


def test_companion_variables_win_on_every_platform(bare_home, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(bare_home / "games"))
    monkeypatch.setenv("COMPANION_CONFIG", str(bare_home / "mine.json"))
    assert default_save_path("dino") == bare_home / "games/saves/dino.json"
    assert config_path() == bare_home / "mine.json"


def test_every_folder_is_under_the_users_home_by_default(bare_home):
    """On Linux, macOS and Windows alike (Windows: %APPDATA% and %LOCALAPPDATA% are in the profile)."""
    for folder in (paths.data_home(), paths.config_file().parent, paths.cache_home()):
        assert Path.home() in folder.parents and "companion" in folder.parts
