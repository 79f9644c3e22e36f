"""Only the player cuts the program short, and at once: Enter, a typed line or the stop word typed over the
speech, and, with --barge-in, words said over it into the microphone; a typed command is answered aloud at
once. Through a real sound server (tests/conftest.py: sound_server), measured as `companion bench voice` does
(companion.benchmarks.voice)."""

from __future__ import annotations

import pytest

from companion.benchmarks.voice import TARGETS, measure_spoken_cuts, measure_terminal

pytestmark = pytest.mark.slow

RATE = 2.0  # the program's voice, fast: the run is short, and what is measured is when sound starts and stops


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_a_line_typed_over_the_speech_silences_it_and_a_command_is_answered_at_once(lang, sound_server, short_path):
    timings = measure_terminal(sound_server, lang, short_path, trials=2, rate=RATE)
    assert timings.missed == 0  # the opening, and each help, cut off by Enter or the stop word
    assert len(timings.barge_in_ms) == 3 and max(timings.barge_in_ms) <= TARGETS["barge_in_p95_ms"], timings
    assert len(timings.first_audio_ms) == 2 and max(timings.first_audio_ms) <= 1000, timings


def test_with_barge_in_words_said_over_the_speech_cut_it_off_and_change_nothing(sound_server, grammar_cache,
                                                                                 monkeypatch, short_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(grammar_cache))  # PocketSphinx's grammars, compiled once a run
    cuts = measure_spoken_cuts(sound_server, short_path, trials=2, rate=RATE)
    assert cuts.missed == 0, cuts.printed
    # From the first sound of the words: the endpointer needs about 0.1 s of speech to tell it from noise.
    assert len(cuts.barge_in_ms) == 2 and max(cuts.barge_in_ms) <= 500, cuts.barge_in_ms
    assert cuts.answered == [] and cuts.moves == []  # silence was all that was asked
