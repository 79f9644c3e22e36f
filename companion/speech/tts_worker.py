"""The child process that speaks with pyttsx3, so that the parent can cut speech off by ending it.

pyttsx3 blocks while it speaks, and its espeak driver cannot be interrupted reliably; ending this process
stops the sound at once. Run as `python -m companion.speech.tts_worker LANG [--save-only]`.

Protocol, one JSON object per line. The parent sends
  {"op": "say" | "save", "id": N, "text": ..., "rate": WPM, "volume": 0..1, "path": WAV (save only)}
and this process answers, on its own channel (pyttsx3 prints to stdout, so stdout is moved aside):
  {"event": "ready", "driver": ..., "voice": ...}  or  {"event": "failed", "problem": CODE, "detail": ...}
  {"event": "done", "id": N}  or  {"event": "error", "id": N, "detail": ...}
Problem codes name messages speech.problem.<CODE> in the catalogs.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from pathlib import Path
from typing import IO, Any

from companion.speech.audio import open_output, read_wav
from companion.speech.base import Unavailable


def _reply_channel() -> IO[str]:
    """A private copy of stdout for replies; stdout itself goes to stderr, where pyttsx3's prints belong."""
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", buffering=1)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    return channel


class Voice:
    """A pyttsx3 engine set up for one language; speaks aloud or renders to a WAV file."""

    def __init__(self, lang: str, save_only: bool):
        from companion.speech.voice import voice_settings

        try:
            import pyttsx3
        except ImportError as error:
            raise Unavailable("no_engine", str(error)) from error
        try:
            self.engine = pyttsx3.init()
        except Exception as error:  # any driver failure means: no speech here
            raise Unavailable("engine_failed", f"{type(error).__name__}: {error}") from error
        self.driver = type(self.engine.proxy._driver).__module__.rsplit(".", 1)[-1]
        self.voice_id = voice_settings(lang).pick_voice(self.engine.getProperty("voices"))
        if self.voice_id:
            self.engine.setProperty("voice", self.voice_id)
        # The espeak driver plays through an external player; render to WAV and play with sounddevice instead.
        self.renders = self.driver == "espeak"
        self.output: Any = None if save_only or not self.renders else open_output()

    def _prepare(self, request: dict[str, Any]) -> None:
        self.engine.setProperty("rate", int(request["rate"]))
        self.engine.setProperty("volume", float(request["volume"]))

    def save(self, request: dict[str, Any]) -> None:
        self._prepare(request)
        self.engine.save_to_file(request["text"], str(request["path"]))
        self.engine.runAndWait()
        if not Path(request["path"]).is_file():
            raise RuntimeError("the synthesiser wrote no audio")

    def say(self, request: dict[str, Any]) -> None:
        if not self.renders:
            self._prepare(request)
            self.engine.say(request["text"])
            self.engine.runAndWait()
            return
        with tempfile.TemporaryDirectory(prefix="companion-tts-") as folder:
            path = Path(folder) / "speech.wav"
            self.save({**request, "path": path})
            samples, rate = read_wav(path)
        self.output.play(samples, rate, blocking=True)


def serve(lang: str, save_only: bool, requests: IO[str], replies: IO[str]) -> int:
    def reply(**message: Any) -> None:
        replies.write(json.dumps(message) + "\n")
        replies.flush()

    try:
        voice = Voice(lang, save_only)
    except Unavailable as error:
        reply(event="failed", problem=error.problem, detail=error.detail)
        return 1
    reply(event="ready", driver=voice.driver, voice=voice.voice_id)
    for line in requests:
        request = json.loads(line)
        try:
            {"say": voice.say, "save": voice.save}[request["op"]](request)
        except Exception as error:  # noqa: BLE001 - report and keep serving
            reply(event="error", id=request["id"], detail=f"{type(error).__name__}: {error}")
        else:
            reply(event="done", id=request["id"])
    return 0


def main(argv: list[str]) -> int:
    replies = _reply_channel()
    return serve(argv[0], "--save-only" in argv, sys.stdin, replies)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
