"""Room conditions for synthesised speech: how a command sounds at a real table rather than in a file.

`clean` leaves the WAV as it is; `reverb` puts it in a reverberant room (sox's reverb); `tempo` says it
between 0.85 and 1.15 times as fast, pitch kept (sox's tempo); `babble` adds other people talking at the
table (several espeak-ng voices saying the program's own messages at once) and `brown` adds a rumble whose
power falls with the square of the frequency (traffic, a fan), both NOISE_SNR_DB below the speech.
"""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path

import numpy as np

from companion.speech.audio import read_wav, write_wav

CONDITIONS = ("clean", "reverb", "tempo", "babble", "brown")
NOISE_SNR_DB = 15.0
TEMPO_RANGE = (0.85, 1.15)
REVERB = ("reverb", "50", "50", "100", "100", "20")  # reverberance %, damping %, room scale %, stereo, pre-delay ms
BABBLE_TALKERS = 6
# Talkers of the babble: voices of the language that neither the tuned nor the held-out set speaks with.
BABBLE_VOICES = {"en": ("en-gb", "en-us+m2", "en-us+f3", "en-gb+m4", "en-gb+f1", "en-us+m5"),
                 "fr": ("fr+m2", "fr+f3", "fr+m4", "fr+f1", "fr+m5", "fr+f4"),
                 "es": ("es+m2", "es+f3", "es+m4", "es+f1", "es+m5", "es+f4")}


def sox_path() -> str | None:
    return shutil.which("sox")


def coloured_noise(length: int, exponent: float, seed: int = 0) -> np.ndarray:
    """Noise whose power falls as 1/f**exponent (1: pink, 2: brown); unit power."""
    spectrum = np.fft.rfft(np.random.default_rng(seed).standard_normal(length))
    spectrum /= np.maximum(np.arange(len(spectrum)), 1) ** (exponent / 2)
    noise = np.fft.irfft(spectrum, length)
    unit: np.ndarray = (noise / np.sqrt(np.mean(noise ** 2))).astype(np.float32)
    return unit


def mix(samples: np.ndarray, noise: np.ndarray, snr_db: float) -> np.ndarray:
    """`noise` (unit power, at least as long) added `snr_db` below the power of the speech in `samples`."""
    power = float(np.mean(samples[samples != 0] ** 2)) if np.any(samples) else 1e-6
    mixed: np.ndarray = samples + noise[:len(samples)] * np.sqrt(power / 10 ** (snr_db / 10))
    return mixed


class Room:
    """Applies the conditions to WAV files; babble is made once, from `babble_texts`, in `folder`."""

    def __init__(self, folder: Path, lang: str, babble_texts: list[str]):
        self.folder, self.lang, self.texts = folder, lang, babble_texts
        self._babble: np.ndarray | None = None

    def apply(self, path: Path, condition: str, seed: int) -> Path:
        """`path` rewritten as heard in `condition` (drawn from `seed`: tempo, noise, where the babble starts)."""
        if condition == "clean":
            return path
        rng = random.Random(seed)
        if condition in ("reverb", "tempo"):
            effect = REVERB if condition == "reverb" else ("tempo", "-s", f"{rng.uniform(*TEMPO_RANGE):.3f}")
            return self._sox(path, effect)
        samples, rate = read_wav(path)
        if condition == "brown":
            noise = coloured_noise(len(samples), 2.0, seed)
        elif condition == "babble":
            babble = self.babble()
            start = rng.randrange(max(1, len(babble) - len(samples)))
            noise = np.resize(babble[start:], len(samples))
        else:
            raise ValueError(f"unknown room condition '{condition}'")
        return write_wav(path, np.clip(mix(samples, noise, NOISE_SNR_DB), -1.0, 1.0), rate)

    def _sox(self, path: Path, effect: tuple[str, ...]) -> Path:
        program = sox_path()
        if program is None:
            raise FileNotFoundError("sox is not installed")
        changed = path.with_suffix(".room.wav")
        # -R: sox's dither (and any other randomness) seeded the same way each run; without it, the same
        # sentence in the same room differed in its last bit from run to run, and Whisper heard some rooms
        # differently each time.
        subprocess.run([program, "-R", "-q", str(path), "-r", "16000", "-b", "16", "-c", "1", str(changed), *effect,
                        "channels", "1", "gain", "-n", "-3"], check=True, capture_output=True, timeout=60)
        changed.replace(path)
        return path

    def babble(self) -> np.ndarray:
        """Several talkers at once, unit power, at 16 kHz (made on first use)."""
        if self._babble is None:
            from companion.benchmarks.synthetic import speak_to_wav

            voices = BABBLE_VOICES[self.lang]
            talkers = []
            for index in range(BABBLE_TALKERS):
                text = " ".join(self.texts[index::BABBLE_TALKERS][:6])
                wav = speak_to_wav(text, self.folder / f"babble{index}.wav", voice=voices[index % len(voices)],
                                   speed=170, pause_s=0.0)
                samples, _ = read_wav(self._sox(wav, ()))
                talkers.append(samples / max(float(np.sqrt(np.mean(samples ** 2))), 1e-6))
            length = min(len(t) for t in talkers)
            babble = np.sum([np.roll(t[:length], length * k // BABBLE_TALKERS) for k, t in enumerate(talkers)],
                            axis=0)
            self._babble = (babble / max(float(np.sqrt(np.mean(babble ** 2))), 1e-6)).astype(np.float32)
        return self._babble
