"""Whisper's front end: 16 kHz samples to the log-mel spectrogram its encoder reads.

A 25 ms Hann window every 10 ms (400 and 160 samples), the power spectrum folded onto 80 mel bands (Slaney's
mel scale and band areas, as Whisper was trained with), then log10, floored 8 decades below the loudest
value and scaled to about [-1, 1]. The audio is padded with silence (or cut) to the window the encoder is
given: Whisper was trained on 30 s windows, and a shorter one costs less (companion.speech.whisper).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

SAMPLE_RATE = 16000
N_FFT = 400
HOP = 160
N_MELS = 80


@lru_cache(maxsize=4)
def mel_filters(n_mels: int = N_MELS, rate: int = SAMPLE_RATE, n_fft: int = N_FFT) -> np.ndarray:
    """The weights that fold a power spectrum (n_fft // 2 + 1 bins) onto `n_mels` bands, [n_mels, bins]."""
    linear_step, log_from_hz = 200.0 / 3, 1000.0  # Slaney: linear up to 1 kHz, logarithmic above
    log_from_mel, log_step = log_from_hz / linear_step, np.log(6.4) / 27.0

    def to_mel(hz: np.ndarray) -> np.ndarray:
        return np.where(hz >= log_from_hz, log_from_mel + np.log(np.maximum(hz, 1e-10) / log_from_hz) / log_step,
                        hz / linear_step)

    def to_hz(mel: np.ndarray) -> np.ndarray:
        return np.where(mel >= log_from_mel, log_from_hz * np.exp(log_step * (mel - log_from_mel)), linear_step * mel)

    bins = np.linspace(0, rate / 2, n_fft // 2 + 1)
    edges = to_hz(np.linspace(to_mel(np.array(0.0)), to_mel(np.array(rate / 2)), n_mels + 2))
    widths = np.diff(edges)
    distance = edges[:, None] - bins[None, :]
    rising, falling = -distance[:-2] / widths[:-1, None], distance[2:] / widths[1:, None]
    weights = np.maximum(0, np.minimum(rising, falling)) * (2.0 / (edges[2:] - edges[:-2]))[:, None]
    filters: np.ndarray = weights.astype(np.float32)
    return filters


def log_mel(samples: np.ndarray, window_s: float) -> np.ndarray:
    """The log-mel spectrogram of `samples` (float, [-1, 1]) padded or cut to `window_s` seconds:
    [N_MELS, window_s * 100] frames."""
    length = round(window_s * SAMPLE_RATE)
    audio = np.zeros(length, dtype=np.float32)
    audio[:min(length, len(samples))] = samples[:length]
    padded = np.pad(audio, N_FFT // 2, mode="reflect")
    frames = np.lib.stride_tricks.sliding_window_view(padded, N_FFT)[::HOP][:-1]
    window = np.hanning(N_FFT + 1)[:-1].astype(np.float32)  # periodic
    power = np.abs(np.fft.rfft(frames * window, axis=1)) ** 2
    logs = np.log10(np.maximum(mel_filters() @ power.T, 1e-10))
    scaled: np.ndarray = ((np.maximum(logs, logs.max() - 8.0) + 4.0) / 4.0).astype(np.float32)
    return scaled
