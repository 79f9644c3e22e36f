"""Earcons: five short sounds that differ in shape, not only in pitch, and that never stop the game."""

from __future__ import annotations

import numpy as np
import pytest

from companion.language.messages import catalog
from companion.speech.earcons import KINDS, PEAK, earcon
from tests.conftest import hidden_module, linux_only, run_python, sound_home

RATE = 22050


def pitch_track(sound: np.ndarray) -> list[float]:
    """The dominant frequency of each 40 ms window (Hz)."""
    size = int(0.04 * RATE)
    track = []
    for start in range(0, len(sound) - size, size):
        spectrum = np.abs(np.fft.rfft(sound[start:start + size] * np.hanning(size)))
        track.append(float(np.argmax(spectrum) * RATE / size))
    return track


def test_earcons_are_short_bounded_and_all_different():
    sounds = {kind: earcon(kind, RATE) for kind in KINDS}
    for kind, sound in sounds.items():
        assert 0.1 < len(sound) / RATE < 0.5, kind
        assert 0.9 * PEAK <= np.max(np.abs(sound)) <= PEAK + 1e-6, kind
    assert len({len(s) for s in sounds.values()}) == len(KINDS)


def test_understood_rises_and_not_understood_falls():
    rising, falling = pitch_track(earcon("understood", RATE)), pitch_track(earcon("not_understood", RATE))
    assert rising[-1] > rising[0] and falling[-1] < falling[0]


def test_refused_is_a_low_buzz_rich_in_harmonics():
    sound = earcon("refused", RATE)
    spectrum = np.abs(np.fft.rfft(sound))
    frequencies = np.fft.rfftfreq(len(sound), 1 / RATE)
    assert frequencies[np.argmax(spectrum)] < 300
    third_harmonic = spectrum[(frequencies > 550) & (frequencies < 630)].max()
    assert third_harmonic > 0.2 * spectrum.max()


def test_volume_scales_and_unknown_kinds_are_refused():
    assert np.max(np.abs(earcon("your_turn", RATE, volume=0.5))) == pytest.approx(PEAK / 2, rel=1e-3)
    with pytest.raises(ValueError):
        earcon("applause", RATE)


PLAY_ALL = """
from companion.speech.earcons import Earcons, KINDS
earcons = Earcons(lang="en")
for kind in KINDS:
    earcons.play(kind)
    print("playing" if earcons.is_playing() else "silent", earcons.enabled)
    earcons.wait()
"""


def test_without_portaudio_earcons_switch_off_after_one_notice(tmp_path):
    result = run_python(PLAY_ALL, env=hidden_module(tmp_path, "sounddevice", 'OSError("no PortAudio")'))
    assert result.returncode == 0, result.stderr
    notice = catalog("en").say("speech.earcons_off", reason=catalog("en").say("speech.problem.no_portaudio"))
    assert result.stdout.splitlines() == [notice] + ["silent False"] * len(KINDS)


@linux_only
def test_earcons_play_on_a_sound_device_without_blocking(tmp_path):
    result = run_python(PLAY_ALL, env=sound_home(tmp_path, "null"))
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["playing True"] * len(KINDS)


def test_heard_is_two_level_ticks():
    track = pitch_track(earcon("heard", RATE))
    assert len(track) >= 2 and max(track) - min(track) < 0.05 * max(track)
