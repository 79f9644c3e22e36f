"""The phrase list Vosk listens with in a dialogue state, and the sizes of each state's recogniser grammars.

Vosk learns a bigram model from the phrases it is given (two words of context, half of each state's probability
kept for backing off to single words: vosk-api's Recognizer::UpdateGrammarFst): a pair of words that no phrase
holds is as likely as any pair the grammar forbids. The phrases are sentences of the state's automaton with meaning
(the one every recogniser's words are read on) that hold every pair of words the grammar lets follow one another
(fsg.covering_sentences). The phrases written from the word trees before, each alternative and list value once,
held 13 to 24% of those pairs (French Draftosaurus `turn`: 3,472 of 27,335; Dino Spanish `turn`: 3,219 of 14,486).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import cache, lru_cache, partial
from pathlib import Path

from companion.language.recognition_grammar import UNKNOWN_WORD, free_text_phrases, jsgf, vocabulary
from companion.paths import cache_home, digest_of, forget_oldest, keep_checked, read_checked
from companion.speech.fsg import covering_sentences, spoken_words
from companion.speech.kept_arrays import code_digest
from companion.speech.kept_automata import ArcTable, meant_arcs

FOLDER = "vosk"
FORMAT = b"companion-vosk-phrases 1"
MOST_FILES = 48


def vosk_phrases(game: str, lang: str, state: str, player_names: Sequence[str] = ()) -> list[str]:
    """Phrases for Vosk's KaldiRecognizer (as a JSON list), ending with "[unk]": sentences that hold every pair of
    words of the state's grammar, a filler before and after a command included, then its templates of free text
    with "[unk]" for the free text (recognition_grammar.free_text_phrases)."""
    return list(_vosk_phrases(game, lang, state, tuple(player_names)))


@lru_cache(maxsize=64)
def _vosk_phrases(game: str, lang: str, state: str, player_names: tuple[str, ...]) -> tuple[str, ...]:
    phrases = dict.fromkeys(_covering(meant_arcs(game, lang, state, player_names)))
    phrases.update(dict.fromkeys(free_text_phrases(game, lang, state, player_names)))
    return (*phrases, UNKNOWN_WORD)


def _covering(meant: ArcTable) -> list[str]:
    """The sentences of an automaton with meaning that hold every pair of its words (fsg.covering_sentences): read
    from the cache folder when made before from the same automaton, else made and kept there. Made, they took 0.1
    to 0.5 s for a Draftosaurus state (French `any`: 0.9 s with the automaton's words made minimal first)."""
    code = _code()
    if code is None:
        return _made(meant)
    key = digest_of(code, meant.digest().encode())
    kept, check = cache_home() / FOLDER / f"{key.hex()[:32]}.json", partial(digest_of, key)
    found = read_checked(kept, check)
    with suppress(ValueError):  # a file that is no list of phrases is made again
        phrases = None if found is None else json.loads(found.decode("utf-8"))
        if isinstance(phrases, list) and all(isinstance(phrase, str) for phrase in phrases):
            return phrases
    made = _made(meant)
    keep_checked(kept, check, json.dumps(made, ensure_ascii=False).encode("utf-8"))
    forget_oldest(kept.parent, "*.json", MOST_FILES)
    return made


def _made(meant: ArcTable) -> list[str]:
    return [" ".join(sentence) for sentence in covering_sentences(spoken_words(meant.automaton()))]


@cache
def _code() -> bytes | None:
    """The digest of our code that makes the phrases; None where its sources are not installed."""
    return code_digest(FORMAT, Path(__file__).parent, ("fsg.py", "vosk_phrases.py"))


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
