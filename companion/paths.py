"""Where companion finds and keeps its files.

Its own data folders, voices/ and grammars/, are the installed packages companion.voices and
companion.grammars, found with importlib.resources (in an editable install, they are the repository's folders).
The user's files follow the platform's conventions (platformdirs): saves in the user data folder, settings in
the config folder, files that can be rebuilt (compiled grammars, assembled models) in the cache folder. On Linux
these are $XDG_DATA_HOME, $XDG_CONFIG_HOME and $XDG_CACHE_HOME (by default ~/.local/share, ~/.config, ~/.cache), each
with a companion/ folder; on macOS ~/Library/Application Support and ~/Library/Caches; on Windows %APPDATA%
and %LOCALAPPDATA%. COMPANION_HOME moves the saves, COMPANION_CONFIG names the settings file.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

# platformdirs, importlib.resources and yaml are imported where used: `companion --version` needs none of them
# (they were 55 to 137 ms of its 92 to 187 ms of imports, on a busy machine).
APP = "companion"


# Characters of a file name that mean nothing to a shell: letters and digits of every script, and @+:,./_-.
_SHELL_PLAIN = re.compile(r"[\w@+:,./-]+")


def typed_path(path: Path | str) -> str:
    """How to type `path` in a shell (bash, zsh): as it is when nothing in it means anything to a shell; else
    between single quotes ('my game.json'); and, when it holds a line break or another character that cannot be
    typed, or bytes that are not UTF-8, in the $'...' form of bash and zsh ($'x\\xff.json'). A name beginning
    with a dash begins with ./ (else it would be taken for an option)."""
    text = str(path)
    if text.startswith("-"):
        text = f"./{text}"
    data = os.fsencode(text)
    try:
        plain = data.decode("utf-8")
    except UnicodeDecodeError:
        plain = None
    if plain is not None and plain.isprintable():
        return plain if _SHELL_PLAIN.fullmatch(plain) else "'" + plain.replace("'", "'\\''") + "'"
    return "$'" + "".join(chr(byte) if 32 <= byte < 127 and chr(byte) not in "'\\" else f"\\x{byte:02x}"
                          for byte in data) + "'"


def data_home() -> Path:
    """The folder of the user's saves: $COMPANION_HOME, else the platform's user data folder."""
    import platformdirs

    override = os.environ.get("COMPANION_HOME")
    return Path(override) if override else platformdirs.user_data_path(APP, appauthor=False, roaming=True)


def config_file() -> Path:
    """The settings file (it may not exist yet): $COMPANION_CONFIG, else config.json in the config folder."""
    import platformdirs

    override = os.environ.get("COMPANION_CONFIG")
    if override:
        return Path(override)
    return platformdirs.user_config_path(APP, appauthor=False, roaming=True) / "config.json"


def cache_home(app: str = APP) -> Path:
    """The platform's cache folder for `app` (companion's own by default)."""
    import platformdirs

    return platformdirs.user_cache_path(app, appauthor=False)


def _package_folder(package: str) -> Path:
    import importlib.resources

    folder = importlib.resources.files(package)
    if not isinstance(folder, Path):
        raise FileNotFoundError(f"{package} is not installed as a folder of files (zipped installs are not supported)")
    return folder


def voices_dir() -> Path:
    """The installed voices/ folder (package companion.voices): everything the program says."""
    return _package_folder("companion.voices")


def grammars_dir() -> Path:
    """The installed grammars/ folder (package companion.grammars): everything the program hears."""
    return _package_folder("companion.grammars")


def read_data(path: Path) -> Any:
    """One of companion's own YAML files (voices/, grammars/), parsed by libyaml where PyYAML has it: the French
    catalog (15 files) loads in 0.01 s instead of 0.08 s, and every command that speaks waits for it."""
    import yaml

    with path.open(encoding="utf-8") as handle:
        return yaml.load(handle, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
