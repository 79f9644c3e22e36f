"""The speaking voice: pyttsx3 in a child process that never blocks the caller and stops at once.

Sound devices are ALSA configurations (see tests/conftest.py): a device that never finishes
playing (to test cutting speech off), and one that writes what it plays to a file (to check real sound).
"""

from __future__ import annotations

import io
import os
import signal
import time

import numpy as np
import pytest

from companion.errors import BadInput
from companion.language.messages import catalog
from companion.speech.base import TextSpeaker
from companion.speech.config import load_config
from companion.speech.engines import open_speaker
from companion.speech.tts import TtsSpeaker
from tests.conftest import linux_only, no_sound_devices, sound_home

pytestmark = linux_only


@pytest.fixture
def device(tmp_path, monkeypatch):
    """Make the default sound device of the given kind for the speech child process."""
    def make(kind: str, **paths):
        for name, value in sound_home(tmp_path / kind, kind, **paths).items():
            monkeypatch.setenv(name, value)
        return tmp_path / kind
    return make


def wait_until(condition, timeout_s: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.01)
    return condition()


def test_say_returns_at_once_and_stop_cuts_speech_off(device):
    device("blocking")
    out = io.StringIO()
    speaker = TtsSpeaker("en", out=out, remember=False)
    try:
        started = time.monotonic()
        speaker.say("This sentence would go on for a long while.")
        assert time.monotonic() - started < 0.5
        time.sleep(0.5)
        assert speaker.is_speaking()
        first = speaker.worker.process
        started = time.monotonic()
        speaker.stop()
        assert not speaker.is_speaking()
        assert time.monotonic() - started < 0.5
        assert wait_until(lambda: first.poll() is not None, 1.0)
        assert out.getvalue() == "This sentence would go on for a long while.\n"
    finally:
        speaker.close()


def test_a_new_line_cuts_off_the_previous_one(device):
    device("blocking")
    speaker = TtsSpeaker("fr", out=io.StringIO(), remember=False)
    try:
        speaker.say("Une longue phrase.")
        time.sleep(0.3)
        first = speaker.worker.process
        speaker.say("Une autre.")
        assert wait_until(lambda: first.poll() is not None, 1.0)
        assert speaker.worker.process is not first and speaker.is_speaking()
    finally:
        speaker.close()


def test_speech_really_reaches_the_sound_device(device, tmp_path):
    (tmp_path / "silence.raw").write_bytes(bytes(64000))
    folder = device("files", played=tmp_path / "played.raw", heard=tmp_path / "silence.raw")
    speaker = TtsSpeaker("es", out=io.StringIO(), remember=False)
    try:
        speaker.say("El dado muestra el bosque.")
        assert speaker.wait(20)
    finally:
        speaker.close()
    played = np.frombuffer((tmp_path / "played.raw").read_bytes(), dtype=np.float32)
    assert len(played) > 16000 and np.sqrt(np.mean(played ** 2)) > 0.01, folder


def test_speed_and_volume_steps_are_remembered(device, tmp_path, monkeypatch):
    device("null")
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "settings.json"))
    speaker = TtsSpeaker("en", out=io.StringIO())
    try:
        normal = speaker._request("say", "x")["rate"]
        assert speaker.adjust("faster") and speaker.adjust("faster") and speaker.adjust("quieter")
        assert speaker._request("say", "x")["rate"] > normal
    finally:
        speaker.close()
    saved = load_config()
    assert (saved.rate, saved.volume) == (1.2, 0.9)


def test_when_the_voice_dies_it_says_so_once_and_goes_on_in_text(device):
    device("blocking")
    out = io.StringIO()
    speaker = TtsSpeaker("en", out=out, remember=False)
    try:
        speaker.say("First.")
        time.sleep(0.3)
        os.killpg(speaker.worker.process.pid, signal.SIGKILL)  # the speech process crashes
        speaker.wait(5)
        speaker.say("Second.")
        speaker.say("Third.")
    finally:
        speaker.close()
    lines = out.getvalue().splitlines()
    assert lines[0] == "First." and lines[-2:] == ["Second.", "Third."]
    assert len(lines) == 4 and lines[1].startswith(catalog("en").say("speech.tts_stopped", reason="")[:10])


def test_auto_speaker_without_sound_device_says_why_once(tmp_path, monkeypatch):
    for name, value in no_sound_devices(tmp_path).items():
        monkeypatch.setenv(name, value)
    out = io.StringIO()
    speaker = open_speaker("auto", "fr", out=out)
    assert isinstance(speaker, TextSpeaker)
    speaker.say("Bonjour.")
    reason = catalog("fr").say("speech.problem.no_output_device")
    assert out.getvalue().splitlines() == [catalog("fr").say("speech.tts_unavailable", reason=reason), "Bonjour."]
    with pytest.raises(BadInput):
        open_speaker("tts", "fr", out=io.StringIO())
