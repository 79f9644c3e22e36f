"""A game of Dino at a real table: the program keeps the meteor, the nests, the eggs and where each pawn stands.

The players move the pieces and say each turn ("mon pion rouge avance de trois, le météore d'un"); the
program checks it with the rules engine, asks what the board data cannot tell (which pawn, where it
stopped, how many spaces), asks whether an egg is taken when a move ends by a nest, saves after every
accepted action and narrates the rest. After the fall it asks what each pawn left on the board would need
to get home, then says the scores. In solo play (`--solo`) bots play the other seats (see solo.py).
"""

from __future__ import annotations

from typing import Any

from companion.dialogue.dino import solo
from companion.dialogue.dino.new_game import start_game
from companion.dialogue.dino.queries import QUERIES
from companion.dialogue.session import Answer, Session
from companion.dialogue.turn import ASK_AGAIN, Act, Expected, Missing, Outcome, Question, Refused, Table
from companion.games.common import Reason, shared_places
from companion.games.dino.actions import Action, Meteor, Move, Penalty
from companion.games.dino.engine import AT_START, HOME, ON_BOARD, PENALTIES, PLAY, Game, PawnView, TableQuestion
from companion.games.dino.ids import POINTS_PER_TURN
from companion.games.dino.spec import SPEC

MOVE_SLOTS = ("pawn", "steps", "square", "exit", "egg", "meteor")
NO_EGG = "none"  # the egg slot of a move whose player said no to the egg
_SIDES = ("west", "east", "north", "south")  # the order the sides of the time machines are said in


class DinoTable(Table[Game, Action]):
    """The table's questions: each turn of the player whose turn it is, what the board cannot tell, the egg
    at a nest, and after the fall what each pawn left outside costs."""

    SPEC = SPEC
    QUERIES = QUERIES

    @classmethod
    def start(cls, session: Session, args: Any) -> dict[str, Any]:
        game, seats = start_game(session, args)
        return {"game": game, "seats": seats}

    def seats_fit(self) -> bool:
        """Any game may have bots at its seats but the first."""
        return True

    def bot_choice(self, seat: int) -> Action:
        from companion.games.dino.bots import BOTS, bot_action

        return bot_action(self.game, seat, self.seats.bot(seat, BOTS, SPEC.title))

    # ----- the questions
    def question(self) -> Question | Act[Action]:
        game = self.game
        step = solo.question(self)
        if step is not None:
            return step
        if game.phase == PENALTIES:
            view = game.penalties_due()[0]
            return Question(self.key("ask.penalty"), "answer",
                            {"colour": view.colour, "square": view.square, "player": game.players[view.player],
                             "least": game.penalty_least(view.player, view.pawn)}, view.player,
                            help=self.key("help.penalty"))
        player = game.current_player
        if game.must_feed_meteor(player):
            return Act(Meteor(player))
        return Question(self.key("ask_turn"), "turn", {"player": game.players[player], "colour": game.colours[player]},
                        player)

    def interpret(self, question: Question, answer: Answer) -> Outcome[Action]:
        if self.game.phase == PENALTIES:
            return self.penalty(answer)
        if answer.intent in ("pawn_move", "meteor_move"):
            return self.move(question, answer)
        return self.expected("move_first" if answer.intent == "egg_take" else "expected_move")

    def expected(self, key: str) -> Expected:
        """What a turn expects, with a move the player may make now as the example (the meteor when none)."""
        move = self.example_moves().get("move")
        return Expected("expected_meteor") if move is None else Expected(key, {"move": move})

    def penalty(self, answer: Answer) -> Outcome[Action]:
        points = answer.slots.get("steps", answer.slots.get("number"))
        if answer.intent not in ("steps_answer", "number") or not isinstance(points, int):
            return Expected("expected_points")
        view = self.game.penalties_due()[0]
        return Act(Penalty(view.player, view.pawn, points))

    def move(self, question: Question, answer: Answer) -> Outcome[Action]:
        """Turn what was said into a move: ask what is missing, the egg last, then play it."""
        slots = answer.slots
        owner = self.mover(question.player, slots)
        if isinstance(owner, Reason):
            return Refused(owner)
        if answer.intent == "meteor_move" and slots.get("meteor") in (None, POINTS_PER_TURN) and not (
                {"pawn", "steps", "square", "from_square"} & set(slots)):
            return Act(Meteor(owner))
        said = {name: slots[name] for name in MOVE_SLOTS if name in slots}
        if "from_square" in slots and "pawn" not in said:
            pawn = self.pawn_at(owner, str(slots["from_square"]), bool(slots.get("at_machine")))
            if pawn is None:
                return Refused(Reason("dino_no_pawn_there", {"colour": self.game.colours[owner],
                                                             "square": slots["from_square"]}))
            said["pawn"] = pawn
        if "pawn" not in said:
            said.update(self.only_pawn(owner, said))
        egg = said.pop("egg", None)
        result = self.game.interpret(owner, **said)
        if isinstance(result, Reason):
            return Refused(result)
        if isinstance(result, TableQuestion):
            return self.ask_missing(result, owner, answer)
        if isinstance(result, Meteor):
            return Act(result)
        refusal = self.game.check(result)
        if refusal is not None:  # said before the egg is offered
            return Refused(refusal, result)
        return self.with_egg(result, egg, owner, answer)

    def only_pawn(self, player: int, said: dict[str, Any]) -> dict[str, int]:
        """{"pawn": k} when only one of the player's pawns can make what was said (a pawn waiting at its time
        machine does not go home; a square out of reach in the steps said is out of reach); else {}."""
        square, steps, exit = said.get("square"), said.get("steps"), bool(said.get("exit"))
        if square is None and not exit:
            return {}
        able = []
        for pawn in self.game.in_play(player):
            if exit and self.game.pawn(player, pawn).place != ON_BOARD:
                continue
            least = None if square is None else self.game.least_steps(player, pawn, str(square), exit)
            if square is not None and (least is None or (isinstance(steps, int) and least > steps)):
                continue
            able.append(pawn)
        return {"pawn": able[0]} if len(able) == 1 else {}

    def ask_missing(self, missing: TableQuestion, owner: int, answer: Answer) -> Missing:
        """What the board data cannot decide, asked of the table; the reply may also be a whole new move."""
        params = dict(missing.params)
        if missing.code == "which_pawn":
            params["choices"] = self.pawn_choices(owner)
        question = Question(self.key(f"ask.{missing.code}"), "answer", params, owner)
        return Missing(question, answer, lambda reply: self.fill(missing.code, owner, reply))

    def fill(self, code: str, owner: int, reply: Answer) -> dict[str, Any] | None:
        """What a reply to the question `code` adds to the move; None when it is a command of its own."""
        slots = reply.slots
        if code == "which_pawn" and reply.intent in ("pawn_choice", "number", "square_answer"):
            if "pawn" in slots or slots.get("number") in (1, 2):
                return {"pawn": slots["pawn"] if "pawn" in slots else int(slots["number"]) - 1}
            square = slots.get("from_square", slots.get("square"))
            pawn = None if square is None else self.pawn_at(owner, str(square), bool(slots.get("at_machine")))
            if pawn is None and slots.get("at_machine"):
                pawn = next((v.pawn for v in self.game.pawns(owner) if v.place == AT_START), None)
            return None if pawn is None else {"pawn": pawn}
        if code in ("where", "where_exit") and reply.intent == "square_answer":
            return {"square": slots["square"]}
        if code == "how_many" and reply.intent in ("steps_answer", "number"):
            return {"steps": slots.get("steps", slots.get("number"))}
        return None

    def with_egg(self, move: Move, egg: Any, owner: int, answer: Answer) -> Outcome[Action]:
        """The move, with the egg said; when it ends by a nest that still has an egg for it and nothing was
        said, ask: yes or no for one nest, the colour or no where several nests share the square (the move is
        dropped by "annule", and set aside, with a word, by another move: instead_of_egg)."""
        if egg == NO_EGG:
            return Act(move)
        if egg is not None:
            return Act(Move(move.player, move.pawn, move.steps, move.square, move.exit, str(egg), move.meteor))
        choices = [] if move.exit else self.game.egg_choices(move.player, move.pawn, move.square)
        if not choices:
            return Act(move)
        catalog = self.session.catalog
        params = {"square": move.square, "colour": choices[0], "count": len(choices),
                  "choices": catalog.join((catalog.name("colours", c) for c in choices), "or")}
        if len(choices) == 1:
            question = Question(self.key("ask_egg"), "egg", params, owner, help=self.key("help.egg_one"))
            return Missing(question, answer, lambda reply: self.egg_answer(move, question, choices, reply))
        question = Question(self.key("ask_egg_choice"), "egg", params, owner, help=self.key("help.egg_choice"))
        again = Question(self.key("ask_egg_again"), "egg", params, owner, help=self.key("help.egg_choice"))
        return Missing(question, answer, lambda reply: self.egg_answer(move, question, choices, reply), again)

    def help_key(self, question: Question) -> str | None:
        """At a turn, the help gives examples of the moves there are: a move, and a way home when a pawn can
        leave; or only the meteor. In solo it speaks of advice and of the bots."""
        solo_key = solo.help_key(self, question)
        if solo_key is not None:
            return solo_key
        if question.state != "turn" or self.game.phase != PLAY:
            return None
        moves = self.example_moves()
        return self.key("help.turn_meteor" if not moves else "help.turn_home" if "home" in moves else "help.turn")

    def help_params(self, question: Question) -> dict[str, Any]:
        """The egg question's help names the colours there are to take; a turn's, moves the player may make."""
        if question.state == "egg" or self.game.phase == PENALTIES:
            return dict(question.params)
        return self.example_moves() if question.state == "turn" and self.game.phase == PLAY else {}

    def example_moves(self) -> dict[str, str]:
        """A move of the player whose turn it is ("move": to a square as far as its steps, three when there is
        one), and a way home ("home"), as the player would say them; none when no pawn can move."""
        game = self.game
        moves = [action for action in game.legal_actions() if isinstance(action, Move) and action.egg is None]
        examples: dict[str, str] = {}
        walks = sorted((m for m in moves if not m.exit and m.steps == game.least_steps(m.player, m.pawn, m.square)),
                       key=lambda m: (abs(m.steps - 3), m.pawn))  # a square as far as the steps said
        homes = sorted((m for m in moves if m.exit), key=lambda m: (m.steps, m.pawn))
        colour = game.colours[game.current_player]
        if walks:
            move = walks[0]
            examples["move"] = self.text("said.move" if move.steps < POINTS_PER_TURN else "said.move_all",
                                         colour=colour, number=move.pawn + 1, steps=move.steps, square=move.square,
                                         meteor=POINTS_PER_TURN - move.steps)
        if homes:
            home = homes[0]
            examples["home"] = self.text("said.home", colour=colour, number=home.pawn + 1, steps=home.steps,
                                         square=home.square)
        return examples

    def egg_answer(self, move: Move, question: Question, choices: list[str], reply: Answer) -> Any:
        """What a reply to the egg question adds: none, the only one (yes, or an egg said without its colour),
        the colour said; a yes where several nests share the square, or a colour of no nest there, asks again.
        A move said instead: see instead_of_egg."""
        colour = reply.slots.get("egg", reply.slots.get("colour"))
        if reply.intent == "no":
            return {"egg": NO_EGG}
        if reply.intent in ("yes", "egg_take") and colour is None and len(choices) == 1:
            return {"egg": choices[0]}
        if reply.intent in ("egg_take", "colour_choice", "yes"):
            return {"egg": colour} if colour in choices else ASK_AGAIN
        return self.instead_of_egg(move, question, reply)

    def instead_of_egg(self, move: Move, question: Question, reply: Answer) -> Any:
        """A move said at the egg question of `move`, instead of yes or no. The same move said again answers the
        question (with the egg it says, else the question is asked again). Another move the table refuses is
        refused and `move` still waits on its question, asked again; one it takes replaces `move`, and the table
        hears that `move` is set aside, not played (None: the new move goes on)."""
        if reply.intent not in ("pawn_move", "meteor_move"):
            return None
        outcome = self.move(question, reply)
        if isinstance(outcome, Missing) and outcome.question == question:
            return ASK_AGAIN
        if isinstance(outcome, Act):
            said = outcome.action
            if isinstance(said, Move) and (said.player, said.pawn, said.steps, said.square, said.exit) == (
                    move.player, move.pawn, move.steps, move.square, move.exit):
                return {"egg": said.egg or NO_EGG}
            refusal = self.game.check(said)
            outcome = outcome if refusal is None else Refused(refusal, said)
        if isinstance(outcome, Refused):
            self.conclude(outcome)
            return ASK_AGAIN
        self.say("move_set_aside", what=self.describe(move))
        return None

    def mover(self, player: int | None, slots: dict[str, Any]) -> int | Reason:
        """The player whose pawn is moved: named by its colour, else the player named, else the current one."""
        colour = slots.get("colour")
        if colour is not None:
            owner = self.game.player_of_colour(colour)
            if owner is None:
                return Reason("dino_unknown_pawn_colour", {"value": self.session.catalog.name("colours", colour),
                                                           "colours": list(self.game.colours)})
            return owner
        named = self.player_named(slots.get("player"))
        return (player if player is not None else self.game.current_player) if named is None else named

    def pawn_at(self, player: int, square: str, at_machine: bool = False) -> int | None:
        """The player's pawn on `square`; one waiting at its time machine there only when `at_machine` is said
        or no pawn stands on the square."""
        views = [view for view in self.game.pawns(player) if view.place != HOME and view.square == square]
        on_board = [view for view in views if view.place == ON_BOARD]
        waiting = [view for view in views if view.place == AT_START]
        found = (waiting or on_board) if at_machine else (on_board or waiting)
        return found[0].pawn if found else None

    def pawn_choices(self, player: int) -> str:
        """The two pawns of a colour told apart: first and second, and where each is (on a square, or waiting
        at its time machine)."""
        parts = []
        for order, pawn in enumerate(self.game.in_play(player)):
            view = self.game.pawn(player, pawn)
            where = self.text("choice_at_machine" if view.place == AT_START else "choice_on_square",
                              square=view.square)
            parts.append(self.text("choice", order=self.text(f"ordinal.{order}"), where=where))
        return self.text("choice_or", first=parts[0], second=parts[1]) if len(parts) == 2 else "".join(parts)

    # ----- after an action
    def moment(self) -> int:
        return self.game.meteor_left

    def narrate(self, action: Action, before: int, events: Any, redone: bool = False) -> None:
        say, game = self.say, self.game
        name = game.players[action.player]
        if self.seats.is_bot(action.player) and not isinstance(action, Penalty):
            if not redone:
                solo.narrate_bot(self, action, before)
        elif isinstance(action, Move):
            colour = game.colours[action.player]
            if not redone:
                say(self.whose("went_home" if action.exit else "moved", action.player), player=name, colour=colour,
                    steps=action.steps, square=action.square)
            if action.egg is not None:
                say(self.whose("egg_taken", action.player), player=name, colour=action.egg,
                    left=game.nests()[action.egg][1])
        elif isinstance(action, Penalty):
            say("penalty_noted", colour=game.colours[action.player], points=action.points)
            return
        elif self.automatic(action):
            say(self.whose("no_pawn_meteor", action.player), player=name)
        moved = before - game.meteor_left
        if moved and not self.seats.is_bot(action.player):
            say("meteor_moved", stones=moved, left=game.meteor_left)
        if game.phase != PLAY:
            say("meteor_fell")
            if game.phase == PENALTIES:
                say("solo_penalties_start" if self.seats.solo else "penalties_start",
                    count=len(game.penalties_due()))

    def automatic(self, action: Action) -> bool:
        """A meteor move the program plays itself: its player had no pawn left in play; in solo the bots' turns
        and the penalties."""
        return (isinstance(action, Meteor) and not self.game.in_play(action.player)) or super().automatic(action) \
            or solo.automatic(self, action)

    def describe(self, action: Action) -> str:
        game = self.game
        name = game.players[action.player]
        if isinstance(action, Move):
            return self.text(self.whose("action_move", action.player), player=name,
                             colour=game.colours[action.player], steps=action.steps, square=action.square)
        if isinstance(action, Penalty):
            return self.text("action_penalty", colour=game.colours[action.player], points=action.points)
        return self.text(self.whose("action_meteor", action.player), player=name)

    # ----- the start and the end
    def announce_start(self, resumed: bool) -> None:
        game = self.game
        if resumed:
            self.say("resumed", turn=game.turn)
        else:
            self.say("welcome", count=len(game.players), names=list(game.players))
            if self.seats.solo:
                self.say("solo_welcome", player=game.players[0], bots=list(game.players[1:]),
                         level=self.session.text(f"solo.levels.{self.seats.bots[1]}"))
            self.describe_setup()
            self.say("solo_trust" if self.seats.solo else "trust")
        QUERIES.handlers["meteor_state"](self, {})

    def describe_setup(self) -> None:
        game, setup = self.game, self.game.setup
        for player, name in enumerate(game.players):
            self.say(self.whose("player_colour", player), player=name, colour=game.colours[player],
                     squares=[view.square for view in game.pawns(player)])
        QUERIES.handlers["nest_state"](self, {})
        QUERIES.handlers["barrier_state"](self, {})
        self.describe_board()
        self.say("options", eggs=setup.eggs_per_nest, stones=game.meteor_total,
                 exits=self.text("exits_own" if setup.own_colour_exits else "exits_all"))
        self.say("first_player", player=game.players[setup.first_player])

    def describe_board(self) -> None:
        """What the board data takes for granted, and how a table whose board differs changes it."""
        board = self.game.setup.board
        sides = {position.side for position in board.start_positions}
        where = {"first": board.squares[0], "last": board.squares[-1]}
        if sides <= set(_SIDES):
            self.say("board_assumed", **where, sides=self.session.catalog.join(
                self.text(f"sides.{side}") for side in _SIDES if side in sides))
        else:  # a board file that does not say on which side each time machine stands
            self.say("board_assumed_beside", **where, squares=[p.square for p in board.start_positions])

    def announce_final_scores(self) -> None:
        sheet = self.game.score()
        for entry in sheet.players:
            self.session.say_text(self.score_line(entry, final=True))
        self.session.say(f"reasons.{sheet.reason.code}", **sheet.reason.params)
        ordered = sorted(sheet.players, key=lambda entry: -entry.total)
        places = shared_places([entry.total for entry in ordered])
        self.say("ranking", ranking=[self.text("rank_item", place=place, player=entry.name, total=entry.total)
                                     for place, entry in zip(places, ordered, strict=True)])

    def score_line(self, entry: Any, final: bool) -> str:
        return self.text("score_final" if final else "score_so_far", player=entry.name, total=entry.total,
                         eggs=entry.eggs, egg_points=entry.egg_points, colours=len(entry.colours),
                         colour_points=entry.colour_points, penalty=entry.penalty)

    def pawn_line(self, view: PawnView) -> str:
        key = {AT_START: "pawn_at_start", ON_BOARD: "pawn_on_board", HOME: "pawn_home"}[view.place]
        return self.text(key, player=self.game.players[view.player], colour=view.colour, number=view.pawn + 1,
                         square=view.square)
