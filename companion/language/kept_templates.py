"""A dialogue state's compiled templates, kept in the cache folder (grammar/) between runs: the recognisers' view
of the state (recognition_grammar.StateGrammar, for one set of players' names). The key of a state's compiled
templates (`key`) also finds its automata (companion.language.kept_automata), the typed text's among them.

Every process that parses a sentence, or hears one, would otherwise import hassil, have it read the templates of
the game and compile those of the state. A kept file is found by a key made of everything the compiled templates
depend on: the grammar as written, the state's intents (and the players' names, for the recognisers), and the code
that folds, spells, reads and compiles templates (ours and hassil's, and the program's version). It begins with a
digest of the key and its contents, checked before it is unpacked, and it is read by an unpickler that makes
nothing but the word trees of a state's view, then checked for the shape of what was kept (a file altered to hold
anything else is refused); a file refused, or none, means the state is compiled again and kept anew.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import pickle
import sys
import zlib
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeGuard, TypeVar

from companion import __version__
from companion.paths import cache_home, digest_of, forget_oldest, keep_checked, read_checked

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

Kept = TypeVar("Kept")

FOLDER = "grammar"
FORMAT = (f"companion-templates 3, zlib, pickle {pickle.HIGHEST_PROTOCOL}, Python {sys.version_info[:2]}, "
          f"companion {__version__}").encode()
_HERE = Path(__file__).parent
_OUR_CODE = ("grammar.py", "nodes.py", "compiler.py", "folding.py", "recognition_grammar.py", "kept_templates.py")
# The only things a kept file may make.
_MADE = {("companion.language.recognition_grammar", name) for name in ("Choice", "Ref", "StateGrammar")}


@cache
def _code() -> bytes:
    """The digest of the code that makes compiled templates: ours, and every module of hassil (found without
    importing it)."""
    spec = importlib.util.find_spec("hassil")
    hassil = Path(spec.origin).parent if spec is not None and spec.origin else None
    files = [_HERE / name for name in _OUR_CODE]
    files += sorted(hassil.glob("*.py")) if hassil is not None else []
    return digest_of(FORMAT, *(path.name.encode() + (path.read_bytes() if path.is_file() else b"") for path in files))


@cache
def _grammar(game: str, lang: str) -> bytes:
    from companion.language.grammar import grammar_source

    return digest_of(json.dumps(grammar_source(game, lang), sort_keys=True, ensure_ascii=False, default=repr).encode())


def key(game: str, lang: str, state: str, players: Sequence[str] | None = None) -> bytes:
    """What a state's compiled templates depend on, as a digest: the typed text's (found in its automaton,
    kept_automata.typed_arcs), or with `players` the recognisers' for those names."""
    from companion.language.grammar import PLAYER_LIST, state_intents

    heard = None if players is None else list(players)
    intents = json.dumps([state, PLAYER_LIST, list(state_intents(game, state)), heard]).encode()
    return digest_of(_code(), _grammar(game, lang), intents)


def path(found_by: bytes) -> Path:
    return cache_home() / FOLDER / f"{found_by.hex()[:40]}.bin"


class _Unpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> type:
        if (module, name) not in _MADE:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of compiled templates")
        found: type = super().find_class(module, name)
        return found


def _unpickled(payload: bytes) -> object:
    """The objects of `payload`, with the garbage collector paused: unpickling makes thousands of objects, each
    batch of which set off a collection that walked every object made so far. Reading every French Draftosaurus
    state (27 files) took 1.57 s of processor time in the unpickler with the collector on, 0.33 s with it paused."""
    import gc

    was_on = gc.isenabled()
    gc.disable()
    try:
        return _Unpickler(io.BytesIO(payload)).load()
    finally:
        if was_on:
            gc.enable()


def read_as(found_by: bytes, shaped: Callable[[object], TypeGuard[Kept]]) -> Kept | None:
    """What is kept under this key if `shaped` finds it of its shape, else None (none kept, or a file damaged or
    altered)."""
    packed = read_checked(path(found_by), lambda kept: digest_of(found_by, kept))
    if packed is None:
        return None
    try:
        unpacking = zlib.decompressobj()
        payload = unpacking.decompress(packed, MOST_BYTES)
        if unpacking.unconsumed_tail or not unpacking.eof:
            return None
        found = _unpickled(payload)
        if not shaped(found):
            return None
    except Exception:  # noqa: BLE001 - a file of ours made to hold anything: whatever it raises, it is refused
        return None
    with contextlib.suppress(OSError):
        os.utime(path(found_by))  # used: among the newest again
    return found


def keep(found_by: bytes, templates: Any) -> None:
    """Keep the templates for the next start, swapped in whole; nothing is kept where the cache folder cannot be
    written (a file cut short by a power cut fails its digest and is compiled again)."""
    try:
        packed = zlib.compress(pickle.dumps(templates, protocol=pickle.HIGHEST_PROTOCOL), 6)
    except (pickle.PicklingError, RecursionError, TypeError, AttributeError, ValueError):
        return  # a slot value pickle cannot write: the state is compiled at each start, as before
    kept = path(found_by)
    if keep_checked(kept, lambda payload: digest_of(found_by, payload), packed):
        forget_oldest(kept.parent, "*.bin", MOST_FILES)


# The recognisers' views of every state of the three games in three languages make 88 files for each set of
# players' names heard (12 KB at most);
# a new version of the program or of its grammars makes new ones. Beyond this many, those used longest ago (read or
# kept) are removed.
# Compressed (zlib, level 6), the largest, French Draftosaurus's `any`, takes 71 KB instead of 433 KB: about 13 ms
# more to keep it once, 2 ms more to read it back.
MOST_FILES = 400
MOST_BYTES = 16 << 20  # unpacked, far above the largest (0.4 MB)

