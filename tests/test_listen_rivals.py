"""A move heard with confidence is still read back when pocketsphinx's own evidence shows a rival of another
meaning close behind (companion.speech.rivals), heard from synthesised WAV files through the microphone's path
(WAV source, endpointer, recogniser) and the game's own session and table."""

from __future__ import annotations

import contextlib
import io
import shutil

import pytest

from companion.benchmarks.rooms import Room
from companion.benchmarks.synthetic import SyntheticVoice, speak_to_wav
from companion.dialogue.draftosaurus import DraftosaurusTable, TableSettings
from companion.dialogue.session import EndOfInput, Session, rival_margin, understand
from companion.games.draftosaurus.engine import Game
from companion.speech.base import ACTION_CONFIDENCE, RIVAL_MARGIN, Heard, Listener, TextSpeaker
from companion.speech.engines import open_listener
from companion.speech.rivals import spans

PLAYERS = ["Alice", "Bruno"]
# "stegosaurus" and "spinosaurus" differ by two sounds: said by these voices at these speeds, the recogniser
# hears the species said, sure enough for a move by its confidence, and the other one fits almost as well.
# (text, voice, speed, species, pen, the rival sentence heard)
CONFUSABLE = [("put the stegosaurus on the lonely island", "en-us+f2", 165, "stegosaurus", "solitary_island",
               "put that spinosaurus on that lonely island"),
              ("put the spinosaurus in the forest", SyntheticVoice("flite", "kal16"), 150, "spinosaurus",
               "forest_of_sameness", "put the stegosaurus in the forest")]
FLITE = pytest.mark.skipif(shutil.which("flite") is None, reason="flite is not installed")
CLEAR = ("put the t rex in the woody trio", "en-us+f2", 160)
# In a reverberant room, "the river" said by this voice is heard as "redo", with a confidence that would redo
# the last move taken back; the best sentence that is no redo ("read") fits almost as well.
NOT_A_REDO = ("the river", "en-us+m3", 150)


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch, grammar_cache):
    monkeypatch.setenv("XDG_CACHE_HOME", str(grammar_cache))
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "config.json"))


class Script(Listener):
    """Typed lines and spoken ones: a WAV file in the script is heard by `spoken` (a pocketsphinx listener)."""

    name = "sphinx"

    def __init__(self, spoken, script):
        self.spoken, self.script = spoken, list(script)
        self.heard: list[Heard] = []

    def listen(self, state=None):
        if not self.script:
            return None
        line = self.script.pop(0)
        if isinstance(line, str):
            return Heard(line, None, "text")
        heard = self.spoken.listen(state)
        self.heard.append(heard)
        return heard

    def expect_speaker(self, name):
        pass


def play(tmp_path, said, script, condition="clean"):
    """A game where `script` is said: typed lines, and `said` (text, voice, speed) where None stands."""
    text, voice, speed = said
    wav = Room(tmp_path, "en", []).apply(speak_to_wav(text, tmp_path / "said.wav", voice=voice, speed=speed),
                                         condition, 0)
    spoken = open_listener("sphinx", "en", "draftosaurus", audio_files=[wav], say=lambda _: None,
                           player_names=PLAYERS)
    listener = Script(spoken, ["the die says cross", *script])
    out = io.StringIO()
    session = Session(game="draftosaurus", lang="en", speaker=TextSpeaker(out), listener=listener, verbosity="short")
    table = DraftosaurusTable(session, Game.new(PLAYERS, seed=1), None, TableSettings())
    table.save = lambda: None
    with contextlib.suppress(EndOfInput):
        table.run()
    return table.game, out.getvalue(), listener.heard[0]


@pytest.mark.parametrize("text, voice, speed, species, pen, rival",
                         [CONFUSABLE[0], pytest.param(*CONFUSABLE[1], marks=FLITE)], ids=["espeak-ng", "flite"])
def test_a_confident_move_with_a_close_rival_of_another_meaning_is_read_back(tmp_path, text, voice, speed, species,
                                                                             pen, rival):
    game, out, heard = play(tmp_path, (text, voice, speed), [None, "no"])
    meaning = understand(heard, game="draftosaurus", lang="en", state="turn", player_names=PLAYERS)
    assert (meaning.intent, dict(meaning.slots)) == ("place", {"species": species, "pen": pen}), heard
    assert heard.confidence >= ACTION_CONFIDENCE, heard  # the confidence alone would have applied it
    assert dict(heard.rivals)[rival] < RIVAL_MARGIN, heard
    margin = rival_margin(heard, meaning, game="draftosaurus", lang="en", state="turn", player_names=PLAYERS)
    assert margin is not None and margin < RIVAL_MARGIN
    assert f"I understood: Alice's {species}" in out and "Is that right?" in out
    assert game.zoos[0][pen] == []  # the "no" kept it out


def test_the_read_back_move_is_applied_after_a_yes(tmp_path):
    text, voice, speed, species, pen, _ = CONFUSABLE[0]
    game, out, _ = play(tmp_path, (text, voice, speed), [None, "yes"])
    assert "Is that right?" in out and game.zoos[0][pen] == [species]


def test_a_move_far_ahead_of_every_rival_is_applied_at_once(tmp_path):
    game, out, heard = play(tmp_path, CLEAR, [None])
    assert heard.rivals and min(margin for _, margin in heard.rivals) >= RIVAL_MARGIN
    assert heard.confidence >= ACTION_CONFIDENCE
    assert "Is that right?" not in out and game.zoos[0]["woody_trio"] == ["trex"]


def test_a_confident_redo_with_a_close_rival_sentence_is_asked_first(tmp_path):
    game, out, heard = play(tmp_path, NOT_A_REDO, ["triceratops in the river", "undo", None, "no"], "reverb")
    meaning = understand(heard, game="draftosaurus", lang="en", state="turn", player_names=PLAYERS)
    assert meaning.intent == "redo" and heard.confidence >= ACTION_CONFIDENCE, heard
    margin = rival_margin(heard, meaning, game="draftosaurus", lang="en", state="turn", player_names=PLAYERS)
    assert margin is not None and margin < RIVAL_MARGIN, heard
    assert "Redo " in out and game.zoos[0]["river"] == []  # asked, and the "no" left it undone


def test_the_words_of_meaning_are_found_longest_first():
    lists = [((("forest", "of", "sameness"), ("forest",)), (("river",),)), ((("trex",), ("t", "rex")), (("stego",),))]
    found = spans(["put", "the", "t", "rex", "in", "the", "forest", "of", "sameness"], lists)
    assert [(start, end) for start, end, _, _ in found] == [(2, 4), (6, 9)]
    assert found[1][3] == [(("river",),)]  # the rivals of a pen are the other pens


@pytest.mark.parametrize("text, voice, speed", [("so, undo, please", "en-us+m7", 150),
                                                ("so cancel the last please", "en-us+m3", 150)])
def test_an_undo_said_between_fillers_is_weighed_against_its_rival_sentence(tmp_path, text, voice, speed):
    """The fillers the recogniser hears around a command are set aside to find what the words may mean:
    an undo between them still gets the best sentence that is no undo as its rival."""
    wav = speak_to_wav(text, tmp_path / "said.wav", voice=voice, speed=speed)
    listener = open_listener("sphinx", "en", "draftosaurus", audio_files=[wav], say=lambda _: None,
                             player_names=PLAYERS)
    heard = listener.listen("confirm")
    words = heard.text.split()
    assert words[0] == "so" and words[-1] == "please", heard
    meaning = understand(heard, game="draftosaurus", lang="en", state="confirm", player_names=PLAYERS)
    assert meaning.intent == "undo", heard
    assert heard.rivals, heard
    assert rival_margin(heard, meaning, game="draftosaurus", lang="en", state="confirm",
                        player_names=PLAYERS) is not None
