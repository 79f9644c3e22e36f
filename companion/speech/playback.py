"""Sound goes out here, in order: speech and earcons, one after another, never one over another, and only the
player cuts it short.

`SoundQueue` takes lines to say (rendered by a synthesiser on the queue's own thread, one ahead of what is heard)
and ready sounds (earcons), and feeds them to the `AudioOutput`: one sounddevice stream, opened when there is
something to play and closed after a moment of silence. `cut` drops everything queued and what the sound
server still holds, so the speaker falls silent at once. The program's voice runs all this in its speech
process (companion.speech.tts_worker), where no work of the game can hold it up.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.speech import activity
from companion.speech.audio import Resampler, open_output
from companion.speech.base import Unavailable

OUTPUT_RATE = 22050  # espeak-ng's rate: speech, the bulk of what is played, is never resampled
# How far ahead of the ear sound is handed to the device: what the sound server holds when this process is held up.
# The callback runs in Python: on a busy machine (load 8.7 on 2 cores, eight 4-second sentences through
# PulseAudio's ALSA plugin) PortAudio's "high" latency (35 ms) ran dry 1,789 times and skipped a third of the
# speech; 0.1 s once, 0.2 s never. A full run of the tests beside a busy process still lost 7 of a French game's 17
# lines at 0.2 s; with this process stopped 0.3 s (or 0.5 s) every 2 s, as a starved processor does, 14 (17) of
# them were not heard whole at 0.2 s, none at 0.6 s or 1 s. Through PulseAudio it costs no delay (first sound of
# an answer 20 ms after it was printed, at 0.2 s as at 0.6 s): a stream starts primed with its first samples, a cut
# aborts it, which drops what the device holds, and a sound that would wait behind the silence the device holds
# starts a fresh stream (`play`). On a bare ALSA device PortAudio may prime with silence instead: not measured.
LATENCY = 0.6
IDLE_CLOSE_S = 0.5
# A sound that would wait behind silence starts a fresh stream once the sound before it is out of the device, and
# a little after, so that no end of a word is clipped (`_heard_until` is the callback's estimate).
RESTART_MARGIN_S = 0.02
# How far ahead of the ear rendering may go: a long rules text is not held in memory whole.
AHEAD_S = 20.0


class AudioOutput:
    """One output stream that plays queued sample blocks back to back (floats in [-1, 1] at `rate`)."""

    def __init__(self, rate: int = OUTPUT_RATE, device: int | str | None = None):
        self.rate = rate
        self.device = device
        # Reentrant: some PortAudio back-ends (Windows' MME) prime a stream by calling its callback from
        # `start`, in the thread that opens it under this lock.
        self._lock = threading.RLock()
        self._blocks: deque[np.ndarray] = deque()
        self._position = 0  # in the first block
        self._stream: Any = None
        self._heard_until = 0.0  # monotonic time at which the last sample handed to the device is heard
        self._idle_since = time.monotonic()
        self._closing = False
        self._silence_ahead = False  # the device was handed silence after the last queued sample
        self._opened = 0  # streams opened so far: a stream's callback serves the queue only while it is the last
        self.underflows = 0  # times the device ran out of sound while playing (a click or a gap was heard)

    def play(self, samples: np.ndarray) -> None:
        """Queue `samples` after what is already queued; opens the device if needed (Unavailable if none, and
        nothing is queued).

        A sound given once everything before it has been heard, while the device still holds the silence that
        followed it (up to LATENCY of it), is not played behind that silence but on a fresh stream; `wait_s`
        says how long to wait for that. Sounds given while others are still queued follow them with no gap."""
        if not len(samples):
            return
        old = None
        with self._lock:
            if self._holds_silence() and time.monotonic() >= self._heard_until:
                old, self._stream = self._stream, None  # it holds only silence
            self._blocks.append(np.asarray(samples, dtype=np.float32))
            try:
                self._ensure_stream()
            except Unavailable:
                self._blocks.pop()
                raise
            finally:
                if old is not None:  # off the lock: aborting waits for its callback, which takes the lock
                    threading.Thread(target=_drop, args=(old,), daemon=True).start()

    def wait_s(self) -> float:
        """How long before a sound given to `play` would start at once rather than behind silence: the time left
        of the sound now playing, when all of it is in the device with silence after it (else 0)."""
        with self._lock:
            if not self._holds_silence():
                return 0.0
            return max(0.0, self._heard_until + RESTART_MARGIN_S - time.monotonic())

    def _holds_silence(self) -> bool:
        """Whether the open stream has played or holds every queued sample, and silence after them."""
        return not self._blocks and self._silence_ahead and self._stream is not None and not self._closing

    def queued_seconds(self) -> float:
        with self._lock:
            return (sum(len(block) for block in self._blocks) - self._position) / self.rate

    def busy(self) -> bool:
        """Whether anything is still to be heard: queued, or handed to the device and not yet out of it."""
        with self._lock:
            return bool(self._blocks) or time.monotonic() < self._heard_until

    def cut(self) -> None:
        """Silence at once: drop what is queued, and what the device and the sound server still hold."""
        with self._lock:
            self._blocks.clear()
            self._position = 0
            self._heard_until = 0.0
            stream, self._stream = self._stream, None
        if stream is not None:
            _drop(stream)

    def close(self) -> None:
        self.cut()

    def _ensure_stream(self) -> None:
        if self._stream is not None and not self._closing:
            return
        old, self._stream, self._closing = self._stream, None, False
        if old is not None:
            threading.Thread(target=old.close, daemon=True).start()  # it stopped itself; close it off the lock
        sounddevice = open_output()
        quiet_alsa()
        self._opened += 1
        self._silence_ahead = False
        stream = None
        try:
            stream = sounddevice.OutputStream(samplerate=self.rate, channels=1, dtype="float32", latency=LATENCY,
                                              prime_output_buffers_using_stream_callback=True,
                                              device=self.device, callback=functools.partial(self._fill, self._opened))
            stream.start()
        except Exception as error:  # PortAudioError and friends
            if stream is not None:
                with contextlib.suppress(Exception):
                    stream.close()
            raise Unavailable("no_output_device", str(error)) from error
        self._stream = stream
        self._idle_since = time.monotonic()

    def _fill(self, opened: int, out: np.ndarray, frames: int, timing: Any, status: Any) -> None:
        """The callback of the `opened`-th stream: the next `frames` samples of the queue, silence after it (only
        silence once a later stream has taken over, in the moment before this one is aborted)."""
        import sounddevice

        written = 0
        with self._lock:
            if opened != self._opened:
                out.fill(0.0)
                return
            if status.output_underflow and time.monotonic() < self._heard_until:
                self.underflows += 1
            while written < frames and self._blocks:
                block = self._blocks[0]
                take = min(frames - written, len(block) - self._position)
                out[written:written + take, 0] = block[self._position:self._position + take]
                written += take
                self._position += take
                if self._position >= len(block):
                    self._blocks.popleft()
                    self._position = 0
            out[written:, 0] = 0.0
            if written < frames:
                self._silence_ahead = True
            now = time.monotonic()
            if written:
                delay = max(0.0, float(timing.outputBufferDacTime - timing.currentTime))
                self._heard_until = now + delay + written / self.rate
                self._idle_since = now
            elif now - self._idle_since > IDLE_CLOSE_S and now > self._heard_until:
                self._closing = True
                raise sounddevice.CallbackStop


def _drop(stream: Any) -> None:
    """Stop a stream now, dropping what it holds, and close it."""
    with contextlib.suppress(Exception):  # a stream that fails to stop is silent all the same
        stream.abort()
        stream.close()


_alsa_handler: Any = None


def quiet_alsa() -> None:
    """Keep ALSA's own messages ("underrun occurred") off the terminal, where a screen reader would read them
    out: a sound that comes late is a glitch, not news. Real failures still reach us as PortAudio errors."""
    global _alsa_handler
    if _alsa_handler is not None or not sys.platform.startswith("linux"):
        return
    try:
        library = ctypes.CDLL("libasound.so.2")
    except OSError:
        return
    handler_type = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                    ctypes.c_char_p)
    _alsa_handler = handler_type(lambda *_args: None)  # kept: ALSA calls it for as long as the process lives
    library.snd_lib_error_set_handler(_alsa_handler)


_output: AudioOutput | None = None
_output_lock = threading.Lock()


def audio_output() -> AudioOutput:
    """The program's one audio output (the default device), made on first use."""
    global _output
    with _output_lock:
        if _output is None:
            _output = AudioOutput()
        return _output


@dataclass
class _Item:
    line: Any = None  # what `render` turns into sound
    sound: np.ndarray | None = None
    rate: int = OUTPUT_RATE


Render = Callable[[Any], tuple[np.ndarray, int]]


class SoundQueue:
    """Lines and sounds played in the order given, each whole, until `cut`.

    `render` turns a line (whatever the caller queues with `say`) into samples and their rate; an exception
    it raises is handed to `on_failure` with the line, which is then skipped. Rendering runs on this queue's
    own thread, one line ahead of what is heard, so that lines follow one another without a gap."""

    def __init__(self, render: Render | None = None, *, output: AudioOutput | None = None,
                 on_failure: Callable[[Any, Exception], None] | None = None):
        self.render = render
        self.output = output if output is not None else audio_output()
        self.on_failure = on_failure
        self._items: deque[tuple[int, _Item]] = deque()
        self._generation = 0
        self._working = False  # an item has been taken and is being rendered or handed over
        self._changed = threading.Condition()
        self._closed = False
        self.failure: Unavailable | None = None  # the output could not play (no device)
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        activity.register(self.busy)

    def say(self, line: Any) -> None:
        self._put(_Item(line=line))

    def play(self, samples: np.ndarray, rate: int, line: Any = None) -> None:
        """Queue a ready sound (`line`: what to hand `on_failure` if it cannot be played)."""
        self._put(_Item(line=line, sound=samples, rate=rate))

    def _put(self, item: _Item) -> None:
        with self._changed:
            self._items.append((self._generation, item))
            self._changed.notify_all()

    def busy(self) -> bool:
        """Whether something is still to be heard (queued, being rendered, or playing)."""
        with self._changed:
            if self._items or self._working:
                return True
        return self.output.busy()

    def cut(self) -> None:
        """Drop every line and sound not yet heard, and silence what is playing."""
        with self._changed:
            self._generation += 1
            self._items.clear()
            self._changed.notify_all()
        self.output.cut()

    def wait(self, timeout: float | None = None, poll_s: float = 0.01) -> bool:
        """Block until everything queued has been heard; False if `timeout` ran out first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.busy():
            if deadline is not None and time.monotonic() >= deadline:
                return False
            time.sleep(poll_s)
        return True

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        self.cut()

    def _run(self) -> None:
        while True:
            with self._changed:
                while not self._items and not self._closed:
                    self._working = False
                    self._changed.wait()
                if self._closed:
                    self._working = False
                    return
                generation, item = self._items.popleft()
                self._working = True
            samples, rate = self._samples(item)
            while self.output.queued_seconds() > AHEAD_S and self._current(generation):
                time.sleep(0.05)
            while (wait_s := self.output.wait_s()) > 0 and self._current(generation):  # not behind silence
                time.sleep(min(wait_s, 0.02))
            problem = self._hand_over(generation, samples, rate)
            if problem is not None and self.on_failure is not None:
                self.on_failure(item.line, problem)

    def _hand_over(self, generation: int, samples: np.ndarray | None, rate: int) -> Unavailable | None:
        """Give rendered samples to the output, unless cut meanwhile; the problem if it cannot play."""
        with self._changed:
            if generation != self._generation or samples is None:
                return None
            try:
                self.output.play(_at_rate(samples, rate, self.output.rate))
            except Unavailable as problem:
                self.failure = problem
                self._items.clear()
                return problem
        return None

    def _current(self, generation: int) -> bool:
        with self._changed:
            return generation == self._generation and not self._closed

    def _samples(self, item: _Item) -> tuple[np.ndarray | None, int]:
        if item.sound is not None:
            return item.sound, item.rate
        assert self.render is not None
        try:
            return self.render(item.line)
        except Exception as problem:  # noqa: BLE001 - a line that cannot be said is reported, not fatal
            if self.on_failure is not None:
                self.on_failure(item.line, problem)
            return None, 0


def _at_rate(samples: np.ndarray, rate: int, wanted: int) -> np.ndarray:
    if rate == wanted:
        return samples
    return Resampler(rate, wanted).process(np.asarray(samples, dtype=np.float32))
