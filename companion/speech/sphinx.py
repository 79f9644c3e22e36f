"""PocketSphinx, constrained by the game's JSGF grammar for each dialogue state.

English works out of the box with the US English model inside the pocketsphinx package; another language
needs a model folder (an acoustic model folder with `mdef`, and a `.dict` pronunciation dictionary).
The JSGF grammar is compiled into a minimal word automaton first (see companion.speech.fsg).

Confidence. pocketsphinx scores each frame against the best-scoring sound unit of that frame, so the
acoustic score per frame of the recognised words says how far the grammar forced the audio away from what
it sounded most like (0 = a perfect fit). That average fit goes through a logistic curve (FIT_MIDPOINT,
FIT_SPREAD), then is multiplied by the share of the utterance heard as words rather than as noise. On 920
synthesised commands, a confidence below 0.6 (which asks the player to confirm) caught 15 of the 40 misheard
commands while asking about 58 of the 880 well-heard ones; moves are read back below 0.75 (see
companion.speech.base).

Search. With pocketsphinx's default beams, an utterance that sounds unlike every sentence of the grammar (a
short command in a voice not heard before, say) could lose every path that ends a sentence to pruning, and
then nothing at all was heard; and a word cost much, so short commands came out as longer, wrong sentences
with small words in them. Wider beams, a tighter cap on the sound units followed per frame (which keeps the
decoding time close to what it was) and a cheaper word: on 920 synthesised commands, 93.8% understood with the
defaults, 95.7% with these; on 920 others (400 new commands, 120 as players write them, 400 in room noise)
88.2% and 89.3% (the sentences as players write them: 85.8% and 83.3%); on 200 questions about the rules,
87.5% and 90.5%. With the wider search the fit per frame of well-heard commands came out lower (median -29
before, -35 now), hence a lower FIT_MIDPOINT than before (-50).

Digital silence. A microphone always hisses a little, but audio files, synthesised speech and systems that
gate or suppress noise give runs of exact zeros, on which pocketsphinx's noise tracking and mean
normalisation go wrong. So a fixed, quiet hiss (NOISE_FLOOR_DBFS, about that of a quiet microphone) is
added to every frame before decoding; it is drawn from the same seed at each utterance, so the same audio is
always heard the same way. On 920 synthesised commands, 92.4% were understood without it and 93.8% with it;
on commands already in room noise (20 dB below the speech) it changed nothing.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from companion.language.recognition_grammar import MissingWords, jsgf, pronunciations, vocabulary
from companion.speech.audio import SAMPLE_RATE
from companion.speech.base import Unavailable
from companion.speech.fsg import compiled_fsg
from companion.speech.pronounce import guess_pronunciations
from companion.speech.recogniser import Recogniser, Recognition
from companion.speech.voice import voice_settings

# How the grammar search prunes (see "Search" above): paths this much less likely than the best one are
# dropped (pocketsphinx's defaults: 1e-48 within and between sounds, 7e-29 at word ends), at most
# MAX_ACTIVE_HMMS sound units are followed per 10 ms frame, and each word costs WORD_PENALTY (default 0.65).
STATE_BEAM = 1e-60
PHONE_BEAM = 1e-60
WORD_END_BEAM = 1e-40
MAX_ACTIVE_HMMS = 1000
WORD_PENALTY = 0.1
NOISE_FLOOR_DBFS = -60.0  # loudness (RMS) of the added hiss, in dB relative to full scale
_HISS_RMS = 10 ** (NOISE_FLOOR_DBFS / 20) * 32768  # the same, in 16-bit sample units
FIT_MIDPOINT = -55.0   # average score per frame (decoder log units) at which the confidence is 0.5
FIT_SPREAD = 6.0       # how quickly the confidence falls below the midpoint
_SILENCES = re.compile(r"^(<s>|</s>|<sil>|\(NULL\))$")
_NOISES = re.compile(r"^(\[.*\]|\+.*\+)$")
_VARIANT = re.compile(r"\(\d+\)$")


def model_files(lang: str, model: Path | None = None) -> tuple[Path, Path, str]:
    """The acoustic model folder, the dictionary and a display name; Unavailable when there are none."""
    try:
        import pocketsphinx
    except ImportError as error:
        raise Unavailable("no_sphinx", str(error)) from error
    if model is None:
        name = voice_settings(lang).sphinx_model
        if not name:
            raise Unavailable("no_sphinx_model", lang=lang)
        base = Path(pocketsphinx.get_model_path()) / name
        return base / name, base / f"cmudict-{name}.dict", name
    model = Path(model)
    acoustic = next((p.parent for p in sorted(model.rglob("mdef"))), None)
    dictionary = next(iter(sorted(model.rglob("*.dict"))), None)
    if acoustic is None or dictionary is None:
        raise Unavailable("no_sphinx_model", f"no mdef or .dict in {model}", lang=lang)
    return acoustic, dictionary, model.name


def clean_words(text: str) -> str:
    """A decoder hypothesis without silences, noises and pronunciation-variant marks."""
    return " ".join(_VARIANT.sub("", w) for w in text.split() if not (_SILENCES.match(w) or _NOISES.match(w)))


def with_noise_floor(frame: bytes, hiss: np.random.Generator) -> bytes:
    """16-bit samples with a quiet white hiss added (see "Digital silence" above)."""
    samples = np.frombuffer(frame, dtype="<i2").astype(np.float64)
    samples += hiss.standard_normal(len(samples)) * _HISS_RMS
    return np.clip(np.round(samples), -32768, 32767).astype("<i2").tobytes()


def word_fit(score_per_frame: float) -> float:
    exponent = max(-50.0, min(50.0, (score_per_frame - FIT_MIDPOINT) / FIT_SPREAD))
    return 1.0 / (1.0 + math.exp(-exponent))


class SphinxRecogniser(Recogniser):
    """pocketsphinx with one grammar search per (dialogue state, player names)."""

    name = "sphinx"

    def __init__(self, lang: str, game: str, *, model: Path | None = None):
        from pocketsphinx import Decoder

        self.lang, self.game = lang, game
        acoustic, dictionary, self.model_name = model_files(lang, model)
        try:  # no lattice pass ("bestpath"): on grammar searches it took seconds and spoilt good results
            self.decoder = Decoder(hmm=str(acoustic), dict=str(dictionary), lm=None, loglevel="FATAL",
                                   samprate=SAMPLE_RATE, bestpath=False, beam=STATE_BEAM, pbeam=PHONE_BEAM,
                                   wbeam=WORD_END_BEAM, maxhmmpf=MAX_ACTIVE_HMMS, wip=WORD_PENALTY)
        except (RuntimeError, ValueError) as error:
            raise Unavailable("no_sphinx_model", str(error), lang=lang) from error
        self._add_pronunciations()
        self.searches: dict[tuple[str, tuple[str, ...]], str] = {}
        self.speaker: str | None = None
        self.voice_means: dict[str, str] = {}
        self.hiss = np.random.default_rng(0)

    def describe(self) -> str:
        return self.model_name

    def _add_words(self, entries) -> None:
        """Add (word, phones) pairs the dictionary lacks; a known word gets the phones as a new variant."""
        added = []
        for word, phones in entries:
            base = _VARIANT.sub("", word)
            variants = [self.decoder.lookup_word(base)] + [
                self.decoder.lookup_word(f"{base}({n})") for n in range(2, 10)]
            if phones in variants:
                continue
            free = next((n for n, known in enumerate(variants, start=1) if known is None), None)
            if free is not None:
                added.append((base if free == 1 else f"{base}({free})", phones))
        for index, (word, phones) in enumerate(added):
            self.decoder.add_word(word, phones, index == len(added) - 1)

    def _add_pronunciations(self) -> None:
        """Our hand-written pronunciations, and espeak-ng's way of saying those same words as variants
        (names of dinosaurs have more than one accepted pronunciation)."""
        ours = pronunciations(self.lang)
        self._add_words(ours.items())
        self._add_words(guess_pronunciations(sorted({_VARIANT.sub("", w) for w in ours})).items())

    def _ensure_vocabulary(self, state: str, player_names: tuple[str, ...]) -> None:
        """Give every word of the grammar a pronunciation: from our list, else guessed (players' names)."""
        unknown = [w for w in vocabulary(self.game, self.lang, state, player_names)
                   if self.decoder.lookup_word(w) is None]
        guessed = guess_pronunciations(unknown)
        missing = sorted(set(unknown) - set(guessed))
        if missing:
            raise MissingWords(missing, "the pocketsphinx dictionary")
        self._add_words(guessed.items())

    def use_grammar(self, state: str, player_names: Sequence[str] = ()) -> None:
        key = (state, tuple(player_names))
        if key not in self.searches:
            self._ensure_vocabulary(*key)
            search = f"s{len(self.searches)}"
            grammar = jsgf(self.game, self.lang, state, key[1])
            self.decoder.add_fsg(search, self.decoder.read_fsg(str(compiled_fsg(self.decoder, grammar, search))))
            self.searches[key] = search
        self.decoder.activate_search(self.searches[key])

    def expect_speaker(self, name: str | None) -> None:
        """Start from the expected player's own cepstral mean (how their voice sounds through this microphone,
        on average), learnt from what they said before; pocketsphinx otherwise starts from the last voice it
        heard, another player's. On 400 synthesised commands in ten voices, this understood 2% more."""
        if self.speaker is not None:
            self.voice_means[self.speaker] = self.decoder.get_cmn()
        self.speaker = name
        if name in self.voice_means:
            self.decoder.set_cmn(self.voice_means[name])

    def start(self) -> None:
        self.hiss = np.random.default_rng(0)
        self.decoder.start_utt()

    def accept(self, frame: bytes) -> None:
        self.decoder.process_raw(with_noise_floor(frame, self.hiss), False, False)

    def finish(self) -> Recognition:
        self.decoder.end_utt()
        best = self.decoder.hyp()
        text = clean_words(best.hypstr) if best is not None else ""
        if not text:
            return Recognition("", 0.0)
        return Recognition(text, self._confidence())

    def _confidence(self) -> float:
        logmath = self.decoder.logmath
        words: list[tuple[str, int, float]] = []
        noise_frames = 0
        for segment in self.decoder.seg() or ():
            frames = segment.end_frame - segment.start_frame + 1
            if _NOISES.match(segment.word):
                noise_frames += frames
            elif not _SILENCES.match(segment.word) and frames > 0:
                score = logmath.log(segment.ascore) if segment.ascore > 0 else -1e9
                words.append((segment.word, frames, score / frames))
        if not words:
            return 0.0
        word_frames = sum(frames for _, frames, _ in words)
        mean_fit = sum(frames * fit for _, frames, fit in words) / word_frames
        return word_fit(mean_fit) * word_frames / (word_frames + noise_frames)
