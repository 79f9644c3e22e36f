"""Setting up a Jurassic Snack table: the two players (blue first), the tokens (physical or hidden), the
assembly of the boards, whether advice is given; from the command line, or by questions for what it leaves
out. A solo game: the player (blue, first to move) against a bot, with hidden tokens."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.dialogue.session import Session
from companion.dialogue.setup_questions import (
    Step,
    ask_names,
    ask_steps,
    ask_until,
    label_players,
    listed_names,
    names_can_be_typed,
    seated,
    table_seed,
)
from companion.dialogue.solo import (
    Seats,
    advice_step,
    refuse_with_solo,
    solo_players,
    solo_request,
    solo_seats,
    table_seats,
)
from companion.errors import BadInput, RuleViolation, Said
from companion.files import load_json
from companion.games.common import Reason
from companion.games.jurassic_snack.engine import HIDDEN, MODES, Game, Options
from companion.games.jurassic_snack.layout import LAYOUT_LIMIT, LAYOUT_SCHEMA, Layout


def start_game(session: Session, args: Any) -> tuple[Game, Seats]:
    """The new game and its seats, from the options and questions for what they leave out."""
    layout = read_layout(args.layout, session)
    options = Options(quiet_turns=args.quiet_turns or Options().quiet_turns)
    request = solo_request(args, session, 1)
    if request is not None:
        if args.tokens == "physical":
            raise refuse_with_solo(session, "--tokens physical")
        players = solo_players(session, args, 1)
        seed = table_seed(args)
        session.set_player_names(players)
        return _new_game(session, players, layout, HIDDEN, seed, options), solo_seats(request, seed)
    players = listed_names(args.players, session.lang) if args.players else []
    if len(players) not in (0, 2):
        raise Said("commands.play.snack_players", count=len(players))
    if players:
        seated(session, players)
    answers = ask_steps(session, [  # "annule" goes back one question
        Step("players", lambda answers: seated(session, ask_players(session)), when=lambda answers: not players,
             asks=names_can_be_typed(session)),
        Step("mode", lambda answers: ask_mode(session), when=lambda answers: not args.tokens),
        advice_step(session, args, asked=not players)])
    seats = table_seats(args, answers.get("advice", False))
    return _new_game(session, answers.get("players", players), layout, args.tokens or answers["mode"],
                     table_seed(args), options), seats


def _new_game(session: Session, players: list[str], layout: Layout, mode: str, seed: int, options: Options) -> Game:
    try:
        return Game.new(players, layout=layout, mode=mode, seed=seed, options=options)
    except RuleViolation as error:
        reason = error.reason if isinstance(error.reason, Reason) else Reason("js_unknown_action")
        raise BadInput(session.catalog.say(f"reasons.{reason.code}", **reason.params)) from None


def read_layout(path: Path | None, session: Session) -> Layout:
    """The assembly described in a JSON file (a list of boards, or {"boards": [...]}), or the default square.

    The file is read by companion.files (FileRefused when it cannot be used as it is)."""
    if path is None:
        return Layout.default()
    data = load_json(Path(path), LAYOUT_LIMIT, LAYOUT_SCHEMA)
    try:
        return Layout.build(data.get("boards") if isinstance(data, dict) else data)
    except RuleViolation as error:
        reason = error.reason
        assert isinstance(reason, Reason)
        raise BadInput(f"--layout {path}: " + session.catalog.say(f"reasons.{reason.code}", **reason.params)) from None


def ask_players(session: Session) -> list[str]:
    """The two names when a typed line can hold any name; otherwise "Player 1" and "Player 2"."""
    if not names_can_be_typed(session):
        return label_players(session, 2)
    return ask_names(session, 2, keys=("js.setup.ask_blue", "js.setup.ask_yellow"))


def ask_mode(session: Session) -> str:
    answer = ask_until(session, session.text("js.setup.ask_mode"),
                       lambda said: said.intent == "token_mode" and said.slots.get("token_mode") in MODES,
                       "js.setup.expected_mode", help_key="js.setup.help_mode")
    return str(answer.slots["token_mode"])
