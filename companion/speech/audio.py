"""Where heard audio comes from: the microphone or WAV files, turned into the same 16 kHz frames.

Both sources hand out float chunks at their own sample rate; `AudioSource.frames` resamples them and cuts
them into FRAME_MS frames of 16-bit mono, so recognisers and the endpointer never know which source it was.
"""

from __future__ import annotations

import queue
import struct
import wave
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from companion.errors import BadInput
from companion.speech.base import Unavailable

SAMPLE_RATE = 16000
FRAME_MS = 30
FRAME_SAMPLES = SAMPLE_RATE * FRAME_MS // 1000


# ---------------------------------------------------------------------------------------------- WAV files

_PCM, _FLOAT, _EXTENSIBLE = 1, 3, 0xFFFE


def read_wav(path: Path) -> tuple[np.ndarray, int]:
    """The first channel of a WAV file (integer PCM or float) as floats in [-1, 1], and its sample rate."""
    try:
        data = Path(path).read_bytes()
    except OSError as error:
        raise BadInput(f"{path}: cannot read this audio file ({error.strerror})") from None
    try:
        fmt, raw = _riff_chunks(data)
        tag, channels, rate = struct.unpack_from("<HHI", fmt)
        width = struct.unpack_from("<H", fmt, 14)[0] // 8
        if tag == _EXTENSIBLE:
            tag = struct.unpack_from("<H", fmt, 24)[0]
        samples = _decode(raw, tag, width)
    except (ValueError, struct.error) as error:
        raise BadInput(f"{path}: not a usable WAV file ({error}); convert it, e.g. sox IN -b 16 OUT.wav") from None
    return samples[::channels].copy(), rate


def _riff_chunks(data: bytes) -> tuple[bytes, bytes]:
    """The 'fmt ' and 'data' chunks of a RIFF/WAVE file."""
    if data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise ValueError("no RIFF/WAVE header")
    chunks: dict[bytes, bytes] = {}
    position = 12
    while position + 8 <= len(data):
        name, size = data[position:position + 4], struct.unpack_from("<I", data, position + 4)[0]
        chunks.setdefault(name, data[position + 8:position + 8 + size])
        position += 8 + size + (size & 1)
    if b"fmt " not in chunks or b"data" not in chunks:
        raise ValueError("no format or data chunk")
    return chunks[b"fmt "], chunks[b"data"]


def _decode(raw: bytes, tag: int, width: int) -> np.ndarray:
    raw = raw[:len(raw) // width * width]
    if tag == _FLOAT and width in (4, 8):
        return np.frombuffer(raw, dtype="<f4" if width == 4 else "<f8").astype(np.float32)
    if tag != _PCM or width not in (1, 2, 3, 4):
        raise ValueError(f"unsupported sample format {tag} with {8 * width} bits")
    if width == 1:
        return (np.frombuffer(raw, dtype=np.uint8).astype(np.float32) - 128) / 128
    if width == 3:
        padded = np.zeros((len(raw) // 3, 4), dtype=np.uint8)
        padded[:, 1:] = np.frombuffer(raw, dtype=np.uint8).reshape(-1, 3)
        return (padded.view("<i4")[:, 0] / float(1 << 31)).astype(np.float32)
    dtype = "<i2" if width == 2 else "<i4"
    return (np.frombuffer(raw, dtype=dtype) / float(1 << (8 * width - 1))).astype(np.float32)


def to_int16(samples: np.ndarray) -> np.ndarray:
    ints: np.ndarray = (np.clip(samples, -1.0, 1.0) * 32767).astype("<i2")
    return ints


def write_wav(path: Path, samples: np.ndarray, rate: int) -> Path:
    """Write float samples in [-1, 1] as a 16-bit mono WAV file."""
    with wave.open(str(path), "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(rate)
        wav.writeframes(to_int16(samples).tobytes())
    return path


# ---------------------------------------------------------------------------------------------- resampling

def _lowpass_kernel(cutoff: float, taps: int) -> np.ndarray:
    """A windowed-sinc low-pass filter; `cutoff` is a fraction of the sample rate (0 < cutoff < 0.5)."""
    centre = np.arange(taps) - (taps - 1) / 2
    kernel = 2 * cutoff * np.sinc(2 * cutoff * centre) * np.blackman(taps)
    normalised: np.ndarray = (kernel / kernel.sum()).astype(np.float32)
    return normalised


class Resampler:
    """Converts a stream of chunks from one sample rate to another, keeping state across chunks."""

    TAPS = 63

    def __init__(self, source_rate: int, target_rate: int = SAMPLE_RATE):
        self.step = source_rate / target_rate
        downsampling = source_rate > target_rate
        self.kernel = _lowpass_kernel(0.45 / self.step, self.TAPS) if downsampling else None
        self.history = np.zeros(self.TAPS - 1, dtype=np.float32)
        self.carry = np.zeros(0, dtype=np.float32)
        self.position = 0.0

    def process(self, chunk: np.ndarray) -> np.ndarray:
        if self.step == 1.0:
            return chunk
        if self.kernel is not None:
            padded = np.concatenate([self.history, chunk])
            self.history = padded[len(padded) - len(self.history):]
            chunk = np.convolve(padded, self.kernel, mode="valid").astype(np.float32)
        buffer = np.concatenate([self.carry, chunk])
        if len(buffer) < 2:
            self.carry = buffer
            return np.zeros(0, dtype=np.float32)
        positions = np.arange(self.position, len(buffer) - 1, self.step)
        self.position = (positions[-1] + self.step if len(positions) else self.position) - (len(buffer) - 1)
        self.carry = buffer[-1:]
        resampled: np.ndarray = np.interp(positions, np.arange(len(buffer)), buffer).astype(np.float32)
        return resampled


# ---------------------------------------------------------------------------------------------- sources

class AudioSource(ABC):
    """Audio of one or more utterances. `live` sources run in real time and may hear the program speak."""

    live = False
    native_rate = SAMPLE_RATE

    @abstractmethod
    def chunks(self) -> Iterator[np.ndarray]:
        """Float chunks at `native_rate`, until the source ends (a live source never ends by itself)."""

    def frames(self) -> Iterator[bytes]:
        """The source as FRAME_MS frames of 16-bit mono at SAMPLE_RATE (the last partial frame is dropped)."""
        resampler = Resampler(self.native_rate)
        pending = np.zeros(0, dtype=np.float32)
        for chunk in self.chunks():
            pending = np.concatenate([pending, resampler.process(chunk)])
            whole = len(pending) // FRAME_SAMPLES * FRAME_SAMPLES
            for start in range(0, whole, FRAME_SAMPLES):
                yield to_int16(pending[start:start + FRAME_SAMPLES]).tobytes()
            pending = pending[whole:]

    def close(self) -> None:  # noqa: B027 - a hook: doing nothing is the default
        pass


class WavFileSource(AudioSource):
    """One WAV file, handed out in chunks the size a microphone would deliver. With `lead_in`, a file that starts
    loud (its first chunk above LOUD_DB) is preceded by LEAD_IN_MS of silence: a microphone always hears some before
    a word, and the endpointer takes the room's noise from the quietest moment it heard, so a recording cut right at
    its first word ("aide" said alone, 0.6 s) was never heard at all."""

    CHUNK_MS = 100
    LEAD_IN_MS = 500
    LOUD_DB = -40.0

    def __init__(self, path: Path, *, lead_in: bool = False):
        self.path = Path(path)
        self.samples, self.native_rate = read_wav(self.path)
        self.lead_in = lead_in

    @property
    def seconds(self) -> float:
        return len(self.samples) / self.native_rate

    def _starts_loud(self, size: int) -> bool:
        """Whether the first `size` samples are above LOUD_DB."""
        first = self.samples[:size].astype(np.float64)
        return bool(len(first)) and 10 * np.log10(float(np.mean(first * first)) + 1e-10) > self.LOUD_DB

    def chunks(self) -> Iterator[np.ndarray]:
        size = self.native_rate * self.CHUNK_MS // 1000
        if self.lead_in and self._starts_loud(size):
            for _ in range(self.LEAD_IN_MS // self.CHUNK_MS):
                yield np.zeros(size, dtype=np.float32)
        for start in range(0, len(self.samples), size):
            yield self.samples[start:start + size]


def _sounddevice() -> ModuleType:
    """The sounddevice module; Unavailable("no_portaudio") when the PortAudio library is missing."""
    try:
        import sounddevice
    except OSError as error:
        raise Unavailable("no_portaudio", str(error)) from error
    module: ModuleType = sounddevice
    return module


def default_device(kind: str) -> dict[str, Any]:
    """The default "input" or "output" device; Unavailable when there is none."""
    sounddevice = _sounddevice()
    try:
        device: dict[str, Any] = sounddevice.query_devices(kind=kind)
        return device
    except Exception as error:  # sounddevice raises several types for "no such device"
        problem = "no_microphone" if kind == "input" else "no_output_device"
        raise Unavailable(problem, str(error)) from error


def open_output() -> ModuleType:
    """The sounddevice module, once a default output device is known to exist (else Unavailable)."""
    default_device("output")
    return _sounddevice()


class MicrophoneSource(AudioSource):
    """The default microphone, captured with sounddevice from the first `chunks` call until `close`.

    What it captures while `muted()` says so (the program is making a sound) is dropped as it comes in, not when
    it is read: a player who answers while the program is still busy (loading a grammar, say) is heard all the
    same, and the program never hears itself."""

    live = True
    READ_TIMEOUT_S = 5.0

    def __init__(self, device: int | str | None = None):
        self.device = device
        info = default_device("input") if device is None else _sounddevice().query_devices(device)
        self.native_rate = self._pick_rate(int(info["default_samplerate"]))
        self.queue: queue.Queue[tuple[bool, np.ndarray]] = queue.Queue()
        self.stream: Any = None  # a sounddevice.InputStream while open
        self.muted: Callable[[], bool] = lambda: False

    def _pick_rate(self, device_rate: int) -> int:
        """16 kHz when the device offers it (no resampling), else the device's own rate."""
        try:
            _sounddevice().check_input_settings(device=self.device, samplerate=SAMPLE_RATE, channels=1,
                                                dtype="float32")
            return SAMPLE_RATE
        except Exception:  # noqa: BLE001 - any refusal means: use the device's rate
            return device_rate

    def _start(self) -> None:
        def capture(block: np.ndarray, _frames: int, _time: Any, _status: Any) -> None:
            self.queue.put((self.muted(), block[:, 0].copy()))

        sounddevice = _sounddevice()
        try:
            self.stream = sounddevice.InputStream(device=self.device, samplerate=self.native_rate, channels=1,
                                                  dtype="float32", callback=capture,
                                                  blocksize=self.native_rate * FRAME_MS // 1000)
            self.stream.start()
        except Exception as error:  # PortAudioError and friends
            self.stream = None
            raise Unavailable("no_microphone", str(error)) from error

    def open(self) -> None:
        """Start capturing now (else at the first `chunks`); Unavailable if the microphone cannot be opened."""
        if self.stream is None:
            self._start()

    def chunks(self) -> Iterator[np.ndarray]:
        self.open()
        while True:
            try:
                muted, chunk = self.queue.get(timeout=self.READ_TIMEOUT_S)
            except queue.Empty:
                raise Unavailable("microphone_stopped") from None
            if not muted:
                yield chunk

    def close(self) -> None:
        if self.stream is not None:
            self.stream.close()
            self.stream = None
