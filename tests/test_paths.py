"""Where the user's files go: today's Linux folders are kept (existing saves are found), the environment
variables move them."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from companion import paths
from companion.dialogue.savefile import default_save_path
from companion.paths import data_home
from companion.settings import settings_path
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
    assert settings_path() == bare_home / ".config/companion/config.json"
    assert cache_dir() == bare_home / ".cache/companion/fsg"
    assert vosk_cache_dir() == bare_home / ".cache/vosk"
    assert vosk_search_dirs().count(bare_home / ".cache/vosk") == 1


@linux_only
def test_xdg_variables_move_each_folder(bare_home, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(bare_home / "data"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(bare_home / "config"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(bare_home / "cache"))
    assert data_home() == bare_home / "data/companion"
    assert settings_path() == bare_home / "config/companion/config.json"
    assert cache_dir() == bare_home / "cache/companion/fsg"
    assert vosk_cache_dir() in vosk_search_dirs()


def test_companion_variables_win_on_every_platform(bare_home, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(bare_home / "games"))
    monkeypatch.setenv("COMPANION_CONFIG", str(bare_home / "mine.json"))
    assert default_save_path("dino") == bare_home / "games/saves/dino.json"
    assert settings_path() == bare_home / "mine.json"


def test_every_folder_is_under_the_users_home_by_default(bare_home):
    """On Linux, macOS and Windows alike (Windows: %APPDATA% and %LOCALAPPDATA% are in the profile)."""
    for folder in (paths.data_home(), paths.config_file().parent, paths.cache_home()):
        assert Path.home() in folder.parents and "companion" in folder.parts


# ---------------------------------------------------------------- companion's own data files, kept parsed

@pytest.fixture
def cache(tmp_path, monkeypatch):
    """A cache folder of this test alone; its data/ folder holds the parsed files."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return paths.cache_home() / paths.DATA_CACHE


def _kept(cache: Path) -> list[Path]:
    return sorted(cache.glob("*.bin")) if cache.is_dir() else []


def _no_parsing(monkeypatch):
    def parse(_source):
        raise AssertionError("parsed again")
    monkeypatch.setattr(paths, "_parse_yaml", parse)


def test_a_data_file_is_parsed_once_then_read_back_as_it_was(tmp_path, cache, monkeypatch):
    source = tmp_path / "sayings.yaml"
    source.write_text("a:\n  b: [1, 2.5, true, null, «é»]\n  3: quatre\n", encoding="utf-8")
    first = paths.read_data(source)
    assert first == {"a": {"b": [1, 2.5, True, None, "«é»"], 3: "quatre"}} and len(_kept(cache)) == 1
    _no_parsing(monkeypatch)
    assert paths.read_data(source) == first and list(paths.read_data(source)["a"]) == ["b", 3]


def test_a_changed_data_file_is_parsed_again(tmp_path, cache):
    source = tmp_path / "sayings.yaml"
    source.write_text("word: one\n", encoding="utf-8")
    assert paths.read_data(source) == {"word": "one"}
    source.write_text("word: two\n", encoding="utf-8")
    assert paths.read_data(source) == {"word": "two"} and len(_kept(cache)) == 1


@pytest.mark.parametrize("damage", ["empty", "truncated", "one byte changed", "garbage", "a folder"])
def test_a_damaged_kept_file_is_ignored_and_written_again(tmp_path, cache, monkeypatch, damage):
    source = tmp_path / "sayings.yaml"
    source.write_text("list: [x, y, z]\nnumber: 7\n", encoding="utf-8")
    paths.read_data(source)
    [kept] = _kept(cache)
    whole = kept.read_bytes()
    if damage == "a folder":
        kept.unlink()
        kept.mkdir()
    else:
        kept.write_bytes({"empty": b"", "truncated": whole[:-3], "garbage": b"\x00\xff" * 40,
                          "one byte changed": whole[:-1] + bytes([whole[-1] ^ 1])}[damage])
    assert paths.read_data(source) == {"list": ["x", "y", "z"], "number": 7}
    if damage != "a folder":
        assert kept.read_bytes() == whole  # written again
        _no_parsing(monkeypatch)
        assert paths.read_data(source) == {"list": ["x", "y", "z"], "number": 7}


def test_data_files_are_read_where_nothing_can_be_kept(tmp_path, monkeypatch):
    (tmp_path / "not-a-folder").write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "not-a-folder"))
    source = tmp_path / "sayings.yaml"
    source.write_text("when: 2024-05-01\nword: day\n", encoding="utf-8")  # a date: no plain data to keep either
    assert paths.read_data(source)["word"] == "day"
    assert paths.read_data(source)["word"] == "day"


def test_every_data_file_reads_back_as_parsed(cache):
    """Every file of voices/ and grammars/ gives the same data from the cache as from the YAML parser."""
    import yaml

    files = sorted([*paths.voices_dir().rglob("*.yaml"), *paths.grammars_dir().rglob("*.yaml")])
    assert len(files) > 50
    for path in files:
        with path.open(encoding="utf-8") as handle:
            parsed = yaml.safe_load(handle)
        assert paths.read_data(path) == parsed, path  # parsed and kept
        assert paths.read_data(path) == parsed, path  # read back
    assert len(_kept(cache)) == len(files)


def test_a_cache_file_that_is_a_pipe_or_too_large_is_not_read(tmp_path, monkeypatch):
    """A pipe put where a kept file belongs would block a reader for ever, a huge file would fill the memory: both
    are refused at once, as a damaged file is; a kept file is read."""
    import os
    import threading

    check = paths.digest_of
    kept = tmp_path / "kept.bin"
    assert paths.keep_checked(kept, check, b"payload") and paths.read_checked(kept, check) == b"payload"
    monkeypatch.setattr(paths, "MOST_CACHE_FILE_BYTES", 20)
    assert paths.read_checked(kept, check) is None  # 32 + 7 bytes: above the bound
    pipe = tmp_path / "pipe.bin"
    os.mkfifo(pipe)
    found: list[object] = []
    reader = threading.Thread(target=lambda: found.append(paths.read_checked(pipe, check)), daemon=True)
    reader.start()
    reader.join(10)
    assert found == [None]
