"""Hearing commands with Vosk, through `companion listen`. Needs a real Vosk model: set VOSK_MODEL_PATH to a
model folder (vosk-model-small-fr-..., -en-us-..., -es-...) or to a folder holding such models."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from companion.benchmarks.synthetic import speak_to_wav
from companion.language.grammar import parse
from companion.speech.models import is_vosk_model
from tests.conftest import run_companion

# Per language: espeak-ng voice, and (dialogue state, sentence) pairs.
SENTENCES = {
    "fr": ("fr", [("turn", "pose le tricératops dans la rivière"), ("die", "le dé montre la forêt"),
                  ("confirm", "oui")]),
    "en": ("en-us", [("turn", "put the triceratops in the river"), ("die", "the die shows the forest"),
                     ("confirm", "yes")]),
    "es": ("es", [("turn", "pon el tricerátops en el río"), ("die", "el dado muestra el bosque"),
                  ("confirm", "sí")]),
}
VOSK_LANGUAGES = {"fr": "fr", "en-us": "en", "es": "es"}


def available_models() -> dict[str, Path]:
    """Our language → model folder, for the models that VOSK_MODEL_PATH points to."""
    root = os.environ.get("VOSK_MODEL_PATH")
    if not root:
        return {}
    folders = [Path(root)] if is_vosk_model(Path(root)) else sorted(Path(root).glob("vosk-model*"))
    found = {}
    for folder in folders:
        match = re.match(r"vosk-model(?:-small)?-([a-z]{2}(?:-[a-z]{2})?)", folder.name)
        lang = VOSK_LANGUAGES.get(match.group(1)) if match else os.environ.get("VOSK_MODEL_LANG")
        if lang and is_vosk_model(folder):
            found.setdefault(lang, folder)
    return found


MODELS = available_models()
pytestmark = pytest.mark.skipif(not MODELS, reason="VOSK_MODEL_PATH is not set to a Vosk model (fr, en-us or es)")
CASES = [(lang, state, text) for lang in MODELS for state, text in SENTENCES[lang][1]]


@pytest.mark.slow
@pytest.mark.parametrize("lang, state, text", CASES)
def test_vosk_understands_spoken_commands(tmp_path, lang, state, text):
    audio = speak_to_wav(text, tmp_path / "said.wav", voice=SENTENCES[lang][0], speed=150)
    result = run_companion("listen", "--engine", "vosk", "--lang", lang, "--state", state, "--model",
                           str(MODELS[lang]), "--file", str(audio), "--json")
    assert result.returncode == 0, result.stderr
    heard = json.loads(result.stdout)
    expected = parse(text, game="draftosaurus", lang=lang, state=state)
    assert (heard["intent"], heard["slots"]) == (expected.intent, expected.slots), heard["text"]
    assert heard["engine"] == "vosk" and 0 <= heard["confidence"] <= 1


@pytest.mark.slow
@pytest.mark.parametrize("lang", sorted(MODELS))
def test_vosk_is_chosen_first_when_a_model_is_found(tmp_path, lang):
    state, text = SENTENCES[lang][1][1]
    audio = speak_to_wav(text, tmp_path / "said.wav", voice=SENTENCES[lang][0], speed=150)
    result = run_companion("listen", "--lang", lang, "--state", state, "--file", str(audio), "--json",
                           env={"VOSK_MODEL_PATH": str(MODELS[lang])})
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["engine"] == "vosk"
