"""Setting up a Draftosaurus table: the players, who holds the die, the rule options, whose zoos to follow;
from the command line, or by questions for what it leaves out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.dialogue.session import Session
from companion.dialogue.setup import (ask_choice, ask_names, ask_player, ask_yes, label_players, listed_names,
                                      names_can_be_typed, player_by_name, table_seed)
from companion.errors import BadInput, RuleViolation
from companion.games.common import Reason
from companion.games.draftosaurus.board import MAX_PLAYERS, MIN_PLAYERS
from companion.games.draftosaurus.engine import Game, Options


@dataclass
class TableSetup:
    players: list[str] = field(default_factory=list)
    first_roller: int = 0
    options: Options = field(default_factory=Options)
    tracked: list[int] | None = None  # None: every zoo


def start_game(session: Session, args: Any) -> tuple[Game, str, int]:
    """The new game, the die mode and the seed, from the options and, without --players, the questions."""
    options = Options(trio_points=args.trio_points or Options().trio_points,
                      river_counts_for_island=args.river_counts_for_island,
                      river_counts_for_king=args.river_counts_for_king)
    if args.players:
        players = listed_names(args.players, session.lang)
        setup = TableSetup(players, 0, options, only_mine(players, args.only_mine))
    else:
        setup = ask_setup(session, free_text_names=names_can_be_typed(session))
    seed = table_seed(args)
    try:
        game = Game.new(setup.players, options=setup.options, mode="table", seed=seed,
                        first_roller=setup.first_roller, tracked=setup.tracked)
    except RuleViolation as refused:  # e.g. six players: said in the player's language
        if not isinstance(refused.reason, Reason):
            raise
        raise BadInput(session.catalog.say(f"reasons.{refused.reason.code}", **refused.reason.params)) from None
    return game, args.die, seed


def only_mine(players: list[str], name: str | None) -> list[int] | None:
    """The tracked list for --only-mine NAME (None: every zoo)."""
    if name is None:
        return None
    found = player_by_name(players, name.strip())
    if found is None:
        raise BadInput(f"--only-mine: '{name}' is not one of the players ({', '.join(players)})")
    return [found]


def ask_setup(session: Session, *, free_text_names: bool) -> TableSetup:
    """Ask the questions of a new table. Names are asked only when a typed line can hold any name."""
    count = ask_choice(session, "draft.setup.ask_count",
                       lambda said: isinstance(said, int) and MIN_PLAYERS <= said <= MAX_PLAYERS,
                       "draft.setup.bad_count")
    players = ask_names(session, count) if free_text_names else label_players(session, count)
    session.set_player_names(players)
    first_roller = ask_player(session, players, "draft.setup.ask_roller")
    options = _ask_options(session)
    tracked = None if ask_yes(session, "draft.setup.ask_tracking") else [
        ask_player(session, players, "draft.setup.ask_me")]
    return TableSetup(players, first_roller, options, tracked)


def _ask_options(session: Session) -> Options:
    defaults = Options()
    if ask_yes(session, "draft.setup.ask_default_rules", trio=defaults.trio_points):
        return defaults
    trio = ask_choice(session, "draft.setup.ask_trio", lambda said: said in (6, 7), "draft.setup.bad_trio")
    return Options(trio_points=trio,
                   river_counts_for_island=ask_yes(session, "draft.setup.ask_river_island"),
                   river_counts_for_king=ask_yes(session, "draft.setup.ask_river_king"))
