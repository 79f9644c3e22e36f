"""`companion resume [FILE|GAME]`: carry on a saved game exactly where it stood, with the language, listening
engine and message length it was played with (unless the command line says otherwise)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from companion import registry
from companion.dialogue.recent import latest_save
from companion.dialogue.runner import (
    add_speech_options,
    held_save,
    open_session,
    refuse_save,
    run_table,
    session_settings,
)
from companion.dialogue.savefile import SaveFileError, default_save_path, read_save, save_state


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", metavar="FILE|GAME",
                        help="save file, or a game's name for its usual save (default: the game saved last)")
    add_speech_options(parser, saved=True)


def save_to_resume(given: str | None) -> Path:
    """The file named, the usual save of the game named, or the save that changed last."""
    if given is None:
        return latest_save()
    if given in registry.ids():  # a game's name, even where a file or a folder is called so
        return default_save_path(given)
    return Path(given)


def run(args: argparse.Namespace) -> int:
    try:
        path = save_to_resume(args.file)
    except SaveFileError as error:
        raise refuse_save(session_settings(args), error) from None
    checked = save_state(path)
    game, content = _read(args, path)
    with held_save(session_settings(args, content.get("session")), path) as held:
        if held.found != checked:  # written by another game before this one held it
            game, content = _read(args, path)
        session = open_session(session_settings(args, content.get("session")), game)
        table_class = registry.game(game).table_class()
        return run_table(session, lambda: table_class.from_save(session, content, path), resumed=True)


def _read(args: argparse.Namespace, path: Path) -> tuple[str, dict[str, Any]]:
    """The game and content of the save, or the refusal to raise (said aloud)."""
    try:
        game, content = read_save(path)
        if game not in registry.ids():
            raise SaveFileError("other_game", path, game)
    except SaveFileError as error:
        raise refuse_save(session_settings(args), error) from None
    return game, content
