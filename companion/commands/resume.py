"""`companion resume [FILE]`: carry on a saved game exactly where it stood."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.dialogue.games import GAMES
from companion.dialogue.runner import add_speech_options, open_session, refuse_save, run_table
from companion.dialogue.savefile import SaveFileError, data_home, read_save

NAME = "resume"
HELP = "Carry on a saved game where it stood (by default the game saved last)."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", type=Path, help="save file (default: the game saved last)")
    add_speech_options(parser)


def latest_save() -> Path:
    saves = sorted((data_home() / "saves").glob("*.json"), key=lambda p: p.stat().st_mtime)
    if not saves:
        raise SaveFileError("missing", data_home() / "saves")
    return saves[-1]


def run(args: argparse.Namespace) -> int:
    try:
        path = args.file or latest_save()
        game, content = read_save(path)
        if game not in GAMES:
            raise SaveFileError("other_game", path, game)
    except SaveFileError as error:
        raise refuse_save(args, error) from None
    session = open_session(args, game)
    return run_table(session, lambda: GAMES[game].resume_table(session, content, path), resumed=True)
