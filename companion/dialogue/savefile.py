"""Save files: one JSON document per game, written atomically, checked when read.

A save holds the game's setup and its action log, so that the state can be rebuilt exactly; a
checksum over the content tells a damaged file from a good one. A file that is not ours, damaged or
from another game is refused and never overwritten. Files are read through companion.files (regular
files only, bounded, checked against SAVE_SCHEMA); a write that fails says so (SaveWriteError) and leaves
the last good save in place; the temporary files of writes cut short by a kill are removed the first time
a save is written in their folder.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import re
import stat
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Self

from companion import paths
from companion.errors import BadInput
from companion.files import (
    FileRefused,
    Fingerprint,
    check_shape,
    check_values,
    file_fingerprint,
    load_json,
    read_bytes,
    read_head,
    write_json_atomically,
    write_reason,
)
from companion.locks import Holder, Lock, LockUnusable, lock_file_for, try_lock
from companion.paths import typed_path
from companion.terminal_text import clean, cleaned

try:
    import fcntl
except ImportError:  # no advisory locks (Windows): only old leftovers are removed
    fcntl = None  # type: ignore[assignment]

KIND = "companion-save"
FORMAT_VERSION = 1
# The longest full games measured hold 12 KB (Dino, 4 players); a save is refused past 1 MiB.
SAVE_LIMIT = 1 << 20

# What every save of the game loop holds; the game's engine checks its state when the table is rebuilt.
CONTENT_SCHEMA = {"state": dict, "finished?": bool, "settings?": dict, ...: Any}
SAVE_SCHEMA = {"kind": str, "version": int, "game": str, "checksum": str, "content": CONTENT_SCHEMA}

# Refusals of the file itself (it cannot be read as it is) and of what it holds.
_UNREADABLE = frozenset({"not_a_file", "too_big", "denied", "unreadable", "link_loop", "dangling_link", "no_input"})


class SaveFileError(FileRefused):
    """A save file that cannot be used: `code` names the message under `save.` that explains it.

    `cause` is the refusal of the file's reader, said instead of that message; `advice` names sentences
    under `save.` said after it (what to do)."""

    PREFIX = "save"

    def __init__(self, code: str, path: Path, detail: str = "", *, cause: FileRefused | None = None,
                 advice: tuple[str, ...] = ()):
        super().__init__(code, path, detail=detail)
        self.detail = detail
        self.cause = cause
        self.advice = advice

    def explain(self, lang: str) -> str:
        """The catalog sentences, in `lang`, that say why the file cannot be used (and what to do)."""
        from companion.language.messages import catalog

        words = catalog(lang)
        if self.cause is not None:
            ending = "save.damaged_untouched" if self.code == "corrupt" else "save.untouched"
            sentences = [self.cause.explain(lang), words.say(ending)]
        else:
            sentences = [super().explain(lang)]
        sentences.extend(words.say(f"save.{key}", path=str(self.path), typed=typed_path(self.path),
                                   typed_old=typed_path(f"{self.path}.old")) for key in self.advice)
        return " ".join(sentences)

    def with_advice(self, *keys: str) -> SaveFileError:
        """The same refusal, followed by the sentences `keys`."""
        return SaveFileError(self.code, self.path, self.detail, cause=self.cause, advice=(*self.advice, *keys))


class SaveWriteError(BadInput):
    """A save could not be written at `path`; `saved_before`: the file there still holds the last good save."""

    def __init__(self, path: Path, error: OSError, saved_before: bool):
        super().__init__(f"{path}: cannot write: {error.strerror or error}")
        self.path = path
        self.reason, self.detail = write_reason(error)
        self.saved_before = saved_before

    def explain(self, lang: str) -> str:
        from companion.language.messages import catalog

        words = catalog(lang)
        reason = words.say(self.reason, detail=self.detail)
        then = "files.saved_before" if self.saved_before else "files.nothing_saved"
        return " ".join((words.say("files.cannot_write", path=str(self.path), reason=reason),
                         words.say(then, path=str(self.path), typed=typed_path(self.path))))


def default_save_path(game: str) -> Path:
    return paths.data_home() / "saves" / f"{game}.json"


def _checksum(content: dict[str, Any]) -> str:
    canonical = json.dumps(content, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


# ---- writing

_swept: set[Path] = set()  # folders cleaned of leftover temporary files
_HEAD = ('{\n "kind": ' + json.dumps(KIND)).encode("utf-8")  # how every save written here begins
_LEFTOVER = re.compile(r"\..+\.json\.[a-z0-9_]{8}\.tmp")  # tempfile's names for .NAME.json.XXXXXXXX.tmp
_OLD_LEFTOVER_S = 3600  # without locks, a temporary file this old is no live write's


def write_save(path: Path, game: str, content: dict[str, Any]) -> Path:
    """Write `content` as the save of `game` at `path` (through a symbolic link, its target): a new file is
    swapped in whole, or nothing changes and SaveWriteError says why. Returns where the game is saved: when
    this process holds `path` (hold_save) and the file there changed since this game last wrote it, that
    file is left as it is and the game goes on in a new file beside it."""
    document = {"kind": KIND, "version": FORMAT_VERSION, "game": game,
                "checksum": _checksum(content), "content": content}
    try:  # never write what the reader would refuse
        check_values(document, path)
    except FileRefused as refusal:
        raise ValueError(f"a save that could not be read back: {refusal}") from None
    held = _held.get(path)
    if held is not None:
        return held.write(document)
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    _write_save_document(path, target, document)
    return path


def _write_save_document(path: Path, target: Path, document: dict[str, Any]) -> Fingerprint:
    """Write a save document at `target` (`path` as the player named it); SaveWriteError if it cannot be."""
    try:
        if target.parent not in _swept and target.parent.is_dir():
            _swept.add(target.parent)
            remove_leftovers(target.parent)
        return write_json_atomically(target, document)
    except OSError as error:
        raise SaveWriteError(path, error, saved_before=is_save_file(target)) from None


# ---- one game per save file

_held: dict[Path, HeldSave] = {}  # the saves this process holds, by the path a table writes to


class SaveInUse(SaveFileError):
    """Another process holds the save: a game is being played with it right now."""

    def __init__(self, path: Path, holder: Holder):
        super().__init__("in_use" if holder.pid is not None else "in_use_unnamed", path)
        self.holder = holder

    def explain(self, lang: str) -> str:
        from companion.language.messages import catalog

        since = time.strftime("%H:%M", time.localtime(self.holder.since)) if self.holder.since else "?"
        return catalog(lang).say(f"save.{self.code}", path=str(self.path), pid=self.holder.pid, since=since)


class HeldSave:
    """The save file of the game this process plays, from the game's start to its end.

    A lock beside the file (companion.locks) keeps any other process from playing the same save at the same
    time: it is refused at once, saying who holds the file. Every write goes to the file found when the game
    started (a link re-pointed since changes nothing), and only over the file this game last wrote or found
    there: a file changed by anyone else since is left as it is, and the game goes on in a new file beside it.
    """

    def __init__(self, path: Path):
        self.path = path
        self.target = Path(os.path.realpath(path))
        self.lock: Lock | None = None
        self.found: Fingerprint | None = None  # the file as it was once held
        self.notice = ""  # the sentence that says why the game went on under another name (session.*)
        self._expected: Fingerprint | None = None

    def write(self, document: dict[str, Any]) -> Path:
        """Write the save document where the game is saved; the path it is saved at (see the class)."""
        if Path(os.path.realpath(self.path)) != self.target:  # a link or a folder re-pointed since: the file held
            self._go_on_at(self.target, self.lock, "session.name_moved")  # is named as it is
        if _fingerprint(self.target) not in (self._expected, None):
            self._move_beside()
        self._expected = _write_save_document(self.path, self.target, document)
        return self.path

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.release()

    def release(self) -> None:
        """Let other processes play this save again."""
        if _held.get(self.path) is self:
            del _held[self.path]
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def _move_beside(self) -> None:
        """Go on in the first free name beside the file (game-2.json, game-3.json...), locked first."""
        stem, suffix = self.target.stem, self.target.suffix or ".json"
        for number in range(2, 1000):
            candidate = self.target.with_name(f"{stem}-{number}{suffix}")
            if os.path.lexists(candidate):
                continue
            try:
                taken = _take_lock(candidate)
            except LockUnusable:
                continue
            if isinstance(taken, Holder) or os.path.lexists(candidate):
                if isinstance(taken, Lock):
                    taken.release()
                continue
            if self.lock is not None:
                self.lock.release()
            same_folder = Path(os.path.realpath(self.path.parent)) == self.target.parent
            self._go_on_at(self.path.with_name(candidate.name) if same_folder else candidate, taken,
                           "session.saved_elsewhere")
            self.target, self._expected = candidate, None
            return
        raise SaveWriteError(self.path, OSError(errno.EEXIST, os.strerror(errno.EEXIST)), saved_before=False)

    def _go_on_at(self, path: Path, lock: Lock | None, notice: str) -> None:
        """From now on the game is saved at `path` (holding `lock`), for the reason `notice` says."""
        _held.pop(self.path, None)
        self.path, self.lock, self.notice = path, lock, notice
        _held[path] = self


def hold_save(path: Path) -> HeldSave:
    """Hold the save at `path` for this game (see HeldSave): SaveInUse when another process holds it."""
    held = HeldSave(path)
    try:
        taken = _take_lock(held.target)
    except LockUnusable:
        raise SaveFileError("lock_unusable", path, str(lock_file_for(held.target))) from None
    if isinstance(taken, Holder):
        raise SaveInUse(path, taken)
    held.lock = taken
    held.found = held._expected = _fingerprint(held.target)  # as it is now that no other game writes it
    _held[path] = held
    return held


def moved_notice(path: Path) -> str:
    """The sentence (session.*, filled with the old `path` and the `new` one) that says why the game held at
    `path` is saved there now, after write_save returned another path than the one it was given."""
    held = _held.get(path)
    return held.notice if held is not None and held.notice else "session.saved_elsewhere"


def save_state(path: Path) -> Fingerprint | None:
    """The state of the file at `path` (None: nothing there): equal states, equal files (see HeldSave)."""
    return _fingerprint(Path(os.path.realpath(path)))


def _take_lock(target: Path) -> Lock | Holder | None:
    """The lock of a save file, who holds it, or None when no lock file can be made there (a read-only or
    full folder: no game can write there either, and its first save says so)."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        return try_lock(lock_file_for(target))
    except LockUnusable:
        raise
    except OSError:
        return None


def _fingerprint(path: Path) -> Fingerprint | None:
    """What tells one state of a file from another: its identity, size, time and content (None: nothing)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return file_fingerprint(info, _checksum_bytes(path) if stat.S_ISREG(info.st_mode) else None)


def _checksum_bytes(path: Path) -> str | None:
    try:
        return hashlib.sha256(read_bytes(path, SAVE_LIMIT)).hexdigest()
    except FileRefused:
        return None


def remove_leftovers(folder: Path) -> list[Path]:
    """Remove the temporary files that writes cut short (a kill, a crash) left in `folder`; the ones removed.

    Only files named as write_save names them, that are empty or begin as a save, that no live write holds."""
    removed: list[Path] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        if _LEFTOVER.fullmatch(entry.name) and entry.is_file(follow_symlinks=False) and _is_leftover(entry.path):
            removed.append(Path(entry.path))
    return removed


def _is_leftover(name: str) -> bool:
    """Whether `name` is a leftover, removing it if so (while holding its lock)."""
    try:
        descriptor = os.open(name, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        if fcntl is not None:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return False  # a write is under way
        elif time.time() - os.fstat(descriptor).st_mtime < _OLD_LEFTOVER_S:
            return False
        head = os.read(descriptor, len(_HEAD))
        if head != _HEAD[:len(head)]:
            return False
        os.unlink(name)
        return True
    except OSError:
        return False
    finally:
        os.close(descriptor)


# ---- reading

def read_document(path: Path) -> Any:
    """The JSON document at `path`, or SaveFileError when it cannot be read as JSON (see companion.files)."""
    try:
        return load_json(path, SAVE_LIMIT)
    except SaveFileError:
        raise
    except FileRefused as refusal:
        if refusal.code == "missing":
            raise SaveFileError("missing", path) from None
        code = "unreadable" if refusal.code in _UNREADABLE else "corrupt"
        raise SaveFileError(code, path, refusal.code, cause=refusal) from None


def is_save_document(document: Any) -> bool:
    return isinstance(document, dict) and document.get("kind") == KIND


def check_document(path: Path, document: Any, game: str | None = None) -> dict[str, Any]:
    """The content of a save document after every check; `game` (when given) must match.

    Texts in the content come back cleaned of control characters (names are printed)."""
    if not is_save_document(document):
        raise SaveFileError("foreign", path)
    if document.get("version") != FORMAT_VERSION or type(document.get("version")) is not int:
        raise SaveFileError("version", path, clean(str(document.get("version")))[:20])
    try:
        check_shape(document, SAVE_SCHEMA, path)
    except FileRefused as refusal:
        raise SaveFileError("corrupt", path, refusal.code, cause=refusal) from None
    content = document["content"]
    if document["checksum"] != _checksum(content):
        raise SaveFileError("corrupt", path, "checksum", cause=FileRefused("checksum", path))
    if game is not None and document["game"] != game:
        raise SaveFileError("other_game", path, clean(document["game"])[:40])
    checked: dict[str, Any] = cleaned(content)  # a dict: SAVE_SCHEMA says so
    return checked


def read_save(path: Path, game: str | None = None) -> tuple[str, dict[str, Any]]:
    """(game name, content) of the save at `path`, after every check."""
    document = read_document(path)
    content = check_document(path, document, game)
    return document["game"], content


def is_save_file(path: Path) -> bool:
    """Whether `path` holds a save that read_save takes (never raises: a dangling link is no save)."""
    try:
        read_save(path)
    except SaveFileError:
        return False
    return True


# A plain `resume` reads whole at most this many files of the data folder that are not listed as played lately
# and begin like a save, newest first: 600 save-shaped files of 0.9 MB took 35.7 s to read whole.
UNLISTED_READS = 4


def newest_save(folder: Path | None, listed: Sequence[Path] = ()) -> Path | None:
    """The save that changed last among the `listed` files and the *.json files of `folder`, or None.

    Files are looked at newest first, and the first that read_save takes wins: every listed one may be read,
    but of the folder's others only the UNLISTED_READS newest that begin as this program writes a save."""
    known = {os.path.realpath(path) for path in listed}
    unlisted = [path for path in (sorted(folder.glob("*.json")) if folder is not None and folder.is_dir() else ())
                if os.path.realpath(path) not in known]
    dated = []
    for path in [*listed, *unlisted]:
        try:
            dated.append((os.stat(path).st_mtime, path))
        except (OSError, ValueError):
            continue
    reads = UNLISTED_READS
    for _, path in sorted(dated, key=lambda entry: entry[0], reverse=True):
        if os.path.realpath(path) not in known:
            if reads == 0 or not _begins_as_a_save(path):
                continue
            reads -= 1
        if is_save_file(path):
            return path
    return None


def _begins_as_a_save(path: Path) -> bool:
    try:
        return read_head(path, len(_HEAD)) == _HEAD
    except FileRefused:
        return False
