"""Speaking aloud with pyttsx3, in a speech process of its own (companion.speech.tts_worker) that renders each
sentence and plays it.

Every line is printed too, for braille displays and scripts, and spoken whole: a new line waits for the ones
before it. Only `stop` (the player cutting in) ends speech early, and it ends all that was queued. When the
speech process fails it is started again and what was not heard yet is said again; only a second failure in a
row switches to text, said once with the reason. Without a voice at all the speaker raises Unavailable at start.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from companion.language.messages import catalog
from companion.speech.base import Speaker, Unavailable
from companion.speech.config import SpeechConfig, save_config
from companion.speech.tts_worker import render_timeout
from companion.speech.voice import voice_settings
from companion.terminal_text import clean

# A line is spoken sentence by sentence, so that the first is heard while the next is made: the wait before
# the first sound is one sentence's rendering, whatever the length of the line (a rules section, the scores).
_SENTENCE_END = re.compile(r"(?<=[.!?…:;])\s+(?=\S)")


def spoken_parts(text: str) -> list[str]:
    """`text` cut after each sentence (and after a colon or semicolon), its words kept as they are."""
    return [part for part in _SENTENCE_END.split(text.strip()) if part]


class _Worker:
    """One speech process, and a thread reading its replies (handed to `on_reply`)."""

    def __init__(self, lang: str, save_only: bool, on_reply: Callable[[_Worker, dict[str, Any]], None]):
        debug = bool(os.environ.get("COMPANION_DEBUG"))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.speech.tts_worker", lang] + (["--save-only"] if save_only else []),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None if debug else subprocess.DEVNULL,
            text=True, encoding="utf-8", **_own_process_group())
        self.on_reply = on_reply
        self.ready = threading.Event()
        self.failure: Unavailable | None = None
        self.info: dict[str, Any] = {}
        self.killed = False
        threading.Thread(target=self._read_replies, daemon=True).start()

    def _read_replies(self) -> None:
        assert self.process.stdout is not None  # a pipe
        for line in self.process.stdout:
            try:
                reply = json.loads(line)
            except ValueError:
                continue
            event = reply.get("event")
            if event == "ready":
                self.info = reply
                self.ready.set()
            elif event == "failed":
                self.failure = Unavailable(reply.get("problem", "engine_failed"), reply.get("detail", ""))
            else:
                self.on_reply(self, reply)
        if not self.ready.is_set() and self.failure is None:
            self.failure = Unavailable("engine_failed", "the speech process ended before it was ready")
        self.ready.set()
        if not self.killed and self.info:  # it had been ready: it failed while speaking
            self.on_reply(self, {"event": "ended"})

    def wait_ready(self, timeout: float) -> None:
        """Return once the process can speak; Unavailable if it cannot."""
        if not self.ready.wait(timeout):
            self.kill()
            raise Unavailable("engine_failed", f"the speech engine did not start within {timeout:.0f} s")
        if self.failure is not None:
            raise self.failure

    @property
    def renders(self) -> bool:
        return bool(self.info.get("renders"))

    def send(self, request: dict[str, Any]) -> bool:
        """Send one request; False when the process has gone."""
        assert self.process.stdin is not None  # a pipe
        try:
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    def kill(self) -> None:
        """End the process and anything it started, at once."""
        self.killed = True
        if self.process.poll() is None:
            try:
                if sys.platform == "win32":
                    self.process.kill()
                else:
                    os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self.process.wait()


def _own_process_group() -> dict[str, Any]:
    if sys.platform == "win32":
        return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
    return {"start_new_session": True}


class TtsSpeaker(Speaker):
    """Speaks with the system's voices (espeak-ng on Linux) without blocking; prints every line too.

    `save_only`: no sound at all, only `save` (WAV files)."""

    name = "tts"
    START_TIMEOUT_S = 20.0

    def __init__(self, lang: str = "fr", config: SpeechConfig | None = None, *,
                 out: IO[str] | None = None, remember: bool = True, save_only: bool = False):
        self.lang = lang
        self.config = config or SpeechConfig()
        self.out = out if out is not None else sys.stdout
        self.remember = remember
        self.save_only = save_only
        self.settings = voice_settings(lang)
        self.broken = False
        self._state = threading.Condition()
        self._next_id = 0
        self._pending: dict[int, dict[str, Any]] = {}  # sent, not heard yet: sentences and earcons, by id
        self._failed_id: int | None = None  # the request that failed last (a second failure gives up)
        self._restarting = False
        self.underflows = 0
        self._done: dict[int, dict[str, Any]] = {}  # replies to file renders
        self.worker = self._start()

    def _start(self) -> _Worker:
        worker = _Worker(self.lang, self.save_only, self._on_reply)
        worker.wait_ready(self.START_TIMEOUT_S)
        return worker

    @property
    def driver(self) -> str:
        return str(self.worker.info.get("driver", ""))

    @property
    def voice(self) -> str | None:
        return self.worker.info.get("voice")

    def _request(self, op: str, text: str, **extra: Any) -> dict[str, Any]:
        return {"op": op, "text": text, "rate": self.settings.words_per_minute(self.config.rate),
                "volume": self.config.volume, **extra}

    # ----- speaking
    def say(self, text: str) -> None:
        """Print `text` at once and queue it to be spoken after what is already queued."""
        text = clean(text)  # a name may hold escape sequences: never printed, never spoken
        print(text, file=self.out, flush=True)
        if self.broken or self.save_only:
            return
        for part in spoken_parts(text):
            self._send(self._request("say", part))

    def earcon(self, kind: str, volume: float) -> None:
        """Play earcon `kind` after what is already queued (companion.speech.earcons)."""
        if not self.broken and not self.save_only:
            self._send({"op": "earcon", "kind": kind, "volume": volume})

    def _send(self, request: dict[str, Any]) -> None:
        with self._state:
            self._next_id += 1
            request = {**request, "id": self._next_id}
            self._pending[self._next_id] = request
            worker = self.worker
        if not worker.send(request):
            self._on_reply(worker, {"event": "ended"})

    def stop(self) -> None:
        """Cut off what is being said and everything queued after it."""
        with self._state:
            speaking = bool(self._pending)
            self._pending.clear()
            self._state.notify_all()
        if not speaking:
            return
        if self.worker.renders:
            self.worker.send({"op": "cut"})
        else:
            self._restart()  # a driver that speaks by itself is silenced by ending its process

    def is_speaking(self) -> bool:
        with self._state:
            return bool(self._pending)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until every queued line has been heard; False if `timeout` ran out first."""
        with self._state:
            return self._state.wait_for(lambda: not self._pending, timeout)

    # ----- what the speech process tells
    def _on_reply(self, worker: _Worker, reply: dict[str, Any]) -> None:
        event = reply.get("event")
        with self._state:
            if worker is not self.worker or (self._restarting and event in ("error", "ended")):
                return  # an old process, ended on purpose or being replaced
            if event == "quiet":
                self.underflows = int(reply.get("underflows", 0))  # the sound ran dry while playing (a gap)
                for number in [n for n in self._pending if n <= int(reply.get("through", 0))]:
                    del self._pending[number]
            elif event == "done":
                self._done[int(reply["id"])] = reply
            elif event in ("error", "ended"):
                if self.save_only:
                    self._done[int(reply.get("id", 0))] = reply
                else:
                    self._fail(reply)
            self._state.notify_all()

    def _fail(self, reply: dict[str, Any]) -> None:
        """The speech process failed (held: self._state): start it again and say again what was not heard;
        after a second failure in a row on the same sentence, go on in text."""
        first = int(reply.get("id") or min(self._pending, default=0))
        again = sorted(n for n in self._pending if n >= first)
        detail = reply.get("detail") or "the speech process ended unexpectedly"
        if self._failed_id == first or not again:
            if again:
                self._give_up(Unavailable("speech_failed", str(detail)))
            return
        self._failed_id = first
        self._restarting = True
        threading.Thread(target=self._resend, args=(again,), daemon=True).start()

    def _resend(self, numbers: list[int]) -> None:
        try:
            self._restart()
        except Unavailable as problem:
            with self._state:
                self._restarting = False
                self._give_up(problem)
                self._state.notify_all()
            return
        with self._state:
            self._restarting = False
            requests = [self._pending[n] for n in numbers if n in self._pending]
            worker = self.worker
        for request in requests:
            worker.send(request)

    def _restart(self) -> None:
        old = self.worker
        old.kill()
        worker = _Worker(self.lang, self.save_only, self._on_reply)
        with self._state:
            self.worker = worker
        worker.wait_ready(self.START_TIMEOUT_S)

    def _give_up(self, problem: Unavailable) -> None:
        """The voice failed twice in a row (held: self._state): say so once, in text, and go on in text."""
        if self.broken:
            return
        self._pending.clear()
        print(catalog(self.lang).say("speech.tts_stopped", reason=problem.explain(self.lang)),
              file=self.out, flush=True)
        self.broken = True  # once said: lines printed from now on come after it

    # ----- files
    def save(self, text: str, path: Path) -> Path:
        """Write `text` spoken as a WAV file, returning once the file is whole; Unavailable if the engine cannot.
        Needs a speaker made with `save_only`."""
        if not self.save_only:
            raise ValueError("save needs a speaker made with save_only=True")
        text = clean(text)
        with self._state:
            self._next_id += 1
            number = self._next_id
        if not self.worker.send(self._request("render", text, path=str(path), id=number)):
            raise Unavailable("speech_failed", "the speech process has ended")
        with self._state:
            answered = self._state.wait_for(lambda: number in self._done or 0 in self._done,
                                            render_timeout(text) + 1)
            reply = self._done.pop(number, None) or self._done.pop(0, None)
        if not answered or reply is None:
            raise Unavailable("speech_failed", "the speech process stopped answering")
        if reply.get("event") != "done":
            raise Unavailable("speech_failed", str(reply.get("detail") or "the speech process ended"))
        return Path(path)

    # ----- settings
    def adjust(self, step: str) -> bool:
        self.config.adjust(step)
        if self.remember:
            save_config(self.config)
        return True

    def close(self) -> None:
        with self._state:
            self._pending.clear()
            self._state.notify_all()
        self.worker.kill()
