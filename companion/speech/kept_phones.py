"""A dialogue state's phone graph (companion.speech.phonetic), kept in the cache folder (phones/) between runs.

Building one asks espeak-ng for every word of the state's grammar and spells the minimal word automaton out phone
by phone: about a second of processor time for a French turn, at the first command of each state of every game.
A kept graph is found by a key made of what it depends on: the state's templates (as the recognisers' view of the
state is found: companion.language.kept_templates), the language, espeak-ng's version and dictionary, and the code
that makes automata, phones and graphs. The file begins with a
digest of the key and its contents, checked before anything is read; it is read without pickle, within a bound on
its unpacked size, and checked for the shape of a phone graph, so that a damaged or altered file is refused, and
the graph built again and kept anew. The MOST_FILES used last are kept (each set of player names makes graphs of
its own).
"""

from __future__ import annotations

import os
import re
import subprocess
from functools import cache
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.language.automaton import label
from companion.language.kept_arrays import code_digest, keep_archive, read_archive
from companion.language.recognition_grammar import Tag
from companion.paths import digest_of
from companion.speech.pronounce import espeak_path

if TYPE_CHECKING:
    from companion.speech.phonetic import PhoneGraph

FOLDER = "phones"
FORMAT = b"companion-phone-graph 2, npz compressed"
# Compressed, French Draftosaurus's `any` with two names takes 0.67 MB (2.85 plain) and 11 ms more to read; its
# turn, die and confirm together 0.77 MB. A game uses 4 to 14 states: the files of three or four games, about
# 30 MB at most.
MOST_FILES = 48
MOST_BYTES = 64 << 20  # unpacked, far above the largest (2.85 MB)
_OUR_CODE = ("language/automaton.py", "speech/phonetic.py", "speech/pronounce.py", "speech/kept_phones.py",
             "language/kept_arrays.py", "language/kept_automata.py")
_ARRAYS = ("accepting", "sources", "targets", "labels", "word_arcs")


@cache
def _espeak(lang: str) -> bytes | None:
    """espeak-ng's version line and the size and date of its dictionary for `lang`, or None when it cannot be
    asked (nothing is kept then)."""
    program = espeak_path()
    if program is None:
        return None
    try:
        result = subprocess.run([program, "--version"], capture_output=True, timeout=10, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    version = result.stdout.strip()
    data = re.search(rb"Data at: (.+)$", version)
    try:
        found = os.stat(os.path.join(os.fsdecode(data.group(1).strip()), f"{lang}_dict")) if data else None
    except OSError:
        found = None
    return version + (f" {found.st_size} {found.st_mtime_ns}".encode() if found else b"") if version else None


@cache
def _code() -> bytes | None:
    """The digest of our code that makes the graphs; None where its sources are not installed."""
    return code_digest(FORMAT, _OUR_CODE)


def key(templates: str, lang: str) -> bytes | None:
    """The key of the phone graph of a state in `lang`, its templates found by `templates` (the recognisers' view
    of the state: kept_templates.key); None when nothing can be kept."""
    espeak, code = _espeak(lang), _code()
    return None if espeak is None or code is None else digest_of(code, espeak, lang.encode(), templates.encode())


def read(key: bytes) -> tuple[PhoneGraph, dict[str, tuple[str, ...]]] | None:
    """The graph kept under `key` and the phones of its words, or None (none kept, or a file refused)."""
    from companion.speech.phonetic import PhoneGraph

    def made(arrays: dict[str, np.ndarray], header: Any) -> tuple[PhoneGraph, dict[str, tuple[str, ...]]] | None:
        found = _checked(header, arrays)
        if found is None:
            return None
        symbols, size, start, words, phones = found
        word_at = dict(zip(arrays["word_arcs"].tolist(), words, strict=True))
        return PhoneGraph.kept(symbols, size, start, arrays, word_at), phones

    return read_archive(FOLDER, key, _ARRAYS, MOST_BYTES, made)


def _checked(header: Any, arrays: dict[str, np.ndarray]) -> tuple[list[str], int, int, list[str],
                                                                  dict[str, tuple[str, ...]]] | None:
    """The header's parts when the header and arrays have the shape of a phone graph, else None."""
    if not isinstance(header, dict):
        return None
    symbols, size, start = header.get("symbols"), header.get("size"), header.get("start")
    words, phones = header.get("words"), header.get("phones")
    arcs = len(arrays["sources"])
    if not (isinstance(symbols, list) and all(isinstance(s, str) for s in symbols) and isinstance(size, int)
            and isinstance(start, int) and 0 <= start < size <= arcs + 1 and isinstance(words, list)
            and all(isinstance(w, str) for w in words)
            and all(Tag.valid(t) for w in set(words) for t in label(w)[1])  # each label checked once
            and isinstance(phones, dict)
            and all(isinstance(w, str) and isinstance(p, list) and p and all(isinstance(x, str) for x in p)
                    for w, p in phones.items())):
        return None
    if not (len(arrays["targets"]) == len(arrays["labels"]) == arcs and len(arrays["word_arcs"]) == len(words)):
        return None
    bounds = (("accepting", size), ("sources", size), ("targets", size), ("labels", len(symbols)),
              ("word_arcs", arcs))
    if any(len(arrays[name]) and (arrays[name].min() < 0 or arrays[name].max() >= limit) for name, limit in bounds):
        return None
    return symbols, size, start, words, {w: tuple(p) for w, p in phones.items()}


def keep(key: bytes, graph: PhoneGraph, phones: dict[str, tuple[str, ...]]) -> None:
    """Keep `graph` (and the phones of its words) under `key`, then drop the least recently used beyond
    MOST_FILES. A cache folder that cannot be written keeps nothing."""
    word_arcs = sorted(graph.word_at)
    header = {"symbols": graph.symbols, "size": graph.size, "start": graph.start,
              "words": [graph.word_at[arc] for arc in word_arcs], "phones": {w: list(p) for w, p in phones.items()}}
    arrays = {**graph.arrays(), "word_arcs": np.array(word_arcs, dtype=np.int32)}
    keep_archive(FOLDER, key, arrays, header, MOST_FILES)
