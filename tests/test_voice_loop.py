"""The voice loop on the path a player uses, through a real sound server (tests/conftest.py: sound_server):
the program runs as a player starts it, what its speaker plays is recorded, and what its microphone hears is
played into the microphone sink. The measures are those of `companion bench voice` (companion.benchmarks.voice).
"""

from __future__ import annotations

import pytest

from companion.benchmarks.voice import (
    TARGETS,
    measure_heard,
    measure_microphone,
    measure_spoken_cuts,
    measure_terminal,
)

pytestmark = pytest.mark.slow

# The program speaks fast (the voice's speed setting), to keep the run short: what is tested is that every
# sentence gets through, whole and in order, not how it sounds.
RATE = 2.0


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_every_line_a_scripted_game_prints_is_heard_whole_and_in_order(lang, sound_server, tmp_path):
    heard = measure_heard(sound_server, lang, tmp_path, rate=RATE)
    assert heard.lines >= 12
    assert heard.ratio >= TARGETS["heard"], (heard.heard_s, heard.printed_s)
    assert heard.lost == []  # every line found whole, just after the one before it
    if lang == "en":  # and understood by a recogniser, among all the lines printed
        assert len(heard.misrecognised) <= heard.lines // 10, heard.misrecognised


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_a_line_typed_over_the_speech_silences_it_and_a_command_is_answered_at_once(lang, sound_server, tmp_path):
    timings = measure_terminal(sound_server, lang, tmp_path, trials=2, rate=RATE)
    assert timings.missed == 0  # the opening, and each help, cut off by Enter or the stop word
    assert len(timings.barge_in_ms) == 3 and max(timings.barge_in_ms) <= TARGETS["barge_in_p95_ms"], timings
    assert len(timings.first_audio_ms) == 2 and max(timings.first_audio_ms) <= 1000, timings


@pytest.fixture
def compiled(grammar_cache, monkeypatch):
    """PocketSphinx's grammars compiled once for the run (a player's turn takes seconds to compile)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(grammar_cache))


def test_commands_said_into_the_microphone_change_the_game_as_said(sound_server, compiled, tmp_path):
    spoken = measure_microphone(sound_server, tmp_path, rate=RATE)
    assert spoken.as_said, (spoken.moves, spoken.printed)
    assert spoken.unprompted == []


def test_in_a_room_where_the_speaker_leaks_into_the_microphone_the_program_never_hears_itself(
        sound_server, compiled, tmp_path):
    spoken = measure_microphone(sound_server, tmp_path, leak_gain=0.1, rate=RATE)  # the speaker heard 20 dB down
    assert spoken.unprompted == [], spoken.printed
    assert spoken.as_said, (spoken.moves, spoken.printed)


def test_with_barge_in_words_said_over_the_speech_cut_it_off_and_change_nothing(sound_server, compiled, tmp_path):
    cuts = measure_spoken_cuts(sound_server, tmp_path, trials=2, rate=RATE)
    assert cuts.missed == 0, cuts.printed
    # From the first sound of the words: the endpointer needs about 0.1 s of speech to tell it from noise.
    assert len(cuts.barge_in_ms) == 2 and max(cuts.barge_in_ms) <= 500, cuts.barge_in_ms
    assert cuts.answered == [] and cuts.moves == []  # silence was all that was asked
