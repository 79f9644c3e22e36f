"""Finding one utterance in a stream of frames: where speech starts and where it has ended.

A frame counts as speech when the WebRTC voice detector (shipped with pocketsphinx) says so and it is
clearly louder than the background noise, taken as the quietest frame of the last moments. Speech starts after a
few speech frames close together, and ends after a stretch of silence, a maximum length, or the stream's end.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import numpy as np

from companion.speech.audio import FRAME_MS, SAMPLE_RATE


def frame_level_db(frame: bytes) -> float:
    """Loudness of a frame in dB relative to full scale."""
    samples = np.frombuffer(frame, dtype="<i2").astype(np.float32) / 32768
    return 10 * math.log10(float(np.mean(samples * samples)) + 1e-10)


def webrtc_detector() -> Callable[[bytes], bool] | None:
    """The WebRTC voice detector for FRAME_MS frames, or None when pocketsphinx is missing."""
    try:
        from pocketsphinx import Vad
    except ImportError:
        return None
    vad = Vad(Vad.LOOSE, SAMPLE_RATE, FRAME_MS / 1000)
    is_speech: Callable[[bytes], bool] = vad.is_speech
    return is_speech


@dataclass
class EndpointSettings:
    """How eagerly an utterance starts and ends (times in milliseconds)."""

    start_ms: int = 90          # speech frames needed ...
    start_window_ms: int = 180  # ... within this window, to start
    end_ms: int = 700           # silence that ends an utterance
    tail_ms: int = 240          # silence kept after the last speech (the rest is never sent on)
    preroll_ms: int = 300       # audio kept from before the start
    max_ms: int = 12000         # longest utterance
    noise_ms: int = 1500        # how far back the quietest frame gives the background noise level
    margin_db: float = 9.0      # how far above the background noise speech must be
    floor_db: float = -60.0     # quieter than this is never speech


class Endpointer:
    """Cuts the first utterance out of a stream of frames."""

    def __init__(self, settings: EndpointSettings | None = None,
                 detector: Callable[[bytes], bool] | None = None):
        self.settings = settings or EndpointSettings()
        self.detector = detector if detector is not None else webrtc_detector()
        self.levels: deque[float] = deque(maxlen=self._frames(self.settings.noise_ms))
        self.started = False

    @staticmethod
    def _frames(ms: int) -> int:
        return max(1, ms // FRAME_MS)

    def is_speech(self, frame: bytes) -> bool:
        level = frame_level_db(frame)
        self.levels.append(level)
        loud = level > max(self.settings.floor_db, min(self.levels) + self.settings.margin_db)
        return loud and (self.detector is None or self.detector(frame))

    def speech(self, frames: Iterable[bytes]) -> Iterator[bytes]:
        """The frames of the first utterance in `frames`: a little before it starts, to its end.

        Yields nothing if the stream ends without speech; `started` tells whether speech was found.
        """
        s = self.settings
        recent: deque[bytes] = deque(maxlen=self._frames(s.preroll_ms))
        votes: deque[bool] = deque(maxlen=self._frames(s.start_window_ms))
        source = iter(frames)
        for frame in source:
            recent.append(frame)
            votes.append(self.is_speech(frame))
            if sum(votes) >= self._frames(s.start_ms):
                self.started = True
                break
        if not self.started:
            return
        yield from recent
        held: list[bytes] = []  # silence beyond the tail, sent on only if speech comes back
        silent, length = 0, len(recent)
        for frame in source:
            length += 1
            silent = 0 if self.is_speech(frame) else silent + 1
            if silent == 0:
                yield from held
                held.clear()
            if silent <= self._frames(s.tail_ms):
                yield frame
            else:
                held.append(frame)
            if silent >= self._frames(s.end_ms) or length >= self._frames(s.max_ms):
                return
