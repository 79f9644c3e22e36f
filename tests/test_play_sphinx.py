"""A game segment heard through PocketSphinx: English commands spoken by espeak-ng into WAV files, fed to
the game's listener as a microphone would feed it, answered by the table dialogue.

The simulated players answer read-backs the way people would: yes when the program heard them right, no
otherwise, and then they say the command again (another voice, another speed). The segment must end with
exactly the zoos that were said: nothing misheard may reach the game.
"""

from __future__ import annotations

import shutil
from collections import deque
from pathlib import Path

import pytest

from companion.dialogue.draftosaurus import DraftosaurusTable, TableSettings
from companion.dialogue.session import EndOfInput, Session
from companion.games.draftosaurus.engine import Game
from companion.language.grammar import parse
from companion.speech.base import Heard, Listener, TextSpeaker
from tests.conftest import saved_state

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed")]

PLAYERS = ["Alice", "Bruno"]
SEGMENT = [  # the first round of a 2-player game: each line is said by the table in its turn
    "the die says cross",
    "Alice triceratops in the river",
    "Bruno stegosaurus in the forest of sameness",
    "the die says flower",
    "Alice diplodocus in the heart pen",
    "Bruno T-Rex in the king of the jungle",
    "the die says square",
    "Alice parasaurolophus in the woody trio",
    "Bruno spinosaurus in the solitary island",
]
QUESTIONS = ("zoo", "legal", "score", "rules", "face_meaning", "whose_turn", "status", "current_die", "help",
             "repeat", "review_previous", "review_next")
RENDITIONS = [("en-us", 150), ("en-us+m3", 140), ("en-us+f2", 165), ("en-us+m7", 155)]


class TablePlayers(Listener):
    """The players at the table, speaking into the program's listener one WAV file at a time."""

    name = "sphinx"

    def __init__(self, folder: Path):
        from companion.speech.listener import SpeechListener
        from companion.speech.sphinx import SphinxRecogniser

        self.folder = folder
        self.queue: deque[Path] = deque()
        self.inner = SpeechListener(SphinxRecogniser("en", "draftosaurus"), self._sources(), lang="en",
                                    player_names=PLAYERS, say=lambda text: None)
        self.todo = list(SEGMENT)
        self.attempt = 0
        self.last_heard: Heard | None = None
        self.agreed: bool | None = None  # the answer given to the last read-back
        self.unasked: Heard | None = None  # heard, and not read back (so far)

    def _sources(self):
        from companion.speech.audio import WavFileSource

        while self.queue:
            yield WavFileSource(self.queue.popleft())

    def _wav(self, text: str, voice: str, speed: int) -> Path:
        from companion.benchmarks.synthetic import speak_to_wav

        path = self.folder / f"{abs(hash((text, voice, speed)))}.wav"
        return path if path.exists() else speak_to_wav(text, path, voice=voice, speed=speed)

    def listen(self, state: str | None = None) -> Heard | None:
        if state is not None and state.startswith("confirm"):
            self.unasked = None
            self.agreed = self._means(self.last_heard.text, self.todo[0])
            self.queue.append(self._wav("yes" if self.agreed else "no", "en-us", 150))
            return self.inner.listen(state)
        if self.unasked is not None:
            # Taken without a read-back. A misheard question only gets an answer, and the player says the
            # command again; a misheard move would reach the game, and the zoos checked at the end differ.
            intent = self._meaning(self.unasked.text)[0]
            self._next(done=self._means(self.unasked.text, self.todo[0])
                       or (intent is not None and intent not in QUESTIONS))
            self.unasked = None
        if self.agreed is not None:  # the read-back was answered: move on, or say it again
            self._next(done=self.agreed)
            self.agreed = None
        if not self.todo:
            return None
        assert self.attempt < 3 * len(RENDITIONS), f"never understood: {self.todo[0]}"
        voice, speed = RENDITIONS[self.attempt % len(RENDITIONS)]
        self.queue.append(self._wav(self.todo[0], voice, speed))
        heard = self.inner.listen(state)
        self.last_heard = heard
        if heard is not None and not heard.text.strip():
            self._next(done=False)  # nothing heard: the player says it again
        else:
            self.unasked = heard
        return heard

    def _next(self, done: bool) -> None:
        if done:
            self.todo.pop(0)
            self.attempt = 0
        else:
            self.attempt += 1

    @staticmethod
    def _meaning(text: str) -> tuple[str | None, dict]:
        result = parse(text, game="draftosaurus", lang="en", state="any", player_names=PLAYERS)
        return result.intent, result.slots

    def _means(self, heard: str, said: str) -> bool:
        """Whether the program understood what was said (a move without a name is the asked player's)."""
        heard_intent, heard_slots = self._meaning(heard)
        said_intent, said_slots = self._meaning(said)
        if "player" not in heard_slots:
            said_slots = {k: v for k, v in said_slots.items() if k != "player"}
        return (heard_intent, heard_slots) == (said_intent, said_slots)

    def set_player_names(self, names) -> None:
        self.inner.set_player_names(names)


def test_a_game_segment_heard_through_sphinx(tmp_path, capsys):
    players = TablePlayers(tmp_path)
    session = Session(game="draftosaurus", lang="en", speaker=TextSpeaker(), listener=players, verbosity="short")
    table = DraftosaurusTable(session, Game.new(PLAYERS, seed=3), tmp_path / "save.json", TableSettings())
    with pytest.raises(EndOfInput):
        table.run()
    zoos = table.game.zoos
    assert zoos[0]["river"] == ["triceratops"] and zoos[0]["prairie_of_love"] == ["diplodocus"]
    assert zoos[0]["woody_trio"] == ["parasaurolophus"]
    assert zoos[1]["forest_of_sameness"] == ["stegosaurus"] and zoos[1]["king_of_the_jungle"] == ["trex"]
    assert zoos[1]["solitary_island"] == ["spinosaurus"]
    assert table.game.round == 2, "the whole first round was played"
    out = capsys.readouterr().out
    assert "Bruno: T-Rex, king of the jungle." in out
    assert "Swap your hands." in out
    saved = Game.from_json(saved_state(tmp_path / "save.json")["state"])
    assert saved.zoos == zoos
