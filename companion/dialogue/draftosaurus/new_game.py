"""Setting up a Draftosaurus table: the board side (and the summer/winter match), the players, who holds the
die, the rule options, whose zoos to follow, whether advice is given; from the command line, or by questions
for what it leaves out. On the winter board, the values printed on it come from the table's own file, or from
what the table told (asked once each). A solo game: the player's name, bots at the other seats, the usual
rules unless the command line changes them, on either board side or the match."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.dialogue.draftosaurus.board_values import board_from_file, solo_winter_board, table_winter_board
from companion.dialogue.session import Session
from companion.dialogue.setup_questions import (
    Step,
    ask_choice,
    ask_player,
    ask_steps,
    ask_yes,
    listed_names,
    player_by_name,
    player_steps,
    table_seed,
)
from companion.dialogue.solo import (
    Seats,
    SoloRequest,
    advice_step,
    refuse_with_solo,
    solo_players,
    solo_seats,
    table_seats,
)
from companion.errors import BadInput, RuleViolation, Said
from companion.games.common import Reason, next_seed
from companion.games.draftosaurus.board import MAX_PLAYERS, MIN_PLAYERS
from companion.games.draftosaurus.engine import Game
from companion.games.draftosaurus.ids import BOARDS
from companion.games.draftosaurus.options import Options
from companion.games.draftosaurus.winter_board import WinterBoard
from companion.language.messages import catalog
from companion.terminal_text import clean_name

MATCHES = {"summer-winter": ("summer", "winter")}  # --match: the board sides of its games, in order
DEFAULT_BOTS = 3  # a solo game without --bots: four players, the usual game


@dataclass
class TableSetup:
    players: list[str] = field(default_factory=list)
    first_roller: int = 0
    options: Options = field(default_factory=Options)
    tracked: list[int] | None = None  # None: every zoo
    advice: bool = False  # yes to the set-up question


@dataclass(frozen=True)
class Boards:
    """The board sides a table plays, in order (one, or a match's two), and the winter board of a table's own
    file (None: the shipped board with the values the table told)."""

    sides: tuple[str, ...]
    winter_file: WinterBoard | None = None
    match: str | None = None


def boards(args: Any, lang: str) -> Boards:
    """What --board (summer, winter or a winter board FILE) and --match ask for; BadInput when they disagree
    or the file is refused."""
    board = getattr(args, "board", None)
    match = getattr(args, "match", None)
    winter_file = None if board is None or board in BOARDS else board_from_file(Path(board), catalog(lang))
    if match is None:
        return Boards(("winter" if winter_file is not None else board or "summer",), winter_file)
    if board == "summer":
        raise BadInput(f"--match {match} plays summer then winter: --board may only give the winter board "
                       "(winter, or a winter board file)")
    return Boards(MATCHES[match], winter_file, match)


def rule_options(args: Any) -> Options:
    """The rule options the command line gives (the usual rules for those it leaves out)."""
    return Options(trio_points=args.trio_points or Options().trio_points,
                   river_counts_for_island=args.river_counts_for_island,
                   river_counts_for_king=args.river_counts_for_king)


def start_game(session: Session, args: Any, board: str = "summer", winter_file: WinterBoard | None = None
               ) -> tuple[Game, str, int, Seats]:
    """The new game on `board`, the die mode, the seed and the seats (advice on or off), from the options
    and, without --players, the questions. On winter the rule options of the summer pens are not asked."""
    options = rule_options(args)
    if args.players:
        players = listed_names(args.players, session.lang)
        setup = TableSetup(players, 0, options, only_mine(players, args.only_mine))
    else:
        setup = ask_setup(session, args, summer=board == "summer")
    seed = table_seed(args)
    try:
        game = Game.new(setup.players, options=setup.options, mode="table", seed=seed,
                        first_roller=setup.first_roller, tracked=setup.tracked, board=board,
                        winter_board=winter_board(session, board, winter_file))
    except RuleViolation as refused:  # e.g. six players: said in the player's language
        if not isinstance(refused.reason, Reason):
            raise
        raise BadInput(session.catalog.say(f"reasons.{refused.reason.code}", **refused.reason.params)) from None
    return game, args.die, seed, table_seats(args, setup.advice)


def start_solo(session: Session, args: Any, request: SoloRequest) -> tuple[Game, int, Seats, Boards]:
    """A solo game (full mode: the program deals and rolls), its seed, its seats and its board sides (one, or a
    match's two). Every zoo is followed. The winter board's values are not asked: with no board on the table,
    those a table told before are used and the others are the provisional ones (board_values.solo_winter_board),
    or those of --board FILE."""
    if args.only_mine:
        raise refuse_with_solo(session, "--only-mine")
    chosen = boards(args, session.lang)
    if "winter" in chosen.sides and chosen.winter_file is None:
        chosen = Boards(chosen.sides, solo_winter_board(), chosen.match)
    players = solo_players(session, args, request.bots)
    seed = table_seed(args)
    game = Game.new(players, options=rule_options(args), mode="full", seed=seed, board=chosen.sides[0],
                    winter_board=chosen.winter_file if chosen.sides[0] == "winter" else None)
    return game, seed, solo_seats(request, seed), chosen


def winter_board(session: Session, board: str, winter_file: WinterBoard | None) -> WinterBoard | None:
    """The winter board a new game plays on: the table's file, else the shipped one with the values the table
    told (the unconfirmed ones asked now); None on summer."""
    if board != "winter":
        return None
    return winter_file if winter_file is not None else table_winter_board(session)


def next_game(session: Session, previous: Game, board: str, winter_file: WinterBoard | None) -> Game:
    """The next game of a match: the same players, rules, first roller and followed zoos, on `board`."""
    return Game.new(previous.players, options=previous.options, mode=previous.mode, seed=next_seed(previous.seed),
                    first_roller=previous.first_roller,
                    tracked=None if previous.tracks_everyone else previous.tracked, board=board,
                    winter_board=winter_board(session, board, winter_file))


def only_mine(players: list[str], name: str | None) -> list[int] | None:
    """The tracked list for --only-mine NAME (None: every zoo)."""
    if name is None:
        return None
    found = player_by_name(players, name.strip())
    if found is None:
        raise Said("commands.play.only_mine_unknown", name=clean_name(name), players=list(players))
    return [found]


def ask_setup(session: Session, args: Any, *, summer: bool = True) -> TableSetup:
    """Ask the questions of a new table, in steps ("annule" goes back one): names only when a typed line can
    hold any name; the rule options only for the summer board, whose pens they are about; advice unless
    --advice gave it."""
    answers = ask_steps(session, [
        *player_steps(session, lambda: _ask_count(session)),
        Step("roller", lambda answers: ask_player(session, answers["players"], "draft.setup.ask_roller")),
        Step("usual_rules", lambda answers: ask_yes(session, "draft.setup.ask_default_rules",
                                                    trio=Options().trio_points), when=lambda answers: summer),
        Step("trio", lambda answers: ask_choice(session, "draft.setup.ask_trio", lambda said: said in (6, 7),
                                                "draft.setup.bad_trio"), when=_rules_asked),
        Step("river_island", lambda answers: ask_yes(session, "draft.setup.ask_river_island"), when=_rules_asked),
        Step("river_king", lambda answers: ask_yes(session, "draft.setup.ask_river_king"), when=_rules_asked),
        Step("tracking", lambda answers: ask_yes(session, "draft.setup.ask_tracking")),
        Step("me", lambda answers: ask_player(session, answers["players"], "draft.setup.ask_me"),
             when=lambda answers: not answers["tracking"]),
        advice_step(session, args)])
    options = Options(trio_points=answers["trio"], river_counts_for_island=answers["river_island"],
                      river_counts_for_king=answers["river_king"]) if "trio" in answers else Options()
    return TableSetup(answers["players"], answers["roller"], options,
                      None if answers["tracking"] else [answers["me"]], answers.get("advice", False))


def _ask_count(session: Session) -> int:
    return int(ask_choice(session, "draft.setup.ask_count",
                          lambda said: isinstance(said, int) and MIN_PLAYERS <= said <= MAX_PLAYERS,
                          "draft.setup.bad_count"))


def _rules_asked(answers: dict[str, Any]) -> bool:
    """Whether the rule options are asked one by one: no to the usual rules (only asked on summer)."""
    return not answers.get("usual_rules", True)
