"""`companion play GAME`: a whole game at the table, by voice or typed lines."""

from __future__ import annotations

import argparse
import io
import os
from pathlib import Path
from typing import Any

from companion.dialogue.games import GAMES
from companion.dialogue.runner import add_speech_options, open_session, refuse_save, run_table
from companion.dialogue.savefile import SaveFileError, default_save_path, read_save
from companion.dialogue.session import Session
from companion.dialogue.setup import listed_names
from companion.dialogue.table import Table
from companion.errors import BadInput
from companion.games.common import OVER
from companion.language.messages import DEFAULT_LANGUAGE
from companion.speech.base import TextListener, TextSpeaker

NAME = "play"
HELP = "Play a game at the table: the program hears the die and the moves, checks them and keeps the score."


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("game", choices=sorted(GAMES), help="the game to play")
    add_speech_options(parser)
    parser.add_argument("--players", help='names in seating order, e.g. "Alice,Bruno,Chloé" (no set-up questions)')
    parser.add_argument("--die", default="physical", choices=("physical", "virtual"),
                        help="roll the real die and say the face (default), or let the program roll")
    parser.add_argument("--seed", type=int, default=None, help="seed of the virtual die")
    parser.add_argument("--save", type=Path, help="save file (default: the game's file in the data folder)")
    parser.add_argument("--new", action="store_true", help="replace an unfinished game in the save file")
    parser.add_argument("--only-mine", metavar="NAME",
                        help="follow only this player's zoo; the others tell their King species count at the end")
    parser.add_argument("--trio-points", type=int, choices=(6, 7), help="points of a full woody trio (default 7)")
    parser.add_argument("--river-counts-for-island", action="store_true",
                        help="river dinosaurs count for the solitary island")
    parser.add_argument("--river-counts-for-king", action="store_true",
                        help="river dinosaurs count for the king of the jungle")
    parser.add_argument("--tokens", choices=("physical", "hidden"),
                        help="Jurassic Snack: turn the real tokens and say them, or let the program draw hidden ones")
    parser.add_argument("--layout", type=Path, help="Jurassic Snack: JSON file describing how the four boards lie")
    parser.add_argument("--board", type=Path,
                        help="Dino: a YAML board description edited to match your board (default: the one shipped)")
    parser.add_argument("--quiet-turns", type=int, choices=(2, 4),
                        help="Jurassic Snack: turns in a row without eating or chasing that end the game (default 2)")


def check_save_target(path: Path, replace: bool, game: str | None = None) -> None:
    """Refuse to write over anything but a save that `companion resume` takes back (of `game`, when given),
    and over an unfinished game without --new (`replace`). A link to nowhere, a file that is not a save, a
    damaged save (even one whose checksum holds) or another game's save is refused with how to move it aside."""
    if not os.path.lexists(path):
        return
    try:
        saved_game, content = read_save(path)
        if saved_game not in GAMES or (game is not None and saved_game != game):
            raise SaveFileError("other_game", path, saved_game[:40])
        table = _rebuilt_table(path, saved_game, content)
    except SaveFileError as error:
        raise error.with_advice("move_aside") from None
    if not replace and not (content.get("finished") is True and table.game.phase == OVER):
        raise SaveFileError("in_progress", path)


def _rebuilt_table(path: Path, game: str, content: dict[str, Any]) -> Table:
    """The table `resume` would rebuild from this save, without a word said; SaveFileError if it cannot be."""
    quiet = Session(game=game, lang=DEFAULT_LANGUAGE, speaker=TextSpeaker(io.StringIO()),
                    listener=TextListener(io.StringIO()))
    try:
        return GAMES[game].resume_table(quiet, content, path)
    except SaveFileError:
        raise
    except Exception as error:  # noqa: BLE001 - a save that resume cannot rebuild is never written over
        raise SaveFileError("corrupt", path, type(error).__name__) from None


def run(args: argparse.Namespace) -> int:
    save_path = args.save or default_save_path(args.game)
    try:
        check_save_target(save_path, args.new, args.game)
    except SaveFileError as error:
        raise refuse_save(args, error) from None
    if args.players is not None and len(listed_names(args.players)) < 2:
        raise BadInput("--players: give at least two names separated by commas")
    dialogue = GAMES[args.game]
    session = open_session(args, args.game)
    return run_table(session, lambda: dialogue.new_table(session, args, save_path), resumed=False)
