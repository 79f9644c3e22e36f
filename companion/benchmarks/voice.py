"""`companion bench voice`: what a player hears, measured through a real sound server.

A private PulseAudio server (companion.speech.soundserver) stands in for the sound card; the program runs as a
player starts it, and the speaker's monitor is recorded:
- heard: a short scripted game, typed on standard input; the seconds of speech recorded against the seconds
  of speech of every printed line rendered alone by the same voice at the same speed; then the same game with
  the program's speech process stopped now and then, as a busy processor does (STALL);
- order: each printed line is found in the recording (its loudness contour, matched against its sentences
  rendered alone by the same voice), each just after the one before it; English ones are then recognised by
  PocketSphinx among all the lines printed: a line lost, cut or out of order is counted;
- first audio and barge-in: the game on a terminal (a pseudo-terminal, as a player types): a command typed
  when all is quiet, from its answer printed to its first sound; Enter, or "stop", typed while the program
  speaks, to silence;
- spoken cuts: with --barge-in (headphones), words said into the microphone over the program's speech, from
  their first sound to silence;
- own voice: a spoken English game heard by PocketSphinx through the microphone, in a room where the speaker
  leaks into the microphone 20 dB down: each command played into the microphone must change the game as said,
  and the program must never take its own voice for a command.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import pty
import re
import select
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from companion.benchmarks import percentile
from companion.errors import BadInput
from companion.speech.audio import SAMPLE_RATE, Resampler, read_wav
from companion.speech.soundserver import PrivateSoundServer, Recording, SoundServerUnavailable, speech_seconds

NAME = "voice"
HELP = ("The voice loop through a private PulseAudio server: speech heard against speech printed, lines lost "
        "or out of order, first sound, barge-in silence, own voice taken for a command.")

TARGETS = {"heard": 0.95, "first_audio_p95_ms": 200.0, "barge_in_p95_ms": 150.0}
PLAYERS = ("Alice", "Bruno")
# A few turns typed at the table: a die face, a move, a move the die refuses, the scores, quit.
SCRIPTS: dict[str, tuple[str, ...]] = {
    "fr": ("dé : forêt", "Alice : tricératops dans la forêt des similaires", "Bruno : stégosaure dans la prairie",
           "les scores", "quitter"),
    "en": ("the die says forest", "Alice: triceratops in the forest of sameness", "Bruno: stegosaurus in the meadow",
           "scores", "quit"),
    "es": ("dado: bosque", "Alice: triceratops en el bosque de la semejanza", "Bruno: estegosaurio en la pradera",
           "puntuaciones", "salir"),
}
HELP_WORD = {"fr": "aide", "en": "help", "es": "ayuda"}
STOP_WORD = {"fr": "tais-toi", "en": "stop", "es": "cállate"}
SPOKEN_STOP = "stop talking"  # "stop" alone, said by espeak-ng, was heard as "sos" (help)
LOUD_DB = -45.0   # a 10 ms frame louder than this is sound (espeak-ng speaks at about -23 dBFS)
# Silence this long after a cut: the speaker has fallen silent (longer than any pause between two sentences,
# 0.41 s at most in a game's speech, so that a pause is never taken for a cut).
QUIET_S = 0.8
# A line is found where its loudness contour, rendered alone, matches the recording this well (correlation): the
# same sentence played through the server matched at 0.78 to 1.0 (median 0.95), another one below 0.5; a line
# (its sentences rendered one after another, as they are played) is longer, and so surer.
FOUND_SCORE = 0.7
SEARCH_S = 3.0  # how far after the end of a line the next one is looked for first
# Then this far: a line may come late when the machine is busy (in one full test run beside Whisper's decodes,
# 11 lines of a French game were taken for lost while as much speech as printed was heard). A pause is not a
# loss: a line that comes late is still looked for in order, from the end of the line before it.
LATE_S = 20.0
# A line not found whole is looked for in pieces of at least this long (see `locate`): a sentence of half a second
# ("Yes.", "No.", "Done.") matched 9 to 11 of 11 other sentences at FOUND_SCORE, so alone it proves nothing.
UNIT_S = 1.0
# A processor taken by other work, as the game's speech process lives it: stopped this long, this often (SIGSTOP,
# then SIGCONT). What the sound server holds (companion.speech.playback.LATENCY) must carry the voice through.
STALL = (0.3, 2.0)


# ------------------------------------------------------------------------------------------- the game

@dataclass
class GameRun:
    """A game played through the server: what it printed and what the speaker's monitor recorded."""

    printed: list[str]
    recording: Recording
    returncode: int
    seconds: float
    stalls: int = 0  # times the speech process was stopped (see Stalls)


class Stalls:
    """While in use, stops the speech process of the program `parent` for `stopped_s` every `every_s`, as a
    processor busy with other work does to it (Linux: its children are read in /proc)."""

    def __init__(self, parent: int, stopped_s: float, every_s: float):
        self.parent, self.stopped_s, self.every_s = parent, stopped_s, every_s
        self.count = 0
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Stalls:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._done.set()
        self._thread.join()

    def _speech_processes(self) -> list[int]:
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
                command = (entry / "cmdline").read_bytes()
            except (OSError, IndexError, ValueError):
                continue  # gone meanwhile
            if parent == self.parent and b"companion.speech.tts_worker" in command:
                found.append(int(entry.name))
        return found

    def _signal(self, pids: list[int], signal_number: int) -> int:
        sent = 0
        for pid in pids:
            with contextlib.suppress(OSError):  # it ended meanwhile
                os.kill(pid, signal_number)
                sent += 1
        return sent

    def _run(self) -> None:
        while not self._done.wait(self.every_s - self.stopped_s):
            pids = self._speech_processes()
            try:
                if self._signal(pids, signal.SIGSTOP):
                    self.count += 1
                time.sleep(self.stopped_s)
            finally:  # never left stopped (it runs in a session of its own: nothing else would wake it)
                self._signal(pids, signal.SIGCONT)


def game_command(lang: str, save: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "companion", "play", "draftosaurus", "--lang", lang, "--players", ",".join(PLAYERS),
            "--save", str(save), "--new", *extra]


def home_env(folder: Path, rate: float | None = None) -> dict[str, str]:
    """Saves and settings of their own, and the speed of the voice (`rate`, 1 = normal) if given."""
    folder.mkdir(parents=True, exist_ok=True)
    config = folder / "config.json"
    if rate is not None:
        config.write_text(json.dumps({"speech": {"rate": rate}}), encoding="utf-8")
    return {"COMPANION_HOME": str(folder), "COMPANION_CONFIG": str(config)}


def play_scripted(server: PrivateSoundServer, lang: str, folder: Path, lines: Sequence[str] | None = None,
                  rate: float | None = None, timeout: float = 300,
                  stall: tuple[float, float] | None = None) -> GameRun:
    """A game typed on standard input (every line at once, as a script), the program speaking with its own
    voice; the speaker's monitor is recorded from before it starts to after it ends. `stall`: (seconds stopped,
    every so many seconds) for the program's speech process (see Stalls)."""
    lines = SCRIPTS[lang] if lines is None else lines
    env = {**os.environ, **server.environment(), **home_env(folder, rate)}
    recorder = server.record()
    if not wait_quiet(recorder.recording, QUIET_S, timeout=30):  # what another program says is not this game's
        recorder.stop()
        raise RuntimeError("the speaker was not quiet before the game")
    started = time.monotonic()
    game = subprocess.Popen(game_command(lang, folder / "game.json", "--engine", "text", "--voice", "tts",
                                         "--no-earcons"),
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            encoding="utf-8", env=env)
    stalls = Stalls(game.pid, *stall) if stall is not None else None
    with stalls if stalls is not None else contextlib.nullcontext():
        try:
            printed, _ = game.communicate("\n".join(lines) + "\n", timeout=timeout)
        except subprocess.TimeoutExpired:
            game.kill()
            recorder.stop()
            with contextlib.suppress(subprocess.TimeoutExpired):  # its speech process may hold the pipes open
                game.communicate(timeout=5)
            raise
    ended = time.monotonic()
    return GameRun([line for line in printed.splitlines() if line.strip()], recorder.stop(until=ended + 0.3),
                   game.returncode, ended - started, stalls.count if stalls is not None else 0)


# ------------------------------------------------------------------------------------------- measuring

def rendered(sentences: Sequence[str], lang: str, rate: float | None, folder: Path) -> list[np.ndarray]:
    """Each sentence rendered alone by the program's voice at `rate`, at 16 kHz."""
    from companion.speech.config import SpeechConfig
    from companion.speech.tts import TtsSpeaker

    speaker = TtsSpeaker(lang, SpeechConfig(rate=rate or 1.0), out=io.StringIO(), remember=False, save_only=True)
    try:
        out = []
        for number, sentence in enumerate(sentences):
            path = speaker.save(sentence, folder / f"sentence-{number}.wav")
            samples, source_rate = read_wav(path)
            out.append(Resampler(source_rate, SAMPLE_RATE).process(samples))
        return out
    finally:
        speaker.close()


def spoken_parts(line: str) -> list[str]:
    """The sentences of a line, as the program's speaker cuts them."""
    from companion.speech.tts import spoken_parts as parts

    return parts(line)


def contour(samples: np.ndarray, hop: int = SAMPLE_RATE // 100, floor_db: float = -60.0) -> np.ndarray:
    """Loudness in dB of each 10 ms, no quieter than `floor_db` (how deep a silence is depends on the way the
    sound took: digital zeros rendered, the server's resampling recorded)."""
    frames = len(samples) // hop
    blocks = np.asarray(samples[:frames * hop], dtype=np.float64).reshape(frames, hop)
    return np.maximum(10 * np.log10(np.mean(blocks * blocks, axis=1) + 1e-12), floor_db)


def _matches(recorded: np.ndarray, sentence: np.ndarray) -> np.ndarray:
    """How well `sentence`'s contour fits the recording's at each offset (correlation, -1 to 1)."""
    size = len(sentence)
    if size < 2 or len(recorded) < size:
        return np.zeros(0)
    template = (sentence - sentence.mean()) / (sentence.std() + 1e-9)
    sums = np.cumsum(np.r_[0.0, recorded])
    squares = np.cumsum(np.r_[0.0, recorded * recorded])
    mean = (sums[size:] - sums[:-size]) / size
    variance = np.maximum((squares[size:] - squares[:-size]) / size - mean * mean, 1e-9)
    return np.correlate(recorded, template, mode="valid") / size / np.sqrt(variance)


def locate(recording: np.ndarray, lines: Sequence[np.ndarray],
           parts: Sequence[Sequence[np.ndarray]] | None = None) -> list[tuple[float | None, float]]:
    """Where each line starts in the recording and how well it matched (see `spans`)."""
    return [(start, score) for start, score, _ in spans(recording, lines, parts)]


def spans(recording: np.ndarray, lines: Sequence[np.ndarray],
          parts: Sequence[Sequence[np.ndarray]] | None = None) -> list[tuple[float | None, float, float]]:
    """Where each line (its audio as played) starts in the recording (seconds), looked for just after the end
    of the one before it (within SEARCH_S, else the first match within LATE_S: lines queued together are played
    back to back; the first one from the first sound on, however long the program took to start), and how well it
    matched there, and where it ends (seconds); None where it did not match (lost, cut, or another line in its
    place).

    `parts`: each line's sentences, as the program renders and queues them one by one. A line not found whole is
    then looked for sentence by sentence, each just after the one before: a busy machine may render the next
    sentence late and leave a longer pause between two sentences of a line, which loses nothing. Each sentence (a
    short one with its neighbour) must still be found whole and in order, and the line rebuilt with its pauses must
    match as a line found whole does (see `_find_in_turn`). Either way, a sentence shorter than UNIT_S is checked
    only within a longer piece: a loudness contour does not tell half a "No." after a long sentence from a whole one."""
    recorded = contour(recording)
    found: list[tuple[float | None, float, float]] = []
    loud = np.flatnonzero(recorded > LOUD_DB)
    start = max(0, int(loud[0]) - 50) if len(loud) else 0  # the first line, from the first sound on
    for number, line in enumerate(lines):
        at, score, end = _find(recorded, _sounding(contour(line)), start)
        pieces = parts[number] if parts is not None else ()
        if at is None and len(pieces) > 1:
            units = [_sounding(contour(unit)) for unit in _units(pieces)]
            at, score, end = _find_in_turn(recorded, units, start, score)
        if at is None:
            found.append((None, score, start / 100))
            continue
        found.append((at / 100, score, end / 100))
        start = end
    return found


def _find(recorded: np.ndarray, template: np.ndarray, start: int,
          late: bool = True) -> tuple[int | None, float, int]:
    """Where `template` matches the contour `recorded` from frame `start` on (see `locate`; with `late`, beyond
    SEARCH_S too): its first frame, the score, and the frame after it; None and the best score nearby when it does
    not match."""
    scores = _matches(recorded, template)[start:]
    if not len(scores):
        return None, 0.0, start
    at = int(np.argmax(scores[:int(SEARCH_S * 100)]))
    if scores[at] < FOUND_SCORE:  # late: the first place it matches, then its best spot close by
        later = np.flatnonzero(scores[:int(LATE_S * 100)] >= FOUND_SCORE) if late else np.zeros(0, dtype=int)
        if not len(later):
            return None, float(scores[at]), start
        at = int(later[0]) + int(np.argmax(scores[later[0]:later[0] + len(template) // 2 + 1]))
    return start + at, float(scores[at]), start + at + len(template)


def _units(sentences: Sequence[np.ndarray]) -> list[np.ndarray]:
    """A line's sentences (audio) in pieces of at least UNIT_S each: a short sentence goes with the one before it
    (the first one with the one after it)."""
    units: list[np.ndarray] = []
    for sentence in sentences:
        if units and (len(units[-1]) < UNIT_S * SAMPLE_RATE or len(sentence) < UNIT_S * SAMPLE_RATE):
            units[-1] = np.concatenate([units[-1], sentence])
        else:
            units.append(sentence)
    return units


def _find_in_turn(recorded: np.ndarray, templates: Sequence[np.ndarray], start: int,
                  whole: float) -> tuple[int | None, float, int]:
    """The pieces of a line (`_units`), the first found as a line is, each other one within SEARCH_S of the end of
    the one before; then the line rebuilt from them, with the pauses found between them, must match the recording
    as well as a line found whole does. Where the line starts, its score and the frame after it; None and the whole
    line's score `whole` when it does not match so."""
    first, end, rebuilt = None, start, []
    for template in templates:
        at, _, after = _find(recorded, template, end, late=first is None)
        if at is None:
            return None, whole, start
        if first is None:
            first = at
        else:
            rebuilt.append(np.full(at - end, recorded.min()))  # the pause, as deep as the recording's silences
        rebuilt.append(template)
        end = after
    assert first is not None
    scores = _matches(recorded[first:end], np.concatenate(rebuilt))
    score = float(scores[0]) if len(scores) else 0.0
    return (first, score, end) if score >= FOUND_SCORE else (None, max(whole, score), start)


def _sounding(levels: np.ndarray) -> np.ndarray:
    """A contour without its quiet start and end (a render's closing pause varies by a few tens of ms)."""
    loud = np.flatnonzero(levels > LOUD_DB)
    return levels[loud[0]:loud[-1] + 1] if len(loud) else levels


def recognised(recording: np.ndarray, lines: Sequence[str], places: Sequence[tuple[float | None, float]],
               lengths: Sequence[float], folder: Path) -> list[str | None]:
    """Each found line's stretch of the recording, recognised by PocketSphinx (US English) among all the lines
    printed; the words heard, or None where the line was not found."""
    from pocketsphinx import Decoder

    texts = sorted({" ".join(_words(line)) for line in lines if _words(line)})
    model = _sphinx_model()
    dictionary = _dictionary({word for text in texts for word in text.split()}, model)
    (folder / "said.dict").write_text("".join(f"{w} {p}\n" for w, p in sorted(dictionary.items())), encoding="utf-8")
    (folder / "said.gram").write_text(
        "#JSGF V1.0;\ngrammar said;\npublic <said> = " + " | ".join(f"( {text} )" for text in texts) + ";\n",
        encoding="utf-8")
    decoder = Decoder(hmm=str(model / "en-us"), dict=str(folder / "said.dict"), jsgf=str(folder / "said.gram"),
                      logfn=os.devnull)
    hiss = np.random.default_rng(0).normal(0, 1e-3, len(recording)).astype(np.float32)  # see speech.sphinx
    audio = np.clip(recording + hiss, -1, 1)
    heard: list[str | None] = []
    starts = [start for start, _score in places]
    quiet = hiss[:int(0.3 * SAMPLE_RATE)]
    for number, ((start, _score), seconds) in enumerate(zip(places, lengths, strict=True)):
        if start is None:
            heard.append(None)
            continue
        # The line's own stretch, with a little silence around it: lines are played back to back, and a stretch
        # running 0.1 s into its neighbours made PocketSphinx lose a line's last word or all of it, in 2 of 9 games
        # played beside busy processes (of 17 lines, 1 or 2 taken for others); on the 4 recordings kept, this
        # stretch heard every line. A line played slower than rendered alone (a busy machine) runs on to the next
        # line found, up to half its length again.
        following = next((later for later in starts[number + 1:] if later is not None), float("inf"))
        end = max(start + seconds, min(following, start + 1.5 * seconds))
        piece = np.concatenate([quiet, audio[int(start * SAMPLE_RATE):int(end * SAMPLE_RATE)], quiet])
        decoder.start_utt()
        decoder.process_raw((piece * 32767).astype("<i2").tobytes(), full_utt=True)
        decoder.end_utt()
        heard.append(decoder.hyp().hypstr if decoder.hyp() is not None else "")
    return heard


def _sphinx_model() -> Path:
    import pocketsphinx

    return Path(pocketsphinx.get_model_path()) / "en-us"


def _dictionary(words: set[str], model: Path) -> dict[str, str]:
    from companion.speech.pronounce import guess_pronunciations

    known: dict[str, str] = {}
    with (model / "cmudict-en-us.dict").open(encoding="utf-8") as handle:
        for line in handle:
            word, _, phones = line.strip().partition(" ")
            if word in words and word not in known:
                known[word] = phones
    known.update(guess_pronunciations(sorted(words - set(known))))
    return known


def _words(sentence: str) -> list[str]:
    """A printed English sentence as the words said (numbers spelled out, paths and signs dropped)."""
    from companion.language.numbers import to_words

    def said(number: str) -> str:  # beyond the game's numbers (a folder's name), digit by digit
        return to_words(int(number), "en") if len(number) <= 3 else " ".join(to_words(int(d), "en") for d in number)

    text = re.sub(r"\d+", lambda found: f" {said(found.group())} ", sentence.lower())
    text = re.sub(r"(?<=\w)\.(?=\w)", " dot ", text.replace("/", " slash "))  # as espeak-ng reads a path
    return re.findall(r"[a-z]+(?:'[a-z]+)?", text.replace("-", " "))


@dataclass
class Heard:
    """What a scripted game let the player hear."""

    lang: str
    printed_s: float
    heard_s: float
    lines: int
    lost: list[str] = field(default_factory=list)  # lines not found whole, in their place
    scores: list[float] = field(default_factory=list)  # how well each line matched where it was looked for
    # each line lost: its number, its best score, and from where it was looked for (seconds into the recording)
    lost_at: list[tuple[int, float, float]] = field(default_factory=list)
    misrecognised: list[str] = field(default_factory=list)  # found, but recognised as another line
    stalls: int = 0  # times the speech process was stopped meanwhile

    @property
    def ratio(self) -> float:
        return self.heard_s / self.printed_s if self.printed_s else 0.0


def measure_heard(server: PrivateSoundServer, lang: str, folder: Path, rate: float | None = None,
                  recognise: bool | None = None, stall: tuple[float, float] | None = None) -> Heard:
    """Play the language's script and measure it (recognition: English only, by default; `stall`: see
    play_scripted)."""
    run = play_scripted(server, lang, folder, rate=rate, stall=stall)
    if run.returncode != 0:
        raise RuntimeError(f"the game ended with code {run.returncode}: {run.printed[-3:]}")
    audio = run.recording.audio()
    lines = run.printed
    sentences = [spoken_parts(line) for line in lines]
    alone = iter(rendered([part for parts in sentences for part in parts], lang, rate, folder))
    pieces = [[next(alone) for _ in parts] for parts in sentences]  # each line's sentences, rendered one by one
    said = [np.concatenate(line) for line in pieces]  # each line as it is played
    result = Heard(lang, sum(speech_seconds(a) for a in said), speech_seconds(audio), len(lines), stalls=run.stalls)
    found = spans(audio, said, pieces)
    places = [(start, score) for start, score, _ in found]
    result.lost_at = [(number, round(score, 3), at) for number, (start, score, at) in enumerate(found) if start is None]
    result.lost = [lines[number] for number, _, _ in result.lost_at]
    result.scores = [score for _, score in places]
    if recognise if recognise is not None else lang == "en":  # each line's stretch as found (with its pauses)
        lengths = [len(line) / SAMPLE_RATE if start is None else max(len(line) / SAMPLE_RATE, end - start)
                   for line, (start, _, end) in zip(said, found, strict=True)]
        heard = recognised(audio, lines, places, lengths, folder)
        # a file's path is read letter by letter
        result.misrecognised = [line for line, words in zip(lines, heard, strict=True)
                                if words is not None and words != " ".join(_words(line)) and _words(line)
                                and "/" not in line]
    return result


# ------------------------------------------------------------------------------------------- a terminal

class Terminal:
    """The game on a pseudo-terminal, as a player at a keyboard runs it; every line it prints is dated."""

    def __init__(self, command: list[str], env: dict[str, str]):
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the program itself
            os.execve(command[0], command, env)
        self.lines: list[tuple[float, str]] = []
        self.typed: list[tuple[float, str]] = []
        self._pending = b""
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        while True:
            try:
                ready, _, _ = select.select([self.fd], [], [], 0.5)
                if not ready:
                    continue
                data = os.read(self.fd, 4096)
            except OSError:
                return
            if not data:
                return
            self._pending += data
            *whole, self._pending = self._pending.split(b"\n")
            now = time.monotonic()
            self.lines.extend((now, line.decode("utf-8", "replace").strip()) for line in whole)

    def type(self, text: str) -> float:
        """Type a line and Enter; the moment Enter was pressed."""
        os.write(self.fd, text.encode("utf-8"))
        moment = time.monotonic()
        os.write(self.fd, b"\r")
        self.typed.append((moment, text))
        return moment

    def answer(self, before: int, typed: str, timeout: float = 20) -> tuple[float, str] | None:
        """The first line the program printed after the first `before`, the terminal's echo of what was typed
        aside; None if none came within `timeout`."""
        def printed() -> tuple[float, str] | None:
            return next((line for line in self.lines[before:] if line[1] and line[1] != typed), None)

        self.wait_until(lambda: printed() is not None, timeout)
        return printed()

    def wait_until(self, condition: Any, timeout: float = 30) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if condition():
                return True
            time.sleep(0.02)
        return False

    def transcript(self) -> list[str]:
        """Every line printed, and every line typed (marked >), with the second it came after the first one."""
        events = sorted([*self.lines, *((moment, f"> {text}") for moment, text in self.typed)],
                        key=lambda event: event[0])
        start = events[0][0] if events else 0.0
        return [f"{moment - start:6.2f} {line}" for moment, line in events]

    def close(self) -> None:
        try:
            os.kill(self.pid, 9)
            os.waitpid(self.pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(self.fd)


def _loud(recording: Recording, since: float, window_s: float = 0.2) -> bool:
    """Whether the speaker sounded in the last `window_s` (and after `since`)."""
    piece = recording.since(recording.index_at(max(since, time.monotonic() - window_s)))
    return len(piece) > 0 and bool(np.any(contour(piece) > LOUD_DB))


def sounding_before(recording: Recording, moment: float, window_s: float = 0.5) -> bool:
    """Whether the speaker sounded in the `window_s` before `moment` (longer than any pause between sentences):
    a cut measured then silenced speech, not a speaker already quiet."""
    start, end = recording.index_at(moment - window_s), recording.index_at(moment)
    piece = recording.since(start)[:max(0, end - start)]
    return len(piece) > 0 and bool(np.any(contour(piece) > LOUD_DB))


def wait_sound(recording: Recording, since: float, timeout: float = 20) -> float | None:
    """When the speaker first sounded after `since` (monotonic seconds), waiting at most `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        onset = first_sound(recording, since)
        if onset is not None:
            return onset
        time.sleep(0.02)
    return None


def first_sound(recording: Recording, since: float) -> float | None:
    start = recording.index_at(since)
    loud = np.flatnonzero(contour(recording.since(start)) > LOUD_DB)
    return None if not len(loud) else recording.time_of(start + int(loud[0]) * SAMPLE_RATE // 100)


def silence_after(recording: Recording, moment: float, quiet_s: float = QUIET_S) -> float | None:
    """How long after `moment` the speaker fell silent for at least `quiet_s` (None if it did not)."""
    start = recording.index_at(moment)
    loud = contour(recording.since(start)) > LOUD_DB
    need = int(quiet_s * 100)
    for frame in range(len(loud) - need + 1):
        if not loud[frame:frame + need].any():
            return max(0.0, recording.time_of(start + frame * SAMPLE_RATE // 100) - moment)
    return None


def wait_quiet(recording: Recording, seconds: float, timeout: float = 60) -> bool:
    """Wait until the recording's last `seconds` are silent (the recording long enough to tell); False if that
    did not happen within `timeout`."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        first = recording.arrivals[:1]
        if first and time.monotonic() - first[0][0] >= seconds and not _loud(recording, 0.0, seconds):
            return True
        time.sleep(0.05)
    return False


@dataclass
class Timings:
    lang: str
    first_audio_ms: list[float] = field(default_factory=list)
    barge_in_ms: list[float] = field(default_factory=list)
    missed: int = 0  # a cut after which the speaker did not fall silent, or made when it was not speaking
    printed: list[str] = field(default_factory=list)  # printed and typed lines, dated (Terminal.transcript)


def measure_terminal(server: PrivateSoundServer, lang: str, folder: Path, trials: int = 5,
                     rate: float | None = None) -> Timings:
    """Silence after Enter pressed over the game's opening words; then, `trials` times, the first sound after
    "help" typed in the quiet, and silence after Enter or the stop word typed over that help."""
    env = {**os.environ, **server.environment(), **home_env(folder, rate), "TERM": "dumb"}
    recorder = server.record()
    terminal = Terminal(game_command(lang, folder / "game.json", "--engine", "text", "--voice", "tts"), env)
    timings = Timings(lang)

    def cut(text: str) -> None:
        pressed = terminal.type(text)
        time.sleep(QUIET_S + 0.5)
        silent = silence_after(recorder.recording, pressed)
        if silent is None or not sounding_before(recorder.recording, pressed):
            timings.missed += 1
        else:
            timings.barge_in_ms.append(silent * 1000)

    try:
        if wait_sound(recorder.recording, 0.0) is not None:
            time.sleep(1.0)
            cut("")  # the player has heard enough of the opening
        for trial in range(trials):
            wait_quiet(recorder.recording, 0.6)
            printed_before = len(terminal.lines)
            terminal.type(HELP_WORD[lang])
            answer = terminal.answer(printed_before, HELP_WORD[lang])
            if answer is None:
                break
            printed_at = answer[0]
            onset = wait_sound(recorder.recording, printed_at - 0.05)
            if onset is None:
                timings.missed += 1
                continue
            timings.first_audio_ms.append(max(0.0, onset - printed_at) * 1000)
            time.sleep(0.8)  # well into the help
            cut(STOP_WORD[lang] if trial % 2 == 0 else "")
    finally:
        timings.printed = terminal.transcript()
        terminal.close()
        recorder.stop()
    return timings


def _onset(wav: Path) -> float:
    """Seconds of quiet at the start of a WAV file (before its first sound)."""
    samples, rate = read_wav(wav)
    loud = np.flatnonzero(contour(Resampler(rate, SAMPLE_RATE).process(samples)) > LOUD_DB)
    return float(loud[0]) / 100 if len(loud) else 0.0


@dataclass
class SpokenCuts(Timings):
    """Cuts said into the microphone with barge-in on, and what the program answered to each "stop"."""

    answered: list[str] = field(default_factory=list)  # printed after a "stop": it asked for silence only
    moves: list[dict[str, Any]] = field(default_factory=list)


def measure_spoken_cuts(server: PrivateSoundServer, folder: Path, trials: int = 3,
                        rate: float | None = None) -> SpokenCuts:
    """An English game on a terminal, heard by PocketSphinx with --barge-in (a player with headphones: nothing
    leaks): `trials` times "help" typed in the quiet, then "stop talking" said over the help into the
    microphone; from the first sound of the words to silence, and what the program printed after them."""
    from companion.benchmarks.synthetic import speak_to_wav

    folder.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, **server.environment(), **home_env(folder, rate), "TERM": "dumb"}
    save = folder / "game.json"
    recorder = server.record()
    terminal = Terminal(game_command("en", save, "--engine", "sphinx", "--voice", "tts", "--no-earcons",
                                     "--barge-in"), env)
    stopping = speak_to_wav(SPOKEN_STOP, folder / "stop.wav", voice="en-us", speed=150)
    lead = _onset(stopping)
    result = SpokenCuts("en")
    try:
        terminal.wait_until(lambda: any("?" in line for _, line in terminal.lines), 60)
        for _ in range(trials):
            wait_quiet(recorder.recording, 1.0)
            before = len(terminal.lines)
            terminal.type(HELP_WORD["en"])
            answer = terminal.answer(before, HELP_WORD["en"])
            if answer is None:
                result.missed += 1
                continue
            onset = wait_sound(recorder.recording, answer[0] - 0.05)
            if onset is None:
                result.missed += 1
                continue
            time.sleep(0.8)  # well into the help
            before = len(terminal.lines)
            said = time.monotonic()
            server.play_into_mic(stopping, wait=False)
            time.sleep(QUIET_S + 1.5)
            silent = silence_after(recorder.recording, said + lead)
            if silent is None or not sounding_before(recorder.recording, said + lead):
                result.missed += 1
            else:
                result.barge_in_ms.append(silent * 1000)
            result.answered += [line for _, line in terminal.lines[before:] if line]
    finally:
        result.printed = terminal.transcript()
        terminal.close()
        recorder.stop()
    result.moves = _saved_moves(save)
    return result


def terminal_lines_after(printed: list[str], before: int, timeout: float = 20) -> bool:
    """Whether the program printed something after the first `before` lines, waiting at most `timeout`."""
    deadline = time.monotonic() + timeout
    while len(printed) <= before and time.monotonic() < deadline:
        time.sleep(0.05)
    return len(printed) > before


# ------------------------------------------------------------------------------------------- the microphone

# Commands said into the microphone, one per question, with the words a read-back of each must hold for the
# player to agree; the die says forest, so Bruno's stegosaurus goes to the river.
SPOKEN: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("the die says forest", ("forest",)),
    ("alice triceratops in the forest of sameness", ("triceratops", "forest of sameness")),
    ("bruno stegosaurus in the river", ("stegosaurus", "river")),
)
SPOKEN_MOVES = [{"type": "roll", "face": "forest"},
                {"type": "place", "player": 0, "species": "triceratops", "pen": "forest_of_sameness"},
                {"type": "place", "player": 1, "species": "stegosaurus", "pen": "river"}]
STOP_WAIT_S = 90  # a stopped game says where it is saved, whole, then exits: 17 s at the usual rate, load 8
LISTENING_WINDOW_S = 1.5  # quiet kept before each command: the program must not answer in it


@dataclass
class Spoken:
    """A game spoken into the microphone: what it printed, the moves saved, and what it answered to nobody."""

    said: int = 0  # utterances played into the microphone (commands, yes and no)
    read_backs: int = 0
    moves: list[dict[str, Any]] = field(default_factory=list)
    printed: list[str] = field(default_factory=list)
    unprompted: list[str] = field(default_factory=list)  # printed while nobody spoke: its own voice heard

    @property
    def as_said(self) -> bool:
        """The die and the placements saved are those said (the 2-player variant's discards aside)."""
        return [move for move in self.moves if move.get("type") in ("roll", "place")] == SPOKEN_MOVES


class _Microphone:
    """A player speaking into the microphone sink, waiting each time for the program's question."""

    def __init__(self, server: PrivateSoundServer, folder: Path, printed: list[str], recording: Recording,
                 result: Spoken, save: Path):
        from companion.benchmarks.synthetic import speak_to_wav
        from companion.language.messages import catalog

        self.server, self.folder, self.printed, self.recording, self.result = server, folder, printed, recording, result
        self.save = save
        self.speak = speak_to_wav
        template = str(catalog("en").messages["session.confirm_meaning"])
        self.read_back = template.split("{", 1)[0]

    def wait_question(self, since: float, timeout: float = 60) -> None:
        """Until the program has asked its next question and said everything it printed since `since`. A question
        is a line holding a question mark: it may go on ("Is that right? Yes or no.")."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not (self.printed and "?" in self.printed[-1]):
            time.sleep(0.05)
        wait_sound(self.recording, since, 10)  # a printed line is heard a moment later
        wait_quiet(self.recording, 1.0, timeout)

    def say(self, text: str) -> list[str]:
        """Keep quiet a moment (the program must not answer then), say `text`, and return what it answered."""
        before = len(self.printed)
        time.sleep(LISTENING_WINDOW_S)
        self.result.unprompted += self.printed[before:]
        before = len(self.printed)
        wav = self.speak(text, self.folder / f"said-{self.result.said}.wav", voice="en-us", speed=150)
        self.server.play_into_mic(wav)
        said_at = time.monotonic()
        self.result.said += 1
        deadline = said_at + 30
        while len(self.printed) == before and time.monotonic() < deadline:
            time.sleep(0.05)
        self.wait_question(said_at)
        return self.printed[before:]

    def command(self, text: str, expected: tuple[str, ...], attempts: int = 3) -> None:
        """Say a command, answering each read-back as a player would (yes when it holds what was said, no
        otherwise), and say it again, as a player does, until the game has moved on (a move more in the save)
        or `attempts` are spent. A yes or a command the program did not catch is said again; a wrong move
        applied stays in the save for the caller to see."""
        done = self._moves_saved()
        for _ in range(attempts):
            answer = self.say(text)
            for _ in range(attempts):
                line = next((line for line in answer if line.startswith(self.read_back)), None)
                if line is None:
                    break
                self.result.read_backs += 1
                answer = self.say("yes" if all(words in line.lower() for words in expected) else "no")
            if self._moves_saved() > done:
                return

    def _moves_saved(self) -> int:
        return sum(move.get("type") in ("roll", "place") for move in _saved_moves(self.save))


def measure_microphone(server: PrivateSoundServer, folder: Path, leak_gain: float | None = None,
                       rate: float | None = None) -> Spoken:
    """An English game heard by PocketSphinx from the microphone; `leak_gain`: the speaker heard by the
    microphone that much quieter (0.1: -20 dB); `rate`: the speed of the program's voice."""
    folder.mkdir(parents=True, exist_ok=True)
    module = server.leak(leak_gain) if leak_gain is not None else None
    env = {**os.environ, **server.environment(), **home_env(folder, rate), "PYTHONUNBUFFERED": "1"}
    save = folder / "game.json"
    process = subprocess.Popen(game_command("en", save, "--engine", "sphinx", "--voice", "tts", "--no-earcons"),
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                               encoding="utf-8", env=env)
    result = Spoken()
    reader = threading.Thread(target=lambda: result.printed.extend(line.rstrip("\n") for line in process.stdout or ()),
                              daemon=True)
    reader.start()
    recorder = server.record()
    try:
        player = _Microphone(server, folder, result.printed, recorder.recording, result, save)
        player.wait_question(0.0)
        for text, expected in SPOKEN:
            player.command(text, expected)
        time.sleep(LISTENING_WINDOW_S)
    finally:
        recorder.stop()
        process.terminate()  # it then says where the game is saved (a folder's name letter by letter): let it
        try:
            process.wait(STOP_WAIT_S)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        reader.join(5)
        if module is not None:
            server.unload(module)
    result.moves = _saved_moves(save)
    return result


def _saved_moves(save: Path) -> list[dict[str, Any]]:
    try:
        content = json.loads(save.read_text(encoding="utf-8"))["content"]["state"]
    except (OSError, ValueError, KeyError):
        return []
    return list(content.get("actions", []))


# ------------------------------------------------------------------------------------------- the bench

def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--langs", default="fr,en,es", help="languages, comma separated (default all)")
    parser.add_argument("--trials", type=int, default=10, help="typed commands and cuts per language (default 10)")
    parser.add_argument("--runs", type=int, default=1, help="scripted games per language (default 1)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def run(args: argparse.Namespace) -> int:
    langs = [lang.strip() for lang in args.langs.split(",") if lang.strip()]
    if any(lang not in SCRIPTS for lang in langs):
        raise BadInput(f"--langs: choose among {', '.join(SCRIPTS)}")
    with tempfile.TemporaryDirectory(prefix="companion-voice-") as folder:
        try:
            server = PrivateSoundServer(Path(folder) / "server").start()
        except SoundServerUnavailable as problem:
            raise BadInput(f"bench voice needs PulseAudio and its tools (install.sh installs them): "
                           f"{problem}") from None
        try:
            report = _measure(server, Path(folder), langs, args.trials, args.runs)
        finally:
            server.stop()
    if args.json:
        print(json.dumps(report, ensure_ascii=False))
    else:
        _print(report)
    return 0


def _measure(server: PrivateSoundServer, folder: Path, langs: list[str], trials: int, runs: int) -> dict[str, Any]:
    report: dict[str, Any] = {"targets": TARGETS, "languages": {}}
    first: list[float] = []
    cuts: list[float] = []
    for lang in langs:
        heard = [measure_heard(server, lang, folder / f"{lang}-heard-{run}") for run in range(runs)]
        stalled = measure_heard(server, lang, folder / f"{lang}-stalled", recognise=False, stall=STALL)
        timings = measure_terminal(server, lang, folder / f"{lang}-terminal", trials)
        first += timings.first_audio_ms
        cuts += timings.barge_in_ms
        report["languages"][lang] = {
            "heard": [round(h.ratio, 3) for h in heard], "printed_s": [round(h.printed_s, 1) for h in heard],
            "lines": [h.lines for h in heard], "lost": sum(len(h.lost) for h in heard),
            "lost_lines": [line for h in heard for line in h.lost],
            "misrecognised": sum(len(h.misrecognised) for h in heard),
            "stalled": {"heard": round(stalled.ratio, 3), "lost": len(stalled.lost), "stalls": stalled.stalls},
            "first_audio_ms": _summary(timings.first_audio_ms), "barge_in_ms": _summary(timings.barge_in_ms),
            "cuts_missed": timings.missed}
    spoken = measure_spoken_cuts(server, folder / "spoken-cuts", trials)
    report["spoken_cuts"] = {"said": _summary(spoken.barge_in_ms), "missed": spoken.missed,
                             "answered": spoken.answered}
    plain = measure_microphone(server, folder / "microphone")
    leaking = measure_microphone(server, folder / "leaking", leak_gain=0.1)
    report["microphone"] = {"moves_as_said": plain.as_said, "said": plain.said, "read_backs": plain.read_backs,
                            "own_voice_taken": len(plain.unprompted)}
    report["leaking_room"] = {"moves_as_said": leaking.as_said, "said": leaking.said,
                              "read_backs": leaking.read_backs, "own_voice_taken": len(leaking.unprompted),
                              "lines": leaking.unprompted}
    report["first_audio_ms"] = _summary(first)
    report["barge_in_ms"] = _summary(cuts)
    report["load"] = round(os.getloadavg()[0], 2)
    return report


def _summary(values: list[float]) -> dict[str, Any]:
    if not values:
        return {"n": 0}
    return {"n": len(values), "p50": round(percentile(values, 0.5), 1), "p95": round(percentile(values, 0.95), 1),
            "max": round(max(values), 1)}


def _print(report: dict[str, Any]) -> None:
    targets = report["targets"]
    for lang, item in report["languages"].items():
        print(f"{lang}: heard {', '.join(f'{100 * r:.1f}%' for r in item['heard'])} of "
              f"{', '.join(str(s) for s in item['printed_s'])} s printed (target >= {100 * targets['heard']:.0f}%); "
              f"lines {item['lines']}, lost or out of order {item['lost']}, misrecognised "
              f"{item['misrecognised']}; first audio {_said(item['first_audio_ms'])}; barge-in "
              f"{_said(item['barge_in_ms'])}, cuts missed {item['cuts_missed']}")
        stalled = item["stalled"]
        print(f"{lang}, its speech process stopped {STALL[0]} s every {STALL[1]:.0f} s ({stalled['stalls']} times): "
              f"heard {100 * stalled['heard']:.1f}%, lines lost or out of order {stalled['lost']}")
    print(f"all: first audio {_said(report['first_audio_ms'])} (target p95 <= {targets['first_audio_p95_ms']:.0f} ms); "
          f"barge-in silence {_said(report['barge_in_ms'])} (target p95 <= {targets['barge_in_p95_ms']:.0f} ms)")
    spoken = report["spoken_cuts"]
    print(f"stop said over the speech, with --barge-in: silence {_said(spoken['said'])}, cuts missed "
          f"{spoken['missed']}, lines said after it {len(spoken['answered'])} (should be 0)")
    for name, label in (("microphone", "microphone"), ("leaking_room", "leaking room (-20 dB)")):
        item = report[name]
        print(f"{label}: moves as said {item['moves_as_said']} ({item['said']} utterances, {item['read_backs']} "
              f"read back), own voice taken for a command {item['own_voice_taken']} (target 0)")
    print(f"load average at the end: {report['load']}")


def _said(summary: dict[str, Any]) -> str:
    return "none" if not summary.get("n") else f"p50 {summary['p50']} ms, p95 {summary['p95']} ms, n {summary['n']}"
