"""Exclusive locks between processes, on a lock file beside the file they protect.

A lock is the operating system's (flock on POSIX, msvcrt.locking on Windows) on an open lock file: the system
releases it when the process ends however it ends (a crash or `kill -9` included), so a lock file left behind
is never a lock. The lock file is a plain file opened without following links and without waiting on a pipe;
it holds who took it (process id and since when), for the message of the process refused.
"""

from __future__ import annotations

import json
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]
    import msvcrt

_FLAGS = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(
    os, "O_CLOEXEC", 0)
_HOLDER_LIMIT = 1024  # bytes of a lock file read to say who holds it
_WAIT_STEP_S = 0.02


class LockUnusable(OSError):
    """The lock file's place holds something else than a plain file (a link, a pipe, a folder)."""


@dataclass(frozen=True)
class Holder:
    """Who holds a lock, as its lock file says (None: not said yet, or not by us)."""

    pid: int | None
    since: float | None


def lock_file_for(path: Path) -> Path:
    """The lock file of `path`: beside it, hidden, named after it."""
    return path.with_name(f".{path.name}.lock")


class Lock:
    """An exclusive lock held on `path` (a lock file) by this process, until release()."""

    def __init__(self, path: Path, descriptor: int):
        self.path = path
        self._descriptor: int | None = descriptor

    @property
    def held(self) -> bool:
        return self._descriptor is not None

    def release(self) -> None:
        """Remove the lock file and let go of the lock (removing it first: whoever opens the name next gets
        a new file, and a process that opened the old one sees it is gone, see _lock)."""
        descriptor, self._descriptor = self._descriptor, None
        if descriptor is None:
            return
        try:
            same = _same_file(os.stat(self.path, follow_symlinks=False), os.fstat(descriptor))
            if same:
                os.unlink(self.path)
        except OSError:
            pass
        finally:
            os.close(descriptor)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.release()


def try_lock(path: Path) -> Lock | Holder:
    """The lock on `path` (created if needed), or who holds it now. OSError when the lock file cannot be
    created (LockUnusable when its place holds something else than a plain file)."""
    return _lock(path, wait_s=0.0)


def wait_lock(path: Path, wait_s: float) -> Lock | Holder:
    """The lock on `path`, waiting at most `wait_s` seconds for another process to let go of it."""
    return _lock(path, wait_s)


def _lock(path: Path, wait_s: float) -> Lock | Holder:
    deadline = time.monotonic() + wait_s
    while True:
        descriptor = _open(path)
        kept = False
        try:
            if _take(descriptor):
                # The holder may have removed the file between our open and our lock: then the name is
                # another file's (or nobody's), and the lock must be taken on that one.
                if _same_file(os.stat(path, follow_symlinks=False), os.fstat(descriptor)):
                    _write_holder(descriptor)
                    kept = True
                    return Lock(path, descriptor)
                continue
            if time.monotonic() >= deadline:
                return _read_holder(descriptor)
        except FileNotFoundError:
            continue
        finally:
            if not kept:
                os.close(descriptor)
        time.sleep(_WAIT_STEP_S)


def _open(path: Path) -> int:
    try:
        descriptor = os.open(path, _FLAGS, 0o600)
    except OSError as error:
        if os.path.islink(path) or (os.path.lexists(path) and not os.path.isfile(path)):
            raise LockUnusable(error.errno, f"{path}: not a plain file") from None
        raise
    if not stat.S_ISREG(os.fstat(descriptor).st_mode):
        os.close(descriptor)
        raise LockUnusable(0, f"{path}: not a plain file")
    return descriptor


def _take(descriptor: int) -> bool:
    """Whether the lock was taken (False: another process holds it)."""
    try:
        if fcntl is not None:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:
            msvcrt.locking(descriptor, msvcrt.LK_NBLCK, 1)
    except (BlockingIOError, PermissionError):
        return False
    except OSError:
        if fcntl is None:  # msvcrt says EACCES or EDEADLOCK for a region locked by another process
            return False
        raise
    return True


def _same_file(first: os.stat_result, second: os.stat_result) -> bool:
    return (first.st_dev, first.st_ino) == (second.st_dev, second.st_ino)


def _write_holder(descriptor: int) -> None:
    text = json.dumps({"pid": os.getpid(), "since": round(time.time(), 3)}).encode("ascii")
    try:
        os.ftruncate(descriptor, 0)
        os.lseek(descriptor, 0, os.SEEK_SET)
        os.write(descriptor, text)
    except OSError:  # a full disk: the lock holds all the same, only unnamed
        pass


def _read_holder(descriptor: int) -> Holder:
    try:
        os.lseek(descriptor, 0, os.SEEK_SET)
        data: Any = json.loads(os.read(descriptor, _HOLDER_LIMIT))
    except (OSError, ValueError):
        return Holder(None, None)
    if not isinstance(data, dict):
        return Holder(None, None)
    pid, since = data.get("pid"), data.get("since")
    return Holder(pid if type(pid) is int and pid > 0 else None,
                  float(since) if isinstance(since, (int, float)) and not isinstance(since, bool) else None)
