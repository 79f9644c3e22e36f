"""What the program said: the last messages, to repeat the last response or walk back through them."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

HISTORY_SIZE = 20


@dataclass
class _Said:
    response: int
    message: str
    closed: bool = False  # a yes/no question already answered: "repeat" leaves it out


class MessageHistory:
    """The last HISTORY_SIZE messages, grouped by response (what was said between two utterances of the
    players), with a review cursor that `previous` and `next` move. A yes/no question once answered is
    `close`d: review still reads it, "repeat" no longer says it."""

    def __init__(self, size: int = HISTORY_SIZE):
        self._messages: deque[_Said] = deque(maxlen=size)
        self._response = 0
        self._cursor: int | None = None

    def add(self, message: str) -> None:
        self._messages.append(_Said(self._response, message))
        self._cursor = None

    def new_response(self) -> None:
        """A player spoke: what is said from now on is a new response."""
        if self._messages and self._messages[-1].response == self._response:
            self._response += 1

    def close(self, message: str) -> None:
        """The latest `message` said was a question that has been answered: "repeat" leaves it out."""
        for said in reversed(self._messages):
            if said.message == message:
                said.closed = True
                return

    def messages(self) -> list[str]:
        """Every message kept, oldest first (what review walks through)."""
        return [said.message for said in self._messages]

    @property
    def last(self) -> str | None:
        return self._messages[-1].message if self._messages else None

    def last_response(self) -> list[str]:
        """Every message of the latest response that said something, less the questions answered since (when
        it held nothing else: nothing)."""
        if not self._messages:
            return []
        latest = self._messages[-1].response
        return [said.message for said in self._messages if said.response == latest and not said.closed]

    def previous(self) -> str | None:
        """The message before the one reviewed last (the first call gives the one before the latest)."""
        if not self._messages:
            return None
        start = len(self._messages) - 1 if self._cursor is None else self._cursor
        if start == 0:
            self._cursor = 0
            return None
        self._cursor = start - 1
        return self._messages[self._cursor].message

    def next(self) -> str | None:
        """The message after the one reviewed last; None past the latest."""
        if self._cursor is None or self._cursor >= len(self._messages) - 1:
            self._cursor = None
            return None
        self._cursor += 1
        return self._messages[self._cursor].message

    def __len__(self) -> int:
        return len(self._messages)
