"""Speaking aloud with pyttsx3 in a child process (companion.speech.tts_worker), cut off by ending that process.

The speaker also prints every line, for braille displays and scripts. When the child cannot speak, the
speaker raises Unavailable at start, or, if speech breaks later, says so once and carries on in text.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import IO, Any

from companion.language.messages import catalog
from companion.speech import activity
from companion.speech.base import Speaker, Unavailable
from companion.speech.config import SpeechConfig, save_config
from companion.speech.voice import voice_settings
from companion.text import clean


class _Worker:
    """One child process running tts_worker, and a thread reading its replies."""

    def __init__(self, lang: str, save_only: bool = False):
        debug = bool(os.environ.get("COMPANION_DEBUG"))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "companion.speech.tts_worker", lang] + (["--save-only"] if save_only else []),
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None if debug else subprocess.DEVNULL,
            text=True, encoding="utf-8", **_own_process_group())
        self.ready = threading.Event()
        self.idle = threading.Event()
        self.idle.set()
        self.failure: Unavailable | None = None
        self.last_error: str | None = None
        self.info: dict[str, Any] = {}
        self.pending_id = 0
        self.killed = False
        threading.Thread(target=self._read_replies, daemon=True).start()

    def _read_replies(self) -> None:
        assert self.process.stdout is not None  # a pipe
        for line in self.process.stdout:
            reply = json.loads(line)
            event = reply.get("event")
            if event == "ready":
                self.info = reply
                self.ready.set()
            elif event == "failed":
                self.failure = Unavailable(reply.get("problem", "engine_failed"), reply.get("detail", ""))
            elif reply.get("id") == self.pending_id:
                self.last_error = reply.get("detail") if event == "error" else None
                self.idle.set()
        if not self.ready.is_set() and self.failure is None:
            self.failure = Unavailable("engine_failed", "the speech process ended before it was ready")
        elif not self.killed:
            self.last_error = "the speech process ended unexpectedly"
        self.ready.set()
        self.idle.set()

    def wait_ready(self, timeout: float) -> None:
        """Return once the child can speak; Unavailable if it cannot."""
        if not self.ready.wait(timeout):
            self.kill()
            raise Unavailable("engine_failed", f"the speech engine did not start within {timeout:.0f} s")
        if self.failure is not None:
            raise self.failure

    def send(self, request: dict[str, Any]) -> None:
        self.pending_id += 1
        self.idle.clear()
        assert self.process.stdin is not None  # a pipe
        try:
            self.process.stdin.write(json.dumps({**request, "id": self.pending_id}) + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            self.last_error = "the speech process has ended"
            self.idle.set()

    @property
    def alive(self) -> bool:
        return self.process.poll() is None and self.failure is None

    def kill(self) -> None:
        """End the child and anything it started (a sound player), at once."""
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
        self.idle.set()


def _own_process_group() -> dict[str, Any]:
    if sys.platform == "win32":
        return {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP}
    return {"start_new_session": True}


class TtsSpeaker(Speaker):
    """Speaks with the system's voices (espeak-ng on Linux) without blocking; prints every line too."""

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
        self.worker = _Worker(lang, save_only)
        self.worker.wait_ready(self.START_TIMEOUT_S)
        activity.register(self.is_speaking)

    @property
    def driver(self) -> str:
        return str(self.worker.info.get("driver", ""))

    @property
    def voice(self) -> str | None:
        return self.worker.info.get("voice")

    def _request(self, op: str, text: str, **extra: Any) -> dict[str, Any]:
        return {"op": op, "text": text, "rate": self.settings.words_per_minute(self.config.rate),
                "volume": self.config.volume, **extra}

    def say(self, text: str) -> None:
        text = clean(text)  # a name may hold escape sequences: never printed, never spoken
        print(text, file=self.out, flush=True)
        self._check_health()
        if self.broken or self.save_only:
            return
        self.stop()
        self.worker.send(self._request("say", text))

    def stop(self) -> None:
        if self.is_speaking():
            self.worker.kill()
            self.worker = _Worker(self.lang, self.save_only)

    def is_speaking(self) -> bool:
        return not self.worker.idle.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the current line has been spoken; False if `timeout` ran out first."""
        done = self.worker.idle.wait(timeout)
        self._check_health()
        return done

    def _check_health(self) -> None:
        """After a failure while speaking: say once, in text, that speech stopped, and go on in text."""
        if self.broken or self.worker.killed:
            return
        problem = self.worker.failure or (Unavailable("speech_failed", self.worker.last_error)
                                          if self.worker.last_error else None)
        if problem is not None:
            self.broken = True
            print(catalog(self.lang).say("speech.tts_stopped", reason=problem.explain(self.lang)),
                  file=self.out, flush=True)

    def save(self, text: str, path: Path) -> Path:
        """Write `text` spoken as a WAV file (blocking); Unavailable if the engine cannot."""
        self.worker.send(self._request("save", text, path=str(path)))
        self.worker.idle.wait()
        if self.worker.last_error or not Path(path).is_file():
            raise Unavailable("speech_failed", self.worker.last_error or "no audio was written")
        return Path(path)

    def adjust(self, step: str) -> bool:
        self.config.adjust(step)
        if self.remember:
            save_config(self.config)
        return True

    def close(self) -> None:
        self.worker.kill()
