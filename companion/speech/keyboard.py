"""The keyboard beside the microphone: Enter cuts off what the program says, and a typed line is taken as
said, so that everything stays reachable by keys while the program listens."""

from __future__ import annotations

import sys
from typing import IO


def typed_line(keys: IO[str]) -> str | None:
    """A line already typed on the terminal `keys` (without its end of line), or None; never waits.

    Pipes and files are not watched: their lines are the scripted answers, read by the text listener."""
    try:
        if not keys.isatty():
            return None
        if sys.platform == "win32":
            return None  # msvcrt gives keys one by one; Windows players type between prompts instead
        import select

        ready, _, _ = select.select([keys], [], [], 0)
    except (OSError, ValueError, AttributeError):
        return None
    return keys.readline().rstrip("\r\n") if ready else None
