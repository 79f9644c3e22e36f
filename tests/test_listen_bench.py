"""`companion bench listen` runs end to end on a few generated commands and reports every measure."""

from __future__ import annotations

import json

import pytest

from audio.environments import run_companion


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


def test_the_count_must_be_positive():
    result = run_companion("bench", "listen", "--count", "0")
    assert result.returncode == 2 and "--count" in result.stderr


@pytest.mark.slow
def test_the_listen_benchmark_can_say_the_players_own_sentences(tmp_path):
    from companion.language.grammar import examples

    result = run_companion("bench", "listen", "--sentences", "examples", "--count", "4", "--json", "--keep",
                           str(tmp_path / "wav"), env={"XDG_CACHE_HOME": str(tmp_path / "cache")})
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    natural = [example.text for example in examples("draftosaurus", "en").understood]
    assert report["utterances"] == 4 and report["said"] == natural[:4]
