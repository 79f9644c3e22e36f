"""Where the data folders (voices/, grammars/) are, in a source checkout and in an installed package."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent


def data_dir(name: str) -> Path:
    """The folder `voices` or `grammars`: inside the installed package, or at the top of the source tree."""
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the data folder '{name}' is missing from this installation")


def voices_dir() -> Path:
    return data_dir("voices")


def grammars_dir() -> Path:
    return data_dir("grammars")
