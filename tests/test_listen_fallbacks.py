"""When a part of listening is missing (model, microphone, PortAudio), the program says so and carries on."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import numpy as np
import pytest

from companion.benchmarks.synthetic import speak_to_wav
from companion.errors import BadInput
from companion.language.messages import catalog
from companion.speech.audio import AudioSource, WavFileSource
from companion.speech.base import TextListener, Unavailable
from companion.speech.engines import open_listener, terminal_confirm
from companion.speech.listener import SpeechListener
from companion.speech.models import RemoteModel
from tests.conftest import (
    EmptyRecogniser,
    hidden_module,
    linux_only,
    needs_whisper,
    no_sound_devices,
    run_companion,
)


@pytest.fixture(scope="module")
def command(tmp_path_factory):
    return speak_to_wav("the die shows the forest", tmp_path_factory.mktemp("wav") / "c.wav", voice="en-us",
                        speed=150)


@pytest.fixture
def no_vosk_models(tmp_path):
    """A home without Vosk models, and no VOSK_MODEL_PATH (the cache folder, where the Whisper model is, kept)."""
    return {"HOME": str(tmp_path), "VOSK_MODEL_PATH": "", "COMPANION_CONFIG": str(tmp_path / "c.json"),
            "XDG_CACHE_HOME": os.environ.get("XDG_CACHE_HOME", str(Path.home() / ".cache"))}


def explain(language: str, problem: str, **params) -> str:
    return Unavailable(problem, **params).explain(language)


def test_vosk_without_a_model_is_a_clear_error(command, no_vosk_models):
    result = run_companion("listen", "--engine", "vosk", "--lang", "en", "--file", str(command),
                           env=no_vosk_models)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert explain("en", "no_vosk_model", lang="en") in result.stderr


@needs_whisper
def test_auto_says_why_vosk_is_skipped_and_which_engine_listens(command, no_vosk_models):
    result = run_companion("listen", "--lang", "en", "--state", "die", "--file", str(command), "--json",
                           env=no_vosk_models)
    assert result.returncode == 0, result.stderr
    messages = catalog("en")
    assert result.stderr.splitlines() == [
        messages.say("speech.engine_skipped", engine="vosk", reason=explain("en", "no_vosk_model", lang="en")),
        messages.say("speech.listening_with.whisper", model="whisper-base", language="English")]
    heard = json.loads(result.stdout)
    assert heard["engine"] == "whisper" and heard["slots"] == {"face": "forest"}


def test_audio_files_that_no_engine_can_hear_are_refused(command, no_vosk_models, tmp_path):
    env = {**no_vosk_models, **hidden_module(tmp_path, "ctranslate2", 'ImportError("No module named ctranslate2")')}
    result = run_companion("listen", "--lang", "fr", "--file", str(command), env=env)
    assert result.returncode == 2
    assert catalog("fr").say("speech.no_engine_for_files") in result.stderr
    assert explain("fr", "no_whisper") in result.stderr
    assert "PocketSphinx" not in result.stderr  # it has no French model: not tried, not said


@linux_only
def test_without_a_microphone_typed_lines_are_heard(tmp_path):
    result = run_companion("listen", "--lang", "en", "--json", env=no_sound_devices(tmp_path),
                           stdin="put the trex in the river\n")
    assert result.returncode == 0, result.stderr
    messages = catalog("en")
    assert result.stderr.splitlines() == [
        messages.say("speech.microphone_unusable", reason=explain("en", "no_microphone")),
        messages.say("speech.listening_with.text")]
    heard = json.loads(result.stdout)
    assert (heard["engine"], heard["intent"], heard["slots"]) == ("text", "place",
                                                                  {"species": "trex", "pen": "river"})


def test_without_portaudio_typed_lines_are_heard(tmp_path):
    env = hidden_module(tmp_path, "sounddevice", 'OSError("PortAudio library not found")')
    result = run_companion("listen", "--lang", "es", "--json", env=env, stdin="sí\n")
    assert result.returncode == 0, result.stderr
    assert explain("es", "no_portaudio") in result.stderr
    assert json.loads(result.stdout)["engine"] == "text"


def test_asking_for_a_speech_engine_without_portaudio_is_an_error(tmp_path):
    env = hidden_module(tmp_path, "sounddevice", 'OSError("PortAudio library not found")')
    result = run_companion("listen", "--engine", "sphinx", "--lang", "en", env=env)
    assert result.returncode == 2 and explain("en", "no_portaudio") in result.stderr


class Failing(AudioSource):
    """A microphone that is unplugged after a moment."""

    live = True

    def chunks(self):
        yield np.zeros(480, dtype=np.float32)
        raise Unavailable("microphone_stopped")


def test_a_microphone_that_stops_hands_over_to_typed_lines():
    said = []
    listener = SpeechListener(EmptyRecogniser(), iter([Failing(), Failing()]), lang="fr", guard_s=0,
                              keys=io.StringIO("oui\nnon\n"), say=said.append)
    assert listener.listen("confirm").text == "oui"
    assert listener.listen("confirm").text == "non"
    assert listener.listen("confirm") is None
    assert said == [catalog("fr").say("speech.engine_skipped", engine="recogniser",
                                      reason=explain("fr", "microphone_stopped")),
                    catalog("fr").say("speech.listening_with.text")]


def test_push_to_talk_waits_for_enter(command):
    said = []
    listener = open_listener("sphinx", "en", audio_files=[command, command], push_to_talk=True,
                             keys=io.StringIO("\n"), say=said.append)
    heard = listener.listen("die")
    assert heard.text and said[-1] == catalog("en").say("speech.push_to_talk")
    assert listener.listen("die") is None  # the keyboard input has ended


def test_unknown_engines_and_missing_files_are_bad_input(command):
    with pytest.raises(BadInput, match="laser"):
        open_listener("laser", "en")
    with pytest.raises(BadInput, match=r"nowhere\.wav"):
        open_listener("sphinx", "en", audio_files=[command.parent / "nowhere.wav"])
    with pytest.raises(BadInput):
        open_listener("text", "en", audio_files=[command])


def test_text_is_chosen_when_it_comes_first():
    said = []
    listener = open_listener("auto", "fr", order=["text", "vosk"], keys=io.StringIO("oui\n"), say=said.append)
    assert isinstance(listener, TextListener) and listener.listen().text == "oui"
    assert said == [catalog("fr").say("speech.listening_with.text")]


@pytest.mark.parametrize("lang, answer, agreed", [("fr", "oui\n", True), ("fr", "non\n", False),
                                                  ("es", "Sí\n", True), ("en", "\n", False)])
def test_downloads_are_asked_for_in_the_user_language(lang, answer, agreed):
    said = []
    confirm = terminal_confirm(lang, io.StringIO(answer), said.append)
    assert confirm(RemoteModel("vosk-model-small-xx-0.1", "40M")) is agreed
    assert "vosk-model-small-xx-0.1" in said[0] and "40M" in said[0]


def test_files_are_heard_one_utterance_each(command):
    listener = open_listener("sphinx", "en", audio_files=[command, command], say=lambda _: None)
    assert isinstance(listener, SpeechListener)
    first, second = listener.listen("die"), listener.listen("die")
    assert first.text == second.text and first.engine == "sphinx" and isinstance(listener.current, WavFileSource)
    assert listener.listen("die") is None
