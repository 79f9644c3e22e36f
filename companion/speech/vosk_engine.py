"""Vosk (Kaldi), constrained by the game's phrase list for each dialogue state.

Confidence: Vosk gives each word a posterior probability from its lattice; the utterance's confidence is
the lowest of them, halved when part of the utterance was heard only as an unknown word ("[unk]").
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from companion.language.reading import path_reader
from companion.language.recognition_grammar import UNKNOWN_WORD
from companion.speech.audio import SAMPLE_RATE
from companion.speech.base import Unavailable
from companion.speech.recogniser import Recogniser, Recognition
from companion.speech.vosk_phrases import vosk_phrases

UNKNOWN_PENALTY = 0.5


class VoskRecogniser(Recogniser):
    """A Vosk model with one grammar-constrained KaldiRecognizer per (dialogue state, player names)."""

    name = "vosk"

    def __init__(self, lang: str, game: str, model_path: Path):
        try:
            import vosk
        except (ImportError, OSError) as error:
            raise Unavailable("no_vosk", str(error)) from error
        vosk.SetLogLevel(-2)  # warnings off too: missing words are reported by the listener, in words
        self.vosk = vosk
        self.lang, self.game, self.model_path = lang, game, Path(model_path)
        try:
            self.model = vosk.Model(str(model_path))
        except Exception as error:  # vosk raises a bare Exception
            raise Unavailable("vosk_model_broken", str(error), path=str(model_path)) from error
        self.recognisers: dict[tuple[str, tuple[str, ...]], Any] = {}  # vosk.KaldiRecognizer
        self.current: Any = None
        self.segments: list[dict[str, Any]] = []
        self.unknown_to_model: set[str] = set()

    def describe(self) -> str:
        return self.model_path.name

    def unknown_words(self) -> set[str]:
        return set(self.unknown_to_model)

    def use_grammar(self, state: str, player_names: Sequence[str] = ()) -> None:
        key = (state, tuple(player_names))
        if key not in self.recognisers:
            phrases = vosk_phrases(self.game, self.lang, state, key[1])
            words = {w for p in phrases for w in p.split()} - {UNKNOWN_WORD}  # each looked up once
            self.unknown_to_model |= {w for w in words if self.model.vosk_model_find_word(w) < 0}
            recogniser = self.vosk.KaldiRecognizer(self.model, SAMPLE_RATE, json.dumps(phrases, ensure_ascii=False))
            recogniser.SetWords(True)
            self.recognisers[key] = recogniser
            path_reader(self.game, self.lang, *key)  # what its words mean is read there: ready before they are said
        self.current = self.recognisers[key]

    def start(self) -> None:
        self.current.Reset()
        self.segments = []

    def accept(self, frame: bytes) -> None:
        if self.current.AcceptWaveform(frame):  # Vosk ended a segment at a pause of its own
            self.segments.append(json.loads(self.current.Result()))

    def finish(self) -> Recognition:
        self.segments.append(json.loads(self.current.FinalResult()))
        words = [w for segment in self.segments for w in segment.get("result", [])]
        known = [w for w in words if w.get("word") != UNKNOWN_WORD]
        if not known:
            return Recognition("", 0.0)
        confidence = min(float(w.get("conf", 0.0)) for w in known)
        if len(known) < len(words):
            confidence *= UNKNOWN_PENALTY
        return Recognition(" ".join(w["word"] for w in known), confidence)
