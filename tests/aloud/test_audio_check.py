"""`companion audio check`, the player's first minute at a table, through the test run's own sound server
(tests/conftest.py: sound_server): what it says is heard on the speaker, and a word said into the microphone sink
is measured and recognised; without any sound device it says so and goes on in print."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest

from companion.benchmarks.synthetic import speak_to_wav
from companion.benchmarks.voice import home_env, wait_quiet
from companion.language.messages import catalog
from companion.speech.base import Unavailable
from companion.speech.soundserver import speech_seconds
from tests.conftest import ROOT, linux_only, needs_whisper, no_sound_devices, run_companion

RATE = 2.0  # the program's voice, fast: what is tested is what is measured and said, not how it sounds


def explain(lang: str, problem: str) -> str:
    return Unavailable(problem).explain(lang)


def check(server, lang: str, folder, word: str | None, **env: str) -> tuple[list[str], float]:
    """`companion audio check --lang LANG` on the server; `word` said into the microphone once the program has
    asked for it and fallen silent. The lines printed, and the seconds of speech its speaker played."""
    env = {**os.environ, **server.environment(), **home_env(folder, RATE), **env}
    said = speak_to_wav(word, folder / "said.wav", voice="en-us", speed=150) if word else None
    prompt = catalog(lang).say("audio.say_yes", word=catalog(lang).say("speech.answer_yes").split()[0], seconds=8)
    recorder = server.record()
    process = subprocess.Popen([sys.executable, "-m", "companion", "audio", "check", "--lang", lang, "--voice", "tts"],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, encoding="utf-8",
                               env=env, cwd=ROOT)
    printed: list[str] = []

    def answer() -> None:
        wait_quiet(recorder.recording, 1.0, timeout=60)  # the question heard to its end (no pause is that long)
        if said is not None:
            server.play_into_mic(said)

    try:
        assert process.stdout is not None
        for line in process.stdout:
            printed.append(line.rstrip("\n"))
            if line.rstrip("\n") == prompt:
                threading.Thread(target=answer, daemon=True).start()
        assert process.wait(120) == 0, printed
    finally:
        process.kill()
        heard = speech_seconds(recorder.stop(until=time.monotonic() + 0.2).audio())
    return printed, heard


@pytest.mark.slow
@needs_whisper
def test_a_yes_said_into_the_microphone_is_measured_and_understood(sound_server, tmp_path):
    messages = catalog("en")
    printed, heard = check(sound_server, "en", tmp_path, "yes")
    assert messages.say("audio.output_voice") in printed
    assert messages.say("speech.listening_with.whisper", model="whisper-base", language="English") in printed
    assert messages.say("audio.understood", heard="yes", word="yes") in printed, printed
    level = [line for line in printed if line.startswith("Your voice reached me at minus ")]
    assert len(level) == 1, printed
    verdicts = {messages.say(f"audio.{key}") for key in ("level_good", "too_quiet", "too_loud", "noisy")}
    assert len(verdicts & set(printed)) == 1, printed
    assert printed[-1] == messages.say("audio.done")
    assert heard > 5.0  # every line is spoken too, not only printed


@pytest.mark.slow
def test_a_microphone_that_sends_only_silence_is_said_and_nothing_else_is_claimed(sound_server, tmp_path):
    messages = catalog("fr")
    printed, _heard = check(sound_server, "fr", tmp_path, None)
    assert messages.say("audio.microphone_silent") in printed, printed
    assert not any(line.startswith(("J'ai compris", "J'ai entendu")) for line in printed)
    assert printed[-1] == messages.say("audio.done")


@linux_only
@pytest.mark.parametrize("lang", ["fr", "en", "es"])
def test_without_a_sound_card_it_says_so_in_print(lang, tmp_path):
    result = run_companion("audio", "check", "--lang", lang, env=no_sound_devices(tmp_path), timeout=60)
    assert result.returncode == 0, result.stderr
    messages = catalog(lang)
    lines = result.stdout.splitlines()
    assert lines[0] == messages.say("audio.start")
    assert lines[1] == messages.say("audio.no_output", reason=explain(lang, "no_output_device"))
    assert messages.say("audio.no_microphone", reason=explain(lang, "no_microphone")) in lines
    assert lines[-1] == messages.say("audio.done")
