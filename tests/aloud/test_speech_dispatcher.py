"""Speaking through speech-dispatcher, the speech server of screen readers, with a real daemon playing into the
test run's own sound server (tests/conftest.py: sound_server): the player's own voice settings are used."""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import time

import pytest

from companion.benchmarks.voice import SCRIPTS, game_command, home_env, wait_quiet
from companion.speech import speechd
from companion.speech.engines import open_speaker
from companion.speech.soundserver import speech_seconds
from companion.speech.speechd import SpeechdSpeaker
from companion.speech.tts import TtsSpeaker

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("speech-dispatcher") is None,
                                 reason="speech-dispatcher is not installed (tests/install_voices.sh installs it)")]


# The player's own settings, as a screen-reader user keeps them: a fast voice (speech-dispatcher's rates go from
# -100 to 100), which the program must use as it is; and a short run.
PLAYER_RATE = 100
# Seconds of silence on the speaker that mean nothing is being said: longer than any pause within a line or
# between two lines, and than speech-dispatcher's wait before the next line it was given.
SILENT_S = 2


@pytest.fixture(scope="module")
def daemon(sound_server, tmp_path_factory):
    """A speech-dispatcher daemon for these tests, in the sound server's runtime folder, with the system's
    configuration and the player's own speed."""
    config = tmp_path_factory.mktemp("speechd") / "config"
    shutil.copytree("/etc/speech-dispatcher", config)
    with (config / "speechd.conf").open("a", encoding="utf-8") as conf:
        conf.write(f"\nDefaultRate {PLAYER_RATE}\n")
    env = {**os.environ, **sound_server.environment()}
    subprocess.run(["speech-dispatcher", "-d", "-t", "0", "-C", str(config)], env=env, capture_output=True,
                   timeout=30, check=False)
    socket = sound_server.runtime / "speech-dispatcher" / "speechd.sock"
    deadline = time.monotonic() + 15
    while not socket.is_socket() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert socket.is_socket(), "speech-dispatcher did not start"
    yield sound_server
    pid_file = sound_server.runtime / "speech-dispatcher" / "pid" / "speech-dispatcher.pid"
    if pid_file.exists():
        subprocess.run(["kill", pid_file.read_text().strip()], check=False)


@pytest.fixture
def dispatcher(daemon, sound_env):
    """This process and its children use the sound server and its speech-dispatcher."""
    assert speechd.running()
    return sound_env


def heard_alone(server, lines, lang: str) -> float:
    """Seconds of speech of the lines said one at a time through speech-dispatcher, each waited for."""
    speaker = SpeechdSpeaker(lang, out=io.StringIO())
    recorder = server.record()
    try:
        assert wait_quiet(recorder.recording, SILENT_S, timeout=30), "the speaker was not quiet"
        for line in lines:
            speaker.say(line)
            assert speaker.wait(60)
    finally:
        speaker.close()
        audio = recorder.stop(until=time.monotonic() + 0.2).audio()
    return speech_seconds(audio)


def test_auto_speaks_through_speech_dispatcher_when_it_runs(dispatcher):
    speaker = open_speaker("auto", "fr", out=io.StringIO())
    try:
        assert isinstance(speaker, SpeechdSpeaker)
        assert speaker.adjust("faster") and speaker.adjust("louder")
    finally:
        speaker.close()


def test_without_speech_dispatcher_auto_uses_the_program_voice(daemon, sound_env, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))  # no server answers there
    speaker = open_speaker("auto", "fr", out=io.StringIO())
    try:
        assert isinstance(speaker, TtsSpeaker)
    finally:
        speaker.close()
    with pytest.raises(Exception, match="speech-dispatcher"):
        open_speaker("speechd", "fr", out=io.StringIO())


@pytest.mark.parametrize("lang", ["fr", "es"])
def test_a_game_spoken_through_speech_dispatcher_is_heard_line_for_line(lang, dispatcher, short_path):
    env = {**os.environ, **dispatcher.environment(), **home_env(short_path)}
    recorder = dispatcher.record()
    assert wait_quiet(recorder.recording, SILENT_S, timeout=30), "the speaker was not quiet"
    done = subprocess.run(game_command(lang, short_path / "game.json", "--engine", "text", "--voice", "speechd",
                                       "--no-earcons"),
                          input="\n".join(SCRIPTS[lang]) + "\n", capture_output=True, text=True, encoding="utf-8",
                          env=env, timeout=300, check=False)
    ended = time.monotonic()
    # speech-dispatcher, a server, goes on saying what it was given after the program has gone: a player hears
    # it, so the recording goes on until the speaker has been quiet for a while.
    assert wait_quiet(recorder.recording, SILENT_S, timeout=30), "the speaker did not fall quiet after the game"
    recording = recorder.stop(until=time.monotonic() + 0.2)
    audio = recording.audio()
    heard = speech_seconds(audio)
    after_exit = speech_seconds(audio[recording.index_at(ended):])
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    alone = heard_alone(dispatcher, lines, lang)
    assert heard >= 0.95 * alone, (f"{heard} s heard ({after_exit} s after the program ended) against {alone} s "
                                   f"for its {len(lines)} lines said one by one; the last: {lines[-1]}")
