"""`companion say`: real speech synthesis into WAV files, and the text fallbacks when speech cannot work."""

from __future__ import annotations

import numpy as np
import pytest

from companion.language.messages import catalog
from companion.speech.audio import read_wav
from tests.conftest import hidden_module, linux_only, no_sound_devices, run_companion

SENTENCES = {
    "fr": "Le tricératops va dans la rivière, et le dé montre la forêt.",
    "en": "The triceratops goes into the river, and the die shows the forest.",
    "es": "El tricerátops va al río, y el dado muestra el bosque.",
}


def speech_stats(path) -> tuple[float, float, float]:
    """Duration in seconds, overall RMS, and the share of 20 ms windows that carry sound."""
    samples, rate = read_wav(path)
    windows = samples[: len(samples) // 441 * 441].reshape(-1, 441)
    loud = np.sqrt(np.mean(windows ** 2, axis=1)) > 0.01
    return len(samples) / rate, float(np.sqrt(np.mean(samples ** 2))), float(np.mean(loud))


@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_say_writes_real_speech_of_plausible_length(lang, tmp_path):
    out = tmp_path / f"{lang}.wav"
    result = run_companion("say", "--lang", lang, "--out", str(out), SENTENCES[lang],
                           env={"COMPANION_CONFIG": str(tmp_path / "config.json")})
    assert result.returncode == 0, result.stderr
    seconds, rms, voiced = speech_stats(out)
    words = len(SENTENCES[lang].split())
    assert 0.2 * words < seconds < 0.8 * words, seconds  # a few words per second, as people speak
    assert rms > 0.02 and voiced > 0.5, (rms, voiced)


def test_speed_setting_changes_the_speech(tmp_path):
    env = {"COMPANION_CONFIG": str(tmp_path / "config.json")}
    durations = {}
    for rate in ("0.7", "1.6"):
        out = tmp_path / f"rate{rate}.wav"
        assert run_companion("say", "--lang", "en", "--rate", rate, "--out", str(out), SENTENCES["en"],
                             env=env).returncode == 0
        durations[rate] = speech_stats(out)[0]
    assert durations["1.6"] < 0.75 * durations["0.7"], durations


def test_remembered_settings_are_written_to_the_config_file(tmp_path):
    env = {"COMPANION_CONFIG": str(tmp_path / "config.json")}
    result = run_companion("say", "--lang", "en", "--rate", "1.3", "--volume", "0.5", "--remember",
                           "--out", str(tmp_path / "x.wav"), "hello", env=env)
    assert result.returncode == 0, result.stderr
    assert '"rate": 1.3' in (tmp_path / "config.json").read_text()


@pytest.mark.parametrize("args, complaint", [
    (["--out", "/no/such/folder/x.wav", "hello"], "does not exist"),
    (["--rate", "9", "hello"], "--rate"),
    (["   "], "empty"),
])
def test_bad_input_is_one_clear_line(args, complaint, tmp_path):
    result = run_companion("say", "--lang", "en", *args, env={"COMPANION_CONFIG": str(tmp_path / "c.json")})
    assert result.returncode == 2
    assert complaint in result.stderr and "Traceback" not in result.stderr


@linux_only
def test_without_any_sound_device_say_prints_once_why_and_the_text(tmp_path):
    result = run_companion("say", "--lang", "en", "Your turn, Alice.", env=no_sound_devices(tmp_path))
    assert result.returncode == 0, result.stderr
    reason = catalog("en").say("speech.problem.no_output_device")
    assert result.stdout.splitlines() == [
        catalog("en").say("speech.tts_unavailable", reason=reason), "Your turn, Alice."]


def test_without_portaudio_say_falls_back_to_text(tmp_path):
    env = hidden_module(tmp_path, "sounddevice", 'OSError("PortAudio library not found")')
    result = run_companion("say", "--lang", "fr", "À toi de jouer.", env=env)
    assert result.returncode == 0, result.stderr
    reason = catalog("fr").say("speech.problem.no_portaudio")
    assert result.stdout.splitlines() == [
        catalog("fr").say("speech.tts_unavailable", reason=reason), "À toi de jouer."]


def test_without_a_speech_engine_say_falls_back_and_out_fails_clearly(tmp_path):
    env = hidden_module(tmp_path, "pyttsx3", 'ImportError("No module named pyttsx3")')
    spoken = run_companion("say", "--lang", "es", "Te toca.", env=env)
    assert spoken.returncode == 0
    reason = catalog("es").say("speech.problem.no_engine")
    assert spoken.stdout.splitlines()[0] == catalog("es").say("speech.tts_unavailable", reason=reason)
    written = run_companion("say", "--lang", "es", "--out", str(tmp_path / "x.wav"), "Te toca.", env=env)
    assert written.returncode == 1 and reason in written.stderr and "Traceback" not in written.stderr


def test_a_long_text_is_written_whole_before_say_returns(tmp_path):
    """More than 30 words: the file is complete when the command ends, and exit code 0, whether the file is new
    or written over."""
    text = " ".join([SENTENCES["fr"]] * 4)  # 48 words
    out = tmp_path / "long.wav"
    for _ in range(2):  # new, then written over
        result = run_companion("say", "--lang", "fr", "--out", str(out), text,
                               env={"COMPANION_CONFIG": str(tmp_path / "config.json")})
        assert result.returncode == 0, result.stderr
        seconds, rms, voiced = speech_stats(out)
        assert 0.2 * 48 < seconds < 0.8 * 48, seconds
        assert rms > 0.02 and voiced > 0.5, (rms, voiced)
