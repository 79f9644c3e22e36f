"""Number words from 0 to 999 in French, English and Spanish: saying a number, and reading one back.

`to_words` gives the one spelling the program says. `from_words` accepts every usual spelling a player
may use (digits too): French "vingt et un" or "vingt-et-un", Belgian and Swiss "septante", "huitante",
"octante", "nonante", "quatre-vingt" without its s; English with or without "and", "a hundred";
Spanish "veintiuno", "veintiún", "veinte y uno", "cien" or "ciento". Comparison is made on `words()`:
lower case, no accents, no punctuation or hyphens.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Sequence

from companion.errors import BadInput

MAX_NUMBER = 999

_NOT_A_WORD = re.compile(r"[^0-9a-z]+")


def words(text: str) -> list[str]:
    """The words of `text`: lower case, accents removed, split on spaces, hyphens, apostrophes and punctuation."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    plain = "".join(char for char in decomposed if not unicodedata.combining(char))
    plain = plain.replace("œ", "oe").replace("æ", "ae")
    return _NOT_A_WORD.sub(" ", plain).split()


# --- French ---------------------------------------------------------------------------------------------

_FR_UNITS = ("zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix",
             "onze", "douze", "treize", "quatorze", "quinze", "seize")
_FR_TENS = {2: "vingt", 3: "trente", 4: "quarante", 5: "cinquante", 6: "soixante"}
# Regional tens of Belgium and Switzerland, accepted when heard.
_FR_REGIONAL_TENS = {7: ("septante",), 8: ("huitante", "octante"), 9: ("nonante",)}


def _fr_small(n: int) -> list[str]:
    """0–19, canonical spelling first; "une" is accepted for "un"."""
    if n <= 16:
        return [_FR_UNITS[n]] + (["une"] if n == 1 else [])
    return [f"dix-{_FR_UNITS[n - 10]}"]


def _fr_regular_tens(tens_word: str, unit: int) -> list[str]:
    """A tens word followed by 0–9, in the regular pattern (vingt, vingt et un, vingt-deux)."""
    if unit == 0:
        return [tens_word]
    if unit == 1:
        return [f"{tens_word} et un", f"{tens_word} et une"]
    return [f"{tens_word}-{_FR_UNITS[unit]}"]


def _fr_below_100(n: int) -> list[str]:
    if n < 20:
        return _fr_small(n)
    tens, unit = divmod(n, 10)
    if tens <= 6:
        return _fr_regular_tens(_FR_TENS[tens], unit)
    regional = [s for word in _FR_REGIONAL_TENS[tens] for s in _fr_regular_tens(word, unit)]
    if tens == 7:
        rest = n - 60
        standard = [f"soixante-{s}" for s in _fr_small(rest)]
        if rest == 11:
            standard.insert(0, "soixante et onze")
        return standard + regional
    rest = n - 80
    if rest == 0:
        return ["quatre-vingts", "quatre-vingt"] + regional
    return [f"quatre-vingt-{s}" for s in _fr_small(rest)] + regional


def _fr_spellings(n: int) -> list[str]:
    hundreds, rest = divmod(n, 100)
    if hundreds == 0:
        return _fr_below_100(n)
    if rest == 0:
        return ["cent"] if hundreds == 1 else [f"{_FR_UNITS[hundreds]} cents", f"{_FR_UNITS[hundreds]} cent"]
    head = "cent" if hundreds == 1 else f"{_FR_UNITS[hundreds]} cent"
    return [f"{head} {s}" for s in _fr_below_100(rest)]


# --- English --------------------------------------------------------------------------------------------

_EN_SMALL = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
             "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen")
_EN_TENS = {2: "twenty", 3: "thirty", 4: "forty", 5: "fifty", 6: "sixty", 7: "seventy", 8: "eighty",
            9: "ninety"}


def _en_below_100(n: int) -> list[str]:
    if n < 20:
        return [_EN_SMALL[n]] + (["nought"] if n == 0 else [])
    tens, unit = divmod(n, 10)
    return [_EN_TENS[tens] if unit == 0 else f"{_EN_TENS[tens]}-{_EN_SMALL[unit]}"]


def _en_spellings(n: int) -> list[str]:
    hundreds, rest = divmod(n, 100)
    if hundreds == 0:
        return _en_below_100(n)
    heads = [f"{_EN_SMALL[hundreds]} hundred"] + (["a hundred", "hundred"] if hundreds == 1 else [])
    if rest == 0:
        return heads
    tails = _en_below_100(rest)[:1]
    return [f"{head}{joiner}{tail}" for joiner in (" and ", " ") for head in heads for tail in tails]


# --- Spanish --------------------------------------------------------------------------------------------

_ES_SMALL = ("cero", "uno", "dos", "tres", "cuatro", "cinco", "seis", "siete", "ocho", "nueve", "diez", "once",
             "doce", "trece", "catorce", "quince", "dieciséis", "diecisiete", "dieciocho", "diecinueve", "veinte",
             "veintiuno", "veintidós", "veintitrés", "veinticuatro", "veinticinco", "veintiséis", "veintisiete",
             "veintiocho", "veintinueve")
_ES_TENS = {3: "treinta", 4: "cuarenta", 5: "cincuenta", 6: "sesenta", 7: "setenta", 8: "ochenta", 9: "noventa"}
_ES_HUNDREDS = {1: "ciento", 2: "doscientos", 3: "trescientos", 4: "cuatrocientos", 5: "quinientos",
                6: "seiscientos", 7: "setecientos", 8: "ochocientos", 9: "novecientos"}


def _es_one_forms(spelling: str) -> list[str]:
    """A spelling ending in "uno", and its forms before a noun: un, una (veintiún, veintiuna)."""
    if spelling == "uno":
        return ["uno", "un", "una"]
    if spelling == "veintiuno":
        return ["veintiuno", "veintiún", "veintiuna"]
    if spelling.endswith(" uno"):
        return [spelling, spelling[:-1], spelling[:-1] + "a"]
    return [spelling]


def _es_below_100(n: int) -> list[str]:
    if n < 30:
        forms = _es_one_forms(_ES_SMALL[n])
        if 16 <= n <= 19:
            forms.append(f"diez y {_ES_SMALL[n - 10]}")
        elif 21 <= n <= 29:
            forms += [f"veinte y {s}" for s in _es_one_forms(_ES_SMALL[n - 20])]
        return forms
    tens, unit = divmod(n, 10)
    if unit == 0:
        return [_ES_TENS[tens]]
    return _es_one_forms(f"{_ES_TENS[tens]} y {_ES_SMALL[unit]}")


def _es_spellings(n: int) -> list[str]:
    hundreds, rest = divmod(n, 100)
    if hundreds == 0:
        return _es_below_100(n)
    if n == 100:
        return ["cien", "ciento"]
    heads = [_ES_HUNDREDS[hundreds]] + ([] if hundreds == 1 else [_ES_HUNDREDS[hundreds][:-2] + "as"])
    if rest == 0:
        return heads
    return [f"{head} {tail}" for head in heads for tail in _es_below_100(rest)]


_SPELLERS = {"fr": _fr_spellings, "en": _en_spellings, "es": _es_spellings}


# --- Public API -----------------------------------------------------------------------------------------

def _check(n: int, lang: str) -> None:
    if lang not in _SPELLERS:
        raise ValueError(f"no number words for language '{lang}'")
    if not 0 <= n <= MAX_NUMBER:
        raise ValueError(f"{n} is outside 0–{MAX_NUMBER}")


def spellings(n: int, lang: str) -> list[str]:
    """Every spelling of `n` accepted in `lang`, the one the program says first."""
    _check(n, lang)
    return _SPELLERS[lang](n)


def to_words(n: int, lang: str, *, before_noun: bool = False) -> str:
    """`n` in words ("vingt et un", "twenty-one", "veintiuno"); `before_noun` gives Spanish "veintiún"."""
    spoken = spellings(n, lang)[0]
    if before_noun and lang == "es":
        spoken = _es_one_forms(spoken)[1] if spoken.endswith("uno") else spoken
    return spoken


@lru_cache(maxsize=None)
def _phrases(lang: str) -> dict[tuple[str, ...], int]:
    """Every accepted spelling as a tuple of words, mapped to its value."""
    table: dict[tuple[str, ...], int] = {}
    for n in range(MAX_NUMBER + 1):
        for spelling in spellings(n, lang):
            key = tuple(words(spelling))
            if table.setdefault(key, n) != n:
                raise ValueError(f"'{spelling}' reads as both {table[key]} and {n} in {lang}")
    return table


@lru_cache(maxsize=None)
def _longest_phrase(lang: str) -> int:
    return max(len(key) for key in _phrases(lang))


def match_number(tokens: Sequence[str], start: int, lang: str) -> tuple[int, int] | None:
    """The number that begins at tokens[start] (words from `words()`), as (value, index after it); longest wins."""
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
