"""Commands said into the microphone sink (`paplay --device=mic`) are heard through sounddevice, the endpointer
and PocketSphinx in a real English game and change it as said, in a room where the loudspeaker leaks into the
microphone 20 dB down: the program never takes its own voice for a command. Through a real sound server
(tests/conftest.py: sound_server), measured as `companion bench voice` does (companion.benchmarks.voice), which
also measures the plain microphone without the leak."""

from __future__ import annotations

import pytest

from companion.benchmarks.voice import measure_microphone

pytestmark = pytest.mark.slow


def test_commands_said_in_a_room_where_the_speaker_leaks_change_the_game_as_said_and_its_own_voice_never_does(
        sound_server, grammar_cache, monkeypatch, short_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(grammar_cache))  # PocketSphinx's grammars, compiled once a run
    spoken = measure_microphone(sound_server, short_path, leak_gain=0.1, rate=2.0)  # the speaker heard 20 dB down
    assert spoken.as_said, (spoken.moves, spoken.printed)  # die, then two placements, as said
    assert spoken.unprompted == [], spoken.printed  # nothing answered while nobody spoke
