"""The files kept in the cache folder for the grammar's automata and what recognisers make of them (phone graphs,
phrase lists): whole-number arrays and a JSON
header in an npz archive, behind a digest of its key and contents (checked before anything is read), read without
pickle and within a bound on its unpacked size, then checked for its shape by what reads it; the files used last
are kept."""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from companion.paths import cache_home, digest_of, forget_oldest, keep_checked, read_checked

Made = TypeVar("Made")


SOURCES = Path(__file__).parents[1]  # the package's folder


def code_digest(form: bytes, names: tuple[str, ...]) -> bytes | None:
    """The digest of `form` and the package's source files `names` ("language/automaton.py": what makes a kept
    file); None where they are not installed."""
    try:
        return digest_of(form, *((SOURCES / name).read_bytes() for name in names))
    except OSError:
        return None


def archive_path(folder: str, key: bytes) -> Path:
    return cache_home() / folder / f"{key.hex()[:32]}.npz"


def read_archive(folder: str, key: bytes, names: tuple[str, ...], most_bytes: int,
                 made: Callable[[dict[str, np.ndarray], Any], Made | None]) -> Made | None:
    """What `made` makes of the arrays `names` and the header kept under `key` in `folder`; None when none is kept
    or the file is refused (its digest, its members, its unpacked size beyond `most_bytes`, or `made`: None, or
    whatever it raises). A file read is marked as used (among the newest again)."""
    path = archive_path(folder, key)
    payload = read_checked(path, lambda data: digest_of(key, data))
    if payload is None:
        return None
    try:
        found = unpacked(payload, names, most_bytes)
        kept = None if found is None else made(*found)
    except Exception:  # noqa: BLE001 - whatever a file altered to match its digest raises, it is refused
        return None
    if kept is not None:
        with contextlib.suppress(OSError):
            os.utime(path)
    return kept


def keep_archive(folder: str, key: bytes, arrays: dict[str, np.ndarray], header: Any, most_files: int) -> None:
    """Keep `arrays` and `header` under `key` in `folder`, then drop the least recently used beyond `most_files`. A
    cache folder that cannot be written keeps nothing."""
    path = archive_path(folder, key)
    if keep_checked(path, lambda data: digest_of(key, data), packed(arrays, header)):
        forget_oldest(path.parent, "*.npz", most_files)


def packed(arrays: dict[str, np.ndarray], header: Any) -> bytes:
    """`arrays` (as 32-bit whole numbers) and `header` in one compressed archive."""
    out = io.BytesIO()
    members: dict[str, Any] = {name: array.astype(np.int32) for name, array in arrays.items()}
    members["header"] = np.frombuffer(json.dumps(header, ensure_ascii=False).encode("utf-8"), dtype=np.uint8)
    np.savez_compressed(out, **members)
    return out.getvalue()


def unpacked(payload: bytes, names: tuple[str, ...], most_bytes: int) -> tuple[dict[str, np.ndarray], Any] | None:
    """The arrays `names` and the header of an archive made by `packed`, or None when it holds other members, more
    than `most_bytes` unpacked, or arrays that are not one-dimensional whole numbers. Raises what a damaged
    archive raises (ValueError, OSError, zipfile's errors...)."""
    expected = {f"{name}.npy" for name in (*names, "header")}
    with np.load(io.BytesIO(payload), allow_pickle=False) as stored:  # nothing unpacked before it is asked for
        members = stored.zip.infolist()
        if {m.filename for m in members} != expected or len(members) != len(expected) or \
                sum(m.file_size for m in members) > most_bytes:
            return None
        arrays = {name: stored[name] for name in names}
        header = json.loads(bytes(stored["header"]).decode("utf-8"))
    if any(a.ndim != 1 or a.dtype.kind not in "iu" for a in arrays.values()):
        return None
    return arrays, header
