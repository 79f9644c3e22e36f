"""A game of Dino at a real table: the program keeps the meteor, the nests, the eggs and where each pawn stands.

The players move the pieces and say each turn ("mon pion rouge avance de trois, le météore d'un"); the
program checks it with the rules engine, asks what the board data cannot tell (which pawn, where it
stopped, how many spaces), asks whether an egg is taken when a move ends by a nest, saves after every
accepted action and narrates the rest. After the fall it asks what each pawn left on the board would need
to get home, then says the scores.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from companion.dialogue.session import Answer, Session
from companion.dialogue.setup import (ask_choice, ask_intent, ask_names, ask_player, ask_yes, label_players,
                                      listed_names, names_can_be_typed, table_seed)
from companion.dialogue.table import Table
from companion.errors import BadInput, RuleViolation
from companion.games.common import Reason
from companion.games.dino.actions import Action, Meteor, Move, Penalty
from companion.games.dino.board import Board, Border, load_board
from companion.games.dino.engine import AT_START, HOME, ON_BOARD, PENALTIES, PLAY, Game, PawnView, TableQuestion
from companion.games.dino.ids import DEFAULT_EGGS_RULE, EGGS_RULES, MAX_BARRIERS, MAX_PLAYERS, MIN_BARRIERS, \
    MIN_PLAYERS, OWN_EXITS_MAX_PLAYERS, POINTS_PER_TURN, eggs_per_nest
from companion.games.dino.setup import Setup, border_reason, nest_reason, random_layout
from companion.language.rules import RulesBook

GAME = "dino"
SETUP_AGAIN = "dino.setup.expected_answer"
MOVE_SLOTS = ("pawn", "steps", "square", "exit", "egg", "meteor")


class DinoTable(Table):
    """The turn loop of one game, from the first turn (or where a save left it) to the final scores."""

    GAME = GAME
    ENGINE = Game
    MESSAGES = "dino."

    def __init__(self, session: Session, game: Game, save_path: Path):
        super().__init__(session, game, save_path)
        self.pending = False  # a move is being asked for: undo and redo drop it instead of changing the log
        self.rules = RulesBook.load(GAME, session.lang)

    # ----- the loop
    def play_step(self) -> None:
        if self.game.phase == PENALTIES:
            self.ask_penalty()
        else:
            self.play_turn()

    def announce_start(self, resumed: bool) -> None:
        say, game = self.session.say, self.game
        if resumed:
            say("dino.resumed", turn=game.turn)
        else:
            say("dino.welcome", count=len(game.players), names=self.session.catalog.join(game.players))
            self.describe_setup()
            say("dino.trust")
        self.query_meteor_state({})

    def describe_setup(self) -> None:
        say, game, setup = self.session.say, self.game, self.game.setup
        for player, name in enumerate(game.players):
            say("dino.player_colour", player=name, colour=game.colours[player],
                squares=[view.square for view in game.pawns(player)])
        self.query_nest_state({})
        self.query_barrier_state({})
        say("dino.options", eggs=setup.eggs_per_nest, stones=game.meteor_total,
            exits=self.session.text("dino.exits_own" if setup.own_colour_exits else "dino.exits_all"))
        say("dino.first_player", player=game.players[setup.first_player])

    # ----- a turn
    def play_turn(self) -> None:
        game = self.game
        player = game.current_player
        name, colour = game.players[player], game.colours[player]
        if game.must_feed_meteor(player):
            self.session.say("dino.no_pawn_meteor", player=name)
            self.play(Meteor(player))
            return
        answer = self.session.ask(self.session.text("dino.ask_turn", player=name, colour=colour), "turn",
                                  self.handle_query, speaker=name)
        if answer.intent == "pawn_move":
            self.move(player, answer.slots)
        elif answer.intent == "meteor_move":
            self.meteor_move(player, answer.slots)
        elif answer.intent == "egg_take":
            self.session.say("dino.move_first")
        else:
            self.refuse_unexpected("dino.expected_move")

    def meteor_move(self, player: int, slots: dict[str, Any]) -> None:
        """All four points to the meteor, or fewer: then the rest moves a pawn, and the move is asked for."""
        meteor = slots.get("meteor")
        if meteor is not None and meteor != POINTS_PER_TURN:
            self.move(player, slots)
            return
        owner = self.mover(player, slots)
        reason = owner if isinstance(owner, Reason) else self.play(Meteor(owner))
        if reason is not None:
            self.refuse(reason)

    def move(self, player: int, slots: dict[str, Any]) -> None:
        """Turn what was said into a move: ask what is missing, check it, offer the egg, play it."""
        owner = self.mover(player, slots)
        if isinstance(owner, Reason):
            self.refuse(owner)
            return
        said = {name: slots[name] for name in MOVE_SLOTS if name in slots}
        if "from_square" in slots and "pawn" not in said:
            said["pawn"] = self.pawn_at(owner, slots["from_square"])
            if said["pawn"] is None:
                self.refuse(Reason("dino_no_pawn_there", {"colour": self.game.colours[owner],
                                                          "square": slots["from_square"]}))
                return
        self.pending = True
        try:
            action = self.complete(owner, said)
            reason = None if action is None else self.game.check(action)
            if reason is not None:
                self.refuse(reason)
                return
            if isinstance(action, Move):
                action = self.offer_egg(action)
        finally:
            self.pending = False
        if action is not None:
            self.play(action)

    def mover(self, player: int, slots: dict[str, Any]) -> int | Reason:
        """The player whose pawn is moved: named by its colour, else the player named, else the current one."""
        colour = slots.get("colour")
        if colour is not None:
            owner = self.game.player_of_colour(colour)
            if owner is None:
                return Reason("dino_unknown_pawn_colour", {"value": self.session.catalog.name("colours", colour),
                                                           "colours": list(self.game.colours)})
            return owner
        named = self.player_named(slots.get("player"))
        return player if named is None else named

    def pawn_at(self, player: int, square: str) -> int | None:
        return next((view.pawn for view in self.game.pawns(player)
                     if view.place != HOME and view.square == square), None)

    def complete(self, player: int, said: dict[str, Any]) -> Move | Meteor | None:
        """Ask the table until the move is whole; None when it is refused or dropped (already said)."""
        while True:
            result = self.game.interpret(player, **said)
            if isinstance(result, Reason):
                self.refuse(result)
                return None
            if not isinstance(result, TableQuestion):
                return result
            answer = self.session.ask(self.session.text(f"dino.ask.{result.code}", **result.params), "answer",
                                      self.handle_query)
            if not self.take_answer(result, answer, player, said):
                self.session.say("dino.move_dropped")
                return None

    def take_answer(self, question: TableQuestion, answer: Answer, player: int, said: dict[str, Any]) -> bool:
        """Fill `said` from the answer to `question`; False when the answer does not fit (the move is dropped)."""
        slots = answer.slots
        if question.code == "which_pawn":
            if "pawn" in slots or slots.get("number") in (1, 2):
                said["pawn"] = slots["pawn"] if "pawn" in slots else slots["number"] - 1
                return True
            square = slots.get("from_square", slots.get("square"))
            said["pawn"] = None if square is None else self.pawn_at(player, square)
            return said["pawn"] is not None
        if question.code in ("where", "where_exit") and answer.intent == "square_answer":
            said["square"] = slots["square"]
            return True
        if question.code == "how_many" and answer.intent in ("steps_answer", "number"):
            said["steps"] = slots.get("steps", slots.get("number"))
            return True
        return False

    def offer_egg(self, move: Move) -> Move | None:
        """When the move ends by a nest that still has an egg for this pawn, ask whether one is taken.

        None: the player said "annule" and the move is dropped."""
        if move.exit or move.egg is not None:
            return move
        choices = self.game.egg_choices(move.player, move.pawn, move.square)
        if not choices:
            return move
        question = self.session.text("dino.ask_egg", colours=choices, square=move.square)
        while True:
            answer = self.session.ask(question, "egg", self.handle_query)
            colour = answer.slots.get("egg", answer.slots.get("colour"))
            if answer.intent == "no":
                return move
            if answer.intent == "undo":
                self.session.say("dino.move_dropped")
                return None
            if answer.intent == "yes" and len(choices) == 1:
                colour = choices[0]
            if colour in choices:
                return Move(move.player, move.pawn, move.steps, move.square, egg=colour, meteor=move.meteor)
            reason = None if colour is None else self.game.check(
                Move(move.player, move.pawn, move.steps, move.square, egg=colour))
            if reason is not None:
                self.refuse(reason)
            question = self.session.text("dino.ask_egg_again", colours=choices)

    # ----- after the fall
    def ask_penalty(self) -> None:
        view = self.game.penalties_due()[0]
        least = self.game.penalty_least(view.player, view.pawn)
        answer = self.session.ask(self.session.text("dino.ask.penalty", colour=view.colour, square=view.square,
                                                    player=self.game.players[view.player], least=least),
                                  "answer", self.handle_query)
        points = answer.slots.get("steps", answer.slots.get("number"))
        if answer.intent not in ("steps_answer", "number") or points is None:
            self.refuse_unexpected("dino.expected_points")
            return
        reason = self.play(Penalty(view.player, view.pawn, points))
        if reason is not None:
            self.refuse(reason)

    # ----- applying actions
    def play(self, action: Action) -> Reason | None:
        """Apply a legal action, save at once, and say what changed; or the Reason it is refused."""
        reason = self.game.check(action)
        if reason is not None:
            return reason
        before = self.game.meteor_left
        self.game.apply(action)
        self.redo_stack.clear()
        self.save()
        self.narrate(action, before)
        return None

    def narrate(self, action: Action, meteor_before: int) -> None:
        say, game = self.session.say, self.game
        name = game.players[action.player]
        if isinstance(action, Move):
            colour = game.colours[action.player]
            key = "dino.went_home" if action.exit else "dino.moved"
            say(key, player=name, colour=colour, steps=action.steps, square=action.square)
            if action.egg is not None:
                say("dino.egg_taken", player=name, colour=action.egg, left=game.nests()[action.egg][1])
        elif isinstance(action, Penalty):
            say("dino.penalty_noted", colour=game.colours[action.player], points=action.points)
            return
        moved = meteor_before - game.meteor_left
        if moved:
            say("dino.meteor_moved", stones=moved, left=game.meteor_left)
        if game.phase != PLAY:
            say("dino.meteor_fell")
            if game.phase == PENALTIES:
                say("dino.penalties_start", count=len(game.penalties_due()))

    def describe_action(self, action: Action) -> str:
        game, text = self.game, self.session.text
        name = game.players[action.player]
        if isinstance(action, Move):
            return text("dino.action_move", player=name, colour=game.colours[action.player], steps=action.steps,
                        square=action.square)
        if isinstance(action, Penalty):
            return text("dino.action_penalty", colour=game.colours[action.player], points=action.points)
        return text("dino.action_meteor", player=name)

    # ----- queries, answered whatever the question was
    def undo_at_any_question(self) -> bool:
        """Not while a move is being asked for: the question that hears "undo" drops the move."""
        return not self.pending

    def query_meteor_state(self, slots: dict[str, Any]) -> None:
        game = self.game
        self.session.say("dino.meteor_state", left=game.meteor_left, travelled=game.meteor_travelled,
                         total=game.meteor_total)

    def query_nest_state(self, slots: dict[str, Any]) -> None:
        nests = self.game.nests()
        colours = [slots["colour"]] if slots.get("colour") in nests else list(nests)
        if slots.get("colour") is not None and slots["colour"] not in nests:
            self.refuse(Reason("dino_unknown_egg_colour", {"value": slots["colour"], "colours": list(nests)}))
            return
        parts = [self.session.text("dino.nest", colour=c, square=nests[c][0], eggs=nests[c][1]) for c in colours]
        self.session.say_text(" ".join(parts))

    def query_egg_state(self, slots: dict[str, Any]) -> None:
        player = self.player_named(slots.get("player"))
        player = self.game.current_player if player is None else player
        eggs = self.game.eggs(player)
        name = self.game.players[player]
        if not eggs:
            self.session.say("dino.no_eggs", player=name)
            return
        counts = [self.session.text("dino.egg_count", colour=c, count=eggs.count(c))
                  for c in sorted(set(eggs), key=eggs.index)]
        self.session.say("dino.eggs", player=name, count=len(eggs), detail=self.session.catalog.join(counts),
                         last=self.session.catalog.name("colours", eggs[-1]))

    def query_pawn_state(self, slots: dict[str, Any]) -> None:
        game = self.game
        if slots.get("square") is not None:
            view = game.occupant(slots["square"])
            if view is None:
                self.session.say("dino.square_empty", square=slots["square"])
            else:
                self.session.say_text(self.pawn_line(view))
            return
        if slots.get("colour") is not None and game.player_of_colour(slots["colour"]) is not None:
            players = [game.player_of_colour(slots["colour"])]
        else:
            named = self.player_named(slots.get("player"))
            players = range(len(game.players)) if named is None else [named]
        self.session.say_text(" ".join(self.pawn_line(view) for p in players for view in game.pawns(p)))

    def pawn_line(self, view: PawnView) -> str:
        key = {AT_START: "dino.pawn_at_start", ON_BOARD: "dino.pawn_on_board", HOME: "dino.pawn_home"}[view.place]
        return self.session.text(key, player=self.game.players[view.player], colour=view.colour,
                                 number=view.pawn + 1, square=view.square)

    def query_barrier_state(self, slots: dict[str, Any]) -> None:
        borders = [self.session.text("dino.border", first=a, second=b) for a, b in self.game.setup.barriers]
        self.session.say("dino.barriers", count=len(borders), borders=self.session.catalog.join(borders))

    def query_reach_query(self, slots: dict[str, Any]) -> None:
        game = self.game
        player = game.current_player
        pawns = [k for k in game.in_play(player) if slots.get("pawn") in (None, k)]
        if not pawns:
            self.session.say("dino.no_pawn_left_to_move", player=game.players[player])
            return
        for pawn in pawns:
            view = game.pawn(player, pawn)
            if slots.get("square") is not None:
                least = game.least_steps(player, pawn, slots["square"])
                key = "dino.reach_blocked" if least is None else "dino.reach"
                self.session.say(key, colour=view.colour, from_square=view.square, square=slots["square"],
                                 least=least or 0)
            else:
                self.say_nests_within_reach(view)

    def say_nests_within_reach(self, view: PawnView) -> None:
        game = self.game
        near = [self.session.text("dino.reach_nest", colour=colour, square=square, least=least)
                for colour, (square, left) in game.nests().items() if left
                for least in [game.least_steps(view.player, view.pawn, square)]
                if least is not None and least <= POINTS_PER_TURN and game.occupant(square) in (None, view)]
        key = "dino.reach_nests" if near else "dino.reach_no_nest"
        self.session.say(key, colour=view.colour, square=view.square, nests=self.session.catalog.join(near))

    def query_score(self, slots: dict[str, Any]) -> None:
        sheet = self.game.score()
        for entry in sheet.players:
            self.session.say_text(self.score_line(entry, final=False))
        self.session.say(f"reasons.{sheet.reason.code}", **sheet.reason.params)

    def query_whose_turn(self, slots: dict[str, Any]) -> None:
        game = self.game
        if game.phase == PENALTIES:
            self.session.say("dino.meteor_fell")
        else:
            self.session.say("dino.whose_turn", player=game.players[game.current_player],
                             colour=game.colours[game.current_player])

    def query_status(self, slots: dict[str, Any]) -> None:
        self.query_whose_turn(slots)
        self.query_meteor_state(slots)
        self.query_score(slots)

    # ----- the end
    def announce_final_scores(self) -> None:
        sheet = self.game.score()
        for entry in sheet.players:
            self.session.say_text(self.score_line(entry, final=True))
        self.session.say(f"reasons.{sheet.reason.code}", **sheet.reason.params)

    def score_line(self, entry: Any, final: bool) -> str:
        key = "dino.score_final" if final else "dino.score_so_far"
        return self.session.text(key, player=entry.name, total=entry.total, eggs=entry.eggs,
                                 egg_points=entry.egg_points, colours=len(entry.colours),
                                 colour_points=entry.colour_points, penalty=entry.penalty)


# ---------------------------------------------------------------- setting up a table by voice

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
        return ask_player(self.session, players, "dino.setup.ask_first", again_key=SETUP_AGAIN,
                          unknown_key="dino.setup.unknown_player")

    def ask_colours(self, players: list[str]) -> list[str]:
        proposed = list(self.board.pawn_colours[:len(players)])
        pairs = [self.session.text("dino.setup.player_colour", player=p, colour=c) for p, c in zip(players, proposed)]
        if self.ask_yes("dino.setup.ask_default_colours", pairs=self.session.catalog.join(pairs)):
            return proposed
        colours: list[str] = []
        for player in players:
            while True:
                colour = self.ask("dino.setup.ask_colour", {"colour_choice"}, player=player).slots["colour"]
                if colour in self.board.pawn_colours and colour not in colours:
                    colours.append(colour)
                    break
                self.refuse(Reason("dino_colour_taken", {"colour": colour, "player": players[colours.index(colour)]})
                            if colour in colours else
                            Reason("dino_unknown_pawn_colour", {"value": colour, "colours": list(self.board.pawn_colours)}))
        return colours

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
            slots = self.ask("dino.setup.ask_barrier", {"barrier_place"}, number=len(placed) + 1).slots
            reason = border_reason(self.board, slots["square"], slots["other_square"], placed)
            if reason is None:
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
        self.session.say("dino.refused", reason=self.session.catalog.say(f"reasons.{reason.code}", **reason.params))

    def or_join(self, items: list[Any]) -> str:
        """'a, b or c' in the session language."""
        words = [str(item) for item in items]
        if len(words) == 1:
            return words[0]
        return self.session.text("dino.setup.or_join", head=self.session.text("list.separator").join(words[:-1]),
                                 last=words[-1])


def new_table(session: Session, args: Any, save_path: Path) -> DinoTable:
    """A new table: set-up questions (players too, unless --players gave them), then the first save."""
    names = listed_names(args.players) if args.players else None
    seed = table_seed(args)
    board = load_board(args.board) if getattr(args, "board", None) else load_board()
    setup = TableSetup(session, board, random.Random(seed)).run(names)
    try:
        game = Game.new(setup)
    except RuleViolation as refused:
        reason = refused.reason
        raise BadInput(session.catalog.say(f"reasons.{reason.code}", **reason.params)) from None
    table = DinoTable(session, game, save_path)
    table.save()
    return table
