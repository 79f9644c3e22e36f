"""`companion bench play` says a whole game, answers every command and times the answers and start-ups."""

from __future__ import annotations

import contextlib
import io
import re
import wave
from collections.abc import Iterator
from pathlib import Path

import pytest

from companion.benchmarks.play import PLAYERS, SPEEDS, _commands, _Player, compare_actions, rolls_and_moves
from companion.dialogue.draftosaurus import DraftosaurusTable, TableSettings
from companion.dialogue.session import EndOfInput, Session
from companion.games.draftosaurus.engine import Game
from companion.games.draftosaurus.simulate import play_random_game
from companion.speech.audio import WavFileSource
from companion.speech.base import Heard, TextSpeaker
from tests.conftest import run_companion


@pytest.mark.slow
def test_the_play_benchmark_answers_a_whole_spoken_game_and_times_it(grammar_cache):
    # PocketSphinx, the quicker engine: what is checked here is the benchmark's counting and timing
    result = run_companion("bench", "play", "--engine", "sphinx", "--startups", "1",
                           env={"XDG_CACHE_HOME": str(grammar_cache)})
    assert result.returncode == 0, result.stderr
    counts = re.search(r"commands (\d+), said (\d+) \((\d+) said again, not taken\), answered (\d+), actions applied "
                       r"(\d+), read back for confirmation (\d+)", result.stdout)
    assert counts, result.stdout
    commands, said, again, answered, applied, read_back = map(int, counts.groups())
    assert commands == 36 and said == answered == commands + again and applied >= 36 and read_back <= said
    share, refused, wrong, lost = re.search(
        r"for confirmation \d+ \((\d+)%, target <= 15%; answered no (\d+), the meaning read back not the one said\), "
        r"rolls and moves applied otherwise than said (\d+), said and not applied (\d+)", result.stdout).groups()
    assert int(share) == round(100 * read_back / commands) and 0 <= int(refused) <= read_back
    assert 0 <= int(wrong) <= commands and int(lost) >= 0
    p50, p95 = map(int, re.search(r"answer: p50 (\d+) ms, p95 (\d+) ms", result.stdout).groups())
    assert 0 <= p50 <= p95
    for engine in ("text", "sphinx"):
        median = float(re.search(rf"with {engine}: median ([\d.]+) s", result.stdout).group(1))
        assert 0 < median < 30


def test_a_command_lost_is_not_counted_as_every_later_one_misheard():
    """Three commands not applied (a roll heard as a question, two moves refused for want of it): the rest
    were applied as said, only later."""
    said = ["roll forest", "move 1", "move 2", "roll toilets", "move 3", "move 4", "roll grassland"]
    applied = ["roll toilets", "move 3", "move 4", "roll grassland"]
    assert compare_actions(said, applied) == (0, 3)
    assert compare_actions(said, ["roll forest", "move 9", *said[2:]]) == (1, 0)  # one misheard, in its place
    assert compare_actions(said, [*said, "move 5"]) == (1, 0)
    assert compare_actions(said, said) == (0, 0)


class _Scripted:
    """Stands for the game's listener: each time the player says a line (a WAV file per line and speed, named by
    both numbers) it is heard as the next of that line's scripted hearings."""

    name = "whisper"

    def __init__(self, hearings: dict[int, list[Heard]]):
        self.hearings = {line: list(heard) for line, heard in hearings.items()}
        self.sources: Iterator[WavFileSource] = iter(())
        self.current: WavFileSource | None = None
        self.last_final_ms = 0.0
        self.lines_heard: list[tuple[int, int]] = []  # (line, speed) of each utterance

    def expect_speaker(self, name: str | None) -> None:
        pass

    def listen(self, state: str | None = None) -> Heard | None:
        self.current = next(self.sources)
        line, speed = map(int, self.current.path.stem.split("-"))
        self.lines_heard.append((line, speed))
        return self.hearings[line].pop(0)

    def set_player_names(self, names) -> None:
        pass

    def close(self) -> None:
        pass


def test_the_players_answer_each_read_back_by_what_they_said_and_repeat_a_command_not_taken(tmp_path):
    """A die face misheard and read back is refused (no), then said again more slowly and taken; a move read back
    as said is accepted (yes); a command taken for a question is said again. Nothing is applied otherwise than
    said."""
    played = play_random_game(list(PLAYERS), 7)
    lines = _commands(played, "en")[:3]
    (roll, _), (first_move, _), (second_move, _) = lines
    assert roll.startswith("the die says ")
    face = roll.removeprefix("the die says ")
    other_face = next(name for name in ("forest", "river", "toilets", "cafeteria", "grassland", "empty pen")
                      if name != face)
    def recording(line: int, time: int) -> Path:
        return tmp_path / f"{line}-{time}.wav"

    for path in (recording(line, time) for line in range(len(lines)) for time in range(len(SPEEDS))):
        with wave.open(str(path), "wb") as out:
            out.setnchannels(1), out.setsampwidth(2), out.setframerate(16000)
            out.writeframes(b"\0\0" * 1600)
    inner = _Scripted({0: [Heard(f"the die says {other_face}", 0.5, "whisper"), Heard(roll, 0.99, "whisper")],
                       1: [Heard(first_move, 0.5, "whisper")],
                       2: [Heard("scores", 0.99, "whisper"), Heard(second_move, 0.99, "whisper")]})
    tables: list[DraftosaurusTable] = []
    player = _Player(inner, "en", lines, recording, lambda: len(rolls_and_moves(tables[0].game.actions)))
    session = Session(game="draftosaurus", lang="en", speaker=TextSpeaker(io.StringIO()), listener=player,
                      verbosity="short")
    tables.append(DraftosaurusTable(session, Game.new(list(PLAYERS), seed=7), None, TableSettings()))
    tables[0].save = lambda: None  # type: ignore[method-assign]
    with contextlib.suppress(EndOfInput):
        tables[0].run()
    assert inner.lines_heard == [(0, 0), (0, 1), (1, 0), (2, 0), (2, 1)]
    assert (player.confirmations, player.refused, player.repeated) == (2, 1, 2)
    assert rolls_and_moves(tables[0].game.actions) == rolls_and_moves(played.actions)[:3]


def test_a_move_heard_without_a_name_is_the_asked_player_s_and_is_refused_when_another_said_it(tmp_path):
    """The table gives a move said without a name to the player it asked: Alice answers no to her own move read
    back as Bruno's."""
    inner = _Scripted({})
    lines = [("Alice triceratops in the river", 0)]
    player = _Player(inner, "en", lines, lambda line, time: tmp_path / "0-0.wav", lambda: 0)
    player.line, player.heard = 0, (Heard("triceratops in the river", 0.5, "whisper"), "turn")
    player.expect_speaker("Bruno")
    assert not player._means_what_was_said()
    player.expect_speaker("Alice")
    assert player._means_what_was_said()
    player.heard = (Heard("triceratops in the forest", 0.5, "whisper"), "turn")
    assert not player._means_what_was_said()
