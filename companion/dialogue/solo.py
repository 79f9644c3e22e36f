"""Who plays each seat, and whether the program gives advice: what solo play and the advice switch share.

In solo play the player sits at seat 0 and bots play the other seats: the program rolls and deals (the
game's full mode), and each bot's action is an automatic action of the table, said in one sentence and
taken back together with the player's action before it. A bot sees only its seat's observation (the games'
bots modules build it from the game). The save records the seats, their levels and the seed, so that a
resumed game and an undone one replay the same decisions.

Advice is a fairness choice: at a table of several people it is given only if the table turned it on at
set-up (`--advice`, or yes to the set-up question); in solo it is always on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from companion.dialogue.session import Session
from companion.dialogue.setup_questions import (
    Step,
    ask_alone,
    ask_names,
    ask_yes,
    label_players,
    name_problem,
    names_can_be_typed,
)
from companion.errors import BadInput
from companion.games.bots import BotT, bot_class
from companion.games.levels import LEVELS, STRONG
from companion.terminal_text import clean_name

PLAYER_SEAT = 0  # the seat of the person who plays a solo game: the first to roll, or blue


@dataclass(frozen=True)
class Seats:
    """The bots of a solo game (seat → level; none at a table), the seed of their decisions, and whether
    advice is given."""

    bots: Mapping[int, str] = field(default_factory=dict)
    seed: int = 0
    advice: bool = False

    @property
    def solo(self) -> bool:
        return bool(self.bots)

    def is_bot(self, seat: Any) -> bool:
        return seat in self.bots

    def spoken_to(self, seat: Any) -> bool:
        """In solo, the person playing: what they do is said to them in the second person."""
        return self.solo and not self.is_bot(seat)

    def bot(self, seat: int, bots: Mapping[str, type[BotT]], game: str) -> BotT:
        """The bot that plays `seat`, of its level among a game's `bots`."""
        return bot_class(bots, self.bots[seat], game)(self.seed)

    def to_json(self) -> dict[str, Any]:
        bots = [{"seat": seat, "level": level} for seat, level in sorted(self.bots.items())]
        return {"solo": self.solo, "bots": bots, "seed": self.seed, "advice": self.advice}

    @classmethod
    def from_json(cls, data: Any, players: int) -> Seats:
        """The seats a save holds (none saved: a table without bots or advice); ValueError for seats that
        are not this game's."""
        if data is None:
            return cls()
        if not isinstance(data, dict):
            raise TypeError(f"seats {data!r}")
        bots: dict[int, str] = {}
        for entry in data.get("bots") or ():
            seat, level = (entry.get("seat"), entry.get("level")) if isinstance(entry, dict) else (None, None)
            if type(seat) is not int or not 0 <= seat < players or seat == PLAYER_SEAT or level not in LEVELS:
                raise ValueError(f"bot seat {entry!r}")
            bots[seat] = level
        seed, advice = data.get("seed", 0), data.get("advice", False)
        if type(seed) is not int or seed < 0 or type(advice) is not bool or data.get("solo", bool(bots)) != bool(bots):
            raise ValueError(f"seats {data!r}")
        return cls(bots, seed, advice or bool(bots))


@dataclass(frozen=True)
class SoloRequest:
    """What the command line asks of a solo game: how many bots, of which level."""

    bots: int
    level: str


def solo_request(args: Any, session: Session, default_bots: int) -> SoloRequest | None:
    """The solo game --solo asks for (None without it); BadInput, in the player's language, for --bots or
    --level without --solo."""
    bots, level = getattr(args, "bots", None), getattr(args, "level", None)
    if not getattr(args, "solo", False):
        if bots is not None or level is not None:
            raise BadInput(session.text("solo.cli.needs_solo", option="--bots" if bots is not None else "--level"))
        return None
    return SoloRequest(default_bots if bots is None else bots, level or STRONG)


def refuse_with_solo(session: Session, option: str) -> BadInput:
    """The refusal of an option a solo game cannot take."""
    return BadInput(session.text("solo.cli.not_with_solo", option=option))


def solo_players(session: Session, args: Any, bots: int) -> list[str]:
    """The player's name (from --players, which then names one player, else asked), then the bots' names."""
    robots = [session.text("solo.bot_alone")] if bots == 1 else [
        session.text("solo.bot_name", number=number) for number in range(1, bots + 1)]
    if args.players is not None:
        names = [clean_name(name) for name in args.players.split(",") if clean_name(name)]
        problem = name_problem(names[0], robots, session.lang) if len(names) == 1 else None
        if len(names) != 1 or problem is not None:
            raise BadInput("--players: " + session.text("solo.cli.one_name", bots=robots))
        return [names[0], *robots]
    if not names_can_be_typed(session):
        return [*label_players(session, 1), *robots]
    while True:
        name = ask_alone(session, lambda: ask_names(session, 1, keys=("solo.ask_name",))[0])
        problem = name_problem(name, robots, session.lang)
        if problem is None:
            return [name, *robots]
        session.say(f"setup.{problem[0]}", **problem[1])


def solo_seats(request: SoloRequest, seed: int) -> Seats:
    """The seats of a solo game: the player at PLAYER_SEAT, a bot of the level asked at every other seat."""
    return Seats({seat: request.level for seat in range(1, request.bots + 1)}, seed, advice=True)


def advice_step(session: Session, args: Any, asked: bool = True) -> Step:
    """The set-up question whether advice is given at a table of people: when the set-up is `asked`, unless
    --advice said yes."""
    return Step("advice", lambda answers: ask_yes(session, "solo.setup_advice"),
                when=lambda answers: asked and not getattr(args, "advice", False))


def table_seats(args: Any, advice: bool = False) -> Seats:
    """The seats of a table of people: no bots; advice on with --advice, or with a yes to the set-up question
    (`advice`, see advice_step)."""
    return Seats(advice=bool(getattr(args, "advice", False)) or advice)
