"""Which saves were played lately, wherever they are: `companion resume` without a file takes the newest.

The list (recent.json in the data folder) holds the paths of the last saves a game was started or resumed
with (a path whose bytes are not UTF-8 text as {"bytes": its bytes in hexadecimal}); the newest is the one
whose file changed last, among those that are still saves of ours.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from companion.dialogue.savefile import SaveFileError, newest_save
from companion.files import FileRefused, load_json, write_json_atomically
from companion.paths import data_home

RECENT_FILE = "recent.json"
KEPT = 20
_LIMIT = 64 << 10  # bytes: 20 paths


def _recent_file() -> Path:
    return data_home() / RECENT_FILE


def recent_saves() -> list[Path]:
    """The saves listed, newest first in the order they were registered (a damaged list is no list)."""
    try:
        data = load_json(_recent_file(), _LIMIT)
    except FileRefused:
        return []
    entries = data.get("saves") if isinstance(data, dict) else None
    found = (_path(entry) for entry in entries) if isinstance(entries, list) else ()
    return [path for path in found if path is not None]


def remember(path: Path) -> None:
    """Put `path` at the head of the list (best effort: a list that cannot be written changes nothing else)."""
    resolved = Path(path).resolve()
    saves = [resolved] + [p for p in recent_saves() if p != resolved]
    with contextlib.suppress(OSError):
        write_json_atomically(_recent_file(), {"saves": [_entry(p) for p in saves[:KEPT]]})


def _entry(path: Path) -> str | dict[str, str]:
    """A path as the list holds it: its text, or the hexadecimal of its bytes when they are not UTF-8 text."""
    text = str(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return {"bytes": os.fsencode(path).hex()}
    return text


def _path(entry: object) -> Path | None:
    if isinstance(entry, str):
        return Path(entry)
    if isinstance(entry, dict) and isinstance(entry.get("bytes"), str):
        try:
            return Path(os.fsdecode(bytes.fromhex(entry["bytes"])))
        except ValueError:
            return None
    return None


def latest_save() -> Path:
    """The save that changed last among the listed ones and the data folder's saves (savefile.newest_save);
    SaveFileError if none."""
    folder = data_home() / "saves"
    found = newest_save(folder, recent_saves())
    if found is None:
        raise SaveFileError("missing", folder)
    return found
