"""Earcons: short sounds that tell, without words, what just happened.

Each kind differs in melody direction and timbre, not only in pitch: understood rises quickly, not
understood falls slowly, refused is a low buzz, your turn is a three-note call, and heard, two level ticks, says
that the end of speech was heard while a slow recogniser (Whisper) works on it, so that the wait is not silence.
They are made with numpy and played in turn with the program's speech (companion.speech.playback), never over
it; without PortAudio or an output device they switch themselves off after one notice.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

import numpy as np

from companion.language.messages import catalog
from companion.speech.audio import open_output
from companion.speech.base import Unavailable
from companion.speech.playback import OUTPUT_RATE, SoundQueue

KINDS: tuple[str, ...] = ("understood", "not_understood", "refused", "your_turn", "heard")
PEAK = 0.35

# Each earcon: notes as (frequency in Hz, seconds), and the timbre: "pure" (sine) or "buzz" (odd harmonics).
_SHAPES: dict[str, tuple[tuple[tuple[float, float], ...], str]] = {
    "understood": (((659.3, 0.07), (880.0, 0.09)), "pure"),
    "not_understood": (((440.0, 0.13), (329.6, 0.18)), "pure"),
    "refused": (((196.0, 0.28),), "buzz"),
    "your_turn": (((523.3, 0.08), (659.3, 0.08), (784.0, 0.14)), "pure"),
    "heard": (((587.3, 0.06), (587.3, 0.06)), "pure"),
}


def _note(frequency: float, seconds: float, timbre: str, rate: int) -> np.ndarray:
    t = np.arange(int(seconds * rate)) / rate
    if timbre == "buzz":
        wave = sum(np.sin(2 * np.pi * frequency * k * t) / k for k in (1, 3, 5, 7))
        wave = wave * (1 + 0.3 * np.sin(2 * np.pi * 18 * t))  # a slight tremolo makes it sound like "no"
    else:
        wave = np.sin(2 * np.pi * frequency * t)
    attack = np.minimum(1.0, t / 0.005)
    decay = np.exp(-3.0 * t / seconds)
    return wave * attack * decay


def earcon(kind: str, rate: int = 22050, volume: float = 1.0) -> np.ndarray:
    """The samples of one earcon, floats in [-PEAK, PEAK] scaled by `volume`."""
    if kind not in _SHAPES:
        raise ValueError(f"unknown earcon '{kind}': use one of {', '.join(KINDS)}")
    notes, timbre = _SHAPES[kind]
    sound = np.concatenate([_note(frequency, seconds, timbre, rate) for frequency, seconds in notes])
    samples: np.ndarray = (PEAK * volume * sound / np.max(np.abs(sound))).astype(np.float32)
    return samples


class EarconPlayer(Protocol):
    """Something that plays earcons in turn with its speech (the program's voice: companion.speech.tts)."""

    def earcon(self, kind: str, volume: float) -> None: ...


class Earcons:
    """Plays earcons without blocking, after what is being said: through `voice` when it can (the program's
    own voice plays them in its speech process), else on a sound queue of their own. `enabled` switches them
    off and on."""

    def __init__(self, enabled: bool = True, *, lang: str = "fr", volume: float = 1.0,
                 say: Callable[[str], None] | None = None, voice: EarconPlayer | None = None):
        self.enabled = enabled
        self.lang = lang
        self.volume = volume
        self.say = say or print
        self.voice = voice
        self.queue: SoundQueue | None = None

    def play(self, kind: str) -> None:
        """Queue earcon `kind` (one of KINDS) and return at once."""
        if kind not in _SHAPES:
            raise ValueError(f"unknown earcon '{kind}': use one of {', '.join(KINDS)}")
        if not self.enabled:
            return
        if self.voice is not None:
            self.voice.earcon(kind, self.volume)
            return
        try:
            if self.queue is None:
                open_output()  # Unavailable when there is no device: said once, then no more earcons
                self.queue = SoundQueue()
            if self.queue.failure is not None:
                raise self.queue.failure
            self.queue.play(earcon(kind, OUTPUT_RATE, self.volume), OUTPUT_RATE)
        except Unavailable as problem:
            self._give_up(problem)

    def _give_up(self, problem: Unavailable) -> None:
        self.enabled = False
        self.say(catalog(self.lang).say("speech.earcons_off", reason=problem.explain(self.lang)))

    def is_playing(self) -> bool:
        return self.queue is not None and self.queue.busy()

    def wait(self) -> None:
        """Block until the earcons queued here have been heard (those played through the voice: see its wait)."""
        if self.queue is not None:
            self.queue.wait()
