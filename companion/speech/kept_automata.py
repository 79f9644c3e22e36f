"""A dialogue state's minimal automaton with meaning (fsg.meant_automaton), kept in the cache folder (automata/)
between runs.

Every recogniser's words are read on it (companion.speech.path_meaning), and Whisper's phone graph is spelled out
from it; building it took 0.3 to 0.6 s for French Draftosaurus's `any`, at the first command of a state, where
reading it back takes about 20 ms. A kept automaton is found by a key made of what it depends on: the state's
templates (as the recognisers' view of the state is found: companion.language.kept_templates) and the code that
builds automata. The file begins with a digest of the key and its contents, checked before anything is read; it
is JSON (no pickle), read within a bound on its unpacked size and checked for the shape of an automaton whose tags
are ours, so that a damaged or altered file is refused, and the automaton built again and kept anew. The
MOST_FILES used last are kept (each set of player names makes automata of its own).
"""

from __future__ import annotations

import contextlib
import json
import os
import zlib
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from companion.language.recognition_grammar import Tag, word_graph
from companion.paths import cache_home, digest_of, forget_oldest, keep_checked, read_checked
from companion.speech.fsg import WordAutomaton, label, minimal_meant

FOLDER = "automata"
FORMAT = b"companion-meant-automaton 1, zlib json"
MOST_FILES = 48  # French Draftosaurus's `any` with two names: 0.12 MB
MOST_BYTES = 64 << 20  # unpacked, far above the largest (0.84 MB)
_HERE = Path(__file__).parent
_OUR_CODE = ("fsg.py", "kept_automata.py")


# Kept in the process too: Whisper's match by sound and the reading of every recogniser's words use the same automaton.
@lru_cache(maxsize=16)
def meant_automaton(game: str, lang: str, state: str, player_names: tuple[str, ...] = ()) -> WordAutomaton:
    """The minimal automaton with meaning of what recognisers may say in a state (recognition_grammar.word_graph,
    fsg.minimal_meant): read from the cache folder when it was built before from the same templates, else built
    and kept there."""
    from companion.language import kept_templates

    found_key = key(kept_templates.key(game, lang, state, player_names).hex())
    found = read(found_key) if found_key is not None else None
    if found is not None:
        return found
    built = minimal_meant(word_graph(game, lang, state, player_names, meant=True))
    if found_key is not None:
        keep(found_key, built)
    return built


@cache
def _code() -> bytes | None:
    """The digest of our code that builds automata; None where its sources are not installed."""
    try:
        return digest_of(FORMAT, *((_HERE / name).read_bytes() for name in _OUR_CODE))
    except OSError:
        return None


def key(templates: str) -> bytes | None:
    """The key of a state's automaton, its templates found by `templates` (the recognisers' view of the state:
    kept_templates.key); None when nothing can be kept."""
    code = _code()
    return None if code is None else digest_of(code, templates.encode())


def _path(key: bytes) -> Path:
    return cache_home() / FOLDER / f"{key.hex()[:32]}.json.z"


def read(key: bytes) -> WordAutomaton | None:
    """The automaton kept under `key`, or None (none kept, or a file refused)."""
    path = _path(key)
    payload = read_checked(path, lambda data: digest_of(key, data))
    if payload is None:
        return None
    try:
        unpacker = zlib.decompressobj()
        text = unpacker.decompress(payload, MOST_BYTES)
        if unpacker.unconsumed_tail or not unpacker.eof:
            return None
        found = _checked(json.loads(text))
    except (ValueError, TypeError, zlib.error, RecursionError):
        return None
    if found is not None:
        with contextlib.suppress(OSError):
            os.utime(path)  # used: among the newest again
    return found


def _checked(document: Any) -> WordAutomaton | None:
    """The automaton a document holds when it has the shape of one, with tags of ours, else None."""
    if not isinstance(document, dict):
        return None
    size, start, accepting = document.get("states"), document.get("start"), document.get("accepting")
    labels, arcs = document.get("labels"), document.get("arcs")
    if not (isinstance(size, int) and isinstance(start, int) and 0 <= start < size
            and isinstance(accepting, list) and isinstance(labels, list) and isinstance(arcs, list)
            and len(arcs) % 3 == 0 and all(isinstance(x, str) for x in labels)
            and all(type(x) is int for x in accepting) and all(type(x) is int for x in arcs)):
        return None
    if any(not 0 <= x < size for x in accepting) or any(
            not (0 <= arcs[i] < size and 0 <= arcs[i + 1] < size and 0 <= arcs[i + 2] < len(labels))
            for i in range(0, len(arcs), 3)):
        return None
    tags = {tag for arc_label in labels for tag in label(arc_label)[1]}
    if not all(Tag.valid(tag) for tag in tags):  # each tag checked once (a state's labels share them)
        return None
    return WordAutomaton(size, start, frozenset(accepting),
                         [(arcs[i], arcs[i + 1], labels[arcs[i + 2]]) for i in range(0, len(arcs), 3)])


def keep(key: bytes, automaton: WordAutomaton) -> None:
    """Keep `automaton` under `key`, then drop the least recently used beyond MOST_FILES. A cache folder that
    cannot be written keeps nothing."""
    labels = sorted({arc_label for _, _, arc_label in automaton.arcs})
    number = {arc_label: index for index, arc_label in enumerate(labels)}
    document = {"states": automaton.n_states, "start": automaton.start, "accepting": sorted(automaton.accepting),
                "labels": labels, "arcs": [x for s, t, arc_label in automaton.arcs for x in (s, t, number[arc_label])]}
    payload = zlib.compress(json.dumps(document, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), 6)
    path = _path(key)
    if keep_checked(path, lambda data: digest_of(key, data), payload):
        forget_oldest(path.parent, "*.json.z", MOST_FILES)
