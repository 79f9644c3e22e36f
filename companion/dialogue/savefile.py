"""Save files: one JSON document per game, written atomically, checked when read.

A save holds the game's setup and its action log, so that the state can be rebuilt exactly; a
checksum over the content tells a damaged file from a good one. A file that is not ours, damaged or
from another game is refused and never overwritten.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from companion import paths
from companion.errors import BadInput

KIND = "companion-save"
FORMAT_VERSION = 1


class SaveFileError(BadInput):
    """A save file that cannot be used: `code` names the message under `save.` that explains it."""

    def __init__(self, code: str, path: Path, detail: str = ""):
        super().__init__(f"{path}: {code.replace('_', ' ')}{': ' + detail if detail else ''}")
        self.code = code
        self.path = path
        self.detail = detail

    def explain(self, lang: str) -> str:
        """The catalog sentence, in `lang`, that says why the file cannot be used."""
        from companion.language.messages import catalog

        return catalog(lang).say(f"save.{self.code}", path=str(self.path), detail=self.detail)


def data_home() -> Path:
    """Where companion keeps its saves (see companion.paths)."""
    return paths.data_home()


def default_save_path(game: str) -> Path:
    return data_home() / "saves" / f"{game}.json"


def _checksum(content: dict[str, Any]) -> str:
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


def write_save(path: Path, game: str, content: dict[str, Any]) -> None:
    """Write `content` as the save of `game` at `path`: a new file is swapped in whole, or nothing changes."""
    write_json_atomically(path, {"kind": KIND, "version": FORMAT_VERSION, "game": game,
                                 "checksum": _checksum(content), "content": content})


def write_json_atomically(path: Path, document: Any) -> None:
    """Write `document` as JSON at `path`: a new file is swapped in whole, or nothing changes."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(document, stream, ensure_ascii=False, indent=1)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    _sync_directory(path.parent)


def _sync_directory(folder: Path) -> None:
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def read_document(path: Path) -> dict[str, Any]:
    """The raw JSON document at `path`, or SaveFileError when it is missing or not JSON."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SaveFileError("missing", path) from None
    except (OSError, UnicodeDecodeError) as error:
        raise SaveFileError("unreadable", path, str(error)) from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise SaveFileError("corrupt", path, f"line {error.lineno}") from None
    if not isinstance(document, dict):
        raise SaveFileError("foreign", path)
    return document


def is_save_document(document: dict[str, Any]) -> bool:
    return document.get("kind") == KIND


def check_document(path: Path, document: dict[str, Any], game: str | None = None) -> dict[str, Any]:
    """The content of a save document after every check; `game` (when given) must match."""
    if not is_save_document(document):
        raise SaveFileError("foreign", path)
    if document.get("version") != FORMAT_VERSION:
        raise SaveFileError("version", path, str(document.get("version")))
    content = document.get("content")
    if not isinstance(content, dict) or document.get("checksum") != _checksum(content):
        raise SaveFileError("corrupt", path, "checksum")
    if game is not None and document.get("game") != game:
        raise SaveFileError("other_game", path, str(document.get("game")))
    return content


def read_save(path: Path, game: str | None = None) -> tuple[str, dict[str, Any]]:
    """(game name, content) of the save at `path`, after every check."""
    document = read_document(path)
    content = check_document(path, document, game)
    return document["game"], content
