"""The speech process: it renders each sentence and plays it, so that neither a synthesiser that hangs or
crashes nor the game's own work can stop or stutter the voice. Run as
`python -m companion.speech.tts_worker LANG [--save-only]`.

With espeak-ng (Linux, through pyttsx3's bindings) each sentence becomes samples, queued on the sound queue of
this process (companion.speech.playback): lines follow one another whole, and a cut silences them at once.
pyttsx3's other drivers (Windows, macOS) speak each line themselves, and the parent cuts them off by ending
this process.

Why a process of its own: the sound is fed by a callback in Python. In the game's process, on a busy machine,
the work of the game (a grammar loaded, a save written) held that callback up and whole sentences came out
garbled (their loudness contour matched the same sentence rendered alone at 0.65 to 0.8, where others matched
at 0.98 and more); here nothing else runs.

Protocol, one JSON object per line. The parent sends
  {"op": "say", "id": N, "text": ..., "rate": WPM, "volume": 0..1}     a sentence to say after the others
  {"op": "earcon", "id": N, "kind": ..., "volume": 0..1}               a short sound, in turn with them
  {"op": "cut"}                                                        silence now, drop what is queued
  {"op": "render", "id": N, "text": ..., "rate": ..., "volume": ..., "path": WAV}   (--save-only) a file
and this process answers, on its own channel (pyttsx3 prints to stdout, so stdout is moved aside):
  {"event": "ready", "driver": ..., "voice": ..., "renders": true|false}
  or {"event": "failed", "problem": CODE, "detail": ...}
  {"event": "quiet", "through": N}   everything up to N has been heard (or cut), and nothing plays
  {"event": "done", "id": N}  (a file, once whole)  or  {"event": "error", "id": N, "detail": ...}
Problem codes name messages speech.problem.<CODE> in the catalogs.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace
from typing import IO, Any

import numpy as np

from companion.speech.audio import write_wav
from companion.speech.base import Unavailable

# How long a line may take to render before the voice is taken as hung: espeak-ng renders about 30 times faster
# than it speaks.
RENDER_TIMEOUT_S = 10.0
RENDER_TIMEOUT_PER_CHAR_S = 0.01
QUIET_POLL_S = 0.01


def render_timeout(text: str) -> float:
    return RENDER_TIMEOUT_S + RENDER_TIMEOUT_PER_CHAR_S * len(text)


def _reply_channel() -> IO[str]:
    """A private copy of stdout for replies; stdout itself goes to stderr, where pyttsx3's prints belong."""
    channel = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="utf-8", buffering=1)
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    return channel


class Voice:
    """A system voice for one language (pyttsx3's driver): renders lines to samples, or says them aloud when
    it cannot render."""

    driver = ""
    voice_id: str | None = None
    renders = True

    def samples(self, request: dict[str, Any]) -> tuple[np.ndarray, int]:
        raise NotImplementedError

    def render(self, request: dict[str, Any]) -> None:
        """Write the line as a WAV file; return once the file is whole."""
        samples, rate = self.samples(request)
        if not len(samples):
            raise RuntimeError("the synthesiser wrote no audio")
        write_wav(Path(request["path"]), samples, rate)


class EspeakVoice(Voice):
    """espeak-ng through pyttsx3's own bindings to it, synthesising synchronously.

    pyttsx3's espeak driver is not used for this: its runAndWait returns as soon as synthesis starts (0.035 s
    for a text that took 0.4 s), and out of 120 lines rendered one after another through it, one or two came
    out as a file with no sound at all, with two "finished" notices."""

    driver = "espeak"

    def __init__(self, lang: str):
        from companion.speech.voice import voice_settings

        try:
            from pyttsx3.drivers import _espeak
        except Exception as error:  # ImportError, or its RuntimeError when libespeak-ng is missing
            raise Unavailable("no_engine", str(error)) from error
        self.espeak = _espeak
        self.rate = _espeak.Initialize(_espeak.AUDIO_OUTPUT_SYNCHRONOUS, 200)
        if self.rate == -1:
            raise Unavailable("engine_failed", "espeak-ng could not start")
        self._chunks: list[bytes] = []
        _espeak.SetSynthCallback(self._collect)
        voices = [SimpleNamespace(id=v.identifier.decode("utf-8").lower(), name=v.name.decode("utf-8"),
                                  languages=[v.languages[1:].decode("utf-8", "ignore")] if v.languages else [])
                  for v in _espeak.ListVoices(None)]
        self.voice_id = voice_settings(lang).pick_voice(voices)
        if self.voice_id and _espeak.SetVoiceByName(self.voice_id.encode("utf-8")) != _espeak.EE_OK:
            raise Unavailable("engine_failed", f"espeak-ng has no voice {self.voice_id}")

    def _collect(self, wav: Any, count: int, _events: Any) -> int:
        if count > 0:
            self._chunks.append(ctypes.string_at(wav, count * ctypes.sizeof(ctypes.c_short)))
        return 0

    def samples(self, request: dict[str, Any]) -> tuple[np.ndarray, int]:
        espeak = self.espeak
        espeak.SetParameter(espeak.RATE, int(request["rate"]), 0)
        espeak.SetParameter(espeak.VOLUME, round(float(request["volume"]) * 100), 0)
        self._chunks = []
        if espeak.Synth(str(request["text"]), flags=espeak.ENDPAUSE | espeak.CHARS_UTF8) != espeak.EE_OK:
            raise RuntimeError("espeak-ng refused the text")
        espeak.Synchronize()
        pcm = np.frombuffer(b"".join(self._chunks), dtype="<i2")
        return (pcm / 32768).astype(np.float32), int(self.rate)


class Pyttsx3Voice(Voice):
    """Another pyttsx3 driver (Windows, macOS): it speaks each line itself."""

    renders = False

    def __init__(self, lang: str):
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

    def _prepare(self, request: dict[str, Any]) -> None:
        self.engine.setProperty("rate", int(request["rate"]))
        self.engine.setProperty("volume", float(request["volume"]))

    def samples(self, request: dict[str, Any]) -> tuple[np.ndarray, int]:
        self._prepare(request)
        self.engine.say(request["text"])
        self.engine.runAndWait()
        return np.zeros(0, dtype=np.float32), 22050

    def render(self, request: dict[str, Any]) -> None:
        self._prepare(request)
        self.engine.save_to_file(request["text"], str(request["path"]))
        self.engine.runAndWait()
        if not Path(request["path"]).is_file():
            raise RuntimeError("the synthesiser wrote no audio")


def open_voice(lang: str) -> Voice:
    """espeak-ng where it is (Linux), else pyttsx3's driver for this system; Unavailable if none."""
    if sys.platform.startswith("linux"):
        return EspeakVoice(lang)
    return Pyttsx3Voice(lang)


class _Speaking:
    """The sound queue of this process, and the notices that tell the parent what has been heard."""

    def __init__(self, voice: Voice, reply: Any):
        from companion.speech.playback import SoundQueue

        self.voice = voice
        self.reply = reply
        self.received = 0  # the last id queued
        self.queue = SoundQueue(voice.samples, on_failure=self._failed)
        threading.Thread(target=self._watch, daemon=True).start()

    def _failed(self, request: dict[str, Any] | None, problem: Exception) -> None:
        number = request["id"] if request is not None else self.received
        self.reply(event="error", id=number, detail=f"{type(problem).__name__}: {problem}")

    def take(self, request: dict[str, Any]) -> None:
        """Queue a sentence or an earcon, or cut; an id counts as received once it is queued (see _watch)."""
        op = request["op"]
        if op == "cut":
            self.queue.cut()
            return
        if op == "say":
            self.queue.say(request)
        elif op == "earcon":
            from companion.speech.earcons import earcon
            from companion.speech.playback import OUTPUT_RATE

            self.queue.play(earcon(request["kind"], OUTPUT_RATE, float(request["volume"])), OUTPUT_RATE, request)
        self.received = max(self.received, int(request["id"]))

    def _watch(self) -> None:
        """Whenever the queue is silent with ids not yet reported, say "quiet" through the last one. The id is
        read before the queue is looked at, and counted only once queued: a silent queue has heard it."""
        reported = 0
        while True:
            through = self.received
            if through > reported and not self.queue.busy():
                self.reply(event="quiet", through=through, underflows=self.queue.output.underflows)
                reported = through
            time.sleep(QUIET_POLL_S)


def serve(lang: str, save_only: bool, requests: IO[str], replies: IO[str]) -> int:
    lock = threading.Lock()

    def reply(**message: Any) -> None:
        with lock:
            replies.write(json.dumps(message) + "\n")
            replies.flush()

    try:
        voice = open_voice(lang)
        if not save_only and voice.renders:
            from companion.speech.audio import open_output

            open_output()  # Unavailable("no_output_device"): nothing could be heard
    except Unavailable as error:
        reply(event="failed", problem=error.problem, detail=error.detail)
        return 1
    reply(event="ready", driver=voice.driver, voice=voice.voice_id, renders=voice.renders)
    speaking = None if save_only else _Speaking(voice, reply)
    for line in requests:
        request = json.loads(line)
        if speaking is not None:
            speaking.take(request)
            continue
        try:
            voice.render(request)
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
