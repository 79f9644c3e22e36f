"""Speaking through speech-dispatcher, the speech server that screen readers (Orca) use on Linux, so that the
voice, speed and volume the player already chose there are the ones heard.

A small client of its protocol (SSIP) over its Unix socket, with no library needed: each line is sent as one
message of priority "message" (queued after the ones before it, never dropped by another client's text); the
server's notices (begin, end, cancelled) tell when everything has been said. "Faster", "louder"... move the
speed and volume from the player's own settings, for this game only.
"""

from __future__ import annotations

import contextlib
import os
import socket
import sys
import threading
import time
from pathlib import Path
from typing import IO

from companion.speech.base import Speaker, Unavailable
from companion.terminal_text import clean

CONNECT_TIMEOUT_S = 2.0
REPLY_TIMEOUT_S = 5.0
STEP = 10  # one "faster" or "louder": a tenth of speech-dispatcher's range on either side of its middle
# speech-dispatcher says a message has ended once its output module has handed the last sound over; what the
# sound server still holds plays after that (about 50 ms through PulseAudio here).
END_TAIL_S = 0.1
_EVENTS = {"701": "begin", "702": "end", "703": "cancelled"}


def socket_path() -> Path | None:
    """Where a running speech-dispatcher listens (its SPEECHD_ADDRESS, else the user's runtime folder)."""
    address = os.environ.get("SPEECHD_ADDRESS", "")
    if address.startswith("unix_socket:"):
        return Path(address.split(":", 1)[1])
    if address:
        return None  # an inet socket: not looked for
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    return Path(runtime) / "speech-dispatcher" / "speechd.sock" if runtime else None


def running() -> bool:
    """Whether a speech-dispatcher server answers on its socket (it is never started from here)."""
    path = socket_path()
    if sys.platform != "linux" or path is None or not path.is_socket():
        return False
    try:
        with socket.socket(socket.AF_UNIX) as probe:
            probe.settimeout(CONNECT_TIMEOUT_S)
            probe.connect(str(path))
        return True
    except OSError:
        return False


class SpeechdSpeaker(Speaker):
    """Says each line through speech-dispatcher, in the game's language; prints every line too."""

    name = "speechd"

    def __init__(self, lang: str = "fr", *, out: IO[str] | None = None):
        path = socket_path()
        if path is None or sys.platform != "linux":
            raise Unavailable("no_speechd")
        self.lang = lang
        self.out = out if out is not None else sys.stdout
        self._socket = socket.socket(socket.AF_UNIX)
        self._socket.settimeout(CONNECT_TIMEOUT_S)
        try:
            self._socket.connect(str(path))
        except OSError as error:
            self._socket.close()
            raise Unavailable("no_speechd", str(error)) from None
        self._socket.settimeout(None)
        self._stream = self._socket.makefile("rb")
        self._lock = threading.Lock()  # one command and its reply at a time
        self._state = threading.Condition()
        self._replies: list[list[str]] = []
        self._pending: set[str] = set()  # messages queued and not yet ended
        self._ended: set[str] = set()
        self._quiet_since = 0.0
        self.closed = False
        threading.Thread(target=self._read, daemon=True).start()
        try:
            self._command(f"SET self CLIENT_NAME {os.environ.get('USER', 'user')}:companion:game")
            self._command("SET self NOTIFICATION all on")
            self._command("SET self PRIORITY message")
            self._command(f"SET self LANGUAGE {lang}")
            self.rate = int(self._command("GET RATE")[0])
            self.volume = int(self._command("GET VOLUME")[0])
        except (OSError, ValueError, IndexError) as error:
            self.close()
            raise Unavailable("no_speechd", str(error)) from None

    # ----- the protocol
    def _read(self) -> None:
        """Replies go to `_command`; notices (7xx) mark messages begun and ended."""
        lines: list[str] = []
        try:
            for raw in self._stream:
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                lines.append(line[4:])
                if len(line) < 4 or line[3] != " ":
                    continue  # "NNN-data": more to come
                code, data = line[:3], lines[:-1]
                lines = []
                if code in _EVENTS:
                    self._notice(_EVENTS[code], data[0] if data else "")
                elif not code.startswith("7"):
                    with self._state:
                        self._replies.append([code, *data])
                        self._state.notify_all()
        except (OSError, ValueError):
            pass
        with self._state:
            self.closed = True
            self._pending.clear()
            self._state.notify_all()

    def _notice(self, event: str, message: str) -> None:
        with self._state:
            if event in ("end", "cancelled"):
                self._ended.add(message)
                self._pending.discard(message)
                if not self._pending:
                    self._quiet_since = time.monotonic()
            self._state.notify_all()

    def _send(self, text: str) -> list[str]:
        """Send `text` (a command, or the body of a message and its end mark) and return the reply's data lines;
        OSError if the server refuses or does not answer."""
        with self._state:
            self._replies.clear()
        self._socket.sendall(text.encode("utf-8"))
        with self._state:
            if not self._state.wait_for(lambda: self._replies or self.closed, REPLY_TIMEOUT_S) or not self._replies:
                raise OSError("speech-dispatcher did not answer")
            code, *data = self._replies.pop(0)
        if not code.startswith("2"):
            raise OSError(f"speech-dispatcher refused: {code} {' '.join(data)}")
        return data

    def _command(self, command: str) -> list[str]:
        with self._lock:
            return self._send(command + "\r\n")

    # ----- the speaker
    def say(self, text: str) -> None:
        text = clean(text)
        print(text, file=self.out, flush=True)
        body = "\r\n".join(".." + line if line.startswith(".") else line for line in text.splitlines() if line)
        if not body or self.closed:
            return
        try:
            with self._lock:
                self._send("SPEAK\r\n")
                queued = self._send(body + "\r\n.\r\n")
        except OSError:
            return  # the server went away: the line is printed, as every line is
        with self._state:
            if queued and queued[0] not in self._ended:  # its end may already have been noticed
                self._pending.add(queued[0])

    def stop(self) -> None:
        if self.closed or not self.is_speaking():
            return
        with contextlib.suppress(OSError):
            self._command("CANCEL self")
        with self._state:
            self._pending.clear()
            self._quiet_since = 0.0

    def is_speaking(self) -> bool:
        with self._state:
            return bool(self._pending) or time.monotonic() - self._quiet_since < END_TAIL_S

    def wait(self, timeout: float | None = None) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.is_speaking() and not self.closed:
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(0.01)
        return True

    def adjust(self, step: str) -> bool:
        setting, sign = {"faster": ("RATE", 1), "slower": ("RATE", -1), "louder": ("VOLUME", 1),
                         "quieter": ("VOLUME", -1)}[step]
        value = max(-100, min(100, (self.rate if setting == "RATE" else self.volume) + sign * STEP))
        try:
            self._command(f"SET self {setting} {value}")
        except OSError:
            return False
        if setting == "RATE":
            self.rate = value
        else:
            self.volume = value
        return True

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._socket.sendall(b"QUIT\r\n")
        self._socket.close()
