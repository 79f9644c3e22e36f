"""Per-language speech settings from voices/<lang>/voice.yaml: normal speed, preferred voices, model names."""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache
from typing import Any

from companion.language.messages import check_language
from companion.paths import read_data, voices_dir


def platform_key() -> str:
    """"linux", "windows" or "darwin": the key of voice.yaml's `voices` table for this machine."""
    if sys.platform == "win32":
        return "windows"
    return "darwin" if sys.platform == "darwin" else "linux"


@dataclass(frozen=True)
class VoiceSettings:
    """How one language is spoken and recognised."""

    lang: str
    rate: int
    preferred: tuple[str, ...]
    language_tags: tuple[str, ...]
    vosk_lang: str
    sphinx_model: str | None
    sphinx_borrowed_model: str | None = None  # another language's model, heard with espeak-ng's phonemes

    def words_per_minute(self, rate_factor: float) -> int:
        return max(60, round(self.rate * rate_factor))

    def pick_voice(self, voices: Iterable[Any]) -> str | None:
        """The id of the best voice among pyttsx3 voices (objects with id, name, languages), or None."""
        voices = list(voices)
        for wanted in self.preferred:
            for voice in voices:
                if str(voice.id).lower() == wanted:
                    return str(voice.id)
            for voice in voices:
                if wanted in f"{voice.id} {voice.name}".lower():
                    return str(voice.id)
        for tag in self.language_tags:
            for voice in voices:
                if any(_language_tag(language) == tag for language in getattr(voice, "languages", []) or []):
                    return str(voice.id)
        return None


def _language_tag(language: Any) -> str:
    if isinstance(language, bytes):
        language = language.decode("utf-8", "ignore")
    return str(language).lower().lstrip("\x05")


@cache
def voice_settings(lang: str) -> VoiceSettings:
    """The settings of one language (fr, en, es)."""
    path = voices_dir() / check_language(lang) / "voice.yaml"
    data = read_data(path) or {}
    recognition = data.get("recognition") or {}
    return VoiceSettings(
        lang=lang,
        rate=int(data.get("rate", 170)),
        preferred=tuple(str(v).lower() for v in (data.get("voices") or {}).get(platform_key(), [])),
        language_tags=tuple(str(t).lower() for t in data.get("language_tags", [lang])),
        vosk_lang=str(recognition.get("vosk_lang") or lang),
        sphinx_model=recognition.get("sphinx_model"),
        sphinx_borrowed_model=recognition.get("sphinx_borrowed_model"),
    )
