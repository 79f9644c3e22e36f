"""The speaker's monitor recorded through a real sound server (tests/conftest.py: sound_server): a recording
stopped "until" a moment holds what the server played up to that moment, however late parec delivers it."""

from __future__ import annotations

import time


def test_a_recording_stopped_until_a_moment_holds_the_sound_up_to_it(sound_server):
    recorder = sound_server.record()
    moment = time.monotonic() + 1.0
    recording = recorder.stop(until=moment)
    assert time.monotonic() >= moment
    last = len(recording.audio()) - 1
    assert recording.time_of(last) >= moment - 0.05, (recording.time_of(last), moment)
