"""A dialogue state's minimal automata with meaning (automaton.minimal_meant), kept in the cache folder between
runs, as tables of their arcs grouped by the state they leave (`ArcTable`): the one typed text is read on
(`typed_arcs`, in typed/), and the one every recogniser's words are read on, for a set of players' names
(`meant_arcs`, in automata/), which Whisper's phone graph is spelled out from. Building one took 0.3 to 0.6 s for
French Draftosaurus's `any`, at the first command of a state. A kept
automaton is found by a key made of what it depends on: the state's templates (as the recognisers' view of the
state is found: companion.language.kept_templates) and the code that builds automata. The file begins with a
digest of the key and its contents, checked before anything is read; it is read without pickle, within a bound on
its unpacked size (kept_arrays), and checked for the shape of an automaton whose tags are ours, so that a damaged
or altered file is refused, and the automaton built again and kept anew. The MOST_FILES used last are kept (each
set of player names makes automata of its own).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np

from companion.language.automaton import WordAutomaton, label, minimal_meant
from companion.language.kept_arrays import code_digest, keep_archive, read_archive
from companion.language.recognition_grammar import Open, Tag, grammar_graph, typed_state_grammar, word_graph
from companion.paths import digest_of

FOLDER = "automata"
TYPED_FOLDER = "typed"  # the typed text's: one per game, language and state, none per set of names
FORMAT = b"companion-meant-automaton 2, npz compressed"
MOST_FILES = 48  # French Draftosaurus's `any` with two names: 0.1 MB
MOST_TYPED_FILES = 200  # the three games have 31 states, each heard in three languages, as it is and confirming
MOST_BYTES = 64 << 20  # unpacked, far above the largest (0.5 MB)
_OUR_CODE = ("language/automaton.py", "language/kept_automata.py", "language/kept_arrays.py")
_ARRAYS = ("offsets", "targets", "labels", "accepting")


@dataclass(frozen=True)
class ArcTable:
    """An automaton's arcs grouped by the state they leave: those of state s are `targets` and `labels` (indices
    into `names`) from offsets[s] to offsets[s + 1]. Read back from a file, nothing is rebuilt; a reader takes
    the arcs of the states it meets (reading.PathReader)."""

    start: int
    accepting: frozenset[int]
    names: list[str]
    offsets: np.ndarray
    targets: np.ndarray
    labels: np.ndarray

    @classmethod
    def of(cls, automaton: WordAutomaton) -> ArcTable:
        names = sorted({arc_label for _, _, arc_label in automaton.arcs})
        number = {arc_label: index for index, arc_label in enumerate(names)}
        arcs = sorted(automaton.arcs, key=lambda arc: arc[0])  # the arcs of a state in their order
        sources = np.array([arc[0] for arc in arcs], dtype=np.int64)
        offsets = np.searchsorted(sources, np.arange(automaton.n_states + 1), side="left")
        targets = np.array([arc[1] for arc in arcs], dtype=np.int64)
        return cls(automaton.start, automaton.accepting, names, offsets, targets,
                   np.array([number[arc[2]] for arc in arcs], dtype=np.int64))

    @property
    def n_states(self) -> int:
        return len(self.offsets) - 1

    def leaving(self, state: int) -> list[tuple[int, str]]:
        """The arcs that leave `state`: (target, label)."""
        begin, end = int(self.offsets[state]), int(self.offsets[state + 1])
        return [(target, self.names[number]) for target, number in
                zip(self.targets[begin:end].tolist(), self.labels[begin:end].tolist(), strict=True)]

    def digest(self) -> str:
        """A digest of the automaton, to key what is compiled from it (as numbered here)."""
        found = hashlib.sha256(repr((self.start, sorted(self.accepting), self.names)).encode("utf-8"))
        for array in (self.offsets, self.targets, self.labels):
            found.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
        return found.hexdigest()

    def automaton(self) -> WordAutomaton:
        return WordAutomaton(self.n_states, self.start, self.accepting,
                             [(state, target, arc_label) for state in range(self.n_states)
                              for target, arc_label in self.leaving(state)])


# Kept in the process too: Whisper's match by sound and the reading of every recogniser's words use the same automaton.
@lru_cache(maxsize=16)
def meant_arcs(game: str, lang: str, state: str, player_names: tuple[str, ...] = ()) -> ArcTable:
    """The minimal automaton with meaning of what recognisers may say in a state (recognition_grammar.word_graph,
    automaton.minimal_meant): read from the cache folder when it was built before from the same templates, else built
    and kept there."""
    from companion.language import kept_templates

    return _kept_or_built(kept_templates.key(game, lang, state, player_names), FOLDER, MOST_FILES,
                          lambda: minimal_meant(word_graph(game, lang, state, player_names)))


@lru_cache(maxsize=64)
def typed_arcs(game: str, lang: str, state: str) -> ArcTable:
    """The minimal automaton with meaning of what may be typed in a state (recognition_grammar.typed_state_grammar:
    players' names and free text are open arcs, read when a sentence is), kept as `meant_arcs` is."""
    from companion.language import kept_templates

    def build() -> WordAutomaton:
        return minimal_meant(grammar_graph(typed_state_grammar(game, lang, state), lang, typed=True))

    return _kept_or_built(kept_templates.key(game, lang, state), TYPED_FOLDER, MOST_TYPED_FILES, build)


def _kept_or_built(templates: bytes, folder: str, most: int, build: Callable[[], WordAutomaton]) -> ArcTable:
    """The automaton kept in `folder` for the state's templates (their key, kept_templates.key), else `build()`'s,
    kept there (the `most` used last stay)."""
    found_key = key(templates.hex())
    found = read(found_key, folder) if found_key is not None else None
    if found is not None:
        return found
    built = ArcTable.of(build())
    if found_key is not None:
        keep(found_key, built, folder, most)
    return built


@cache
def _code() -> bytes | None:
    """The digest of our code that builds automata; None where its sources are not installed."""
    return code_digest(FORMAT, _OUR_CODE)


def key(templates: str) -> bytes | None:
    """The key of a state's automaton, its templates found by `templates` (the recognisers' view of the state:
    kept_templates.key); None when nothing can be kept."""
    code = _code()
    return None if code is None else digest_of(code, templates.encode())


def read(key: bytes, folder: str = FOLDER) -> ArcTable | None:
    """The automaton kept under `key` in `folder`, or None (none kept, or a file refused)."""
    return read_archive(folder, key, _ARRAYS, MOST_BYTES, _checked)


def _checked(arrays: dict[str, np.ndarray], header: Any) -> ArcTable | None:
    """The table the arrays and header hold when they have the shape of one, with tags of ours, else None."""
    if not isinstance(header, dict):
        return None
    start, names = header.get("start"), header.get("names")
    offsets, targets, labels, accepting = (arrays[name].astype(np.int64) for name in _ARRAYS)
    states = len(offsets) - 1
    if not (type(start) is int and 0 <= start < states and isinstance(names, list)
            and all(isinstance(name, str) for name in names)):
        return None
    if not (offsets[0] == 0 and offsets[-1] == len(targets) == len(labels) and bool(np.all(np.diff(offsets) >= 0))):
        return None
    bounds = ((targets, states), (labels, len(names)), (accepting, states))
    if any(len(array) and (array.min() < 0 or array.max() >= limit) for array, limit in bounds):
        return None
    labels_read = [label(name) for name in names]
    tags = {tag for _, tags_of in labels_read for tag in tags_of}
    if not all(Tag.valid(tag) for tag in tags):  # each tag checked once (a state's labels share them)
        return None
    try:
        for word, _ in labels_read:
            Open.of(word)  # an open part of ours, or a word
    except ValueError:
        return None
    return ArcTable(start, frozenset(accepting.tolist()), names, offsets, targets, labels)


def keep(key: bytes, table: ArcTable, folder: str = FOLDER, most: int = MOST_FILES) -> None:
    """Keep `table` under `key` in `folder`, then drop the least recently used beyond `most`."""
    arrays = {"offsets": table.offsets, "targets": table.targets, "labels": table.labels,
              "accepting": np.array(sorted(table.accepting), dtype=np.int64)}
    keep_archive(folder, key, arrays, {"start": table.start, "names": table.names}, most)
