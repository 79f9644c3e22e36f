"""`companion bench listen` runs end to end on a few generated commands and reports every measure."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from companion.language.grammar import parse
from companion.speech.synthetic import FLITE_VOICES, SyntheticVoice, speak_to_wav
from tests.conftest import run_companion


@pytest.mark.slow
def test_the_listen_benchmark_reports_accuracy_speed_and_memory(tmp_path):
    result = run_companion("bench", "listen", "--count", "8", "--json", "--keep", str(tmp_path / "wav"),
                           env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["utterances"] == 8 and len(list((tmp_path / "wav").glob("*.wav"))) == 8
    assert 0 <= report["accuracy"] <= 1 and report["accuracy"] >= 0.5
    assert 0 < report["decode_ms_p50"] <= report["decode_ms_p95"]
    assert 0 < report["real_time_factor"] < 1 and 0 < report["peak_mb"] < 1000
    assert len(report["misheard"]) == round(8 * (1 - report["accuracy"]))
    # six espeak-ng voices, then flite's: both synthesisers speak, and each has its own accuracy
    assert set(report["accuracy_by_synthesiser"]) == {"espeak-ng", "flite"}
    assert report["p50_ms_per_3s"] <= report["p95_ms_per_3s"]
    assert report["lang"] == "en"
    wrong = 1 - report["accuracy"] + 1e-9
    assert 0 <= report["misheard_and_applied_share"] + report["answered_wrongly_share"] <= wrong


def test_a_language_without_an_engine_is_refused_in_one_line():
    result = run_companion("bench", "listen", "--lang", "es", "--count", "1")
    assert result.returncode == 2 and "PocketSphinx" in result.stderr and "Traceback" not in result.stderr


@pytest.mark.parametrize("option", ["--count", "--repeats"])
def test_counts_must_be_positive(option):
    result = run_companion("bench", "listen", option, "0")
    assert result.returncode == 2 and option in result.stderr


@pytest.mark.skipif(shutil.which("flite") is None, reason="flite is not installed")
@pytest.mark.parametrize("voice", FLITE_VOICES)
def test_flite_voices_say_commands_the_recogniser_understands(tmp_path, voice):
    from companion.speech.audio import read_wav
    from companion.speech.engines import open_listener

    path = speak_to_wav("the die shows the forest", tmp_path / "said.wav", voice=SyntheticVoice("flite", voice),
                        speed=150)
    samples, rate = read_wav(path)
    assert 1.5 < len(samples) / rate < 4 and float(np.sqrt(np.mean(samples ** 2))) > 0.01
    listener = open_listener("sphinx", "en", "draftosaurus", audio_files=[path], say=lambda _: None)
    assert parse(listener.listen("die").text, game="draftosaurus", lang="en", state="die").slots == {
        "face": "forest"}


@pytest.mark.slow
def test_the_listen_benchmark_can_say_the_players_own_sentences(tmp_path):
    from companion.language.grammar import examples

    result = run_companion("bench", "listen", "--sentences", "examples", "--count", "4", "--json", "--keep",
                           str(tmp_path / "wav"), env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    natural = [example.text for example in examples("draftosaurus", "en").understood]
    assert report["utterances"] == 4 and report["said"] == natural[:4]
