"""The words a Vosk model knows, read from its files without loading it.

Vosk finds a word of a grammar in the output symbol table of the model's graph (HCLG.fst for big models,
Gr.fst for small ones), else in its words.txt, and drops a word it lacks with a log line only. This module
reads the same table: graph/words.txt (or words.txt) when the model has one, else the table stored in the
header of Gr.fst or HCLG.fst (OpenFst's binary format: a header, then the input and output symbol tables), so
a check takes a moment and no memory even for a model of several hundred megabytes.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import BinaryIO

FST_MAGIC = 2125659606
SYMBOLS_MAGIC = 2125658996
HAS_INPUT_SYMBOLS, HAS_OUTPUT_SYMBOLS = 1, 2
WORD_LISTS = ("graph/words.txt", "words.txt")
GRAPHS = ("graph/Gr.fst", "graph/HCLG.fst", "Gr.fst", "HCLG.fst")
MAX_STRING = 1 << 20  # no word nor type name of a real model is near this long


class UnreadableModel(ValueError):
    """A model folder whose word list cannot be read (the message says which file and why)."""


def model_words(folder: Path) -> frozenset[str]:
    """Every word the Vosk model in `folder` can hear (UnreadableModel when there is no word list to read)."""
    folder = Path(folder)
    for name in WORD_LISTS:
        if (folder / name).is_file():
            return _read_word_list(folder / name)
    for name in GRAPHS:
        if (folder / name).is_file():
            return _read_graph_symbols(folder / name)
    raise UnreadableModel(f"{folder}: no {' or '.join(WORD_LISTS)}, and no {' or '.join(GRAPHS)}")


def _read_word_list(path: Path) -> frozenset[str]:
    """An OpenFst text symbol table: one "word id" per line."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise UnreadableModel(f"{path}: {error}") from None
    words = set()
    for number, line in enumerate(text.splitlines(), start=1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) != 2 or not fields[1].isdigit():
            raise UnreadableModel(f"{path}, line {number}: expected a word and its number")
        words.add(fields[0])
    if not words:
        raise UnreadableModel(f"{path}: no words")
    return frozenset(words)


def _read_graph_symbols(path: Path) -> frozenset[str]:
    """The output symbols (words) stored in a binary OpenFst file's header."""
    try:
        with path.open("rb") as handle:
            if _int32(handle) != FST_MAGIC:
                raise UnreadableModel(f"{path}: not an OpenFst file")
            _string(handle), _string(handle)  # the FST's type and its arcs' type
            _int32(handle)  # version
            flags = _int32(handle)
            handle.read(8 + 8 + 8 + 8)  # properties, start state, number of states, number of arcs
            if not flags & HAS_OUTPUT_SYMBOLS:
                raise UnreadableModel(f"{path}: holds no word list")
            if flags & HAS_INPUT_SYMBOLS:
                _symbols(handle)
            return frozenset(_symbols(handle))
    except OSError as error:
        raise UnreadableModel(f"{path}: {error}") from None
    except (struct.error, UnicodeDecodeError):
        raise UnreadableModel(f"{path}: its word list is cut short or damaged") from None


def _symbols(handle: BinaryIO) -> list[str]:
    if _int32(handle) != SYMBOLS_MAGIC:
        raise UnreadableModel(f"{handle.name}: its word list is damaged")
    _string(handle)  # the table's name
    _available_key, size = struct.unpack("<qq", _read(handle, 16))
    symbols = []
    for _ in range(size):
        symbols.append(_string(handle))
        _read(handle, 8)  # the word's number
    return symbols


def _int32(handle: BinaryIO) -> int:
    value: int = struct.unpack("<i", _read(handle, 4))[0]
    return value


def _string(handle: BinaryIO) -> str:
    length = _int32(handle)
    if not 0 <= length <= MAX_STRING:
        raise UnreadableModel(f"{handle.name}: its word list is damaged")
    return _read(handle, length).decode("utf-8")


def _read(handle: BinaryIO, size: int) -> bytes:
    data = handle.read(size)
    if len(data) != size:
        raise struct.error("end of file")
    return data
