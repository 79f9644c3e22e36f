"""The closest sentence the grammar accepts, for a sentence it does not.

Used only when nothing matched: words unknown to the grammar are swapped for the closest known
words (or dropped), then single known words are tried the same way. A word that carries a meaning
(a species, a pen, a face, a player's name: see GameGrammar.meaning_words) is never dropped or
changed, so that a guess cannot turn one pen into another ("prado del amor" is not "prado"). The
result is a suggestion for the caller to offer the player, never a decision.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from functools import lru_cache
from itertools import islice, product
from typing import TYPE_CHECKING

from companion.language.folding import Folded, fold

if TYPE_CHECKING:
    from companion.language.grammar import GameGrammar

CLOSE_ENOUGH = 0.72
CHOICES_PER_WORD = 3
MAX_TRIES = 64
MAX_WORDS = 24  # the longest example sentence has 13 words: a suggestion is looked for in the first 24 only
DROP = ""  # stands for "leave this word out"


MAX_NAME_WORDS = 3  # a name said where a player's goes ("Zoé", "Bot 7", "Marie Claire")


def guess(folded: Folded, grammar: GameGrammar, state: str, players: tuple[str, ...]) -> tuple[str | None, str | None]:
    """What to offer for a sentence nothing matched: a suggestion (a sentence of the grammar), or the name
    said where a player's goes that is nobody's (it is not dropped: the player hears who the players are).

    A sentence understood in another language of the game is offered in the game's own ("undo" in a
    Spanish game: "deshacer"); a name close to a player's is offered as that player's ("Brono": Bruno)."""
    from companion.language.grammar import _match

    translated = _in_other_language(folded, grammar, state, players)
    if translated is not None:
        return translated, None
    suggestion = suggest(folded, grammar, state, players)
    stranger = _stranger(folded, grammar, state, players)
    if stranger is None:
        return suggestion, None
    name, meaning = stranger
    if suggestion is not None and _match(fold(suggestion), grammar, state, players) != meaning:
        return suggestion, None  # the guess reads the words otherwise than as a name ("tricératop" is no name)
    return None, name


def _in_other_language(folded: Folded, grammar: GameGrammar, state: str, players: tuple[str, ...]) -> str | None:
    """The sentence of the game's language for what another language's grammar understands. Only a sentence
    whose every word that language's grammar knows is parsed in it: loading a grammar takes a while."""
    from companion.language.grammar import _match, load_grammar, words_known
    from companion.language.messages import LANGUAGES

    names = {word for player in players for word in fold(player).words}
    for lang in LANGUAGES:
        if lang == grammar.lang or not set(folded.words) - names <= words_known(grammar.game, lang):
            continue
        found = _match(folded, load_grammar(grammar.game, lang), state, players)
        if found is not None:
            from companion.language.saying import saying  # hassil reads the templates: only when needed

            return saying(grammar.game, grammar.lang, state, found[0], found[1], players)
    return None


def _stranger(folded: Folded, grammar: GameGrammar, state: str,
              players: tuple[str, ...]) -> tuple[str, tuple[str, dict[str, str | int]]] | None:
    """The name said where a player's goes, if the sentence is understood with any words there and they are
    not a player's, with what the sentence means without it."""
    from companion.language.grammar import PLAYER_LIST, _match

    found = next((found for most in range(1, MAX_NAME_WORDS + 1)  # the shortest name that makes sense of it
                  if (found := _match(folded, grammar, state, players, strangers=most)) is not None), None)
    if found is None:
        return None
    intent, slots = found
    name = slots.get(PLAYER_LIST)
    said = fold(str(name)).words if isinstance(name, str) else ()
    names = {word for player in players for word in fold(player).words}
    if not said or len(said) >= len(folded.words) or any(fold(player).words == said for player in players) or any(
            word in grammar.vocabulary and not word.isdigit() and word not in names for word in said):
        return None  # a name holds no word of the grammar, but for a number or a word of a player's ("Bot 7")
    return str(name), (intent, {slot: value for slot, value in slots.items() if slot != PLAYER_LIST})


def suggest(folded: Folded, grammar: GameGrammar, state: str, players: tuple[str, ...]) -> str | None:
    """The closest accepted sentence, spelled as the grammar writes it, or None."""
    from companion.language.grammar import fillers

    words = (folded.without(fillers(grammar, players)).words or folded.words)[:MAX_WORDS]
    if not words:
        return None
    names = frozenset(w for name in players for w in fold(name).words)
    known = grammar.vocabulary | names
    kept = grammar.meaning_words | names
    for attempt in _attempts(words, known, kept, grammar, names):
        if attempt != words and attempt and _accepted(attempt, grammar, state, players):
            return _spell(attempt, folded, grammar, players)
    return None


def _attempts(words: tuple[str, ...], known: frozenset[str], kept: frozenset[str], grammar: GameGrammar,
              names: frozenset[str]) -> Iterator[tuple[str, ...]]:
    """Corrected word sequences, most likely first: unknown words fixed, one word changed, ends cut; the words
    of `kept` stay as they are."""
    choices = [[w] if w in known else [*_close_words(w, grammar, names), DROP] for w in words]
    yield from islice((_joined(c) for c in product(*choices)), MAX_TRIES)
    for index, word in enumerate(words):
        if word in kept:
            continue
        for other in (*_close_words(word, grammar, names), DROP):
            yield _joined((*words[:index], other, *words[index + 1:]))
    best = next(islice(product(*choices), 1), ())
    fixed = _joined(best) or words
    for cut in range(1, len(fixed) - 1):  # a garbled end ("... euh non attends"), then a garbled start
        if kept.isdisjoint(fixed[-cut:]):
            yield fixed[:-cut]
    for cut in range(1, len(fixed) - 1):
        if kept.isdisjoint(fixed[:cut]):
            yield fixed[cut:]


def _joined(choice: Iterable[str]) -> tuple[str, ...]:
    return tuple(word for part in choice if part for word in part.split())


@lru_cache(maxsize=4096)
def _close_words_cached(word: str, vocabulary: frozenset[str]) -> tuple[str, ...]:
    return tuple(difflib.get_close_matches(word, vocabulary, n=CHOICES_PER_WORD, cutoff=CLOSE_ENOUGH))


def _close_words(word: str, grammar: GameGrammar, names: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """The known words closest to `word`: the words of the players' names first ("Brono" is Bruno, "Beta" is
    Beto rather than "esta"), then the grammar's; a word holding digits is close only to words holding the same
    digits ("Bot 7" is no "Bot 1")."""
    close = dict.fromkeys((*_close_words_cached(word, names), *_close_words_cached(word, grammar.vocabulary)))
    return tuple(other for other in close if _digits(other) == _digits(word))[:CHOICES_PER_WORD]


def _digits(word: str) -> str:
    return "".join(c for c in word if c.isdigit())


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
    own = {w: folded.original[s[0]:s[1]] for w, s in zip(folded.words, folded.spans, strict=True)}
    names = {fold(n).text: n for n in players}
    spelled = [own.get(w) or names.get(w) or grammar.spellings.get(w, w) for w in words]
    if len(words) != len(folded.words):
        return " ".join(spelled)
    text = folded.original  # word for word: the player's own punctuation kept ("Bruno : diplodocus…")
    for (start, end), word in reversed(list(zip(folded.spans, spelled, strict=True))):
        text = text[:start] + word + text[end:]
    return text.strip()
