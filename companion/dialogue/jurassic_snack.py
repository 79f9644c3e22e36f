"""A game of Jurassic Snack at a real table: the program hears each move, checks it and says what happens.

The players move the real figures. With physical tokens they turn over each token a Diplo eats and say
which one it is; with hidden tokens the program draws and reveals them itself. After an effect that only
one player may know about (Scouting, or the look at two tokens when an effect cannot apply), the program
only says that this player has a secret: the player hears it when they ask for it ("mon secret"), after a
warning to the other player, and it is never kept in the messages that "repeat" and "review" read back.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.dialogue.session import Answer, Session
from companion.dialogue.setup import ask_name, ask_until, label_players, listed_names, names_can_be_typed, table_seed
from companion.dialogue.table import Table
from companion.errors import BadInput, RuleViolation
from companion.files import load_json
from companion.games.common import Reason
from companion.games.jurassic_snack.actions import Action, Erupt, Fly, Hatch, Look, Move, Pass, Reveal, Scout
from companion.games.jurassic_snack.engine import EFFECT, GRASS, HIDDEN, MODES, OVER, REVEAL, Game, Options
from companion.games.jurassic_snack.ids import (AIR_STRIKE, AIR_TRANSPORT, BIRTH, COLORS, DIPLO, DIRECTIONS, ERUPTION,
                                                LOOK, SCOUTING, TOKENS, TREX)
from companion.games.jurassic_snack.layout import COLUMN_LETTERS, LAYOUT_LIMIT, LAYOUT_SCHEMA, Layout, parse_square_name
from companion.language.rules import RulesBook
from companion.language.tactile import describe as tactile_words

GAME = "jurassic-snack"
RULES_ID = "jurassic_snack"
# The dialogue state in which each effect's choice is heard.
EFFECT_STATES = {BIRTH: "place", SCOUTING: "board", AIR_TRANSPORT: "fly", AIR_STRIKE: "fly", ERUPTION: "pick",
                 LOOK: "pick"}
# Events that the next question says anyway.
_UNSAID_EVENTS = frozenset({"js_effect", "js_turn_token"})
_SQUARE_PARAMS = ("square", "source", "target", "blocker_square", "stop")
# The slots that name a square: by its name, or by board and square on that board.
_SQUARE_SLOTS = {"square": ("square", "board", "local"), "target": ("target", "target_board", "target_local")}


class JurassicSnackTable(Table):
    """The turn loop of one game, from Blue's first action (or where a save left it) to the final scores."""

    GAME = GAME
    ENGINE = Game
    MESSAGES = "js.table."

    def __init__(self, session: Session, game: Game, save_path: Path):
        super().__init__(session, game, save_path)
        self.rules = RulesBook.load(RULES_ID, session.lang)

    # ----- the loop
    def play_step(self) -> None:
        if self.game.phase == REVEAL:
            self.ask_reveal()
        elif self.game.phase == EFFECT:
            self.ask_effect()
        else:
            self.ask_action()

    def announce_start(self, resumed: bool) -> None:
        say, game = self.session.say, self.game
        if resumed:
            say("js.table.resumed", turn=game.turn)
        else:
            say("js.table.welcome", blue=game.players[0], yellow=game.players[1])
            say("js.table.mode", mode=self.session.text(f"js.modes.{game.mode}"))
            say("js.table.quiet_rule", turns=game.options.quiet_turns)
            self.query_layout({})

    # ----- asking
    def ask(self, key: str, state: str, **params: Any) -> Answer | None:
        """The answer to a question of the loop; None after an undo or redo (the loop asks again)."""
        answer = self.session.ask(self.session.text(key, **params), state, self.handle_query,
                                  speaker=params.get("player"))
        if answer.intent in ("undo", "redo"):
            self.undo() if answer.intent == "undo" else self.redo()
            return None
        return answer

    def ask_action(self) -> None:
        game = self.game
        answer = self.ask("js.table.ask_action", "action", player=game.players[game.player],
                          team=self.session.text(f"js.team.{game.color(game.player)}"), left=game.actions_left)
        if answer is None:
            return
        if answer.intent == "move":
            self.move(answer.slots)
        elif answer.intent == "move_to":
            self.move_to(answer.slots)
        elif answer.intent == "pass":
            self.play(Pass(game.player))
        else:
            self.session.say("js.table.expected_action")

    def ask_reveal(self) -> None:
        answer = self.ask("js.table.ask_reveal", "reveal", square=self.square_words(self.game.eater))
        if answer is None:
            return
        if answer.intent == "reveal" and answer.slots.get("token") in TOKENS:
            self.play(Reveal(self.game.player, answer.slots["token"]))
        else:
            self.session.say("js.table.expected_reveal")

    def ask_effect(self) -> None:
        game = self.game
        effect = game.pending
        assert effect is not None
        one_square = effect in (ERUPTION, LOOK) and game.grass_left == 1
        state = "place" if one_square else EFFECT_STATES[effect]
        key = {"place": "js.table.ask_place", "board": "js.table.ask_scout", "fly": "js.table.ask_fly",
               "pick": "js.table.ask_pick"}[state]
        if one_square:
            key = "js.table.ask_pick_one"
        elif effect == LOOK and game.mode != HIDDEN:
            key = "js.table.ask_look_physical"
        answer = self.ask(key, state, player=game.players[game.player])
        if answer is None:
            return
        action = self.effect_action(effect, answer)
        if action is None:
            self.session.say("js.table.expected_effect", effect=self.session.text(f"js.effects.{effect}"))
            return
        if self.play(action) is None and isinstance(action, (Scout, Look)):
            self.announce_secret(action.player)

    def effect_action(self, effect: str, answer: Answer) -> Action | None:
        """The engine action that answers `effect`, from what was said (None: not an answer to it)."""
        player, slots = self.game.player, answer.slots
        square, target = self.square_from(slots), self.square_from(slots, "target")
        if answer.intent == "place_at" and square:
            single = {BIRTH: lambda: Hatch(player, square), ERUPTION: lambda: Erupt(player, (square,)),
                      LOOK: lambda: Look(player, (square,))}
            return single[effect]() if effect in single else None
        if answer.intent == "scout" and effect == SCOUTING and slots.get("board"):
            return Scout(player, slots["board"])
        if answer.intent == "move_to" and effect in (AIR_TRANSPORT, AIR_STRIKE) and square and target:
            return Fly(player, square, target)
        if answer.intent == "pick" and effect in (ERUPTION, LOOK) and square and target:
            return (Erupt if effect == ERUPTION else Look)(player, (square, target))
        if answer.intent == "done" and effect == LOOK:
            return Look(player)
        return None

    # ----- moves
    def move(self, slots: dict[str, Any]) -> None:
        action = self.move_from(slots, slots.get("direction"))
        if action is not None:
            self.play(action)

    def move_to(self, slots: dict[str, Any]) -> None:
        """"B5 to B6": the direction comes from the two squares, and the piece must stop on the second."""
        square, target = self.square_from(slots), self.square_from(slots, "target")
        if square is None or target is None:
            self.session.say("js.table.which_square")
            return
        direction = direction_between(square, target)
        if direction is None:
            self.refuse(Reason("js_not_straight", {"square": square, "target": target}))
            return
        action = self.move_from(slots, direction)
        if action is None:
            return
        reason = self.game.check(action)
        stop = None if reason else self.game.slide(square, direction).target
        if reason is None and stop != target:
            reason = Reason("js_stops_elsewhere", {"square": square, "direction": direction, "stop": stop,
                                                   "target": target})
        if reason is not None:
            self.refuse(reason)
            return
        self.play(action)

    def move_from(self, slots: dict[str, Any], direction: str | None) -> Move | None:
        """The move that was said; the piece is the one on the square when it was not named."""
        square = self.square_from(slots)
        if square is None or direction is None:
            self.session.say("js.table.which_square" if square is None else "js.table.expected_action")
            return None
        player, piece, color = self.game.player, slots.get("piece"), slots.get("color")
        if color in COLORS and piece != TREX:
            player = COLORS.index(color)  # the colour said decides whose Diplo it is: a wrong one is refused
        if piece is None:
            found = self.game.content(square) if square in self.game.layout.coords else None
            piece = TREX if found == TREX and color is None else DIPLO
        return Move(player, piece, square, direction)

    # ----- applying actions
    def play(self, action: Action) -> Reason | None:
        """Apply a legal action, save at once, and say what happened; or say why not and return the reason."""
        reason = self.game.check(action)
        if reason is not None:
            self.refuse(reason)
            return reason
        events = self.game.apply(action)
        self.redo_stack.clear()
        self.save()
        self.narrate(events)
        return None

    def narrate(self, events: list[Reason]) -> None:
        for event in events:
            if event.code not in _UNSAID_EVENTS:
                self.session.say_text(self.reason_words(event))

    def undo_at_any_question(self) -> bool:
        """Undo and redo answer the loop's questions (see ask): the loop then asks afresh."""
        return False

    def redo(self) -> list[Any]:
        redone = super().redo()
        if redone:
            self.narrate(self.game.events)
        return redone

    def describe_action(self, action: Action) -> str:
        kind = type(action).__name__.lower()
        params = {key: value for key, value in vars(action).items() if key != "player"}
        params["player"] = self.game.players[action.player]
        return self.session.text(f"js.table.action_{kind}", **self.param_words(params))

    # ----- private information
    def announce_secret(self, player: int) -> None:
        names = self.game.players
        if self.game.mode == HIDDEN:
            self.session.say("js.table.secret_ready", player=names[player], other=names[1 - player])
        else:
            self.session.say("js.table.secret_physical", player=names[player])

    def query_secret(self, slots: dict[str, Any]) -> None:
        """The asker's secrets: the player named, else the one who learnt something last."""
        if slots.get("player") is None and slots.get("color") is None and self.game.notes:
            player: int | None = self.game.notes[-1].player
        else:
            player = self.player_from(slots)
        if player is None:
            return
        names = self.game.players
        notes = [note for note in self.game.notes_for(player) if any(token for _, token in note.tokens)]
        if not notes:
            self.session.say("js.table.secret_none", player=names[player])
            return
        answer = self.session.ask(self.session.text("js.table.secret_warning", player=names[player],
                                                    other=names[1 - player]), "confirm")
        if answer.intent != "yes":
            self.session.say("js.table.secret_skipped")
            return
        for note in notes:
            tokens = [self.session.text("js.table.secret_token", square=self.square_words(square),
                                        token=self.session.text(f"js.tokens.{token}"))
                      for square, token in note.tokens]
            text = self.session.text(f"js.table.secret_note_{note.source}",
                                     tokens=self.session.catalog.join(tokens))
            self.session.say_text(text, remember=False)  # never read back by "repeat" or "review"

    # ----- queries, answered whatever the question was
    def query_what_square(self, slots: dict[str, Any]) -> None:
        square = self.square_from(slots)
        if square is None or square not in self.game.layout.coords:
            self.refuse(Reason("js_unknown_square", {"value": slots.get("square") or slots.get("local") or ""}))
            return
        self.session.say("js.table.square", square=self.square_words(square), content=self.content_words(square))

    def query_what_row(self, slots: dict[str, Any]) -> None:
        layout = self.game.layout
        if "row" in slots:
            line, index = int(slots["row"]) - 1, 1
        else:
            line, index = COLUMN_LETTERS.index(str(slots["column"])), 0
        squares = [s for s in layout.squares if layout.coords[s][index] == line]
        if index == 0:
            squares.sort(key=lambda s: -layout.coords[s][1])
        occupied = [self.session.text("js.table.row_item", square=self.square_words(s), content=self.content_words(s))
                    for s in squares if self.game.content(s) != "empty"]
        content = "; ".join(occupied) if occupied else self.session.text("js.table.row_empty")
        if "row" in slots:
            self.session.say("js.table.row", line=slots["row"], content=content)
        else:
            self.session.say("js.table.column", line=slots["column"], content=content)

    def query_where_pieces(self, slots: dict[str, Any]) -> None:
        if slots.get("piece") == TREX:
            self.say_squares(self.session.text("js.table.where_trex"), self.game.squares_with(TREX))
            self.session.say("js.table.trex_waiting", count=self.game.trex_waiting)
            return
        color = slots.get("color") or self.game.color(self.game.player)
        what = self.session.text("js.table.where_diplos", color=self.session.text(f"js.team.{color}"))
        self.say_squares(what, self.game.squares_with(color))

    def say_squares(self, what: str, squares: list[str]) -> None:
        if squares:
            self.session.say("js.table.where_pieces", what=what, squares=[self.square_words(s) for s in squares])
        else:
            self.session.say("js.table.where_none", what=what)

    def query_grass_left(self, slots: dict[str, Any]) -> None:
        game = self.game
        self.session.say("js.table.grass_left", count=game.grass_left, removed=game.removed)
        unseen = [self.session.text("js.table.unseen_item", count=count, token=self.session.text(f"js.tokens.{token}"))
                  for token, count in game.tokens_unseen().items() if count]
        self.session.say("js.table.unseen", tokens=unseen)

    def query_actions_left(self, slots: dict[str, Any]) -> None:
        self.session.say("js.table.actions_left", player=self.game.players[self.game.player],
                         left=self.game.actions_left)

    def query_where_stops(self, slots: dict[str, Any]) -> None:
        action = self.move_from(slots, slots.get("direction"))
        if action is None:
            return
        reason = self.game.check(Move(self.game.player, action.piece, action.square, action.direction))
        if reason is not None and reason.code not in ("js_not_your_turn", "js_effect_first", "js_reveal_first"):
            self.refuse(reason)
            return
        slide = self.game.slide(action.square, action.direction)
        if slide.target is None:
            self.refuse(Reason("js_blocked", {"piece": action.piece, "square": action.square,
                                              "direction": action.direction, "blocker": slide.blocker}))
            return
        if slide.enters_blocker:
            what = self.session.text("js.table.stops_eat" if slide.blocker == GRASS else "js.table.stops_chase",
                                     color=self.session.text(f"js.colors.{slide.blocker}")
                                     if slide.blocker in COLORS else "")
        else:
            what = self.session.text("js.table.stops_plain", blocker=self.session.text(f"js.contents.{slide.blocker}"))
        self.session.say("js.table.stops", **self.param_words({
            "piece": action.piece, "color": self.game.content(action.square), "square": action.square,
            "direction": action.direction, "target": slide.target}), what=what)

    def query_moves(self, slots: dict[str, Any]) -> None:
        by_square: dict[str, list[str]] = {}
        only = self.square_from(slots)
        for action in self.game.legal_actions():
            if isinstance(action, Move) and only in (None, action.square):
                by_square.setdefault(action.square, []).append(action.direction)
        items = [self.session.text("js.table.move_item", square=self.square_words(square),
                                   directions=self.session.catalog.join(
                                       self.session.text(f"js.directions.{d}") for d in directions))
                 for square, directions in by_square.items()]
        if not items:
            self.session.say("js.table.expected_effect" if self.game.phase == EFFECT else "js.table.moves",
                             effect=self.session.text(f"js.effects.{self.game.pending}") if self.game.pending else "",
                             moves="-")
            return
        self.session.say("js.table.moves", moves="; ".join(items))

    def query_reserve(self, slots: dict[str, Any]) -> None:
        player = self.player_from(slots)
        if player is not None:
            self.session.say("js.table.reserve", player=self.game.players[player], count=self.game.reserve(player))

    def query_eaten(self, slots: dict[str, Any]) -> None:
        player = self.player_from(slots)
        if player is None:
            return
        score = self.game.score()[player]
        if not score.count:
            self.session.say("js.table.eaten_none", player=score.name)
            return
        self.session.say("js.table.eaten", player=score.name, count=score.count, tokens=self.token_list(score.tokens),
                         points=score.points)

    def query_layout(self, slots: dict[str, Any]) -> None:
        layout = self.game.layout
        boards = []
        for placement in sorted(layout.placements, key=lambda p: p.board):
            squares = [s for s in layout.squares if layout.board_of[s] == placement.board]
            corners = sorted(squares, key=lambda s: (layout.coords[s][1], layout.coords[s][0]))
            boards.append(self.session.text("js.board_at", board=placement.board, first=corners[0], last=corners[-1]))
        self.session.say("js.table.layout", boards=boards)
        for color in COLORS:
            self.session.say("js.table.eggs", color=self.session.text(f"js.team.{color}"),
                             squares=[self.square_words(s) for s in layout.eggs[color]])

    def query_score(self, slots: dict[str, Any]) -> None:
        for score in self.game.score():
            self.session.say("js.table.score_line", player=score.name, team=self.session.text(f"js.team.{score.color}"),
                             points=score.points, count=score.count)

    def query_status(self, slots: dict[str, Any]) -> None:
        game = self.game
        if game.phase == OVER:
            self.session.say("js.table.status_over")
            return
        self.session.say("js.table.status", turn=game.turn, player=game.players[game.player],
                         team=self.session.text(f"js.team.{game.color(game.player)}"), left=game.actions_left,
                         grass=game.grass_left, blue=len(game.squares_with("blue")),
                         yellow=len(game.squares_with("yellow")), trex=len(game.squares_with(TREX)))

    def query_whose_turn(self, slots: dict[str, Any]) -> None:
        self.query_status(slots)

    # ----- the end
    def announce_final_scores(self) -> None:
        self.session.say("js.table.game_over")
        for score in self.game.score():
            self.session.say("js.table.score_final", player=score.name, points=score.points, count=score.count,
                             tokens=self.token_list(score.tokens) or "-",
                             tactile=tactile_words(score.points, self.session.lang))
        outcome = self.game.outcome
        if outcome is not None:
            self.session.say_text(self.reason_words(outcome.reason))

    # ----- words
    def reason_words(self, reason: Reason) -> str:
        return self.session.catalog.say(f"reasons.{reason.code}", **self.param_words(reason.params))

    def param_words(self, params: dict[str, Any]) -> dict[str, Any]:
        """Params with the ids said in words: squares, colours, pieces, directions, tokens, effects, contents."""
        text = self.session.text
        words = dict(params)
        if "piece" in params:
            color = params.get("color")
            words["color_piece"] = text(f"js.color_piece.{params['piece']}",
                                        color=text(f"js.colors.{color}") if color in COLORS else "")
            words["piece"] = text(f"js.pieces.{params['piece']}") if params["piece"] in (DIPLO, TREX) else params["piece"]
        if params.get("color") in COLORS:
            words["team"] = text(f"js.team.{params['color']}")
        for key in _SQUARE_PARAMS:
            if key in params:
                words[key] = self.square_words(params[key]) if params[key] else ""
        if "squares" in params:
            words["squares"] = [self.square_words(square) for square in params["squares"]]
        for key, section, known in (("color", "colors", COLORS), ("direction", "directions", DIRECTIONS),
                                    ("token", "tokens", TOKENS), ("effect", "effects", tuple(EFFECT_STATES)),
                                    ("found", "contents", None), ("blocker", "contents", None)):
            value = params.get(key)
            if isinstance(value, str) and (known is None or value in known):
                words[key] = text(f"js.{section}.{value}")
        return words

    def square_words(self, square: str | None) -> str:
        """"B4" on the default square; "board A square B2" on any other assembly."""
        layout = self.game.layout
        if square is None or layout.is_default or square not in layout.coords:
            return square or ""
        board, local = layout.local_name(square)
        return self.session.text("js.square_on_board", board=board, local=local)

    def content_words(self, square: str) -> str:
        return self.session.text(f"js.contents.{self.game.content(square)}")

    def token_list(self, tokens: dict[str, int]) -> list[str]:
        return [self.session.text("js.table.unseen_item", count=count, token=self.session.text(f"js.tokens.{token}"))
                for token, count in tokens.items()]

    def square_from(self, slots: dict[str, Any], which: str = "square") -> str | None:
        """The square said ("square" or "target"): by its name ("B4") or by board and local square ("A", "B2")."""
        name, board, local = _SQUARE_SLOTS[which]
        if slots.get(name):
            return str(slots[name])
        if slots.get(board) and slots.get(local):
            return self.game.layout.square_at(str(slots[board]), str(slots[local]))
        return None

    def player_from(self, slots: dict[str, Any]) -> int | None:
        """The player named (or whose colour was said); the player whose turn it is by default."""
        name = slots.get("player")
        if name is None:
            color = slots.get("color")
            return COLORS.index(color) if color in COLORS else self.game.player
        found = self.player_named(name)
        if found is None:
            self.session.say("js.table.unknown_player", name=name)
        return found


def direction_between(square: str, target: str) -> str | None:
    """The direction from one square to another on the same row or column; None otherwise (or the same square)."""
    start, end = parse_square_name(square), parse_square_name(target)
    if start is None or end is None or start == end:
        return None
    (column, row), (to_column, to_row) = start, end
    if column == to_column:
        return "north" if to_row > row else "south"
    if row == to_row:
        return "east" if to_column > column else "west"
    return None


# ----- a new table

def new_table(session: Session, args: Any, save_path: Path) -> JurassicSnackTable:
    """A new table from the command-line options, with set-up questions for what they leave out."""
    layout = read_layout(getattr(args, "layout", None), session)
    options = Options(quiet_turns=getattr(args, "quiet_turns", None) or Options().quiet_turns)
    if args.players:
        players = listed_names(args.players)
        if len(players) != 2:
            raise BadInput("--players: Jurassic Snack needs exactly two names, blue first, then yellow")
    else:
        players = ask_players(session)
    session.set_player_names(players)
    mode = getattr(args, "tokens", None) or ask_mode(session)
    seed = table_seed(args)
    try:
        game = Game.new(players, layout=layout, mode=mode, seed=seed, options=options)
    except RuleViolation as error:
        reason = error.reason if isinstance(error.reason, Reason) else Reason("js_unknown_action")
        raise BadInput(session.catalog.say(f"reasons.{reason.code}", **reason.params)) from None
    table = JurassicSnackTable(session, game, save_path)
    table.save()
    return table


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
    players: list[str] = []
    for key in ("js.setup.ask_blue", "js.setup.ask_yellow"):
        players.append(ask_name(session, players, key))
    return players


def ask_mode(session: Session) -> str:
    answer = ask_until(session, session.text("js.setup.ask_mode"),
                       lambda said: said.intent == "token_mode" and said.slots.get("token_mode") in MODES,
                       "js.setup.expected_mode")
    return str(answer.slots["token_mode"])
