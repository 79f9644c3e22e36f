"""Setting up a Dino table: players, who starts, colours, nests and barriers (drawn at random or dictated),
the rule options; each answer checked by the rules before it is kept. A solo game: the player (first to play,
the first colour) against bots, the layout drawn by the program, the usual rules."""

from __future__ import annotations

import random
from typing import Any

from companion.dialogue.session import Answer, Session, heard_words
from companion.dialogue.setup_questions import (
    SETUP_STATE,
    ask_choice,
    ask_intent,
    ask_names,
    ask_player,
    ask_yes,
    label_players,
    listed_names,
    names_can_be_typed,
    table_seed,
)
from companion.dialogue.solo import Seats, solo_players, solo_request, solo_seats, table_seats
from companion.errors import BadInput, RuleViolation
from companion.games.common import Reason
from companion.games.dino.board import Board, Border, load_board
from companion.games.dino.engine import Game
from companion.games.dino.ids import (
    DEFAULT_EGGS_RULE,
    EGGS_RULES,
    MAX_BARRIERS,
    MAX_PLAYERS,
    MIN_BARRIERS,
    MIN_PLAYERS,
    OWN_EXITS_MAX_PLAYERS,
    eggs_per_nest,
)
from companion.games.dino.starting_position import Setup, border_reason, nest_reason, random_layout

SETUP_AGAIN = "dino.setup.expected_answer"
DEFAULT_BOTS = 2  # a solo game without --bots: three players (its spec.py says it in --help)


def start_game(session: Session, args: Any) -> tuple[Game, Seats]:
    """A new game and its seats: set-up questions (players too, unless --players gave them); in solo, none but
    the player's name. Advice at a table of people only with --advice."""
    request = solo_request(args, session, DEFAULT_BOTS)
    names = listed_names(args.players, session.lang) if args.players and request is None else None
    if names is not None and not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:  # before colours are offered to them
        raise BadInput(session.catalog.say("reasons.dino_player_count", count=len(names), least=MIN_PLAYERS,
                                           most=MAX_PLAYERS))
    try:
        board = load_board(args.board) if args.board else load_board()
    except RuleViolation as refused:
        raise BadInput(f"--board {args.board}: " + _reason_words(session, refused)) from None
    seed = table_seed(args)
    chooser = random.Random(seed)
    if request is not None:
        players = solo_players(session, args, request.bots)
        session.set_player_names(players)
        nests, barriers = random_layout(board, len(players), chooser)
        setup = Setup(tuple(players), board.pawn_colours[:len(players)], nests, barriers, board=board)
        seats = solo_seats(request, seed)
    else:
        setup = TableSetup(session, board, chooser).run(names)
        seats = table_seats(session, args, asked=False)
    try:
        return Game.new(setup), seats
    except RuleViolation as refused:
        raise BadInput(_reason_words(session, refused)) from None


def _reason_words(session: Session, refused: RuleViolation) -> str:
    return session.catalog.say(f"reasons.{refused.reason.code}", **refused.reason.params)


class TableSetup:
    """The set-up questions of a new table, each answer checked by the rules before it is kept."""

    def __init__(self, session: Session, board: Board, chooser: random.Random):
        self.session, self.board, self.chooser = session, board, chooser

    def ask(self, key: str, expected: set[str], **params: Any) -> Answer:
        return ask_intent(self.session, key, expected, again_key=SETUP_AGAIN, **params)

    def ask_yes(self, key: str, **params: Any) -> bool:
        return ask_yes(self.session, key, again_key=SETUP_AGAIN, **params)

    def run(self, names: list[str] | None) -> Setup:
        players = names or self.ask_players()
        self.session.set_player_names(players)
        first = 0 if names else self.ask_first(players)
        colours = self.ask_colours(players)
        if self.ask_yes("dino.setup.ask_layout"):
            nests, barriers = random_layout(self.board, len(players), self.chooser)
        else:
            nests, barriers = self.ask_nests(), self.ask_barriers(players[first])
        eggs_rule, stones, own_exits = self.ask_options(len(players))
        return Setup(tuple(players), tuple(colours), nests, barriers, first, eggs_rule, stones, own_exits, self.board)

    def ask_players(self) -> list[str]:
        count = ask_choice(self.session, "dino.setup.ask_count",
                           lambda said: isinstance(said, int) and MIN_PLAYERS <= said <= MAX_PLAYERS,
                           "dino.setup.bad_count", again_key=SETUP_AGAIN)
        if not names_can_be_typed(self.session):
            return label_players(self.session, count)
        return ask_names(self.session, count)

    def ask_first(self, players: list[str]) -> int:
        return ask_player(self.session, players, "dino.setup.ask_first", again_key=SETUP_AGAIN)

    def ask_colours(self, players: list[str]) -> list[str]:
        proposed = list(self.board.pawn_colours[:len(players)])
        pairs = [self.session.text("dino.setup.player_colour", player=p, colour=c)
                 for p, c in zip(players, proposed, strict=True)]
        if self.ask_yes("dino.setup.ask_default_colours", pairs=self.session.catalog.join(pairs)):
            return proposed
        colours: list[str] = []
        for player in players:
            while True:
                colour = self.ask_colour(player, [c for c in self.board.pawn_colours if c not in colours])
                if colour in self.board.pawn_colours and colour not in colours:
                    colours.append(colour)
                    break
                self.refuse(Reason("dino_colour_taken", {"colour": colour, "player": players[colours.index(colour)]})
                            if colour in colours else
                            Reason("dino_unknown_pawn_colour",
                                   {"value": colour, "colours": list(self.board.pawn_colours)}))
        pairs = [self.session.text("dino.setup.player_colour", player=p, colour=c)
                 for p, c in zip(players, colours, strict=True)]
        self.session.say("dino.setup.colours_chosen", pairs=self.session.catalog.join(pairs))
        return colours

    def ask_colour(self, player: str, free: list[str]) -> str:
        """The colour said for `player`; "help" names the colours still free and how to say one."""
        session = self.session
        names = [session.catalog.name("colours", colour) for colour in free]
        help_params = {"player": player, "colour": free[0], "colours": self.or_join(names)}
        question = session.text("dino.setup.ask_colour", player=player)
        answer = session.ask(question, SETUP_STATE, help_key="dino.setup.help_colour", help_params=help_params)
        while not self.colour_for(answer, player) or answer.doubtful or answer.unsure:
            if self.colour_for(answer, player):  # unsure: its words read back first
                verdict = session.confirm(session.text("session.confirm", heard=heard_words(answer)), SETUP_STATE)
                if verdict is True:
                    break
                if isinstance(verdict, Answer):
                    answer = verdict
                    continue
                prompt = None
            else:
                prompt = session.text(SETUP_AGAIN, question=question)
            answer = session.ask(prompt, SETUP_STATE, help_key="dino.setup.help_colour", help_params=help_params)
        return str(answer.slots["colour"])

    @staticmethod
    def colour_for(answer: Answer, player: str) -> bool:
        """Whether `answer` says a colour for `player` (a colour said for another player is not taken)."""
        return answer.intent == "colour_choice" and str(answer.slots.get("player", player)) == player

    def ask_nests(self) -> dict[str, str]:
        nests: dict[str, str] = {}
        for colour in self.board.egg_colours:
            while True:
                answer = self.ask("dino.setup.ask_nest", {"square_answer", "nest_place"}, colour=colour)
                square, said_colour = answer.slots["square"], answer.slots.get("colour", colour)
                reason = (nest_reason(self.board, colour, square, nests) if said_colour == colour
                          else Reason("dino_nest_expected", {"colour": colour}))
                if reason is None:
                    nests[colour] = square
                    break
                self.refuse(reason)
        return nests

    def ask_barriers(self, first_player: str) -> tuple[Border, ...]:
        self.session.say("dino.setup.barriers_intro", player=first_player, least=MIN_BARRIERS, most=MAX_BARRIERS)
        placed: tuple[Border, ...] = ()
        while len(placed) < MAX_BARRIERS:
            if len(placed) >= MIN_BARRIERS and not self.ask_yes("dino.setup.ask_more_barriers", count=len(placed)):
                break
            # Once there are enough, "no", "that's all" or "undo" take back the yes to one more.
            expected = {"barrier_place", "no", "undo"} if len(placed) >= MIN_BARRIERS else {"barrier_place"}
            answer = self.ask("dino.setup.ask_barrier", expected, number=len(placed) + 1)
            if answer.intent != "barrier_place":
                break
            slots = answer.slots
            reason = border_reason(self.board, slots["square"], slots["other_square"], placed)
            if reason is None:  # the squares touch: their border is not None
                placed += (self.board.border(slots["square"], slots["other_square"]),)  # type: ignore[operator]
            else:
                self.refuse(reason)
        return placed

    def ask_options(self, players: int) -> tuple[str, int | None, bool]:
        most = self.board.meteor_for(players)
        if self.ask_yes("dino.setup.ask_default_rules", eggs=eggs_per_nest(players, DEFAULT_EGGS_RULE), stones=most):
            return DEFAULT_EGGS_RULE, None, False
        rules = {eggs_per_nest(players, rule): rule for rule in reversed(list(EGGS_RULES))}
        choices = self.or_join(sorted(rules, reverse=True))
        eggs = ask_choice(self.session, "dino.setup.ask_eggs", lambda said: said in rules, "dino.setup.bad_eggs",
                          again_key=SETUP_AGAIN, choices=choices)
        while True:
            answer = self.ask("dino.setup.ask_stones", {"number", "stones_answer"}, most=most)
            stones = answer.slots.get("stones", answer.slots.get("number"))
            if isinstance(stones, int) and 1 <= stones <= most:
                break
            self.refuse(Reason("dino_meteor_stones", {"value": str(stones), "most": most}))
        own = players <= OWN_EXITS_MAX_PLAYERS and self.ask_yes("dino.setup.ask_own_exits")
        return rules[eggs], (None if stones == most else stones), own

    def refuse(self, reason: Reason) -> None:
        self.session.say("table.refused", reason=self.session.catalog.say(f"reasons.{reason.code}", **reason.params))

    def or_join(self, items: list[Any]) -> str:
        """'a, b or c' in the session language."""
        words = [str(item) for item in items]
        if len(words) == 1:
            return words[0]
        return self.session.text("dino.setup.or_join", head=self.session.text("list.separator").join(words[:-1]),
                                 last=words[-1])
