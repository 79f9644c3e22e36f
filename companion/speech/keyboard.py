"""Noticing a key press while the program speaks, so that a player can cut it off."""

from __future__ import annotations

import sys
import time
from typing import IO


def line_typed(keys: IO[str], timeout_s: float) -> bool:
    """Whether a line (Enter) was typed on the terminal `keys` within `timeout_s`; the line is consumed.

    Only a real terminal is watched (not a pipe or file, whose lines are answers, not interruptions)."""
    try:
        if not keys.isatty():
            time.sleep(timeout_s)
            return False
        if sys.platform == "win32":
            import msvcrt

            deadline = time.monotonic() + timeout_s
            while time.monotonic() < deadline:
                if msvcrt.kbhit() and msvcrt.getwch() in "\r\n":
                    return True
                time.sleep(0.01)
            return False
        import select

        ready, _, _ = select.select([keys], [], [], timeout_s)
    except (OSError, ValueError, AttributeError):
        time.sleep(timeout_s)
        return False
    if ready:
        keys.readline()
        return True
    return False
