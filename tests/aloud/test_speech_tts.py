"""The speaking voice: pyttsx3 in a speech process that never blocks the caller, says every line whole and in
order, stops at once when cut, and comes back after a crash.

What a player hears is recorded from a real sound server's speaker (tests/conftest.py: sound_server); other
sound devices are ALSA configurations: one that writes what it plays to a file, one that plays instantly, none.
"""

from __future__ import annotations

import io
import itertools
import os
import signal
import subprocess
import sys
import time

import numpy as np
import pytest

from companion.benchmarks.voice import first_sound, locate, rendered, silence_after
from companion.errors import BadInput
from companion.language.messages import catalog
from companion.speech.audio import SAMPLE_RATE
from companion.speech.base import TextSpeaker
from companion.speech.config import load_config
from companion.speech.engines import open_speaker
from companion.speech.soundserver import speech_seconds
from companion.speech.tts import TtsSpeaker, spoken_parts
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


def test_lines_are_split_after_each_sentence_and_keep_their_words():
    assert spoken_parts("Refusé. Pas dans la prairie : le dé impose la forêt.  Bruno ?") == [
        "Refusé.", "Pas dans la prairie :", "le dé impose la forêt.", "Bruno ?"]
    assert spoken_parts("1,5 points à A1. Fin") == ["1,5 points à A1.", "Fin"]
    assert spoken_parts("   ") == []


LINES = ["The die says forest.", "Alice puts the triceratops in the forest of sameness.",
         "Bruno, which dinosaur do you place, and in which pen?"]


def test_lines_said_back_to_back_are_each_heard_whole_and_in_order(sound_env, tmp_path):
    recorder = sound_env.record()
    speaker = TtsSpeaker("en", out=io.StringIO(), remember=False)
    try:
        started = time.monotonic()
        for line in LINES:
            speaker.say(line)
        assert time.monotonic() - started < 0.5 and speaker.is_speaking()  # queued, not waited for
        assert speaker.wait(60)
    finally:
        speaker.close()
        audio = recorder.stop(until=time.monotonic() + 0.2).audio()
    alone = rendered(LINES, "en", None, tmp_path)  # each of these lines is a single sentence
    found = locate(audio, alone)
    assert all(start is not None for start, _ in found), found  # each line whole, after the one before
    assert speech_seconds(audio) >= 0.95 * sum(speech_seconds(a) for a in alone)


# In a process of its own, as the program's voice plays them (a sound queue): three beeps of 0.3 s, the second
# queued while the first plays (all of it already handed to the device, with silence after it), the third once
# the second has been heard.
LATE_SOUNDS = """
import time
import numpy as np
from companion.speech.playback import AudioOutput, SoundQueue
beep = (0.3 * np.sin(np.arange(6615) * 2 * np.pi * 440 / 22050)).astype(np.float32)
sounds = SoundQueue(output=AudioOutput())
sounds.play(beep, 22050)
time.sleep(0.15)
sounds.play(beep, 22050)
assert sounds.wait(10)
sounds.play(beep, 22050)
assert sounds.wait(10)
sounds.close()
"""


def test_a_sound_queued_after_the_one_before_has_gone_to_the_device_does_not_wait_behind_silence(sound_env):
    """The device holds up to playback.LATENCY (0.6 s) of sound; a sound that came once the one before had all
    gone to it used to be played after the silence that fills it: this test failed so with 0.2 s (the earlier
    latency) as with 0.6 s. Nor may a fresh stream clip the end of the sound before it."""
    recorder = sound_env.record()
    time.sleep(0.3)
    subprocess.run([sys.executable, "-c", LATE_SOUNDS], check=True, timeout=60)
    audio = recorder.stop(until=time.monotonic() + 0.3).audio()
    loud = np.flatnonzero(np.abs(audio) > 0.05)
    assert len(loud), "nothing was heard"
    breaks = np.flatnonzero(np.diff(loud) > 0.02 * SAMPLE_RATE)  # pauses of more than 20 ms between loud samples
    bursts = np.split(loud, breaks + 1)
    spans = [(burst[-1] - burst[0]) / SAMPLE_RATE for burst in bursts]  # beeps heard back to back make one
    assert len(bursts) <= 3 and all(span >= 0.28 for span in spans) and sum(spans) >= 0.85, spans
    gaps = [(after[0] - before[-1]) / SAMPLE_RATE for before, after in itertools.pairwise(bursts)]
    assert all(gap < 0.2 for gap in gaps), gaps  # a fresh stream takes about 35 ms to start here


def test_the_order_check_finds_a_line_lost_or_out_of_place(tmp_path):
    """What the loop tests rely on: lines heard in order are found, a line missing or swapped is not."""
    a, b, c = rendered(LINES, "en", None, tmp_path)
    pause = np.zeros(4000, dtype=np.float32)
    assert all(start is not None for start, _ in locate(np.concatenate([a, pause, b, pause, c]), [a, b, c]))
    assert any(start is None for start, _ in locate(np.concatenate([a, pause, c, pause, b]), [a, b, c]))
    assert any(start is None for start, _ in locate(np.concatenate([a, pause, c]), [a, b, c]))
    cut = np.concatenate([a, pause, b[:len(b) // 2], pause, c])  # the middle line cut off halfway
    assert any(start is None for start, _ in locate(cut, [a, b, c]))
    late = np.zeros(SAMPLE_RATE * 6, dtype=np.float32)  # a busy machine: the next line comes 6 s later
    found = locate(np.concatenate([a, late, b, pause, c]), [a, b, c])
    assert all(start is not None for start, _ in found), found
    assert found[1][0] is not None and found[1][0] > (len(a) + len(late)) / SAMPLE_RATE - 0.1, found
    assert any(start is None for start, _ in locate(np.concatenate([a, late, c, pause, b]), [a, b, c]))


def test_a_line_whose_sentences_come_apart_is_found_sentence_by_sentence_and_only_whole(tmp_path):
    """A busy machine may render a line's next sentence late: a longer pause between two sentences of one line
    loses nothing, and each sentence is still looked for whole and in order."""
    a, b, c = rendered(LINES, "en", None, tmp_path)
    pause = np.zeros(4000, dtype=np.float32)
    gap = np.zeros(SAMPLE_RATE * 2, dtype=np.float32)
    line, parts = np.concatenate([b, c]), [[a], [b, c]]  # the second line holds two sentences
    apart = np.concatenate([a, pause, b, gap, c])
    assert locate(apart, [a, line])[1][0] is None  # whole, the line is not where it was played apart
    found = locate(apart, [a, line], parts)
    assert found[1][0] is not None and abs(found[1][0] - (len(a) + len(pause)) / SAMPLE_RATE) < 0.2, found
    for heard in (np.concatenate([a, pause, b, gap]),  # its second sentence lost
                  np.concatenate([a, pause, c, gap, b]),  # its sentences swapped
                  np.concatenate([a, pause, b, gap, c[:len(c) // 2]])):  # its second sentence cut off halfway
        assert locate(heard, [a, line], parts)[1][0] is None
    # A sentence of half a second, which matches almost any speech, is looked for with the one before it.
    no, = rendered(["No."], "en", None, tmp_path)
    line, parts = np.concatenate([b, no, c]), [[a], [b, no, c]]
    assert locate(np.concatenate([a, pause, b, no, gap, c]), [a, line], parts)[1][0] is not None
    assert locate(np.concatenate([a, pause, b, no, gap]), [a, line], parts)[1][0] is None


def test_stop_silences_at_once_and_drops_what_was_queued(sound_env):
    recorder = sound_env.record()
    speaker = TtsSpeaker("en", out=io.StringIO(), remember=False)
    try:
        for line in LINES * 2:
            speaker.say(line)
        assert wait_until(lambda: first_sound(recorder.recording, 0.0) is not None, 20)
        time.sleep(1.0)
        cut = time.monotonic()
        speaker.stop()
        assert not speaker.is_speaking()
        time.sleep(2.0)
    finally:
        speaker.close()
        recording = recorder.stop()
    silent = silence_after(recording, cut, quiet_s=1.5)
    assert silent is not None and silent <= 0.15, silent  # and nothing queued came after


def test_a_voice_that_crashes_is_started_again_and_says_the_line_again(sound_env):
    out = io.StringIO()
    recorder = sound_env.record()
    speaker = TtsSpeaker("en", out=out, remember=False)
    try:
        speaker.say("This sentence is long enough to be cut off in its middle by a crash of the voice.")
        assert wait_until(lambda: first_sound(recorder.recording, 0.0) is not None, 20)
        first = speaker.worker.process
        os.killpg(first.pid, signal.SIGKILL)  # the speech process crashes while it speaks
        crashed = time.monotonic()
        assert speaker.wait(60)
    finally:
        speaker.close()
        recording = recorder.stop()
    assert speaker.worker.process is not first and not speaker.broken
    again = first_sound(recording, crashed + 0.2)
    assert again is not None and speech_seconds(recording.audio()[recording.index_at(again):]) > 2.0
    said = "This sentence is long enough to be cut off in its middle by a crash of the voice."
    assert out.getvalue().splitlines() == [said]  # printed once, and no word of a voice gone


def test_a_voice_that_fails_twice_in_a_row_says_why_once_and_goes_on_in_text(sound_env):
    out = io.StringIO()
    speaker = TtsSpeaker("en", out=out, remember=False)
    try:
        speaker.say("First, a sentence that takes a few seconds to say.")
        time.sleep(0.5)
        first = speaker.worker.process
        os.killpg(first.pid, signal.SIGKILL)
        assert wait_until(lambda: speaker.worker.process is not first and speaker.worker.info, 30)
        time.sleep(0.3)  # the sentence is being said again
        os.killpg(speaker.worker.process.pid, signal.SIGKILL)
        assert wait_until(lambda: speaker.broken, 30)
        speaker.say("Second.")
        speaker.say("Third.")
        assert not speaker.is_speaking()
    finally:
        speaker.close()
    lines = out.getvalue().splitlines()
    stopped = catalog("en").say("speech.tts_stopped", reason="").split(":")[0]
    assert lines[0].startswith("First") and lines[-2:] == ["Second.", "Third."]
    assert len(lines) == 4 and lines[1].startswith(stopped)


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
    # The device also records the silence it is sent while the stream stays open, longer on a busy machine (the
    # whole file's level fell to 0.0096 once): the sentence is looked for in the samples that are not silent.
    sound = played[np.abs(played) > 0.001]
    assert len(sound) > 16000 and np.sqrt(np.mean(sound ** 2)) > 0.01, folder


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
