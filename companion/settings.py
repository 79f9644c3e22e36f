"""The settings file: one JSON object whose sections belong to parts of the program ("speech", the winter
board's values a table told...). Each part reads and rewrites only its own section.

Its place: $COMPANION_CONFIG if set, else config.json in the platform's config folder (companion.paths). A
file that exists but cannot be read as a JSON object is never written over: the program goes on without it and
says so where it matters.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from companion import paths
from companion.files import FileRefused, load_json, write_json_atomically
from companion.locks import Lock, lock_file_for, wait_lock

LIMIT = 64 << 10  # the settings take a few hundred bytes
LOCK_WAIT_S = 5.0  # a write takes milliseconds: a process holding the lock longer is stuck


class SettingsUnreadable(Exception):
    """The settings file exists but is not a JSON object the program can read (`path`, and why)."""

    def __init__(self, path: Path, detail: str):
        super().__init__(f"{path}: {detail}")
        self.path = path
        self.detail = detail


def settings_path() -> Path:
    """Where the settings file is (it may not exist yet): see companion.paths."""
    return paths.config_file()


def read_settings(path: Path | None = None) -> dict[str, Any]:
    """Every section of the settings file ({} when there is none); SettingsUnreadable for a file that exists
    but cannot be read as a JSON object."""
    path = path or settings_path()
    if not os.path.lexists(path):
        return {}
    try:  # bounded and regular files only: a pipe, /dev/zero or a huge file is refused, not read
        data = load_json(path, LIMIT)
    except FileRefused as error:
        raise SettingsUnreadable(path, str(error)) from None
    if not isinstance(data, dict):
        raise SettingsUnreadable(path, "not a JSON object")
    return data


def read_section(name: str, path: Path | None = None) -> Any:
    """One section of the settings file (None when it is not there); SettingsUnreadable as read_settings."""
    return read_settings(path).get(name)


def write_section(name: str, value: Any, path: Path | None = None) -> Path | None:
    """Write one section, keeping the file's others; returns the file written, or None when the folder takes
    no file (read-only, full disk) or another process kept the file past LOCK_WAIT_S: the value then holds for
    this session only. SettingsUnreadable, and nothing written, when the file exists but cannot be read.

    The file is read, changed and written whole under a lock beside it, so that two processes writing at once
    each keep the other's section; the new file is written under a name of its own and renamed over it."""
    path = path or settings_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = wait_lock(lock_file_for(path), LOCK_WAIT_S)
    except OSError:  # no lock file can be made there (so no settings either), or its place holds a link or a pipe
        return None
    if not isinstance(lock, Lock):
        return None
    with lock:
        data = read_settings(path)
        data[name] = value
        try:
            write_json_atomically(path, data)
        except OSError:
            return None
    return path
