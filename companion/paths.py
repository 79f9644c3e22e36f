"""Where companion finds and keeps its files.

Its own data folders (voices/, grammars/) are found inside the installed package. The user's files follow the
platform's conventions (platformdirs): saves in the user data folder, settings in the config folder, files that
can be rebuilt (compiled grammars, assembled models) in the cache folder. On Linux these are
$XDG_DATA_HOME, $XDG_CONFIG_HOME and $XDG_CACHE_HOME (by default ~/.local/share, ~/.config, ~/.cache), each
with a companion/ folder; on macOS ~/Library/Application Support and ~/Library/Caches; on Windows %APPDATA%
and %LOCALAPPDATA%. COMPANION_HOME moves the saves, COMPANION_CONFIG names the settings file.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP = "companion"
_PACKAGE = Path(__file__).resolve().parent


def data_home() -> Path:
    """The folder of the user's saves: $COMPANION_HOME, else the platform's user data folder."""
    override = os.environ.get("COMPANION_HOME")
    return Path(override) if override else platformdirs.user_data_path(APP, appauthor=False, roaming=True)


def config_file() -> Path:
    """The settings file (it may not exist yet): $COMPANION_CONFIG, else config.json in the config folder."""
    override = os.environ.get("COMPANION_CONFIG")
    if override:
        return Path(override)
    return platformdirs.user_config_path(APP, appauthor=False, roaming=True) / "config.json"


def cache_home(app: str = APP) -> Path:
    """The platform's cache folder for `app` (companion's own by default)."""
    return platformdirs.user_cache_path(app, appauthor=False)


def data_dir(name: str) -> Path:
    """The folder `voices` or `grammars`: inside the installed package, or at the top of the source tree."""
    for candidate in (_PACKAGE / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the data folder '{name}' is missing from this installation")


def voices_dir() -> Path:
    return data_dir("voices")


def grammars_dir() -> Path:
    return data_dir("grammars")
