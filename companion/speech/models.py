"""Speech models on this computer, and fetching a Vosk model with Vosk's own downloader.

A Vosk model is looked for, in order: the folder given on the command line, $VOSK_MODEL_PATH (a model
folder, or a folder of models), the model remembered for the language in the settings, then Vosk's
folders (/usr/share/vosk, ~/AppData/Local/vosk, ~/.cache/vosk) and the platform's cache folder for vosk
(where downloads go) for a folder named like vosk-model[-small]-<language>..., small models first.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from companion import paths
from companion.speech.base import Unavailable
from companion.speech.config import SpeechConfig
from companion.speech.voice import voice_settings

MODEL_LIST_URL = "https://alphacephei.com/vosk/models/model-list.json"
DOWNLOAD_TIMEOUT_S = 15


def vosk_cache_dir() -> Path:
    """Where downloaded Vosk models go: the platform's cache folder for vosk (on Linux ~/.cache/vosk, as
    Vosk's own downloader does)."""
    return paths.cache_home("vosk")


# Where Vosk itself looks for models, besides $VOSK_MODEL_PATH (its MODEL_DIRS).
_VOSK_OWN_DIRS = (Path("/usr/share/vosk"), Path.home() / "AppData" / "Local" / "vosk", Path.home() / ".cache" / "vosk")


def vosk_search_dirs() -> list[Path]:
    """Folders that may hold Vosk models: $VOSK_MODEL_PATH, Vosk's own folders, then our download folder."""
    env = os.environ.get("VOSK_MODEL_PATH")
    dirs = ([Path(env)] if env else []) + list(_VOSK_OWN_DIRS)
    return dirs + ([vosk_cache_dir()] if vosk_cache_dir() not in dirs else [])


def is_vosk_model(path: Path) -> bool:
    """Whether `path` looks like an unpacked Vosk model."""
    return path.is_dir() and ((path / "am").is_dir() or (path / "conf" / "model.conf").is_file()
                              or (path / "final.mdl").is_file())


def _named_for(name: str, vosk_lang: str) -> bool:
    return re.match(rf"vosk-model(-small)?-{re.escape(vosk_lang)}(-|$)", name) is not None


def _names_other_language(name: str, vosk_lang: str) -> bool:
    return name.startswith("vosk-model") and not _named_for(name, vosk_lang)


def find_vosk_model(lang: str, explicit: Path | None = None,
                    config: SpeechConfig | None = None) -> Path | None:
    """The Vosk model folder to use for `lang`, or None."""
    if explicit is not None:
        if not is_vosk_model(Path(explicit)):
            raise Unavailable("vosk_model_broken", f"{explicit} is not a Vosk model folder", path=str(explicit))
        return Path(explicit)
    vosk_lang = voice_settings(lang).vosk_lang
    env = os.environ.get("VOSK_MODEL_PATH")
    if env and is_vosk_model(Path(env)) and not _names_other_language(Path(env).name, vosk_lang):
        return Path(env)
    remembered = (config or SpeechConfig()).vosk_models.get(lang)
    if remembered and is_vosk_model(Path(remembered)):
        return Path(remembered)
    for folder in vosk_search_dirs():
        if folder.is_dir():
            found = sorted((p for p in folder.iterdir() if _named_for(p.name, vosk_lang) and is_vosk_model(p)),
                           key=lambda p: ("-small-" not in p.name, p.name))
            if found:
                return found[0]
    return None


def sphinx_model(lang: str) -> Path | None:
    """The pocketsphinx model shipped for `lang`, if any."""
    name = voice_settings(lang).sphinx_model
    if not name:
        return None
    try:
        import pocketsphinx
    except ImportError:
        return None
    path = Path(pocketsphinx.get_model_path()) / name
    return path if path.is_dir() else None


# ---------------------------------------------------------------------------------------------- download

@dataclass(frozen=True)
class RemoteModel:
    """A model in Vosk's list: its name and its download size as Vosk writes it ("41M")."""

    name: str
    size: str


def model_list_url() -> str:
    """Vosk's list of models (COMPANION_VOSK_MODEL_LIST may point elsewhere, e.g. a local mirror)."""
    return os.environ.get("COMPANION_VOSK_MODEL_LIST", MODEL_LIST_URL)


def _fetch_json(url: str) -> Any:
    """The JSON document at `url` (http, https or file), through the standard library."""
    import json
    import urllib.error
    import urllib.request

    try:
        with urllib.request.urlopen(url, timeout=DOWNLOAD_TIMEOUT_S) as response:
            return json.loads(response.read().decode("utf-8"))
    except urllib.error.HTTPError as error:  # the server answered, with an error
        raise Unavailable("download_failed", str(error)) from error
    except (urllib.error.URLError, ConnectionError, TimeoutError) as error:  # no network, no such host
        raise Unavailable("offline", str(error)) from error
    except (OSError, ValueError) as error:  # cut off midway, or not JSON
        raise Unavailable("download_failed", str(error)) from error


def remote_model(lang: str) -> RemoteModel:
    """The small, current Vosk model for `lang` in Vosk's list (Unavailable when offline or missing)."""
    vosk_lang = voice_settings(lang).vosk_lang
    for entry in _fetch_json(model_list_url()):
        if (entry.get("lang") == vosk_lang and entry.get("type") == "small"
                and str(entry.get("obsolete")) == "false"):
            return RemoteModel(entry["name"], str(entry.get("size_text", "?")))
    raise Unavailable("unknown_model", lang=lang)


def download_vosk_model(lang: str, *, confirm: Callable[[RemoteModel], bool] | None = None,
                        say: Callable[[str], None] = print) -> Path:
    """Fetch the Vosk model for `lang` into Vosk's cache with Vosk's downloader (progress bar on the
    terminal) and return its folder. `confirm` is asked first; Unavailable when declined, offline or
    failed."""
    from companion.language.messages import catalog

    remote = remote_model(lang)
    target = vosk_cache_dir() / remote.name
    if is_vosk_model(target):
        return target
    if confirm is not None and not confirm(remote):
        raise Unavailable("download_declined")
    say(catalog(lang).say("speech.download.start", name=remote.name))
    try:
        _vosk_downloader().download_model(target)
    except Exception as error:  # no network, a broken zip, a full disk...
        Path(f"{target}.zip").unlink(missing_ok=True)
        problem = "offline" if isinstance(error, OSError) and "urlopen" in str(error) else "download_failed"
        raise Unavailable(problem, f"{type(error).__name__}: {error}") from error
    if not is_vosk_model(target):
        raise Unavailable("download_failed", f"no model in {target}")
    return target


class _ModelDownloader(Protocol):
    def download_model(self, model_name: Path) -> None: ...


def _vosk_downloader() -> _ModelDownloader:
    """Vosk's Model class used only for its downloader (no model is loaded)."""
    try:
        import vosk
    except (ImportError, OSError) as error:
        raise Unavailable("no_vosk", str(error)) from error

    class Downloader(vosk.Model):  # type: ignore[misc, unused-ignore]  # vosk ships no types; misc under --strict only
        def __init__(self) -> None:  # no model to load
            pass

        def __del__(self) -> None:
            pass

    return Downloader()
