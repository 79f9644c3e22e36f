"""Keys while listening: a line typed on the terminal is taken as said, even with a live microphone."""

import os
import time

import numpy as np

from companion.speech.audio import AudioSource
from companion.speech.listener import SpeechListener
from companion.speech.recogniser import Recogniser


class Silence(AudioSource):
    """A live microphone in a quiet room: it never ends by itself."""

    live = True

    def chunks(self):
        while True:
            time.sleep(0.01)
            yield np.zeros(160, dtype=np.float32)


class NeverCalled(Recogniser):
    name = "fake"

    def use_grammar(self, state, player_names=()):
        pass

    def start(self):
        raise AssertionError("nothing was said into the microphone")

    accept = finish = start

    def describe(self):
        return "fake"

    def unknown_words(self):
        return set()


def test_a_typed_line_is_heard_while_the_microphone_listens():
    master, slave = os.openpty()
    keys = os.fdopen(slave, "r")
    os.write(master, b"mon zoo\n")
    listener = SpeechListener(NeverCalled(), iter([Silence()]), lang="fr", keys=keys, guard_s=0.0,
                              say=lambda text: None)
    heard = listener.listen("turn")
    assert (heard.text, heard.engine, heard.needs_confirmation) == ("mon zoo", "text", False)
    keys.close()
    os.close(master)


def test_a_pipe_is_not_watched_while_listening(tmp_path):
    """Lines of a pipe or file are scripted answers for the text engine, never taken from under a microphone."""
    from companion.speech.keyboard import typed_line

    path = tmp_path / "lines.txt"
    path.write_text("mon zoo\n")
    with path.open() as keys:
        assert typed_line(keys) is None
