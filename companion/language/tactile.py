"""The tactile number code of the adapted Draftosaurus board, both ways: number -> stickers -> words, and back.

The code: one dot = 1, a dotted circle = 5, a dotted square = 10, a square bearing N dots = 10 x N.
Canonical stickers for a number n from 0 to 200 (tens, fives, ones, biggest first):
- tens t = n // 10: none for 0, one dotted square for 1, one square with t dots for 2 to 20
  (so 20 is a square with two dots, 100 a square with ten dots, 200 a square with twenty dots:
  one square always says all the tens, the way the board counts them, however many dots it carries);
- then one dotted circle when the rest is 5 or more;
- then one to four dots for what is left.
17 = dotted square + dotted circle + two dots; 0 = no sticker at all.

Reading back is tolerant: any sum of stickers is accepted ("deux carrés pointés", "six points"), with or
without "pointé", with the dots of a square said with "à", "avec", "de" ("un carré à deux points"), in
digits or words; a word that is not part of the code is refused, never guessed.
What a player may say is data: grammars/<lang>/tactile.yaml.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from typing import Any, NamedTuple, NoReturn

from companion.errors import BadInput
from companion.language.folding import words
from companion.language.messages import catalog, check_language
from companion.language.numbers import match_number, to_words
from companion.paths import grammars_dir, read_data

MAX_TACTILE = 200

# Value of one unit of each kind: for square_with_dots the unit is one dot on the square.
UNIT = {"dot": 1, "dotted_circle": 5, "dotted_square": 10, "square_with_dots": 10}


class Sticker(NamedTuple):
    """One group of stickers: `count` dots, or `count` dotted circles/squares, or one square with `count` dots.

    Its value is always UNIT[kind] * count.
    """

    kind: str
    count: int  # type: ignore[assignment]  # a field may hide tuple.count


def to_stickers(n: int) -> list[Sticker]:
    """The canonical stickers of `n` (0–200), biggest first; [] for 0."""
    if not 0 <= n <= MAX_TACTILE:
        raise ValueError(f"the tactile code covers 0 to {MAX_TACTILE}, not {n}")
    tens, rest = divmod(n, 10)
    fives, ones = divmod(rest, 5)
    stickers: list[Sticker] = []
    if tens == 1:
        stickers.append(Sticker("dotted_square", 1))
    elif tens > 1:
        stickers.append(Sticker("square_with_dots", tens))
    if fives:
        stickers.append(Sticker("dotted_circle", 1))
    if ones:
        stickers.append(Sticker("dot", ones))
    return stickers


def value(stickers: list[Sticker] | list[tuple[str, int]]) -> int:
    """The number a list of stickers shows."""
    return sum(UNIT[kind] * count for kind, count in stickers)


def check_range(n: int, lang: str) -> int:
    """`n` itself, or BadInput (in `lang`) when the code cannot show it."""
    if not 0 <= n <= MAX_TACTILE:
        raise BadInput(catalog(lang).say("tactile.out_of_range", number=n, highest=MAX_TACTILE))
    return n


def describe(n: int, lang: str) -> str:
    """`n` said as stickers: 17 -> "un carré pointé, un rond pointé et deux points"."""
    check_range(n, lang)
    messages = catalog(check_language(lang))
    stickers = to_stickers(n)
    if not stickers:
        return messages.say("tactile.zero")
    return messages.join(_sticker_words(sticker, lang) for sticker in stickers)


def _sticker_words(sticker: Sticker, lang: str) -> str:
    count = to_words(sticker.count, lang, before_noun=True)
    if sticker.kind == "square_with_dots":
        return catalog(lang).say("tactile.square_with_dots", count=count)
    form = "one" if sticker.count == 1 else "many"
    return catalog(lang).say(f"tactile.{sticker.kind}.{form}", count=count)


# --- Reading a description back -------------------------------------------------------------------------

# Roles of the words of grammars/<lang>/tactile.yaml.
_NOUNS = ("dot", "circle", "square")
_ROLES = ("dotted", "with", "joiner", "one", "zero", "ignore")
_NOUN_UNIT = {"dot": 1, "circle": 5, "square": 10}


@dataclass(frozen=True)
class _Symbol:
    role: str          # a noun, a role of _ROLES, or "number"
    number: int = 0
    plural: bool = False


@cache
def _grammar(lang: str) -> dict[str, Any]:
    data: dict[str, Any] = read_data(grammars_dir() / check_language(lang) / "tactile.yaml")
    return data


@cache
def _vocabulary(lang: str) -> dict[tuple[str, ...], tuple[str, bool]]:
    """Phrase (as words) -> (role, plural) from grammars/<lang>/tactile.yaml."""
    data = _grammar(lang)
    table: dict[tuple[str, ...], tuple[str, bool]] = {}
    for noun in _NOUNS:
        for form in ("one", "many"):
            for phrase in data[noun][form]:
                table[words(phrase)] = (noun, form == "many")
    for role in _ROLES:
        for phrase in data.get(role) or ():
            table[words(str(phrase))] = (role, False)
    return table


@cache
def _dots_before_square(lang: str) -> bool:
    """Whether the language puts the dots of a square before it ("a two-dot square")."""
    return bool(_grammar(lang).get("dots_before_square", False))


def _symbols(tokens: tuple[str, ...], lang: str, text: str) -> Iterator[_Symbol]:
    vocabulary = _vocabulary(lang)
    longest = max(len(key) for key in vocabulary)
    position = 0
    while position < len(tokens):
        known = next(((end, vocabulary[tuple(tokens[position:end])])
                      for end in range(min(len(tokens), position + longest), position, -1)
                      if tuple(tokens[position:end]) in vocabulary), None)
        number = match_number(tokens, position, lang)
        if number and (known is None or number[1] > known[0]):
            yield _Symbol("number", number=number[0])
            position = number[1]
        elif known:
            end, (role, plural) = known
            yield _Symbol(role, plural=plural)
            position = end
        else:
            raise BadInput(catalog(lang).say("tactile.unknown_word", word=tokens[position], text=text))


def parse(text: str, lang: str) -> int:
    """The number a sticker description (or a plain number) says; BadInput when it cannot be read exactly."""
    check_language(lang)
    symbols = [s for s in _symbols(words(text), lang, text) if s.role != "ignore"]
    meaningful = [s for s in symbols if s.role != "joiner"]
    if meaningful and all(s.role == "zero" or (s.role == "number" and s.number == 0) for s in meaningful):
        return 0
    if len(meaningful) == 1 and meaningful[0].role == "number":
        return check_range(meaningful[0].number, lang)
    counted = [_Symbol("number", number=1) if s.role == "one" else s for s in symbols]
    return check_range(_Reader(counted, lang, text).total(), lang)


class _Reader:
    """Reads symbols as a sum of sticker groups: [count] [dotted] noun [dotted] [with count dots].

    Joiners ("et", "and", "y", "plus") may only stand between groups.
    """

    def __init__(self, symbols: list[_Symbol], lang: str, text: str):
        self.symbols, self.lang, self.text, self.position = symbols, lang, text, 0

    def total(self) -> int:
        total, groups = 0, 0
        while self.skip_joiners() < len(self.symbols):
            total += self.group()
            groups += 1
        if not groups:
            self.fail()
        return total

    def skip_joiners(self) -> int:
        """Moves past "and", "plus"...; the index of what follows."""
        while self.take("joiner"):
            pass
        return self.position

    def fail(self) -> NoReturn:
        raise BadInput(catalog(self.lang).say("tactile.cannot_read", text=self.text.strip()))

    def take(self, *roles: str) -> _Symbol | None:
        """The next symbol if it has one of these roles (and move past it), else None."""
        symbol = self.symbols[self.position] if self.position < len(self.symbols) else None
        if symbol is not None and symbol.role in roles:
            self.position += 1
            return symbol
        return None

    def group(self) -> int:
        count_symbol = self.take("number")
        inner = self.take("number") if _dots_before_square(self.lang) else None
        dotted_before = self.take("dotted")  # English puts the adjective first: "a dotted square"
        noun = self.take(*_NOUNS)
        if noun is None or (noun.plural and count_symbol is None):
            self.fail()
        count = count_symbol.number if count_symbol else 1
        if noun.role == "dot" and dotted_before is None and _dots_before_square(self.lang) and self.take("square"):
            # "a two-dot square": the dots are those of the square.
            return self.square_with_dots(1, count) if inner is None else self.square_with_dots(count, inner.number)
        if inner is not None:
            self.fail()
        dotted = self.take("dotted") or dotted_before
        if noun.role == "dot" and dotted:
            self.fail()
        if noun.role == "square" and self.take("with"):
            dots = self.take("number")
            if dots is None or not self.take("dot"):
                self.fail()
            return self.square_with_dots(count, dots.number)
        return count * _NOUN_UNIT[noun.role]

    def square_with_dots(self, squares: int, dots: int) -> int:
        if dots < 1:
            self.fail()
        return squares * 10 * dots
