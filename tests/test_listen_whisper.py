"""The opt-in Whisper engine: free text matched by sound to the dialogue state's grammar, the model joined
from its two packages, the engine chosen only when asked for, and real hearings of synthesised commands.

Tests that need Whisper itself skip, saying why, when the `whisper` extra or its model is not installed
(`pip install -e ".[whisper]"`, then `companion models whisper`)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys

import pytest

from companion.dialogue.session import understand
from companion.language.messages import catalog
from companion.speech.base import ACTION_CONFIDENCE, LOW_CONFIDENCE, Heard, Unavailable
from companion.speech.config import ENGINES, SpeechConfig
from companion.speech.phonetic import closest_sentence
from companion.speech.recogniser import Recognition
from companion.speech.synthetic import SyntheticVoice, speak_to_wav
from companion.speech.whisper import (
    MODEL_FILES,
    MODEL_PARTS,
    assemble_model,
    find_whisper_model,
    heard_as,
    is_whisper_model,
)
from tests.conftest import hidden_module, run_companion

GAME, PLAYERS = "draftosaurus", ("Alice", "Bob")

needs_espeak = pytest.mark.skipif(shutil.which("espeak-ng") is None and shutil.which("espeak") is None,
                                  reason="espeak-ng is not installed: words cannot be turned into sounds")


def whisper_missing() -> str | None:
    """Why Whisper cannot run here, or None."""
    for module in ("speech_recognition", "faster_whisper"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install -e \".[whisper]\")"
    if find_whisper_model() is None:
        return "the Whisper model is not assembled (companion models whisper)"
    return None


needs_whisper = pytest.mark.skipif(whisper_missing() is not None, reason=str(whisper_missing()))


def meaning(recognition: Recognition | Heard, state: str, lang: str = "en") -> tuple[str | None, dict]:
    result = understand(Heard(recognition.text, recognition.confidence, "whisper"), game=GAME, lang=lang,
                        state=state, player_names=PLAYERS)
    return result.intent, dict(result.slots)


# ---------------------------------------------------------------- matching by sound

@needs_espeak
@pytest.mark.parametrize("transcript, state, intent, slots, at_once", [
    # What Whisper base really wrote for commands said by espeak-ng and flite voices (bench listen):
    ("a spin-a-sort starter for rallies.", "turn", "place",
     {"species": "spinosaurus", "player": "Alice", "pen": "king_of_the_jungle"}, False),
    ("Little spin is always hard for mom", "turn", "place",
     {"species": "spinosaurus", "pen": "prairie_of_love", "player": "Bob"}, False),
    ("point sub barb", "turn", "score", {"player": "Bob"}, False),
    ("Hercafeteria is rolled.", "die", "die", {"face": "cafeteria"}, True),  # the same sounds, joined
])
def test_garbled_words_are_matched_by_sound_and_read_back_when_they_differ(transcript, state, intent, slots,
                                                                             at_once):
    recognition = heard_as(transcript, game=GAME, lang="en", state=state, player_names=PLAYERS)
    heard = Heard(recognition.text, recognition.confidence, "whisper")
    assert meaning(heard, state) == (intent, slots)
    assert (not heard.needs_confirmation and not heard.needs_confirmation_to_act) == at_once


@needs_espeak
def test_words_of_the_grammar_are_heard_as_they_are_and_sure():
    heard = heard_as("Place the triceratops in the river.", game=GAME, lang="en", state="turn",
                     player_names=PLAYERS)
    assert heard.text == "place the triceratops in the river" and heard.confidence > ACTION_CONFIDENCE
    assert closest_sentence(heard.text, GAME, "en", "turn", PLAYERS).distance == 0


@needs_espeak
def test_sounds_unlike_any_command_are_never_taken_at_once():
    heard = heard_as("I wonder what the weather will be like tomorrow in Glasgow", game=GAME, lang="en",
                     state="turn", player_names=PLAYERS)
    assert heard.confidence < LOW_CONFIDENCE
    assert heard_as("", game=GAME, lang="en", state="turn").text == ""


@needs_espeak
def test_spanish_and_french_are_matched_by_their_own_sounds():
    spanish = heard_as("Voy a poner el diplomo que usen la isa.", game=GAME, lang="es", state="turn",
                       player_names=PLAYERS)
    assert meaning(spanish, "turn", "es") == ("place", {"species": "diplodocus", "pen": "solitary_island"})
    french = heard_as("Je mets le tricératops dans la rivière.", game=GAME, lang="fr", state="turn",
                      player_names=PLAYERS)
    assert meaning(french, "turn", "fr") == ("place", {"species": "triceratops", "pen": "river"})


# ---------------------------------------------------------------- the model's two halves

def fake_parts(folder, monkeypatch, first: bytes, second: bytes) -> None:
    """Two installed packages named like the model's, holding small halves."""
    for package, files in zip(MODEL_PARTS, ({"model.bin.part1": first, **{n: n.encode() for n in MODEL_FILES}},
                                            {"model.bin.part2": second})):
        data = folder / package / "data"
        data.mkdir(parents=True)
        (folder / package / "__init__.py").write_text("")
        for name, content in files.items():
            (data / name).write_bytes(content)
        monkeypatch.delitem(sys.modules, package, raising=False)
    monkeypatch.syspath_prepend(str(folder))


def test_the_model_is_joined_from_its_two_packages(tmp_path, monkeypatch):
    fake_parts(tmp_path / "site", monkeypatch, b"first half;", b"second half")
    target = assemble_model(tmp_path / "model")
    assert (target / "model.bin").read_bytes() == b"first half;second half"
    assert {p.name for p in target.iterdir()} == {"model.bin", *MODEL_FILES} and is_whisper_model(target)
    assert find_whisper_model(target) == target


def test_without_the_model_packages_it_says_how_to_get_them(tmp_path, monkeypatch):
    for package in MODEL_PARTS:
        monkeypatch.setitem(sys.modules, package, None)  # import fails, as when not installed
    with pytest.raises(Unavailable) as problem:
        assemble_model(tmp_path / "model")
    assert problem.value.problem == "no_whisper_model_packages"
    assert not (tmp_path / "model" / "model.bin").exists()
    with pytest.raises(Unavailable) as broken:
        find_whisper_model(tmp_path)
    assert broken.value.problem == "whisper_model_broken"


# ---------------------------------------------------------------- choosing the engine

def test_auto_never_tries_whisper_unless_the_settings_name_it():
    assert "whisper" not in ENGINES and "whisper" not in SpeechConfig().engines
    assert SpeechConfig.from_dict({"engines": ["whisper", "text"]}).engines == ["whisper", "text"]


def test_asking_for_whisper_when_it_is_not_installed_says_why(tmp_path):
    wav = speak_to_wav("the die says cross", tmp_path / "c.wav")
    env = hidden_module(tmp_path, "faster_whisper", 'ImportError("No module named faster_whisper")')
    result = run_companion("listen", "--engine", "whisper", "--lang", "en", "--state", "die", "--file", str(wav),
                           env=env)
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert catalog("en").say("speech.problem.no_whisper") in result.stderr


# ---------------------------------------------------------------- Whisper itself

@needs_whisper
@pytest.mark.slow
@pytest.mark.parametrize("voice, said, state, intent, slots", [
    (SyntheticVoice("flite", "slt"), "put the triceratops in the river", "turn", "place",
     {"species": "triceratops", "pen": "river"}),
    (SyntheticVoice("espeak-ng", "en-us"), "the die says cross", "die", "die", {"face": "forest"}),
])
def test_a_spoken_command_is_heard_through_whisper(tmp_path, voice, said, state, intent, slots):
    if voice.synthesiser == "flite" and shutil.which("flite") is None:
        pytest.skip("flite is not installed")
    wav = speak_to_wav(said, tmp_path / "said.wav", voice=voice, speed=150)
    result = run_companion("listen", "--engine", "whisper", "--lang", "en", "--state", state, "--file", str(wav),
                           "--json", *[arg for name in PLAYERS for arg in ("--player", name)])
    assert result.returncode == 0, result.stderr
    heard = json.loads(result.stdout)
    assert (heard["engine"], heard["intent"], heard["slots"]) == ("whisper", intent, slots)
    assert catalog("en").say("speech.listening_with.whisper", model="whisper-base", language="English") \
        in result.stderr


@needs_whisper
@pytest.mark.slow
def test_the_listen_benchmark_measures_whisper(tmp_path):
    result = run_companion("bench", "listen", "--engine", "whisper", "--count", "3", "--repeats", "1", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["engine"] == "whisper" and report["utterances"] == 3
    assert 0 <= report["misheard_and_applied_share"] <= 1 and report["decode_ms_p50"] > 0


def test_models_says_whether_the_whisper_model_is_ready(tmp_path):
    env = {"HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache"), "VOSK_MODEL_PATH": ""}
    listed = run_companion("models", "--json", env=env)
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout)["whisper"] is None
    spoken = run_companion("models", "--lang", "en", env=env)
    assert catalog("en").say("speech.models.whisper_none") in spoken.stdout.splitlines()
