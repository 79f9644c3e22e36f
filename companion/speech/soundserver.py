"""A sound server of our own, standing in for a sound card, to hear what a player would hear.

`PrivateSoundServer` starts PulseAudio in a folder of its own (its own XDG_RUNTIME_DIR, so it meets no other
server) with two null sinks: "speaker", the program's default output, whose monitor records what comes out of
the loudspeaker, and "mic", whose monitor is the default input, so that a sound played into it (`play_into_mic`)
reaches the program as a microphone would. `leak` adds a room where the loudspeaker is heard by the
microphone. PortAudio reaches the server through ALSA's pulse plugin (Debian's libasound2-plugins). Used by
`companion bench voice` and the audio tests; a player's machine uses its own sound server.
"""

from __future__ import annotations

import bisect
import os
import shutil
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.speech.audio import SAMPLE_RATE

SPEAKER = "speaker"
MICROPHONE = "mic"
START_TIMEOUT_S = 10.0
# parec hands over its audio in pieces of this length: the time at which each piece arrives dates its samples
# to within about that much (plus the server's own latency).
RECORD_LATENCY_MS = 10
PROGRAMS = ("pulseaudio", "pactl", "parec", "paplay", "pacat")


class SoundServerUnavailable(RuntimeError):
    """PulseAudio or its tools are missing, or the server did not start."""


def missing_programs() -> list[str]:
    return [name for name in PROGRAMS if shutil.which(name) is None]


@dataclass
class Recording:
    """16 kHz mono samples (floats) recorded from a monitor, with the monotonic time of each piece received.

    Pieces arrive every 10 ms while a test polls the recording: dates are found by bisection and `since` joins
    only the pieces asked for, so that polling a recording of several minutes stays cheap."""

    samples: list[np.ndarray] = field(default_factory=list)
    arrivals: list[tuple[float, int]] = field(default_factory=list)  # (time received, samples up to its end)

    def audio(self) -> np.ndarray:
        return self.since(0)

    def since(self, index: int) -> np.ndarray:
        """The samples from `index` on."""
        count = min(len(self.samples), len(self.arrivals))  # the recording thread appends to both: a stable count
        ends = [before for _, before in self.arrivals[:count]]
        first = bisect.bisect_right(ends, index)
        if first >= count:
            return np.zeros(0, dtype=np.float32)
        start = ends[first - 1] if first else 0
        return np.concatenate(self.samples[first:count])[index - start:]

    def time_of(self, index: int) -> float:
        """About when sample `index` came out of the server (monotonic seconds)."""
        arrivals = self.arrivals[:]
        at = bisect.bisect_left(arrivals, index, key=lambda arrival: arrival[1])
        if at < len(arrivals):
            received, before = arrivals[at]
            return received - (before - index) / SAMPLE_RATE
        received, before = arrivals[-1]
        return received + (index - before) / SAMPLE_RATE

    def index_at(self, moment: float) -> int:
        """The first sample that came out at or after `moment` (monotonic seconds)."""
        arrivals = self.arrivals[:]
        at = bisect.bisect_left(arrivals, moment, key=lambda arrival: arrival[0])
        if at < len(arrivals):
            received, before = arrivals[at]
            return max(0, before - int((received - moment) * SAMPLE_RATE))
        return arrivals[-1][1] if arrivals else 0


class Recorder:
    """Records a source of the server (a monitor) from `start` to `stop`, dating what it receives."""

    def __init__(self, server: PrivateSoundServer, source: str):
        self.recording = Recording()
        self._process = subprocess.Popen(
            ["parec", f"--device={source}", "--raw", "--format=s16le", f"--rate={SAMPLE_RATE}", "--channels=1",
             f"--latency-msec={RECORD_LATENCY_MS}"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=server.environment())
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self.recording.arrivals and time.monotonic() < deadline:  # parec takes about 1 s to start
            time.sleep(0.01)
        if not self.recording.arrivals:
            self.stop()
            raise SoundServerUnavailable(f"nothing could be recorded from {source}")

    def _read(self) -> None:
        assert self._process.stdout is not None  # a pipe
        count = 0
        piece = SAMPLE_RATE * RECORD_LATENCY_MS // 1000 * 2
        while True:
            data = self._process.stdout.read1(piece)  # type: ignore[attr-defined]
            if not data:
                return
            samples = np.frombuffer(data[:len(data) // 2 * 2], dtype="<i2").astype(np.float32) / 32768
            count += len(samples)
            self.recording.samples.append(samples)
            self.recording.arrivals.append((time.monotonic(), count))

    def stop(self, until: float | None = None, timeout: float = 10.0) -> Recording:
        """Stop recording. With `until` (a monotonic time), first wait until then and until what the server played
        up to then has come through: parec's pipe falls behind on a busy machine, where a fixed wait once lost the
        last line of a game (at most `timeout` seconds more)."""
        if until is not None:
            deadline = max(until, time.monotonic()) + timeout
            while time.monotonic() < deadline and not (time.monotonic() >= until and self._covers(until)):
                time.sleep(0.01)
        self._process.terminate()
        self._process.wait(5)
        self._thread.join(5)
        return self.recording

    def _covers(self, moment: float) -> bool:
        """Whether the samples received reach `moment`: the monitor runs in real time from the first piece."""
        arrivals = self.recording.arrivals[:]
        if not arrivals:
            return False
        received, count = arrivals[0]
        return arrivals[-1][1] >= count + (moment - received) * SAMPLE_RATE


class PrivateSoundServer:
    """PulseAudio with a null "speaker" (default output) and a null "mic" (whose monitor is the default input)."""

    def __init__(self, folder: Path):
        self.folder = Path(folder)
        self.runtime = self.folder / "run"
        self._hum: list[subprocess.Popen[bytes]] = []

    def environment(self) -> dict[str, str]:
        """Variables that make a child process use this server (and only it)."""
        return {"XDG_RUNTIME_DIR": str(self.runtime), "PULSE_SERVER": f"unix:{self.runtime / 'pulse' / 'native'}",
                "PULSE_RUNTIME_PATH": str(self.runtime / "pulse")}

    def _env(self) -> dict[str, str]:
        return {**os.environ, "HOME": str(self.folder), **self.environment()}

    def start(self) -> PrivateSoundServer:
        missing = missing_programs()
        if missing:
            raise SoundServerUnavailable(f"not installed: {', '.join(missing)}")
        self.runtime.mkdir(parents=True, exist_ok=True)
        self.runtime.chmod(0o700)
        script = self.folder / "server.pa"
        script.write_text(
            "load-module module-native-protocol-unix auth-anonymous=1\n"
            f"load-module module-null-sink sink_name={SPEAKER} sink_properties=device.description=Speaker\n"
            f"load-module module-null-sink sink_name={MICROPHONE} sink_properties=device.description=Microphone\n"
            f"set-default-sink {SPEAKER}\n"
            f"set-default-source {MICROPHONE}.monitor\n")
        started = subprocess.run(
            ["pulseaudio", "-n", "--daemonize", "--exit-idle-time=-1", "--disallow-exit", "--use-pid-file",
             f"--file={script}", "--log-target=stderr", "--log-level=error"],
            env=self._env(), capture_output=True, text=True, timeout=START_TIMEOUT_S, check=False)
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self.answers():
            if time.monotonic() > deadline:
                raise SoundServerUnavailable(f"PulseAudio did not start: {started.stderr.strip()[-400:]}")
            time.sleep(0.05)
        # A null sink with nothing playing into it stops its clock, and its monitor gives nothing: a recording
        # would skip the silences, and a microphone would fall quiet. A stream of digital silence into each keeps
        # them running, as a sound card and a microphone always do.
        for sink in (SPEAKER, MICROPHONE):
            with open("/dev/zero", "rb") as zeros:
                self._hum.append(subprocess.Popen(
                    ["pacat", "--playback", f"--device={sink}", "--raw", "--format=s16le", f"--rate={SAMPLE_RATE}",
                     "--channels=1", "--latency-msec=50"],
                    stdin=zeros, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=self._env()))
        return self

    def answers(self) -> bool:
        return self.pactl("info", check=False).returncode == 0

    def pactl(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(["pactl", *args], env=self._env(), capture_output=True, text=True, timeout=10,
                              check=check)

    def stop(self) -> None:
        for hum in self._hum:
            hum.kill()
            hum.wait(5)
        self._hum.clear()
        subprocess.run(["pulseaudio", "--kill"], env=self._env(), capture_output=True, timeout=10, check=False)
        deadline = time.monotonic() + 5
        while self.answers() and time.monotonic() < deadline:
            time.sleep(0.05)

    def record(self, source: str = f"{SPEAKER}.monitor") -> Recorder:
        """Start recording `source` (by default what the speaker plays)."""
        return Recorder(self, source)

    def play_into_mic(self, wav: Path, *, wait: bool = True) -> subprocess.Popen[bytes]:
        """Play a WAV file into the microphone sink, as a person speaking at the table."""
        player = subprocess.Popen(["paplay", f"--device={MICROPHONE}", str(wav)], env=self._env(),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if wait:
            player.wait(60)
        return player

    def leak(self, gain: float = 0.1) -> str:
        """Let the microphone hear the speaker, `gain` times as loud (0.1: 20 dB quieter), as in a room; returns
        the module's number, for `unload`."""
        module = self.pactl("load-module", "module-loopback", f"source={SPEAKER}.monitor", f"sink={MICROPHONE}",
                            "latency_msec=30", "source_dont_move=true", "sink_dont_move=true").stdout.strip()
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            mine = [number for number, owner in _sink_inputs(self.pactl("list", "sink-inputs").stdout)
                    if owner == module]
            if mine:
                self.pactl("set-sink-input-volume", mine[0], f"{gain:.3f}")
                return module
            time.sleep(0.05)
        raise SoundServerUnavailable("the loopback module made no stream")

    def unload(self, module: str) -> None:
        self.pactl("unload-module", module, check=False)


def _sink_inputs(listing: str) -> list[tuple[str, str]]:
    """(number, owner module) of each stream in `pactl list sink-inputs`."""
    found: list[tuple[str, str]] = []
    number = None
    for line in listing.splitlines():
        line = line.strip()
        if line.startswith("Sink Input #"):
            number = line.removeprefix("Sink Input #")
        elif line.startswith("Owner Module:") and number is not None:
            found.append((number, line.split(":", 1)[1].strip()))
    return found


def speech_seconds(samples: np.ndarray, threshold_db: float = -45.0, frame_ms: int = 30,
                   rate: int = SAMPLE_RATE) -> float:
    """How long `samples` sound: the total length of the frames louder than `threshold_db` (RMS, dBFS)."""
    size = rate * frame_ms // 1000
    frames = len(samples) // size
    if not frames:
        return 0.0
    blocks = np.asarray(samples[:frames * size], dtype=np.float64).reshape(frames, size)
    levels = 10 * np.log10(np.mean(blocks * blocks, axis=1) + 1e-12)
    return float(np.count_nonzero(levels > threshold_db) * frame_ms / 1000)
