"""Speech settings: defaults, steps with bounds, and a config file shared with other settings."""

from __future__ import annotations

import json

import pytest

from companion.settings import settings_path
from companion.speech.config import ENGINES, SpeechConfig, load_config, save_config
from companion.speech.voice import VoiceSettings, voice_settings


def test_the_config_file_place_follows_the_environment(tmp_path, monkeypatch):
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    if not settings_path().is_relative_to(tmp_path):
        pytest.skip("this platform keeps settings elsewhere")
    assert settings_path() == tmp_path / "xdg" / "companion" / "config.json"
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "mine.json"))
    assert settings_path() == tmp_path / "mine.json"


def test_saving_keeps_other_sections_and_loading_reads_back(tmp_path):
    path = tmp_path / "config.json"
    path.write_text(json.dumps({"game": {"lang": "es"}}))
    config = SpeechConfig(rate=1.3, volume=0.6, earcons=False, engines=["sphinx", "text"])
    save_config(config, path)
    assert json.loads(path.read_text())["game"] == {"lang": "es"}
    assert load_config(path) == config


@pytest.mark.parametrize("content", ["not json", "[1, 2]", ('{"speech": {"rate": "fast", "volume": 7, '
                                                            '"engines": ["laser"], "earcons": 1}}')])
def test_broken_or_strange_files_give_safe_settings(tmp_path, content):
    path = tmp_path / "config.json"
    path.write_text(content)
    config = load_config(path)
    assert config.rate == 1.0 and 0.1 <= config.volume <= 1.0
    assert config.engines == list(ENGINES) and config.earcons is True


@pytest.mark.parametrize("content", ["not json", "[1, 2]"])
def test_a_file_that_cannot_be_read_is_never_written_over(tmp_path, content):
    path = tmp_path / "config.json"
    path.write_text(content)
    assert save_config(SpeechConfig(rate=1.5), path) is None
    assert path.read_text() == content


def test_steps_stay_within_bounds():
    config = SpeechConfig()
    for _ in range(30):
        config.adjust("faster")
        config.adjust("louder")
    assert (config.rate, config.volume) == (2.5, 1.0)
    for _ in range(30):
        config.adjust("slower")
        config.adjust("quieter")
    assert (config.rate, config.volume) == (0.5, 0.1)
    with pytest.raises(ValueError):
        config.adjust("sideways")


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_every_language_has_voice_settings(lang):
    settings = voice_settings(lang)
    assert 100 <= settings.rate <= 250 and settings.preferred and settings.vosk_lang
    assert settings.words_per_minute(1.5) > settings.words_per_minute(1.0)


class FakeVoice:
    def __init__(self, id, name, languages=()):
        self.id, self.name, self.languages = id, name, list(languages)


def test_voice_choice_prefers_exact_ids_then_names_then_languages():
    settings = VoiceSettings("fr", 165, ("roa/fr", "hortense"), ("fr-fr", "fr"), "fr", None)
    voices = [FakeVoice("roa/fr-be", "French (Belgium)"), FakeVoice("roa/fr", "French (France)")]
    assert settings.pick_voice(voices) == "roa/fr"
    assert settings.pick_voice([FakeVoice("TTS_HORTENSE", "Microsoft Hortense")]) == "TTS_HORTENSE"
    assert settings.pick_voice([FakeVoice("x", "Thomas", [b"\x05fr_fr"]), FakeVoice("y", "Amy", ["fr"])]) == "y"
    assert settings.pick_voice([FakeVoice("z", "Paul", ["de"])]) is None


def test_the_order_saved_before_whisper_listened_is_today_s_default(tmp_path):
    path = tmp_path / "config.json"
    path.write_text('{"speech": {"rate": 1.2, "engines": ["vosk", "sphinx", "text"]}}')
    assert load_config(path).engines == list(ENGINES) == ["vosk", "whisper", "sphinx", "text"]
    path.write_text('{"speech": {"engines": ["vosk", "sphinx", "whisper", "text"]}}')  # the default before English
    assert load_config(path).engines == list(ENGINES)  # was heard by Whisper first
    path.write_text('{"speech": {"engines": ["sphinx", "text"]}}')
    assert load_config(path).engines == ["sphinx", "text"]  # an order of the user's own is kept
