"""`companion play GAME`: a whole game at the table, by voice or typed lines. Each game has its own options
(`companion play GAME --help`); an option of another game is refused."""

from __future__ import annotations

import argparse
import io
import os
from pathlib import Path
from typing import Any

from companion import registry
from companion.dialogue.runner import add_speech_options, held_save, open_session, refuse_save, run_table
from companion.dialogue.savefile import SaveFileError, default_save_path, hold_save, read_save, save_state
from companion.dialogue.session import Session
from companion.dialogue.setup_questions import listed_names
from companion.dialogue.turn import Table
from companion.errors import Said
from companion.games.common import MAX_SEED, OVER, SEED_DIGITS
from companion.language.messages import DEFAULT_LANGUAGE
from companion.speech.base import TextListener, TextSpeaker


def configure(parser: argparse.ArgumentParser) -> None:
    games = parser.add_subparsers(dest="game", metavar="GAME", required=True, parser_class=type(parser))
    for spec in registry.GAMES:
        game = games.add_parser(spec.id, help=f"play {spec.title}", description=f"{parser.description} ({spec.title})")
        add_speech_options(game)
        game.add_argument("--players", help='names in seating order, e.g. "Alice,Bruno,Chloé" (fewer questions)')
        game.add_argument("--seed", type=int, default=None,
                          help="seed of whatever the program draws (virtual die, hidden tokens, layouts)")
        game.add_argument("--save", type=Path, help="save file (default: the game's file in the data folder)")
        game.add_argument("--new", action="store_true", help="replace an unfinished game in the save file")
        spec.add_options(game)


def check_save_target(path: Path, replace: bool, game: str | None = None, lang: str = DEFAULT_LANGUAGE) -> None:
    """Refuse to write over anything but a save that `companion resume` takes back (of `game`, when given),
    and over an unfinished game without --new (`replace`). A link to nowhere, a file that is not a save, a
    damaged save (even one whose checksum holds) or another game's save is refused with how to move it aside."""
    if not os.path.lexists(path):
        return
    try:
        saved_game, content = read_save(path)
        if saved_game not in registry.ids() or (game is not None and saved_game != game):
            raise SaveFileError("other_game", path, saved_game[:40])
        table = _rebuilt_table(path, saved_game, content, lang)
    except SaveFileError as error:
        raise error.with_advice("move_aside") from None
    if not replace and not (content.get("finished") is True and table.game.phase == OVER):
        raise SaveFileError("in_progress", path)


def _rebuilt_table(path: Path, game: str, content: dict[str, Any], lang: str) -> Table[Any, Any]:
    """The table `resume` would rebuild from this save, without a word said; SaveFileError if it cannot be
    (said in `lang`)."""
    quiet = Session(game=game, lang=lang, speaker=TextSpeaker(io.StringIO()), listener=TextListener(io.StringIO()))
    try:
        table: Table[Any, Any] = registry.game(game).table_class().from_save(quiet, content, path)
        return table
    except SaveFileError:
        raise
    except Exception as error:  # noqa: BLE001 - a save that resume cannot rebuild is never written over
        raise SaveFileError("corrupt", path, Table.damage(quiet, error)) from None


def run(args: argparse.Namespace) -> int:
    spec = registry.game(args.game)
    if args.seed is not None and not 0 <= args.seed <= MAX_SEED:  # its save could never be read back
        shown = str(args.seed)
        raise Said("cli.bad_seed", option="--seed", value=shown if len(shown) <= 24 else shown[:24] + "…",
                   digits=SEED_DIGITS)
    if args.players is not None and not getattr(args, "solo", False):  # in solo it names the player alone
        listed_names(args.players, args.lang)  # BadInput, said in the player's language, before anything else
    save_path = args.save or default_save_path(spec.id)
    checked = save_state(save_path)
    _check(args, save_path)
    with held_save(args, save_path) as held:
        if held.found != checked:  # written by another game before this one held it
            _check(args, save_path)
        session = open_session(args, spec.id)
        table_class = spec.table_class()
        return run_table(session, lambda: table_class.new(session, args, save_path), resumed=False)


def _check(args: argparse.Namespace, save_path: Path) -> None:
    try:
        check_save_target(save_path, args.new, args.game, args.lang)
    except SaveFileError as error:
        raise refuse_save(args, _in_use(save_path) if error.code == "in_progress" else error) from None


def _in_use(save_path: Path) -> SaveFileError:
    """The refusal of a save holding a game in progress: that another program plays it now, when one does (to
    resume it would be refused too), else that it is in progress."""
    try:
        hold_save(save_path).release()
    except SaveFileError as refusal:  # SaveInUse, or a lock file that is no plain file
        return refusal
    return SaveFileError("in_progress", save_path)
