"""Which saves were played lately, wherever they are: `companion resume` without a file takes the newest.

The list (recent.json in the data folder) holds the paths of the last saves a game was started or resumed
with; the newest is the one whose file changed last, among those that are still saves of ours.
"""

from __future__ import annotations

import json
from pathlib import Path

from companion.dialogue.savefile import SaveFileError, data_home, read_save, write_json_atomically

RECENT_FILE = "recent.json"
KEPT = 20


def _recent_file() -> Path:
    return data_home() / RECENT_FILE


def recent_saves() -> list[Path]:
    """The saves listed, newest first in the order they were registered (a damaged list is no list)."""
    try:
        data = json.loads(_recent_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    paths = data.get("saves") if isinstance(data, dict) else None
    return [Path(p) for p in paths if isinstance(p, str)] if isinstance(paths, list) else []


def remember(path: Path) -> None:
    """Put `path` at the head of the list (best effort: a list that cannot be written changes nothing else)."""
    resolved = str(Path(path).resolve())
    saves = [resolved] + [str(p) for p in recent_saves() if str(p) != resolved]
    try:
        write_json_atomically(_recent_file(), {"saves": saves[:KEPT]})
    except OSError:
        pass


def latest_save() -> Path:
    """The save that changed last among the listed ones and the data folder's saves; SaveFileError if none."""
    candidates = {p.resolve() for p in recent_saves()}
    folder = data_home() / "saves"
    if folder.is_dir():
        candidates |= {p.resolve() for p in folder.glob("*.json")}
    found: list[tuple[float, Path]] = []
    for path in candidates:
        try:
            if not path.is_file():
                continue
            read_save(path)
            found.append((path.stat().st_mtime, path))
        except (SaveFileError, OSError):
            continue
    if not found:
        raise SaveFileError("missing", folder)
    return max(found)[1]
