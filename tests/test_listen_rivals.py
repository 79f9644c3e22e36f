"""A move heard with confidence is still read back when pocketsphinx's own evidence shows a rival of another
meaning close behind (companion.speech.rivals), heard from synthesised WAV files through the microphone's path
(WAV source, endpointer, recogniser) and the game's own session and table."""

from __future__ import annotations

import io

import pytest

from companion.dialogue.draftosaurus import DraftosaurusTable, TableSettings
from companion.dialogue.session import EndOfInput, Session, rival_margin, understand
from companion.games.draftosaurus.engine import Game
from companion.speech.base import ACTION_CONFIDENCE, RIVAL_MARGIN, Heard, Listener, TextSpeaker
from companion.speech.engines import open_listener
from companion.speech.rivals import spans
from companion.speech.synthetic import speak_to_wav

PLAYERS = ["Alice", "Bruno"]
# "stegosaurus" and "spinosaurus" differ by two sounds: said by this voice at this speed, the recogniser hears
# the stegosaurus, sure enough for a move by its confidence, and the spinosaurus fits almost as well.
CONFUSABLE = ("the stegosaurus goes to the river", "en-us+f2", 150)
CLEAR = ("put the t rex in the woody trio", "en-us+f2", 160)


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "config.json"))


class FirstSpokenThenTyped(Listener):
    """Typed lines, but the first move: spoken, from a WAV file."""

    name = "sphinx"

    def __init__(self, spoken, typed):
        self.spoken, self.typed = spoken, list(typed)
        self.heard: list[Heard] = []

    def listen(self, state=None):
        if self.spoken is not None and state == "turn":
            heard, self.spoken = self.spoken.listen(state), None
            self.heard.append(heard)
            return heard
        return Heard(self.typed.pop(0), None, "text") if self.typed else None

    def expect_speaker(self, name):
        pass


def play(tmp_path, said, typed):
    text, voice, speed = said
    wav = speak_to_wav(text, tmp_path / "said.wav", voice=voice, speed=speed)
    spoken = open_listener("sphinx", "en", "draftosaurus", audio_files=[wav], say=lambda _: None,
                           player_names=PLAYERS)
    listener = FirstSpokenThenTyped(spoken, ["the die says cross", *typed])
    out = io.StringIO()
    session = Session(game="draftosaurus", lang="en", speaker=TextSpeaker(out), listener=listener, verbosity="short")
    table = DraftosaurusTable(session, Game.new(PLAYERS, seed=1), None, TableSettings())
    table.save = lambda: None
    try:
        table.run()
    except EndOfInput:
        pass
    return table.game, out.getvalue(), listener.heard[0]


def test_a_confident_move_with_a_close_rival_of_another_meaning_is_read_back(tmp_path):
    game, out, heard = play(tmp_path, CONFUSABLE, ["no"])
    meaning = understand(heard, game="draftosaurus", lang="en", state="turn", player_names=PLAYERS)
    assert (meaning.intent, dict(meaning.slots)) == ("place", {"species": "stegosaurus", "pen": "river"})
    assert heard.confidence >= ACTION_CONFIDENCE  # the confidence alone would have applied it
    assert dict(heard.rivals)["that spinosaurus goes to the river"] < RIVAL_MARGIN, heard
    margin = rival_margin(heard, meaning, game="draftosaurus", lang="en", state="turn", player_names=PLAYERS)
    assert margin is not None and margin < RIVAL_MARGIN
    assert "I understood: Alice's stegosaurus in the river. Is that right?" in out
    assert game.zoos[0]["river"] == []  # the "no" kept it out


def test_the_read_back_move_is_applied_after_a_yes(tmp_path):
    game, out, _ = play(tmp_path, CONFUSABLE, ["yes"])
    assert "Is that right?" in out and game.zoos[0]["river"] == ["stegosaurus"]


def test_a_move_far_ahead_of_every_rival_is_applied_at_once(tmp_path):
    game, out, heard = play(tmp_path, CLEAR, [])
    assert heard.rivals and min(margin for _, margin in heard.rivals) >= RIVAL_MARGIN
    assert heard.confidence >= ACTION_CONFIDENCE
    assert "Is that right?" not in out and game.zoos[0]["woody_trio"] == ["trex"]


def test_the_words_of_meaning_are_found_longest_first():
    lists = [((("forest", "of", "sameness"), ("forest",)), (("river",),)), ((("trex",), ("t", "rex")), (("stego",),))]
    found = spans("put the t rex in the forest of sameness".split(), lists)
    assert [(start, end) for start, end, _, _ in found] == [(2, 4), (6, 9)]
    assert found[1][3] == [(("river",),)]  # the rivals of a pen are the other pens
