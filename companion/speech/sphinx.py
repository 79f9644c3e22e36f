"""PocketSphinx, constrained by the game's grammar for each dialogue state.

English works out of the box with the US English model inside the pocketsphinx package; another language
needs a model folder (an acoustic model folder with `mdef`, and a `.dict` pronunciation dictionary).
The words of the state's automaton with meaning (companion.language.kept_automata, the one every recogniser's
words are read on) are made a minimal word automaton first (see companion.speech.fsg).

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

Borrowed model. French and Spanish have no pocketsphinx model here; with `borrow`, such a language is heard
with the US English acoustic model, its grammar words given espeak-ng's phonemes for that language mapped
onto the English phone set (companion.speech.pronounce): a dictionary of the game's words is written at
start-up, and players' names are guessed the same way. It is approximate, and measured by `companion bench
listen --lang fr|es`.

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
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

from companion.language.kept_automata import meant_arcs
from companion.language.reading import path_reader
from companion.language.recognition_grammar import (
    MissingWords,
    pronunciations,
    slot_meanings,
    spelling,
    vocabulary,
)
from companion.speech.audio import SAMPLE_RATE
from companion.speech.base import Unavailable
from companion.speech.fsg import compiled_fsg, spoken_words
from companion.speech.path_meaning import intents_saying
from companion.speech.phonetic import ESPEAK_VOICES
from companion.speech.pronounce import guess_pronunciations
from companion.speech.recogniser import Recogniser, Recognition
from companion.speech.rivals import RivalSearch
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
# What changes the game but has no word of meaning to weigh against its rivals: its rival is the best sentence
# of the state's grammar without any meaning its words may have, heard on the whole utterance (see
# companion.speech.rivals). Words that may be an undo or a no ("cancel the last") are checked too: the rival
# of a "no" is never weighed (companion.dialogue.session.rival_margin), but an undo heard there is.
WHOLE_SENTENCE_CHECKED = frozenset({"undo", "redo", "yes"})
# Only the sentences at most this many words longer than the one heard are its rivals: a long sentence does not
# fit a short utterance, and the whole grammar of a player's turn, searched a second time, cost 60 MB more.
RIVAL_EXTRA_WORDS = 2
# A state's own search takes 3 MB (a yes or no) to 80 MB (a player's turn in the 2-player variant, with its
# discard) and 90 to 400 ms to load again from the cache, a search without some intents as much (a turn without
# its undo: 71 MB); the decoder itself 69 MB. pocketsphinx gives the memory of a search it drops to the next.
# Kept all, the states of one Draftosaurus game came to 532 MB. `bench listen` (400 utterances in 13 states,
# seed 1; the same outcome for each utterance, its decode p95 per 3 s 436 and 437 ms): 462 MB keeping 3 states and
# 3 searches without intents, 394 MB with 3 and 1, 329 MB with 2 and 1 (chosen: a turn and its die stay, a
# read-back loads the die again).
RIVAL_SEARCHES_KEPT = 1
STATE_SEARCHES_KEPT = 2
# A search's key: its state and players, then, for a search without some intents, those intents and the most
# words of its sentences.
SearchKey = tuple[str, tuple[str, ...]] | tuple[str, tuple[str, ...], tuple[str, ...], int | None]


def model_files(lang: str, model: Path | None = None, borrow: bool = False) -> tuple[Path, Path | None, str]:
    """The acoustic model folder, the dictionary and a display name; Unavailable when there are none. With
    `borrow`, a language without a model of its own borrows another's (voice.yaml's sphinx_borrowed_model), and
    there is no dictionary (see "Borrowed model" above)."""
    try:
        import pocketsphinx
    except ImportError as error:
        raise Unavailable("no_sphinx", str(error)) from error
    if model is None:
        settings = voice_settings(lang)
        name = settings.sphinx_model or (settings.sphinx_borrowed_model if borrow else None)
        if not name:
            raise Unavailable("no_sphinx_model", lang=lang)
        base = Path(pocketsphinx.get_model_path()) / name
        return base / name, base / f"cmudict-{name}.dict" if settings.sphinx_model else None, name
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

    def __init__(self, lang: str, game: str, *, model: Path | None = None, borrow: bool = False,
                 rivals: bool = True):
        from pocketsphinx import Decoder

        self.lang, self.game = lang, game
        acoustic, dictionary, self.model_name = model_files(lang, model, borrow)
        self.borrowed = dictionary is None
        self.espeak_voice = ESPEAK_VOICES[lang] if self.borrowed else "en-us"
        with tempfile.TemporaryDirectory(prefix="companion-sphinx-") as folder:
            if dictionary is None:
                dictionary = self._borrowed_dictionary(Path(folder) / "words.dict")
            try:  # no lattice pass ("bestpath"): on grammar searches it took seconds and spoilt good results
                self.decoder = Decoder(hmm=str(acoustic), dict=str(dictionary), lm=None, loglevel="FATAL",
                                       samprate=SAMPLE_RATE, bestpath=False, beam=STATE_BEAM, pbeam=PHONE_BEAM,
                                       wbeam=WORD_END_BEAM, maxhmmpf=MAX_ACTIVE_HMMS, wip=WORD_PENALTY)
            except (RuntimeError, ValueError) as error:
                raise Unavailable("no_sphinx_model", str(error), lang=lang) from error
        self._add_pronunciations()
        self.searches: dict[SearchKey, str] = {}
        self.made = 0  # searches made so far, which names the next
        self.rival_searches: list[SearchKey] = []  # keys of the searches without some intents, the latest last
        self.state_searches: list[SearchKey] = []  # keys of the states' own searches, the latest last
        self.speaker: str | None = None
        self.voice_means: dict[str, str] = {}
        self.hiss = np.random.default_rng(0)
        self.rival_search = RivalSearch(self.decoder) if rivals else None
        self.grammar: tuple[str, tuple[str, ...]] = ("", ())
        self.audio: list[bytes] = []

    def describe(self) -> str:
        if self.borrowed:
            from companion.language.messages import catalog

            messages = catalog(self.lang)
            return messages.say("speech.borrowed_model", model=self.model_name,
                                language=messages.say(f"speech.languages.{self.lang}"))
        return self.model_name

    def _borrowed_dictionary(self, path: Path) -> Path:
        """A dictionary of the game's words in this language, as espeak-ng says them (see "Borrowed model")."""
        words = vocabulary(self.game, self.lang, "any")
        guessed = guess_pronunciations(words, self.espeak_voice)
        if not guessed:
            raise Unavailable("no_sphinx_model", "espeak-ng is needed to say the words", lang=self.lang)
        path.write_text("".join(f"{w} {p}\n" for w, p in sorted(guessed.items())), encoding="utf-8")
        return path

    def _add_words(self, entries: Iterable[tuple[str, str]]) -> None:
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
        guessed = guess_pronunciations(unknown, self.espeak_voice)
        missing = sorted(set(unknown) - set(guessed))
        if missing:
            raise MissingWords(missing, "the pocketsphinx dictionary")
        self._add_words(guessed.items())

    def use_grammar(self, state: str, player_names: Sequence[str] = ()) -> None:
        key = (state, tuple(player_names))
        if key not in self.searches:
            self._ensure_vocabulary(*key)
            path_reader(self.game, self.lang, *key)  # what its words mean is read there: ready before they are said
        self.grammar = key
        self.decoder.activate_search(self._search(*key))

    def _search(self, state: str, player_names: tuple[str, ...], without: frozenset[str] = frozenset(),
                max_words: int | None = None) -> str:
        """The grammar search of a state (its intents `without` left out, its sentences of at most `max_words`
        words), made on first use; only the STATE_SEARCHES_KEPT states and RIVAL_SEARCHES_KEPT searches without
        some intents used last stay."""
        key = (state, player_names) if not without else (state, player_names, tuple(sorted(without)), max_words)
        if key not in self.searches:
            search = f"s{self.made}"
            self.made += 1
            meant = meant_arcs(self.game, self.lang, state, player_names)
            path = compiled_fsg(f"{meant.digest()} {sorted(without)}", search,
                                lambda: spoken_words(meant.automaton(), without), max_words)
            self.decoder.add_fsg(search, self.decoder.read_fsg(str(path)))
            self.searches[key] = search
        if without:
            self._keep_recent(self.rival_searches, key, RIVAL_SEARCHES_KEPT)
        else:
            self._keep_recent(self.state_searches, key, STATE_SEARCHES_KEPT)
        return self.searches[key]

    def _keep_recent(self, kept: list[SearchKey], key: SearchKey, limit: int) -> None:
        """`key` was just used: of the searches of `kept`, only the `limit` used last stay in the decoder."""
        kept[:] = [k for k in kept if k != key] + [key]
        while len(kept) > limit:
            self.decoder.remove_search(self.searches.pop(kept.pop(0)))

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
        self.audio = []
        self.decoder.start_utt()

    def accept(self, frame: bytes) -> None:
        heard = with_noise_floor(frame, self.hiss)
        self.audio.append(heard)
        self.decoder.process_raw(heard, False, False)

    def finish(self) -> Recognition:
        self.decoder.end_utt()
        best = self.decoder.hyp()
        text = clean_words(best.hypstr) if best is not None else ""
        if not text:
            return Recognition("", 0.0)
        return Recognition(text, self._confidence(), self._rivals() if self.rival_search is not None else ())

    def _rivals(self) -> tuple[tuple[str, float], ...]:
        """The heard sentence with each word of meaning replaced by its best rival, or for an undo, a redo, a
        yes or a no, the best sentence without it (see companion.speech.rivals)."""
        heard = [(_VARIANT.sub("", s.word), s.start_frame, s.end_frame) for s in self.decoder.seg() or ()
                 if not (_SILENCES.match(s.word) or _NOISES.match(s.word))]
        words = [w for w, _, _ in heard]
        audio = b"".join(self.audio)
        search = self.rival_search
        assert search is not None
        try:
            found = search.rivals(audio, words, [(a, b) for _, a, b in heard],
                                             slot_meanings(self.game, self.lang, *self.grammar))
            state, players = self.grammar
            saying = intents_saying(spelling(self.lang).words(" ".join(words)), game=self.game, lang=self.lang,
                                    state=state, player_names=players)
            if found or not saying & WHOLE_SENTENCE_CHECKED:
                return found
            return search.sentence_rival(audio, self._search(*self.grammar),
                                                    self._search(*self.grammar, saying, len(words) + RIVAL_EXTRA_WORDS),
                                                    sum(b - a + 1 for _, a, b in heard))
        finally:
            self.decoder.activate_search(self.searches[self.grammar])

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
