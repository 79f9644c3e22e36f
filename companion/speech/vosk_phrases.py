"""The phrase list Vosk listens with in a dialogue state, and the sizes of each state's recogniser grammars.

Vosk learns a bigram model from the phrases it is given (each word's likelihood given the word before it, half of
each word's probability kept for backing off to words alone: vosk-api's Recognizer::UpdateGrammarFst): a pair of
words that no phrase holds is as likely as any pair the grammar forbids. The phrases are sentences of the state's
automaton with meaning (the one every recogniser's words are read on) that hold every pair of words the grammar lets
follow one another (fsg.covering_sentences). The phrases written from the word trees before, each alternative and
list value once, held 12 to 33% of those pairs (median 22% of 93 states; French Draftosaurus `turn`: 3,472 of 27,335).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

import numpy as np

from companion.language.kept_arrays import code_digest, keep_archive, read_archive
from companion.language.kept_automata import ArcTable, meant_arcs
from companion.language.recognition_grammar import UNKNOWN_WORD, free_text_phrases, jsgf, vocabulary
from companion.paths import digest_of
from companion.speech.fsg import covering_sentences, spoken_words

FOLDER = "vosk"
FORMAT = b"companion-vosk-phrases 1, npz compressed"
MOST_FILES = 48
MOST_BYTES = 64 << 20  # unpacked, far above the largest (French Draftosaurus `any`: 0.6 MB)


def vosk_phrases(game: str, lang: str, state: str, player_names: Sequence[str] = ()) -> list[str]:
    """Phrases for Vosk's KaldiRecognizer (`vosk_grammar_json` writes them as its JSON list), ending with "[unk]":
    sentences that hold every pair of words of the state's grammar, a filler before and after a command included,
    then its templates of free text with "[unk]" for the free text (recognition_grammar.free_text_phrases)."""
    return list(_vosk_phrases(game, lang, state, tuple(player_names)))


# Kept for the process as the automata are (kept_automata.meant_arcs): the largest list holds 2.8 MB.
@lru_cache(maxsize=16)
def _vosk_phrases(game: str, lang: str, state: str, player_names: tuple[str, ...]) -> tuple[str, ...]:
    phrases = dict.fromkeys(_covering(meant_arcs(game, lang, state, player_names)))
    phrases.update(dict.fromkeys(free_text_phrases(game, lang, state, player_names)))
    return (*phrases, UNKNOWN_WORD)


def _covering(meant: ArcTable) -> list[str]:
    """The sentences of an automaton with meaning that hold every pair of its words (fsg.covering_sentences): read
    from the cache folder when made before from the same automaton, else made and kept there. Made in 154 ms
    (median of the Draftosaurus, Jurassic Snack and Dino states; 775 ms at most), read back in a few."""
    code = _code()
    key = None if code is None else digest_of(code, meant.digest().encode())
    found = None if key is None else read_archive(FOLDER, key, (), MOST_BYTES, _phrases)
    if found is not None:
        return found
    made = [" ".join(sentence) for sentence in covering_sentences(spoken_words(meant.automaton()))]
    if key is not None:
        keep_archive(FOLDER, key, {}, made, MOST_FILES)
    return made


def _phrases(arrays: dict[str, np.ndarray], header: Any) -> list[str] | None:
    """The phrases a kept file holds, when it holds a list of them."""
    return header if isinstance(header, list) and all(isinstance(phrase, str) for phrase in header) else None


@cache
def _code() -> bytes | None:
    """The digest of our code that makes the phrases; None where its sources are not installed."""
    return code_digest(FORMAT, ("speech/fsg.py", "language/automaton.py", "speech/vosk_phrases.py",
                                "language/kept_arrays.py"))


def vosk_grammar_json(game: str, lang: str, state: str, player_names: Sequence[str] = ()) -> str:
    return json.dumps(vosk_phrases(game, lang, state, player_names), ensure_ascii=False)


@dataclass(frozen=True)
class GrammarSize:
    game: str
    lang: str
    state: str
    words: int
    phrases: int
    jsgf_bytes: int

    def to_json(self) -> dict[str, object]:
        return dict(self.__dict__)


def grammar_sizes(game: str, langs: Iterable[str], game_states: Iterable[str] | None = None,
                  player_names: Sequence[str] = ()) -> list[GrammarSize]:
    """Vocabulary size, Vosk phrase count and JSGF size for each language and state."""
    from companion.language.grammar import states

    sizes = []
    for lang in langs:
        for state in game_states or states(game):
            phrases = vosk_phrases(game, lang, state, player_names)
            sizes.append(GrammarSize(game, lang, state, len(vocabulary(game, lang, state, player_names)),
                                     len(phrases), len(jsgf(game, lang, state, player_names).encode())))
    return sizes
