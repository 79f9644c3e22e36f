"""The closest sentence the grammar accepts, for a sentence it does not.

Used only when nothing matched: words unknown to the grammar are swapped for the closest known
words (or dropped), then single known words are tried the same way. The result is a suggestion
for the caller to offer the player, never a decision.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import islice, product
from typing import TYPE_CHECKING

from companion.language.text import Folded, fold

if TYPE_CHECKING:
    from companion.language.grammar import GameGrammar

CLOSE_ENOUGH = 0.72
CHOICES_PER_WORD = 3
MAX_TRIES = 64
MAX_WORDS = 24  # the longest example sentence has 13 words: a suggestion is looked for in the first 24 only
DROP = ""  # stands for "leave this word out"


def suggest(folded: Folded, grammar: GameGrammar, state: str, players: tuple[str, ...]) -> str | None:
    """The closest accepted sentence, spelled as the grammar writes it, or None."""
    words = (folded.without(grammar.skip_phrases).words or folded.words)[:MAX_WORDS]
    if not words:
        return None
    known = grammar.vocabulary | {w for name in players for w in fold(name).words}
    for attempt in _attempts(words, known, grammar):
        if attempt != words and attempt and _accepted(attempt, grammar, state, players):
            return _spell(attempt, folded, grammar, players)
    return None


def _attempts(words: tuple[str, ...], known: frozenset[str], grammar: GameGrammar) -> Iterator[tuple[str, ...]]:
    """Corrected word sequences, most likely first: unknown words fixed, one word changed, ends cut."""
    choices = [[w] if w in known else [*_close_words(w, grammar), DROP] for w in words]
    yield from islice((_joined(c) for c in product(*choices)), MAX_TRIES)
    for index, word in enumerate(words):
        for other in (*_close_words(word, grammar), DROP):
            yield _joined((*words[:index], other, *words[index + 1:]))
    best = next(islice(product(*choices), 1), ())
    fixed = _joined(best) or words
    for cut in range(1, len(fixed) - 1):  # a garbled end ("... euh non attends"), then a garbled start
        yield fixed[:-cut]
    for cut in range(1, len(fixed) - 1):
        yield fixed[cut:]


def _joined(choice: Iterable[str]) -> tuple[str, ...]:
    return tuple(word for part in choice if part for word in part.split())


@lru_cache(maxsize=4096)
def _close_words_cached(word: str, vocabulary: frozenset[str]) -> tuple[str, ...]:
    return tuple(difflib.get_close_matches(word, vocabulary, n=CHOICES_PER_WORD, cutoff=CLOSE_ENOUGH))


def _close_words(word: str, grammar: GameGrammar) -> tuple[str, ...]:
    return _close_words_cached(word, grammar.vocabulary)


def _accepted(words: tuple[str, ...], grammar: GameGrammar, state: str, players: tuple[str, ...]) -> bool:
    from companion.language.grammar import _recognize

    text = " ".join(words)
    spans, offset = [], 0
    for word in words:
        spans.append((offset, offset + len(word)))
        offset += len(word) + 1
    return _recognize(Folded(text, words, tuple(spans)), grammar, state, players) is not None


def _spell(words: tuple[str, ...], folded: Folded, grammar: GameGrammar, players: tuple[str, ...]) -> str:
    """The suggestion as a player would write it: the player's own words where kept."""
    own = {w: folded.original[s[0]:s[1]] for w, s in zip(folded.words, folded.spans)}
    names = {fold(n).text: n for n in players}
    spelled = [own.get(w) or names.get(w) or grammar.spellings.get(w, w) for w in words]
    return " ".join(spelled)
