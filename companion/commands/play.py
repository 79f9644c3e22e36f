"""`companion play GAME`: a whole game at the table, by voice or typed lines."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.dialogue.games import GAMES
from companion.dialogue.runner import add_speech_options, open_session, refuse_save, run_table
from companion.dialogue.savefile import SaveFileError, default_save_path, read_save
from companion.dialogue.setup import listed_names
from companion.errors import BadInput

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


def check_save_target(path: Path, replace: bool) -> None:
    """Refuse to write over a file that is not a save of ours, or over an unfinished game without --new."""
    if not path.exists():
        return
    _game, content = read_save(path)
    if replace:
        return
    if not content.get("finished", False):
        raise SaveFileError("in_progress", path, "use `companion resume` to go on, or --new to replace it")


def run(args: argparse.Namespace) -> int:
    save_path = args.save or default_save_path(args.game)
    try:
        check_save_target(save_path, args.new)
    except SaveFileError as error:
        raise refuse_save(args, error) from None
    if args.players is not None and len(listed_names(args.players)) < 2:
        raise BadInput("--players: give at least two names separated by commas")
    dialogue = GAMES[args.game]
    session = open_session(args, args.game)
    return run_table(session, lambda: dialogue.new_table(session, args, save_path), resumed=False)
