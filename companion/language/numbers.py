"""Number words from 0 to 999 in French, English and Spanish: saying a number, and reading one back.

The spellings come from the Unicode CLDR spell-out rules (unicode-rbnf): French as written in France, Belgium
and Switzerland (septante, nonante, huitante), English with and without "and", Spanish in both genders
("veintiuno", "veintiún", "veintiuna", "doscientas"). Beside them, two small tables: how the program says a
number where it differs from those rules (SAID), and the other spellings players use (EXTRA). Comparison is
made on folded words (companion.language.folding): case, accents and hyphens never matter; digits are accepted.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from companion.errors import BadInput
from companion.language.folding import fold_phrase, words

if TYPE_CHECKING:
    from unicode_rbnf import RbnfEngine

MAX_NUMBER = 999

# CLDR locales accepted for each language; the first one is how the program speaks.
LOCALES = {"fr": ("fr", "fr_BE", "fr_CH"), "en": ("en",), "es": ("es",)}
# The rule set the program says numbers with: English with "and" ("one hundred and five").
SAID_RULES = {"fr": "spellout-numbering", "en": "spellout-numbering-verbose", "es": "spellout-numbering"}
BEFORE_NOUN_RULES = "spellout-cardinal-masculine"  # Spanish "veintiún puntos"; languages without it say SAID_RULES

# Where the program's own spelling differs from CLDR's: French keeps the traditional "vingt et un" (CLDR
# follows the 1990 reform, "vingt-et-un").
SAID: dict[str, tuple[tuple[str, str], ...]] = {"fr": ((r"-et-", " et "),), "en": (), "es": ()}

# Other spellings players say, as rewrites of folded spellings, applied wherever they fit.
EXTRA: dict[str, tuple[tuple[str, str], ...]] = {
    "fr": ((r"\bquatre vingts\b", "quatre vingt"),  # "quatre-vingt", without its s
           (r"\b(deux|trois|quatre|cinq|six|sept|huit|neuf) cents\b", r"\1 cent"),
           (r"\bhuitante\b", "octante"),  # the older Swiss word
           (r"\bsoixante et onze\b", "soixante onze")),
    "en": ((r"^zero$", "nought"),
           (r"^one hundred\b", "a hundred"),
           (r"^one hundred\b", "hundred")),
    "es": ((r"\bdieci", "diez y "),  # "diez y seis"
           (r"\bveinti", "veinte y "),  # "veinte y uno"
           (r"^cien$", "ciento")),
}


@cache
def _engine(locale: str) -> RbnfEngine:
    # Imported where a number is first spelled: unicode_rbnf (with importlib.metadata and email) took 45 ms of
    # imports at each start, before the first question, which says no number.
    from unicode_rbnf import RbnfEngine

    return RbnfEngine.for_language(locale)


def _check(n: int, lang: str) -> None:
    if lang not in LOCALES:
        raise ValueError(f"no number words for language '{lang}'")
    if not 0 <= n <= MAX_NUMBER:
        raise ValueError(f"{n} is outside 0–{MAX_NUMBER}")


def _spell(n: int, locale: str, rules: str) -> str:
    return _engine(locale).format_number(n, ruleset_names=[rules]).text


def to_words(n: int, lang: str, *, before_noun: bool = False) -> str:
    """`n` in words ("vingt et un", "twenty-one", "veintiuno"); `before_noun` gives Spanish "veintiún"."""
    _check(n, lang)
    locale = LOCALES[lang][0]
    rules = BEFORE_NOUN_RULES if before_noun and BEFORE_NOUN_RULES in _engine(locale).rulesets else SAID_RULES[lang]
    spoken = _spell(n, locale, rules)
    for pattern, replacement in SAID[lang]:
        spoken = re.sub(pattern, replacement, spoken)
    return spoken


def _is_cardinal(rules: str) -> bool:
    return rules.startswith(("spellout-numbering", "spellout-cardinal")) and not rules.endswith("-year")


def spellings(n: int, lang: str) -> list[str]:
    """Every spelling of `n` accepted in `lang`, the one the program says first."""
    _check(n, lang)
    return list(_all_spellings(lang)[n])


@cache
def _all_spellings(lang: str) -> tuple[tuple[str, ...], ...]:
    """The accepted spellings of 0 to MAX_NUMBER: CLDR's in every accepted locale, then those of EXTRA."""
    return tuple(_spellings_of(n, lang) for n in range(MAX_NUMBER + 1))


def _spellings_of(n: int, lang: str) -> tuple[str, ...]:
    found = [to_words(n, lang)]
    for locale in LOCALES[lang]:
        spelled = _engine(locale).format_number(n).text_by_ruleset
        found += [text for rules, text in spelled.items() if _is_cardinal(rules)]
    known = {fold_phrase(spelling) for spelling in found}
    pending = list(known)
    while pending:
        spelling = pending.pop()
        for pattern, replacement in EXTRA[lang]:
            other = re.sub(pattern, replacement, spelling)
            if other not in known:
                known.add(other)
                pending.append(other)
                found.append(other)
    return tuple(dict.fromkeys(found))


@cache
def _phrases(lang: str) -> dict[tuple[str, ...], int]:
    """Every accepted spelling as a tuple of words, mapped to its value."""
    table: dict[tuple[str, ...], int] = {}
    for n in range(MAX_NUMBER + 1):
        for spelling in _all_spellings(lang)[n]:
            key = words(spelling)
            if table.setdefault(key, n) != n:
                raise ValueError(f"'{spelling}' reads as both {table[key]} and {n} in {lang}")
    return table


@cache
def _longest_phrase(lang: str) -> int:
    return max(len(key) for key in _phrases(lang))


def match_number(tokens: Sequence[str], start: int, lang: str) -> tuple[int, int] | None:
    """The number that begins at tokens[start] (folded words), as (value, index after it); longest wins."""
    if start >= len(tokens):
        return None
    if tokens[start].isdigit():
        return int(tokens[start]), start + 1
    table = _phrases(lang)
    for end in range(min(len(tokens), start + _longest_phrase(lang)), start, -1):
        value = table.get(tuple(tokens[start:end]))
        if value is not None:
            return value, end
    return None


def from_words(text: str, lang: str) -> int:
    """The number `text` says, in digits or in words of `lang`; BadInput when it is not exactly one number."""
    from companion.language.messages import catalog

    tokens = words(text)
    found = match_number(tokens, 0, lang)
    negative = text.strip().startswith(("-", "\u2212"))
    if negative or found is None or found[1] != len(tokens):
        raise BadInput(catalog(lang).say("numbers.not_a_number", text=text.strip()))
    return found[0]
