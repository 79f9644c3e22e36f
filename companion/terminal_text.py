"""Text from outside made safe to print, and text printed on a terminal that cannot show every letter.

Names and lines that come from players, files or the command line may hold control characters: an escape
sequence printed raw can clear the screen, move the cursor or retitle the window of a screen reader's
terminal. `clean` takes them out and keeps the letters of every script.
"""

from __future__ import annotations

import codecs
import contextlib
import re
import unicodedata
from typing import IO, Any

# Escape sequences (CSI, OSC, DCS/SOS/PM/APC strings, two-character escapes) in their 7-bit and 8-bit forms;
# a string left open runs to the end of the text.
_ESCAPE = re.compile(
    r"(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?"                        # CSI ... final byte
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # strings ... BEL or ST
    r"|\x1b[ -/]*[0-~]?")                                        # ESC with intermediates and a final byte
# Control characters left after the sequences (C0 but tab and line feed, DEL, C1), explicit bidirectional
# embeddings, overrides and isolates (they reorder what is shown), lone surrogates and non-characters.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]")
_LINE_BREAKS = re.compile("[\r\u2028\u2029\x85]+")
_SEPARATORS = re.compile("[\t\n\x0b\x0c\r\x1c-\x1f\x85\u2028\u2029]+")  # lines, tabs, units, paragraphs


def clean(text: str) -> str:
    """`text` without escape sequences and control characters (tabs and line feeds kept)."""
    text = _LINE_BREAKS.sub("\n", text)
    return _CONTROL.sub("", _ESCAPE.sub("", text))


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def shown(text: str) -> str:
    """`text` that can be printed and spoken in any encoding: a byte of a file name that is not UTF-8 (Python
    keeps it as a lone surrogate) becomes U+FFFD, the replacement character."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def clean_line(text: str) -> str:
    """`text` cleaned and on one line: line breaks, tabs and other separators become spaces (a name read from
    a file then prints as one line, never as a line of its own)."""
    return clean(_SEPARATORS.sub(" ", text))


def cleaned(value: Any) -> Any:
    """A document read from a file (JSON values) with every text in it cleaned, each on one line (no text of
    our files spans lines)."""
    if isinstance(value, str):
        return clean_line(value)
    if isinstance(value, list):
        return [cleaned(item) for item in value]
    if isinstance(value, dict):
        return {cleaned(key): cleaned(item) for key, item in value.items()}
    return value


def clean_name(text: str) -> str:
    """A name from outside, safe to print: cleaned, on one line, single spaces, trimmed."""
    return " ".join(clean(text).split())


# ---- terminals that cannot encode everything (PYTHONIOENCODING=latin-1 or ascii, an old console)

FALLBACK_ERRORS = "companion-fallback"
_SPELLED = str.maketrans({"œ": "oe", "Œ": "OE", "æ": "ae", "Æ": "AE", "ß": "ss", "‘": "'", "’": "'", "‚": "'",
                          "“": '"', "”": '"', "„": '"', "«": '"', "»": '"', "–": "-", "—": "-", "…": "...",
                          "\u00a0": " ", "\u202f": " ", "\u2009": " "})


def _fallback(error: UnicodeError) -> tuple[str, int]:
    """What an unencodable slice becomes: letters without their accents, ligatures spelled out, "?" at last."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    parts = []
    for char in error.object[error.start:error.end]:
        plain = "".join(c for c in unicodedata.normalize("NFKD", char.translate(_SPELLED))
                        if not unicodedata.combining(c))
        try:
            plain.encode(error.encoding)
        except UnicodeEncodeError:
            plain = "?"
        parts.append(plain or "?")
    return "".join(parts), error.end


codecs.register_error(FALLBACK_ERRORS, _fallback)


def print_anywhere(stream: IO[str] | None) -> None:
    """Let `stream` print every message, whatever its encoding: what it cannot encode is spelled plainly."""
    _set_errors(stream, FALLBACK_ERRORS)


def read_anything(stream: IO[str] | None) -> None:
    """Let `stream` read any bytes: what is not text in its encoding becomes U+FFFD, never an exception."""
    _set_errors(stream, "replace")


def _set_errors(stream: IO[str] | None, errors: str) -> None:
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        # closed, already read from, or not a real stream
        with contextlib.suppress(ValueError, OSError, AttributeError):
            reconfigure(errors=errors)


# What begins a word that is typed, not said, when it starts a sentence: an option (--board), a path (/tmp,
# ~/x, ./g.json), a shell's $'...': its letters keep their case.
_TYPED_START = frozenset("-/~$\\")


def sentences(text: str) -> str:
    """`text` with a capital letter at the start of each sentence (names in the catalogs are lower case), unless
    the sentence begins with an option or a path ("--board wide.yaml: ...")."""
    chars = list(text)
    start = True
    for index, char in enumerate(chars):
        if start and char.isalpha():
            chars[index] = char.upper()
            start = False
        elif char in ".?!" and (index + 1 == len(chars) or chars[index + 1] == " "):
            start = True
        elif char.isalnum() or (start and char in _TYPED_START and index + 1 < len(chars) and \
                not chars[index + 1].isspace()):
            start = False
    return "".join(chars)
