"""`companion play GAME`: a whole game at the table, by voice or typed lines. Each game has its own options
(`companion play GAME --help`); an option of another game is refused."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion import registry
from companion.dialogue.runner import add_speech_options, open_session, refuse_save, run_table
from companion.dialogue.savefile import SaveFileError, default_save_path, read_save
from companion.dialogue.setup import listed_names
from companion.errors import BadInput

NAME = "play"
HELP = "Play a game at the table: the program hears the die and the moves, checks them and keeps the score."


def configure(parser: argparse.ArgumentParser) -> None:
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True, parser_class=type(parser))
    for spec in registry.GAMES:
        game = games.add_parser(spec.id, help=f"play {spec.title}", description=f"{HELP} ({spec.title})")
        add_speech_options(game)
        game.add_argument("--players", help='names in seating order, e.g. "Alice,Bruno,Chloé" (fewer questions)')
        game.add_argument("--seed", type=int, default=None,
                          help="seed of whatever the program draws (virtual die, hidden tokens, layouts)")
        game.add_argument("--save", type=Path, help="save file (default: the game's file in the data folder)")
        game.add_argument("--new", action="store_true", help="replace an unfinished game in the save file")
        spec.add_options(game)


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
    spec = registry.game(args.game)
    save_path = args.save or default_save_path(spec.id)
    try:
        check_save_target(save_path, args.new)
    except SaveFileError as error:
        raise refuse_save(args, error) from None
    if args.players is not None and len(listed_names(args.players, args.lang)) < 2:
        raise BadInput("--players: give at least two names separated by commas")
    session = open_session(args, spec.id)
    table_class = spec.table_class()
    return run_table(session, lambda: table_class.new(session, args, save_path), resumed=False)
