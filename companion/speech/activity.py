"""What the program is playing right now, so that the microphone stays muted while it plays.

Anything that makes sound (a speaker, the earcons) registers a `busy` check here; listeners ask
`playing()` and drop what the microphone hears meanwhile and for a short guard time after.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Callable

_checks: list[weakref.WeakMethod[Callable[[], bool]]] = []


def register(busy: Callable[[], bool]) -> None:
    """Count `busy` (a bound method, such as speaker.is_speaking) among the program's sounds."""
    _checks.append(weakref.WeakMethod(busy))


def playing() -> bool:
    """Whether any registered sound is still playing."""
    alive = [check for check in _checks if check() is not None]
    _checks[:] = alive
    return any(busy() for busy in (check() for check in alive) if busy is not None)


def wait_until_quiet(poll_s: float = 0.02, timeout_s: float = 60.0) -> None:
    """Block until nothing registered is playing (at most `timeout_s`)."""
    deadline = time.monotonic() + timeout_s
    while playing() and time.monotonic() < deadline:
        time.sleep(poll_s)
