"""The form of the files kept in the cache folder for recognisers (phone graphs, automata): whole-number arrays and
a JSON header, in an npz archive read without pickle and within a bound on its unpacked size."""

from __future__ import annotations

import io
import json
from typing import Any

import numpy as np


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
