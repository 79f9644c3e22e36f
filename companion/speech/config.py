"""Speech settings the user can change (speed, volume, earcons, engines) and the file that remembers them.

The file is JSON, shared with other parts of the program: speech settings live under its "speech" key and
saving rewrites only that key. Its place: $COMPANION_CONFIG if set, else config.json in the platform's config
folder (companion.paths).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from companion import paths
from companion.files import FileRefused, load_json

SECTION = "speech"
ENGINES: tuple[str, ...] = ("vosk", "sphinx", "text")  # the default order of "auto"
# Every engine that can be named; "auto" tries whisper only when the settings' order names it (see
# companion.speech.whisper for why).
LISTENING_ENGINES: tuple[str, ...] = ("vosk", "sphinx", "whisper", "text")

RATE_RANGE = (0.5, 2.5)
VOLUME_RANGE = (0.1, 1.0)
# One step of each adjustment: the setting it changes, by how much, and its bounds.
STEPS: dict[str, tuple[str, float, tuple[float, float]]] = {
    "faster": ("rate", 0.1, RATE_RANGE),
    "slower": ("rate", -0.1, RATE_RANGE),
    "louder": ("volume", 0.1, VOLUME_RANGE),
    "quieter": ("volume", -0.1, VOLUME_RANGE),
}


def config_path() -> Path:
    """Where the settings file is (it may not exist yet; see companion.paths)."""
    return paths.config_file()


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
    vosk_models: dict[str, str] = field(default_factory=dict)

    def adjust(self, step: str) -> None:
        """Apply one step of STEPS: "faster", "slower", "louder" or "quieter"."""
        if step not in STEPS:
            raise ValueError(f"unknown step '{step}': use {', '.join(STEPS)}")
        setting, change, bounds = STEPS[step]
        setattr(self, setting, _clamp(getattr(self, setting) + change, bounds))

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "SpeechConfig":
        """Settings from a file's "speech" section; unknown or malformed entries fall back to defaults."""
        config = cls()
        for item in fields(cls):
            if item.name in data and _fits(data[item.name], getattr(config, item.name)):
                setattr(config, item.name, type(getattr(config, item.name))(data[item.name]))
        config.rate = _clamp(config.rate, RATE_RANGE)
        config.volume = _clamp(config.volume, VOLUME_RANGE)
        config.engines = [e for e in config.engines if e in LISTENING_ENGINES] or list(ENGINES)
        config.vosk_models = {k: v for k, v in config.vosk_models.items() if isinstance(v, str)}
        return config


def _fits(value: Any, default: Any) -> bool:
    """Whether a value read from the file has the type of the setting's default."""
    if isinstance(default, bool) or isinstance(value, bool):
        return isinstance(value, bool) and isinstance(default, bool)
    if isinstance(default, float):
        return isinstance(value, (int, float))
    return isinstance(value, type(default))


CONFIG_LIMIT = 64 << 10  # the settings take a few hundred bytes


def _read_file(path: Path) -> dict[str, Any]:
    """The settings file as read by companion.files; {} when it cannot be used (a pipe, too big, not JSON...)."""
    try:
        data = load_json(path, CONFIG_LIMIT)
    except FileRefused:
        return {}
    return data if isinstance(data, dict) else {}


def load_config(path: Path | None = None) -> SpeechConfig:
    """The saved settings, or the defaults when there is no (readable) file."""
    section = _read_file(path or config_path()).get(SECTION)
    return SpeechConfig.from_dict(section) if isinstance(section, dict) else SpeechConfig()


def save_config(config: SpeechConfig, path: Path | None = None) -> Path | None:
    """Write the speech section, keeping the file's other sections; returns the file written, or None when the
    file there cannot be read as settings (it is never written over) or the folder takes no file: the
    settings then hold for this session only."""
    path = path or config_path()
    try:
        data = load_json(path, CONFIG_LIMIT) if os.path.lexists(path) else {}
    except FileRefused:
        return None
    if not isinstance(data, dict):
        return None
    data[SECTION] = asdict(config)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        os.replace(temporary, path)
    except OSError:
        return None
    return path
