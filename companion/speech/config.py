"""Speech settings the user can change (speed, volume, earcons, engines) and the file that remembers them.

The file is the program's settings file (companion/settings.py): speech settings live under its "speech" key
and saving rewrites only that key. A file that cannot be read gives the defaults and is never written over.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from companion.settings import SettingsUnreadable, read_section, write_section

SECTION = "speech"
# The default order of "auto". Whisper comes before PocketSphinx: on the same English commands in five rooms
# (`companion bench listen --lang en --voices all`, seeds 7 and 8, 300 utterances each engine) Whisper understood
# 84-86% of the held-out voice's against PocketSphinx's 56-66% and asked again half as often, for as many
# misheard and applied (docs/BENCHMARKS.md). PocketSphinx has no French or Spanish model: in those languages it
# is never tried by "auto", and listens in English when the Whisper model cannot be made ready.
ENGINES: tuple[str, ...] = ("vosk", "whisper", "sphinx", "text")
LISTENING_ENGINES: tuple[str, ...] = ENGINES  # every engine that can be named
# The default orders of earlier versions: a settings file saved then (any setting changed writes the order too)
# gets today's default, not an order the user never chose (one who chose that very order gets it too: the file
# cannot tell them apart).
FORMER_DEFAULT_ENGINES: tuple[tuple[str, ...], ...] = (("vosk", "sphinx", "text"),
                                                      ("vosk", "sphinx", "whisper", "text"))

# How the program can speak: "auto" (speech-dispatcher when it runs, else "tts"), "speechd" (the speech server
# screen readers use, with the voice and speed the player chose there), "tts" (the program's own voice,
# pyttsx3) or "text" (printed lines only).
SPEAKER_KINDS: tuple[str, ...] = ("auto", "speechd", "tts", "text")

RATE_RANGE = (0.5, 2.5)
VOLUME_RANGE = (0.1, 1.0)
# One step of each adjustment: the setting it changes, by how much, and its bounds.
STEPS: dict[str, tuple[str, float, tuple[float, float]]] = {
    "faster": ("rate", 0.1, RATE_RANGE),
    "slower": ("rate", -0.1, RATE_RANGE),
    "louder": ("volume", 0.1, VOLUME_RANGE),
    "quieter": ("volume", -0.1, VOLUME_RANGE),
}


def _clamp(value: float, bounds: tuple[float, float]) -> float:
    return round(min(max(value, bounds[0]), bounds[1]), 2)


@dataclass
class SpeechConfig:
    """How the program speaks and listens. `rate` multiplies each language's normal speed."""

    rate: float = 1.0
    volume: float = 1.0
    earcons: bool = True
    engines: list[str] = field(default_factory=lambda: list(ENGINES))
    guard_ms: int = 300
    push_to_talk: bool = False
    barge_in: bool = False  # speech heard while the program speaks cuts it off (with headphones: no echo)
    vosk_models: dict[str, str] = field(default_factory=dict)

    def adjust(self, step: str) -> None:
        """Apply one step of STEPS: "faster", "slower", "louder" or "quieter"."""
        if step not in STEPS:
            raise ValueError(f"unknown step '{step}': use {', '.join(STEPS)}")
        setting, change, bounds = STEPS[step]
        setattr(self, setting, _clamp(getattr(self, setting) + change, bounds))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SpeechConfig:
        """Settings from a file's "speech" section; unknown or malformed entries fall back to defaults."""
        config = cls()
        for item in fields(cls):
            if item.name in data and _fits(data[item.name], getattr(config, item.name)):
                setattr(config, item.name, type(getattr(config, item.name))(data[item.name]))
        config.rate = _clamp(config.rate, RATE_RANGE)
        config.volume = _clamp(config.volume, VOLUME_RANGE)
        config.engines = [e for e in config.engines if e in LISTENING_ENGINES] or list(ENGINES)
        if tuple(config.engines) in FORMER_DEFAULT_ENGINES:
            config.engines = list(ENGINES)
        config.vosk_models = {k: v for k, v in config.vosk_models.items() if isinstance(v, str)}
        return config


def _fits(value: Any, default: Any) -> bool:
    """Whether a value read from the file has the type of the setting's default."""
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    return isinstance(value, type(default))


def load_config(path: Path | None = None) -> SpeechConfig:
    """The saved settings, or the defaults when there is no (readable) file."""
    try:
        section = read_section(SECTION, path)
    except SettingsUnreadable:
        return SpeechConfig()
    return SpeechConfig.from_dict(section) if isinstance(section, dict) else SpeechConfig()


def save_config(config: SpeechConfig, path: Path | None = None) -> Path | None:
    """Write the speech section, keeping the file's other sections; returns the file written, or None when the
    file exists but cannot be read (it is left as it is)."""
    try:
        return write_section(SECTION, asdict(config), path)
    except SettingsUnreadable:
        return None
