"""Setting up a Dino table: players, who starts, colours, nests and barriers (drawn at random or dictated),
the rule options; each answer checked by the rules before it is kept. A solo game: the player (first to play,
the first colour) against bots, the layout drawn by the program, the usual rules."""

from __future__ import annotations

import random
from functools import partial
from typing import Any

from companion.dialogue.session import Answer, Session, heard_words
from companion.dialogue.setup_questions import (
    AGAIN,
    SETUP_STATE,
    GoBack,
    Step,
    ask_choice,
    ask_intent,
    ask_player,
    ask_steps,
    ask_yes,
    listed_names,
    player_steps,
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
from companion.games.dino.starting_position import Setup, border_reason, colour_reason, nest_reason, random_layout

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
        seats = table_seats(args)
    try:
        return Game.new(setup), seats
    except RuleViolation as refused:
        raise BadInput(_reason_words(session, refused)) from None


def _reason_words(session: Session, refused: RuleViolation) -> str:
    return session.catalog.say(f"reasons.{refused.reason.code}", **refused.reason.params)


class TableSetup:
    """The set-up questions of a new table, as steps ("annule" goes back one question: ask_steps), each answer
    checked by the rules before it is kept."""

    def __init__(self, session: Session, board: Board, chooser: random.Random):
        self.session, self.board, self.chooser = session, board, chooser
        self.names: list[str] = []  # the players the command line named (none: they are asked)

    def ask(self, key: str, expected: set[str], help_key: str | None = None, **params: Any) -> Answer:
        return ask_intent(self.session, key, expected, help_key=help_key, **params)

    def ask_yes(self, key: str, **params: Any) -> bool:
        return ask_yes(self.session, key, **params)

    def run(self, names: list[str] | None) -> Setup:
        self.names = names or []
        if self.names:
            self.session.set_player_names(self.names)
        answers = ask_steps(self.session, self.steps())
        players = self.players(answers)
        colours = self.proposed(players) if answers["usual_colours"] else [
            answers[f"colour {index}"] for index in range(len(players))]
        if answers["drawn"]:
            nests, barriers = random_layout(self.board, len(players), self.chooser)
        else:
            nests, barriers = self.nests(answers), self.barriers(answers)
        return Setup(tuple(players), tuple(colours), nests, barriers, answers.get("first", 0),
                     answers.get("eggs", DEFAULT_EGGS_RULE), answers.get("stones"), answers.get("own_exits", False),
                     self.board)

    def steps(self) -> list[Step]:
        """The questions in order: the players (unless named on the command line) and who starts, the colours,
        the nests and barriers (unless drawn), the rules."""
        asked = not self.names
        return [
            *(player_steps(self.session, self.ask_count) if asked else ()),
            Step("first", lambda answers: self.ask_first(answers["players"]), when=lambda answers: asked),
            Step("usual_colours", self.ask_usual_colours),
            *(Step(f"colour {index}", partial(self.ask_colour_of, index), when=partial(self.colour_asked, index))
              for index in range(MAX_PLAYERS)),
            Step("drawn", lambda answers: self.ask_yes("dino.setup.ask_layout")),
            *(Step(f"nest {colour}", partial(self.ask_nest, colour), when=self.by_hand)
              for colour in self.board.egg_colours),
            *(Step(f"barrier {index}", partial(self.ask_barrier, index), when=partial(self.barrier_asked, index))
              for index in range(MAX_BARRIERS)),
            Step("usual_rules", self.ask_usual_rules),
            Step("eggs", self.ask_eggs, when=self.rules_asked),
            Step("stones", self.ask_stones, when=self.rules_asked),
            Step("own_exits", lambda answers: self.ask_yes("dino.setup.ask_own_exits"), when=self.own_exits_asked),
        ]

    def players(self, answers: dict[str, Any]) -> list[str]:
        return self.names or list(answers["players"])

    def ask_count(self) -> int:
        return int(ask_choice(self.session, "dino.setup.ask_count",
                              lambda said: isinstance(said, int) and MIN_PLAYERS <= said <= MAX_PLAYERS,
                              "dino.setup.bad_count"))

    def ask_first(self, players: list[str]) -> int:
        return ask_player(self.session, players, "dino.setup.ask_first")

    # ----- colours

    def proposed(self, players: list[str]) -> list[str]:
        return list(self.board.pawn_colours[:len(players)])

    def pairs(self, players: list[str], colours: list[str]) -> str:
        """"Ana en rouge et Bruno en jaune"."""
        return self.session.catalog.join([self.session.text("dino.setup.player_colour", player=player, colour=colour)
                                          for player, colour in zip(players, colours, strict=True)])

    def ask_usual_colours(self, answers: dict[str, Any]) -> bool:
        players = self.players(answers)
        return self.ask_yes("dino.setup.ask_default_colours", pairs=self.pairs(players, self.proposed(players)))

    def colour_asked(self, index: int, answers: dict[str, Any]) -> bool:
        return not answers["usual_colours"] and index < len(self.players(answers))

    def ask_colour_of(self, index: int, answers: dict[str, Any]) -> str:
        """The colour of the player `index`, one the board has and nobody before took; after the last player's,
        every colour is said."""
        players = self.players(answers)
        taken = [answers[f"colour {before}"] for before in range(index)]
        while True:
            colour = self.ask_colour(players[index], [c for c in self.board.pawn_colours if c not in taken])
            reason = colour_reason(self.board.pawn_colours, colour, taken, players)
            if reason is None:
                break
            self.refuse(reason)
        if index == len(players) - 1:
            self.session.say("dino.setup.colours_chosen", pairs=self.pairs(players, [*taken, colour]))
        return colour

    def ask_colour(self, player: str, free: list[str]) -> str:
        """The colour said for `player`; "help" names the colours still free and how to say one."""
        session = self.session
        names = [session.catalog.name("colours", colour) for colour in free]
        help_params = {"player": player, "colour": free[0], "colours": self.or_join(names)}
        question = session.text("dino.setup.ask_colour", player=player)
        answer = session.ask(question, SETUP_STATE, help_key="dino.setup.help_colour", help_params=help_params)
        while not self.colour_for(answer, player) or answer.doubtful or answer.unsure:
            if answer.intent == "undo":
                raise GoBack()
            if self.colour_for(answer, player):  # unsure: its words read back first
                verdict = session.confirm(session.text("session.confirm", heard=heard_words(answer)), SETUP_STATE)
                if verdict is True:
                    break
                if isinstance(verdict, Answer):
                    answer = verdict
                    continue
                prompt = None
            else:
                prompt = session.text(AGAIN, question=question)
            answer = session.ask(prompt, SETUP_STATE, help_key="dino.setup.help_colour", help_params=help_params,
                                 again=lambda: question)
        return str(answer.slots["colour"])

    @staticmethod
    def colour_for(answer: Answer, player: str) -> bool:
        """Whether `answer` says a colour for `player` (a colour said for another player is not taken)."""
        return answer.intent == "colour_choice" and str(answer.slots.get("player", player)) == player

    # ----- nests and barriers, said by hand

    def by_hand(self, answers: dict[str, Any]) -> bool:
        return not answers["drawn"]

    def nests(self, answers: dict[str, Any]) -> dict[str, str]:
        """The nests said so far: egg colour -> square."""
        return {colour: answers[f"nest {colour}"] for colour in self.board.egg_colours if f"nest {colour}" in answers}

    def ask_nest(self, colour: str, answers: dict[str, Any]) -> str:
        while True:
            answer = self.ask("dino.setup.ask_nest", {"square_answer", "nest_place"}, "dino.setup.help_nest",
                              colour=colour)
            square, said_colour = answer.slots["square"], answer.slots.get("colour", colour)
            reason = (nest_reason(self.board, colour, square, self.nests(answers)) if said_colour == colour
                      else Reason("dino_nest_expected", {"colour": colour}))
            if reason is None:
                return str(square)
            self.refuse(reason)

    def barriers(self, answers: dict[str, Any]) -> tuple[Border, ...]:
        """The barriers placed so far."""
        return tuple(answers[name] for index in range(MAX_BARRIERS)
                     if answers.get(name := f"barrier {index}") is not None)

    def barrier_asked(self, index: int, answers: dict[str, Any]) -> bool:
        """Whether the barrier `index` is asked for: by hand, and the one before it was placed."""
        return self.by_hand(answers) and (index == 0 or answers.get(f"barrier {index - 1}") is not None)

    def ask_barrier(self, index: int, answers: dict[str, Any]) -> Border | None:
        """The barrier `index`, after a yes to one more once there are enough; None for no more: a no, or "no" or
        "that's all" at the barrier's question. "Undo" there takes back that yes: one more is asked again."""
        if index == 0:
            first = self.players(answers)[answers.get("first", 0)]
            self.session.say("dino.setup.barriers_intro", player=first, least=MIN_BARRIERS, most=MAX_BARRIERS)
        expected = {"barrier_place", "no", "undo"} if index >= MIN_BARRIERS else {"barrier_place"}
        help_key = "dino.setup.help_more_barrier" if index >= MIN_BARRIERS else "dino.setup.help_barrier"
        while True:
            if index >= MIN_BARRIERS and not self.ask_yes("dino.setup.ask_more_barriers", count=index):
                return None
            first, second = self.free_border(self.barriers(answers))  # the example: a place still free
            while (answer := self.ask("dino.setup.ask_barrier", expected, help_key, number=index + 1, first=first,
                                      second=second)).intent == "barrier_place":
                square, other = answer.slots["square"], answer.slots["other_square"]
                reason = border_reason(self.board, square, other, self.barriers(answers))
                if reason is None:  # the squares touch: their border is not None
                    return self.board.border(square, other)
                self.refuse(reason)
            if answer.intent == "no":
                return None
            self.session.say("setup.going_back")  # "undo": the yes to one more taken back

    def free_border(self, placed: tuple[Border, ...]) -> tuple[str, str]:
        """Two squares a blocking dinosaur may still stand between, as an example: B3 and C3 while that is free,
        else the first such pair of the board (MAX_BARRIERS are asked at most: one is always left)."""
        ordered = [(square, other) for square in self.board.squares for other in self.board.neighbours(square)]
        return next(((square, other) for square, other in [("B3", "C3"), *ordered]
                     if border_reason(self.board, square, other, ()) is None  # () : no count to reach
                     and self.board.border(square, other) not in placed), ("B3", "C3"))

    # ----- the rules

    def ask_usual_rules(self, answers: dict[str, Any]) -> bool:
        players = len(self.players(answers))
        return self.ask_yes("dino.setup.ask_default_rules", eggs=eggs_per_nest(players, DEFAULT_EGGS_RULE),
                            stones=self.board.meteor_for(players))

    def rules_asked(self, answers: dict[str, Any]) -> bool:
        return not answers["usual_rules"]

    def own_exits_asked(self, answers: dict[str, Any]) -> bool:
        return self.rules_asked(answers) and len(self.players(answers)) <= OWN_EXITS_MAX_PLAYERS

    def ask_eggs(self, answers: dict[str, Any]) -> str:
        """The eggs rule, asked by the eggs per nest it gives at this table."""
        players = len(self.players(answers))
        rules = {eggs_per_nest(players, rule): rule for rule in reversed(list(EGGS_RULES))}
        eggs = ask_choice(self.session, "dino.setup.ask_eggs", lambda said: said in rules, "dino.setup.bad_eggs",
                          choices=self.or_join(sorted(rules, reverse=True)))
        return rules[eggs]

    def ask_stones(self, answers: dict[str, Any]) -> int | None:
        """The stones the meteor travels (None: the whole track)."""
        most = self.board.meteor_for(len(self.players(answers)))
        while True:
            answer = self.ask("dino.setup.ask_stones", {"number", "stones_answer"}, most=most)
            stones = answer.slots.get("stones", answer.slots.get("number"))
            if isinstance(stones, int) and 1 <= stones <= most:
                return None if stones == most else stones
            self.refuse(Reason("dino_meteor_stones", {"value": str(stones), "most": most}))

    def refuse(self, reason: Reason) -> None:
        self.session.say("table.refused", reason=self.session.catalog.say(f"reasons.{reason.code}", **reason.params))

    def or_join(self, items: list[Any]) -> str:
        """'a, b or c' in the session language."""
        words = [str(item) for item in items]
        if len(words) == 1:
            return words[0]
        return self.session.text("dino.setup.or_join", head=self.session.text("list.separator").join(words[:-1]),
                                 last=words[-1])
