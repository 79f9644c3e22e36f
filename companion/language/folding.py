"""The one text normaliser: how sentences, grammar templates, number words, sticker descriptions and rules
topics are compared.

A text becomes words: lower case, accents removed, ligatures spelled out ("œ" → "oe"), split on anything that
is not a letter or a digit (spaces, punctuation, apostrophes, hyphens). Each word keeps its span in the
original text, so that a name can be given back as the player wrote it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

WORD = re.compile(r"[^\W_]+")
_LIGATURES = str.maketrans({"œ": "oe", "Œ": "oe", "æ": "ae", "Æ": "ae", "ß": "ss"})

Phrase = tuple[str, ...]


def fold_word(word: str) -> str:
    """A word as it is compared: lower case, no accents, ligatures spelled out."""
    decomposed = unicodedata.normalize("NFKD", word.translate(_LIGATURES))
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


@dataclass(frozen=True)
class Folded:
    """A sentence as words for matching, each with its span in the original text."""

    original: str
    words: tuple[str, ...]
    spans: tuple[tuple[int, int], ...]

    @property
    def text(self) -> str:
        return " ".join(self.words)

    def without(self, phrases: Iterable[Phrase]) -> Folded:
        """The same sentence with every occurrence of the given word sequences removed (see `without`)."""
        kept = _kept(self.words, phrases)
        if len(kept) == len(self.words):
            return self
        return Folded(self.original, tuple(self.words[i] for i in kept), tuple(self.spans[i] for i in kept))

    def part(self, start: int, end: int) -> Folded:
        """Words start:end of the sentence."""
        return Folded(self.original, self.words[start:end], self.spans[start:end])

    def occurrences(self, phrases: Iterable[Phrase]) -> list[tuple[int, int]]:
        """The spans (start, end) of the given phrases in the sentence, read left to right, longest first."""
        return occurrences(self.words, phrases)

    def keeping(self, dropped: Iterable[tuple[int, int]]) -> Folded:
        """The sentence without the words of the given spans."""
        gone = {i for start, end in dropped for i in range(start, end)}
        kept = [i for i in range(len(self.words)) if i not in gone]
        return Folded(self.original, tuple(self.words[i] for i in kept), tuple(self.spans[i] for i in kept))

    def edge_cuts(self, phrases: Iterable[Phrase]) -> tuple[list[int], list[int]]:
        """Where the run of given phrases at the start of the sentence may end (0 first), and where the run at
        its end may begin (len(words) first), one phrase at a time, longest phrase first."""
        ordered = _longest_first(phrases)
        heads, tails = [0], [len(self.words)]
        while (phrase := next((p for p in ordered if self.words[heads[-1]:heads[-1] + len(p)] == p), None)):
            heads.append(heads[-1] + len(phrase))
        while (phrase := next((p for p in ordered if tails[-1] - len(p) >= heads[0]
                               and self.words[tails[-1] - len(p):tails[-1]] == p), None)):
            tails.append(tails[-1] - len(phrase))
        return heads, tails

    def original_words(self, start: int, end: int) -> str:
        """The original text behind words start:end."""
        return self.original[self.spans[start][0]:self.spans[end - 1][1]]


def fold(text: str) -> Folded:
    """A sentence split into folded words."""
    matches = list(WORD.finditer(text))
    return Folded(text, tuple(fold_word(m.group()) for m in matches), tuple(m.span() for m in matches))


def words(text: str) -> tuple[str, ...]:
    """The folded words of `text`."""
    return fold(text).words


def fold_phrase(text: str) -> str:
    """The folded words of `text`, joined by single spaces."""
    return fold(text).text


def without(tokens: Sequence[str], phrases: Iterable[Phrase]) -> tuple[str, ...]:
    """`tokens` with every occurrence of the phrases removed, longest phrase first.

    Removal repeats until nothing changes, so a filler said inside another ("s'il, euh, te plaît") goes too."""
    return tuple(tokens[i] for i in _kept(tokens, phrases))


def _longest_first(phrases: Iterable[Phrase]) -> tuple[Phrase, ...]:
    """The distinct non-empty phrases, longest first (the order every search for them follows)."""
    return _ordered(tuple(tuple(p) for p in phrases))


# Kept per set of phrases, with the phrases by their first word: a grammar's fillers are looked for three to five
# times in every sentence parsed, and sorting them and trying each at every word took about 15% of a parse under
# the profiler. Parsing every recogniser phrase of English Draftosaurus: 7.91 s against 8.35 s before.
@lru_cache(maxsize=64)
def _ordered(phrases: tuple[Phrase, ...]) -> tuple[Phrase, ...]:
    return tuple(sorted({p for p in phrases if p}, key=len, reverse=True))


@lru_cache(maxsize=64)
def _by_first_word(ordered: tuple[Phrase, ...]) -> dict[str, tuple[Phrase, ...]]:
    found: dict[str, list[Phrase]] = {}
    for phrase in ordered:
        found.setdefault(phrase[0], []).append(phrase)
    return {word: tuple(starting) for word, starting in found.items()}


def occurrences(words: Iterable[str], phrases: Iterable[Phrase]) -> list[tuple[int, int]]:
    """The spans (start, end) of the given phrases among `words` (folded or not, as the phrases are), read left
    to right, longest first."""
    return _occurrences(tuple(words), _longest_first(phrases))


def _occurrences(tokens: tuple[str, ...], ordered: tuple[Phrase, ...]) -> list[tuple[int, int]]:
    """The spans (start, end) of the phrases `ordered` (longest first) in `tokens`, read left to right."""
    starting = _by_first_word(ordered)
    found, index = [], 0
    while index < len(tokens):
        phrase = next((p for p in starting.get(tokens[index], ()) if tokens[index:index + len(p)] == p), None)
        if phrase is None:
            index += 1
        else:
            found.append((index, index + len(phrase)))
            index += len(phrase)
    return found


def _kept(tokens: Sequence[str], phrases: Iterable[Phrase]) -> list[int]:
    """The indices of the tokens left once the phrases are removed."""
    ordered = _longest_first(phrases)
    kept = list(range(len(tokens)))
    while spans := _occurrences(tuple(tokens[i] for i in kept), ordered):
        gone = {i for start, end in spans for i in range(start, end)}
        kept = [k for position, k in enumerate(kept) if position not in gone]
    return kept
