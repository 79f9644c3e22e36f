"""Where companion finds and keeps its files.

Its own data folders, voices/ and grammars/, are the installed packages companion.voices and
companion.grammars, found from their import spec (in an editable install, they are the repository's folders).
The user's files follow the platform's conventions (platformdirs): saves in the user data folder, settings in
the config folder, files that can be rebuilt (compiled grammars, assembled models, parsed data files) in the
cache folder. On Linux these are
$XDG_DATA_HOME, $XDG_CONFIG_HOME and $XDG_CACHE_HOME (by default ~/.local/share, ~/.config, ~/.cache), each
with a companion/ folder; on macOS ~/Library/Application Support and ~/Library/Caches; on Windows %APPDATA%
and %LOCALAPPDATA%. COMPANION_HOME moves the saves, COMPANION_CONFIG names the settings file.
"""

from __future__ import annotations

import contextlib
import io
import marshal
import os
import re
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

# platformdirs, hashlib and yaml are imported where used: `companion --version` needs none of them
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
    """The folder of an installed package of data. Found from the package's import spec, as
    importlib.resources.files finds it: importlib.resources's own imports (zipfile among them) took 20 ms of
    every start."""
    import importlib.util

    spec = importlib.util.find_spec(package)
    places = list(spec.submodule_search_locations or ()) if spec is not None else []
    if len(places) != 1 or not Path(places[0]).is_dir():
        raise FileNotFoundError(f"{package} is not installed as a folder of files (zipped installs are not supported)")
    return Path(places[0])


def voices_dir() -> Path:
    """The installed voices/ folder (package companion.voices): everything the program says."""
    return _package_folder("companion.voices")


def grammars_dir() -> Path:
    """The installed grammars/ folder (package companion.grammars): everything the program hears."""
    return _package_folder("companion.grammars")


def read_data(path: Path) -> Any:
    """One of companion's own YAML files (voices/, grammars/), parsed. Parsed once: the data is kept in the
    cache folder (data/), and read back from there as long as the file's bytes are the same. Every command
    that speaks waits for these files: the 18 files of the French catalog took 30 ms of processor time to parse
    with libyaml, after 33 to 42 ms importing PyYAML, and take 4 to 7 ms to read back (on a busy machine)."""
    source = path.read_bytes()
    kept = cache_home() / DATA_CACHE / f"{_digest(os.fsencode(path)).hex()}.bin"
    data = _read_kept(kept, source)
    if data is _NOT_KEPT:
        data = _parse_yaml(source)
        _keep(kept, source, data)
    return data


def digest_of(*parts: bytes) -> bytes:
    """A 32-byte digest of `parts`, each taken with its length (no two lists of parts give the same bytes)."""
    import hashlib

    found = hashlib.blake2b(digest_size=32)
    for part in parts:
        found.update(len(part).to_bytes(8, "little"))
        found.update(part)
    return found.digest()


def forget_oldest(folder: Path, pattern: str, most: int) -> None:
    """Remove the files of `folder` matching `pattern` beyond the `most` used last (by modification time); a file
    another process removed meanwhile stops the round, the next keeps count."""
    with contextlib.suppress(OSError):
        kept = sorted(folder.glob(pattern), key=lambda file: file.stat().st_mtime_ns)
        for old in kept[:-most]:
            old.unlink(missing_ok=True)


# No file this program keeps in its cache folder is this large (the largest, a phone graph, is below 1 MB).
MOST_CACHE_FILE_BYTES = 256 << 20


def read_checked(kept: Path, check: Callable[[bytes], bytes]) -> bytes | None:
    """What a cache file written by `keep_checked` holds, or None when there is none or its first 32 bytes are not
    `check` of the rest (a damaged file, or one kept for other sources): checked before anything reads it. Only a
    plain file of at most MOST_CACHE_FILE_BYTES is read (a pipe or a device put there would never end)."""
    try:
        with os.fdopen(os.open(kept, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)), "rb") as file:
            found = os.fstat(file.fileno())
            if not stat.S_ISREG(found.st_mode) or found.st_size > MOST_CACHE_FILE_BYTES:
                return None
            whole = file.read(MOST_CACHE_FILE_BYTES + 1)
    except OSError:
        return None
    payload = whole[32:]
    return payload if whole[:32] == check(payload) else None


def keep_checked(kept: Path, check: Callable[[bytes], bytes], payload: bytes) -> bool:
    """Write `payload` at `kept` behind `check(payload)` (32 bytes), swapped in whole; False where the cache folder
    cannot be written. Not synced to disk: the 24 data files kept at a first start took about 250 ms more synced,
    and a file cut short by a power cut fails its check and is made again."""
    from companion.files import write_whole

    try:
        write_whole(kept, check(payload) + payload, durable=False)
    except OSError:
        return False
    return True


DATA_CACHE = "data"
# What a kept file depends on besides the YAML's bytes: the layout below and Python's marshal format.
_KEPT_FORMAT = f"companion-data 1, marshal {marshal.version}, Python {sys.version_info[:2]}".encode()
_NOT_KEPT = object()


def _digest(data: bytes) -> bytes:
    import hashlib

    return hashlib.blake2b(data, digest_size=32).digest()


def _check(source: bytes, payload: bytes) -> bytes:
    """What a kept file begins with: the digest of the format, the YAML it was parsed from and its data."""
    return _digest(_KEPT_FORMAT + _digest(source) + payload)


def _parse_yaml(source: bytes) -> Any:
    """The YAML document in `source`, parsed by libyaml where PyYAML has it."""
    import yaml

    text = io.TextIOWrapper(io.BytesIO(source), encoding="utf-8")  # read as a text file is read
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _read_kept(kept: Path, source: bytes) -> Any:
    """The data kept for `source`, or _NOT_KEPT when there is none, it was parsed from other bytes, or the file
    is damaged (its digest says so before marshal reads a byte of it)."""
    payload = read_checked(kept, lambda kept_payload: _check(source, kept_payload))
    if payload is None:
        return _NOT_KEPT
    try:
        return marshal.loads(payload)
    except (ValueError, EOFError, TypeError):
        return _NOT_KEPT


def _keep(kept: Path, source: bytes, data: Any) -> None:
    """Keep `data` for the next start, swapped in whole; nothing is kept where the cache folder cannot be
    written or the data is no plain data (a YAML date)."""
    try:
        payload = marshal.dumps(data)
    except ValueError:
        return
    keep_checked(kept, lambda kept_payload: _check(source, kept_payload), payload)
