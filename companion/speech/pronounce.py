"""Pronunciations for words a recogniser's dictionary lacks (players' names), guessed with espeak-ng.

espeak-ng gives the word in IPA; the table below turns IPA into the CMU phone set of pocketsphinx's US
English model. Used for words that neither the dictionary nor grammars/en/pronunciations.dict know, and for
every word of French and Spanish when they are heard with that English model (companion.speech.sphinx): for
those languages a second table first gives the sounds English lacks (nasal vowels, the Spanish tap and
fricatives) their nearest English phones.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from functools import lru_cache

_TIE = "\u200d"  # espeak-ng --ipa=3 joins the letters of one phoneme with this
_IGNORED = set("ˈˌː.ˑ‿ʔ̩ ")
# Longest symbols first: diphthongs and r-coloured vowels before their letters.
_IPA_TO_CMU: tuple[tuple[str, str], ...] = (
    ("aɪ", "AY"), ("aʊ", "AW"), ("eɪ", "EY"), ("oʊ", "OW"), ("əʊ", "OW"), ("ɔɪ", "OY"), ("tʃ", "CH"),
    ("dʒ", "JH"), ("ɜː", "ER"), ("ɝ", "ER"), ("ɚ", "ER"), ("ɛɹ", "EH R"), ("ɪɹ", "IH R"), ("ʊɹ", "UH R"),
    ("ɑɹ", "AA R"), ("ɔɹ", "AO R"), ("eə", "EH"), ("ɪə", "IH R"),
    ("æ", "AE"), ("ɑ", "AA"), ("ɒ", "AA"), ("ɔ", "AO"), ("ə", "AH"), ("ʌ", "AH"), ("ɐ", "AH"), ("ɛ", "EH"),
    ("e", "EH"), ("ɪ", "IH"), ("ᵻ", "IH"), ("i", "IY"), ("ʊ", "UH"), ("u", "UW"), ("o", "OW"), ("a", "AA"),
    ("y", "UW"), ("ø", "ER"), ("œ", "ER"),
    ("b", "B"), ("d", "D"), ("ð", "DH"), ("f", "F"), ("ɡ", "G"), ("g", "G"), ("h", "HH"), ("j", "Y"),
    ("k", "K"), ("l", "L"), ("ɫ", "L"), ("m", "M"), ("n", "N"), ("ŋ", "NG"), ("p", "P"), ("ɹ", "R"),
    ("r", "R"), ("ɾ", "T"), ("s", "S"), ("ʃ", "SH"), ("t", "T"), ("θ", "TH"), ("v", "V"), ("w", "W"),
    ("z", "Z"), ("ʒ", "ZH"), ("x", "HH"), ("ç", "HH"), ("ʁ", "R"), ("ɲ", "N Y"),
)


# Sounds of French and Spanish, before the table above: a nasal vowel is its vowel and an N, "é" and the
# Spanish "e" are closer to the English EY than to EH, the tap and the trill are both R.
_FOREIGN_TO_CMU: tuple[tuple[str, str], ...] = (
    ("ɑ̃", "AA N"), ("ɔ̃", "OW N"), ("ɛ̃", "AE N"), ("œ̃", "AH N"), ("e", "EY"), ("ɾ", "R"), ("β", "B"),
    ("ɣ", "G"), ("ʝ", "Y"), ("ʎ", "Y"), ("ɥ", "W"),
)


def ipa_to_cmu(ipa: str, foreign: bool = False) -> str:
    """CMU phones for an IPA transcription (`foreign`: of French or Spanish); unknown symbols are skipped."""
    text = "".join(c for c in ipa.replace(_TIE, "") if c not in _IGNORED)
    table = _FOREIGN_TO_CMU + _IPA_TO_CMU if foreign else _IPA_TO_CMU
    phones: list[str] = []
    position = 0
    while position < len(text):
        for symbol, cmu in table:
            if text.startswith(symbol, position):
                phones.append(cmu)
                position += len(symbol)
                break
        else:
            position += 1
    return " ".join(phones)


def espeak_path() -> str | None:
    """The espeak-ng program (or the older espeak), or None when neither is installed."""
    return shutil.which("espeak-ng") or shutil.which("espeak")


def guess_pronunciations(words: Sequence[str], voice: str = "en-us") -> dict[str, str]:
    """CMU phones for each word as espeak-ng says it (one espeak-ng run); empty without espeak-ng."""
    words = [w for w in dict.fromkeys(words) if w.strip()]
    program = espeak_path()
    if not words or program is None:
        return {}
    try:
        result = subprocess.run([program, "-q", "-v", voice, "--ipa=3"], input="\n".join(words) + "\n",
                                capture_output=True, text=True, encoding="utf-8", timeout=60, check=True)
    except (OSError, subprocess.SubprocessError):
        return {}
    lines = [line for line in result.stdout.splitlines() if line.strip()]
    if len(lines) != len(words):  # espeak-ng joined some lines: ask word by word
        return {w: p for w in words for p in [guess_pronunciation(w, voice)] if p}
    return {w: p for w, line in zip(words, lines, strict=True) if (p := ipa_to_cmu(line, _foreign(voice)))}


def _foreign(voice: str) -> bool:
    return not voice.startswith("en")


@lru_cache(maxsize=256)
def guess_pronunciation(word: str, voice: str = "en-us") -> str | None:
    """CMU phones for `word` as espeak-ng would say it, or None without espeak-ng."""
    program = espeak_path()
    if program is None:
        return None
    try:
        result = subprocess.run([program, "-q", "-v", voice, "--ipa=3", word], capture_output=True,
                                text=True, encoding="utf-8", timeout=10, check=True)
    except (OSError, subprocess.SubprocessError):
        return None
    return ipa_to_cmu(result.stdout, _foreign(voice)) or None
