"""`companion bench play`: how fast the game answers a spoken command, and how fast it starts.

Response time: from the end of a spoken command (once the endpointer has found it; the silence it waits
for is not counted) to the start of the answer. The commands of a whole game are synthesised (English by
flite's voices, French and Spanish by the mbrola voices, where installed; heard by Whisper unless --engine says)
and heard through the game's own listener, as from a microphone, the players answering its read-backs and saying
again what it did not take (see _Player); the time is the recogniser's work after the end of speech plus the
dialogue's work until its first sentence. Decoding during speech is not counted, as a
microphone feeds it while the player talks; the real-time factor shows it keeps up.

Start-up: from launching `companion play draftosaurus` to its first question, with the text engine and the
one measured.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from companion.benchmarks import peak_memory_mb, percentile
from companion.dialogue.draftosaurus import DraftosaurusTable, TableSettings
from companion.dialogue.session import EndOfInput, Session, understand
from companion.games.draftosaurus.engine import Game, Place, Roll
from companion.games.draftosaurus.simulate import play_random_game
from companion.language.grammar import ANY_STATE, parse
from companion.language.messages import catalog
from companion.speech.audio import AudioSource, WavFileSource
from companion.speech.base import Heard, Listener, Speaker

PLAYERS = ("Alice", "Bruno")
STARTUP_TARGET_S = 2.0
RESPONSE_TARGET_MS = 300.0
READ_BACK_TARGET = 0.15  # spoken commands read back for a yes
# How fast a command is said (words a minute): the first time, then each time it is said again because it was not
# taken, as a player repeats a command more slowly, then faster. Each utterance is heard the same way every time it
# is played (the recognisers are deterministic), so saying the same recording again would prove nothing.
SPEEDS = (160, 135, 185)
GAME = "draftosaurus"


# What a player says for a roll and a placement, per language (with the spoken names of voices/<lang>/names/).
SAYINGS = {"en": ("the die says {face}", "{player} {species} in the {pen}"),
           "fr": ("le dé dit {face}", "{player} met {species_the} dans {pen_the}"),
           "es": ("el dado dice {face}", "{player} pone {species_the} en {pen_the}")}
ENGINE = {"en": "whisper", "fr": "whisper", "es": "whisper"}  # what listens in each language without Vosk
NATURAL = {"en": "flite", "fr": "mbrola", "es": "mbrola"}  # the synthesiser that says the game, where installed


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--lang", default="en", choices=tuple(SAYINGS), help="language of the game (default en)")
    parser.add_argument("--engine", choices=("sphinx", "whisper", "vosk"),
                        help="recogniser (default whisper, the first that \"auto\" tries without a Vosk model)")
    parser.add_argument("--games", type=int, default=1, help="whole 2-player games to say (default 1: 36 commands)")
    parser.add_argument("--startups", type=int, default=5, help="start-ups to time per engine (default 5)")
    parser.add_argument("--seed", type=int, default=7)


class _TimedSpeaker(Speaker):
    """Keeps when each sentence starts; says nothing aloud."""

    name = "timed"

    def __init__(self) -> None:
        self.started: list[float] = []

    def say(self, text: str) -> None:
        self.started.append(time.perf_counter())


class _Player(Listener):
    """The players at the table: each says the game's commands in turn (from their WAV files), through the real
    listener, and answers as a player would. A read-back is answered yes when it means what was said, else no;
    a command not taken (not understood, refused at its read-back, taken for a question) is said again at the
    next speed of SPEEDS, while there is one. Keeps, per utterance, when it was handed over and how long the
    recogniser worked after the end of speech."""

    def __init__(self, inner: Any, lang: str, lines: Sequence[tuple[str, int]], recording: Callable[[int, int], Path],
                 applied: Callable[[], int]):
        self.inner = inner
        self.lang, self.lines, self.recording, self.applied = lang, lines, recording, applied  # recording(line, time)
        words = catalog(lang)
        self.yes, self.no = words.say("words.yes"), words.say("words.no")
        self.name = inner.name
        self.handed: list[tuple[float, float, float, float]] = []  # (when, final ms, decode ms, audio s)
        self.confirmations = self.refused = self.repeated = 0
        self.line, self.times_said, self.applied_before = -1, 0, 0
        self.heard: tuple[Heard, str] | None = None  # the last utterance and the state it was heard in
        self.asked: str | None = None  # the player the table asked last, whose move a nameless one is
        inner.sources = self._sources()

    def _sources(self) -> Iterator[AudioSource]:
        while True:  # the line being said, as it is said this time
            yield WavFileSource(self.recording(self.line, self.times_said - 1))

    def expect_speaker(self, name: str | None) -> None:
        self.asked = name
        self.inner.expect_speaker(name)

    def listen(self, state: str | None = None) -> Heard | None:
        if state is not None and state.startswith("confirm"):  # answered at once; not timed
            self.confirmations += 1
            if self._means_what_was_said():
                return Heard(self.yes, None, "text")
            self.refused += 1
            return Heard(self.no, None, "text")
        if self.line >= 0 and self.applied() <= self.applied_before and self.times_said < len(SPEEDS):
            self.repeated += 1  # not taken: said again
        else:
            self.line, self.times_said = self.line + 1, 0
            if self.line >= len(self.lines):
                return None
        self.times_said += 1
        self.applied_before = self.applied()
        heard = self.inner.listen(state)
        if heard is not None:
            self.heard = (heard, state or ANY_STATE)
            audio_s = getattr(self.inner.current, "seconds", float("nan"))
            self.handed.append((time.perf_counter(), self.inner.last_final_ms, heard.decode_ms or 0.0, audio_s))
        return heard

    def _means_what_was_said(self) -> bool:
        """Whether what is read back (the last utterance's meaning, or the sentence offered for it) is the line
        being said: the same intent and slots, a move heard without a name taken as the asked player's."""
        if self.heard is None or self.line < 0:
            return False
        heard, state = self.heard
        result = understand(heard, game=GAME, lang=self.lang, state=state, player_names=PLAYERS)
        if result.intent is None and result.suggestion:
            result = parse(result.suggestion, game=GAME, lang=self.lang, state=state, player_names=PLAYERS)
        said = parse(self.lines[self.line][0], game=GAME, lang=self.lang, state=state, player_names=PLAYERS)
        if result.intent is None or result.intent != said.intent:
            return False
        meant, expected = dict(result.slots), dict(said.slots)
        if "player" in expected and "player" not in meant and self.asked is not None:
            meant["player"] = self.asked  # a move without a name is the asked player's, who may not be its own
        return meant == expected

    def set_player_names(self, names) -> None:
        self.inner.set_player_names(names)

    def close(self) -> None:
        self.inner.close()


def _commands(game: Game, lang: str = "en") -> list[tuple[str, int]]:
    """What the table says for each action of `game`, and which player says it."""
    names = catalog(lang)
    roll, place = SAYINGS[lang]
    lines = []
    replay = Game.from_setup(game.setup_json())
    for action in game.actions:
        if isinstance(action, Roll):
            lines.append((roll.format(face=names.name("faces", _value(action.face), "sticker")), replay.roller))
        elif isinstance(action, Place):
            species, pen = _value(action.species), _value(action.pen)
            lines.append((place.format(player=game.players[action.player], species=species,
                                       species_the=names.name("species", species, "the"),
                                       pen=names.name("pens", pen), pen_the=names.name("pens", pen, "the")),
                          action.player))
        replay.apply(action)
    return lines


def compare_actions(said: Sequence[Any], applied: Sequence[Any]) -> tuple[int, int]:
    """How many rolls and moves were applied otherwise than said, and how many said were not applied, the two
    lists aligned (a command lost, refused or asked again does not shift every later one into a mishearing)."""
    otherwise = lost = 0
    for tag, said_from, said_to, from_, to in difflib.SequenceMatcher(None, said, applied,
                                                                      autojunk=False).get_opcodes():
        if tag in ("replace", "insert"):
            otherwise += to - from_
        if tag in ("replace", "delete"):
            lost += max(0, (said_to - said_from) - (to - from_))
    return otherwise, lost


def rolls_and_moves(actions: Sequence[Any]) -> list[Any]:
    """The actions a player says (die rolls and placements), in order."""
    return [a for a in actions if isinstance(a, (Roll, Place))]


def _value(item: Any) -> str:
    return getattr(item, "value", item)


def _synthesise(lines: list[tuple[str, int]], folder: Path, lang: str = "en", speed: int = SPEEDS[0]) -> list[Path]:
    """Each line said in its player's own voice, the most natural ones installed: flite's in English, the mbrola
    voices in French and Spanish (the tuned one and the held-out one), else espeak-ng's. (espeak-ng's English
    "the die says circle" was written "the knife and dirt all" by Whisper, flite's "the dye says circle".)"""
    from companion.benchmarks.synthetic import ESPEAK_VOICES, SyntheticVoice, speak_to_wav, synthetic_voices

    voices: tuple[str | SyntheticVoice, ...] = synthetic_voices(lang, (NATURAL[lang],)) or ESPEAK_VOICES[lang]
    folder.mkdir(parents=True, exist_ok=True)
    return [speak_to_wav(line, folder / f"{index:03}.wav", voice=voices[player % 2], speed=speed)
            for index, (line, player) in enumerate(lines)]


def measure_responses(games: int, seed: int, lang: str = "en", engine: str = "sphinx") -> dict[str, Any]:
    from companion.speech.engines import open_listener

    with tempfile.TemporaryDirectory() as folder:
        lines: list[tuple[str, int]] = []
        said: list[Any] = []  # the rolls and placements the lines say
        for number in range(games):
            played = play_random_game(PLAYERS, seed + number)
            lines += _commands(played, lang)
            said += rolls_and_moves(played.actions)
        first = _synthesise(lines, Path(folder) / "said", lang)

        def recording(line: int, time: int) -> Path:  # a line said again is rendered when it is
            if time == 0:
                return first[line]
            return _synthesise([lines[line]], Path(folder) / f"{line}-{time}", lang, SPEEDS[time])[0]
        speaker = _TimedSpeaker()
        inner = open_listener(engine, lang, GAME, audio_files=first, say=lambda text: None)
        game = Game.new(list(PLAYERS), seed=seed)
        listener = _Player(inner, lang, lines, recording,  # the rolls and moves applied so far, once the table is set
                           lambda: len(rolls_and_moves(table.game.actions)))
        session = Session(game=GAME, lang=lang, speaker=speaker, listener=listener, verbosity="short")
        table = DraftosaurusTable(session, game, Path(folder) / "save.json", TableSettings())
        with contextlib.suppress(EndOfInput):
            table.run()
        listener.close()
    responses, decode_ms, audio_s = [], [], []
    for when, final_ms, decoded_ms, seconds in listener.handed:
        answer = next((start for start in speaker.started if start >= when), None)
        if answer is not None:
            responses.append(final_ms + (answer - when) * 1000)
        decode_ms.append(decoded_ms)
        audio_s.append(seconds)
    applied = rolls_and_moves(table.game.actions)
    otherwise, lost = compare_actions(said, applied)
    return {"commands": len(lines), "said": len(listener.handed), "said_again": listener.repeated,
            "answered": len(responses), "actions_applied": len(table.game.actions),
            "confirmations": listener.confirmations, "refused": listener.refused,
            "misheard_applied": otherwise, "not_applied": lost,
            "response_p50_ms": percentile(responses, 0.5), "response_p95_ms": percentile(responses, 0.95),
            "real_time_factor": sum(decode_ms) / 1000 / max(sum(a for a in audio_s if not math.isnan(a)), 1e-9)}


def measure_startup(engine: str, runs: int, wav: Path | None, lang: str = "en") -> list[float]:
    """Seconds from launching the game to its first question."""
    first_question = catalog(lang).say("draft.ask_die_full", roller=PLAYERS[0])
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as home:
            command = [sys.executable, "-m", "companion", "play", "draftosaurus", "--lang", lang, "--engine", engine,
                       "--quiet", "--no-earcons", "--players", ",".join(PLAYERS), "--save", f"{home}/s.json"]
            if wav is not None:
                command += ["--audio", str(wav)]
            env = dict(os.environ, COMPANION_HOME=home, COMPANION_CONFIG=f"{home}/config.json")
            begin = time.perf_counter()
            process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.DEVNULL, text=True, env=env)
            assert process.stdout is not None  # a pipe
            for line in process.stdout:
                if line.strip() == first_question:
                    times.append(time.perf_counter() - begin)
                    break
            process.kill()
            process.wait()
    return times


def run(args: argparse.Namespace) -> int:
    engine = args.engine or ENGINE[args.lang]
    language = catalog("en").say(f"speech.languages.{args.lang}")
    print(f"response: {args.games} whole 2-player game(s) said in {language}, heard by {engine}")
    result = measure_responses(args.games, args.seed, args.lang, engine)
    print(f"  commands {result['commands']}, said {result['said']} ({result['said_again']} said again, not taken), "
          f"answered {result['answered']}, actions applied "
          f"{result['actions_applied']}, read back for confirmation {result['confirmations']} "
          f"({result['confirmations'] / max(1, result['commands']):.0%}, target <= {READ_BACK_TARGET:.0%}; "
          f"answered no {result['refused']}, the meaning read back not the one said), "
          f"rolls and moves applied otherwise than said {result['misheard_applied']}, "
          f"said and not applied {result['not_applied']}")
    print(f"  end of command -> start of answer: p50 {result['response_p50_ms']:.0f} ms, "
          f"p95 {result['response_p95_ms']:.0f} ms (target p95 < {RESPONSE_TARGET_MS:.0f} ms)")
    print(f"  real-time factor of decoding: {result['real_time_factor']:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        face = catalog(args.lang).name("faces", "forest", "sticker")
        wav = _synthesise([(SAYINGS[args.lang][0].format(face=face), 0)], Path(folder), args.lang)[0]
        for name, audio in (("text", None), (engine, wav)):
            times = measure_startup(name, args.startups, audio, args.lang)
            if not times:
                print(f"start-up with {name}: the first question never came")
                continue
            print(f"start-up to the first question with {name}: median {percentile(times, 0.5):.2f} s, "
                  f"worst {max(times):.2f} s (target < {STARTUP_TARGET_S:.0f} s)")
    print(f"peak memory of the response measurement: {peak_memory_mb():.0f} MB")
    return 0
