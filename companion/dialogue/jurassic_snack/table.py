"""A game of Jurassic Snack at a real table: the program hears each move, checks it and says what happens.

The players move the real figures. With physical tokens they turn over each token a Diplo eats and say
which one it is; with hidden tokens the program draws and reveals them itself. After an effect that only one
player may know about (Scouting, or the look at two tokens when an effect cannot apply), the program only
says that this player has a secret: the player hears it when they ask for it ("mon secret"), after a
warning to the other player, and it is never kept in the messages that "repeat" and "review" read back.

In solo play (`--solo`) the player takes blue against a bot, with hidden tokens: the bot's turn is played by
the table, each action narrated as it happens; what the bot sees in secret is never said, and the player's own
secrets are said at once (nobody else is there to overhear).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.dialogue.jurassic_snack.advice import UNSAID_EVENTS
from companion.dialogue.jurassic_snack.choices import effect_choices, help_params, prompt_params
from companion.dialogue.jurassic_snack.new_game import start_game
from companion.dialogue.jurassic_snack.queries import QUERIES, say_notes
from companion.dialogue.jurassic_snack.words import SquareWords
from companion.dialogue.session import Answer, Session
from companion.dialogue.turn import Act, Done, Expected, Missing, Outcome, Question, Refused, Secret, Table
from companion.games.common import Reason, shared_places
from companion.games.jurassic_snack.actions import Action, Erupt, Fly, Hatch, Look, Move, Pass, Reveal, Scout
from companion.games.jurassic_snack.engine import ACTION, EFFECT, HIDDEN, REVEAL, Game
from companion.games.jurassic_snack.ids import (
    AIR_STRIKE,
    AIR_TRANSPORT,
    BIRTH,
    COLORS,
    DIPLO,
    ERUPTION,
    LOOK,
    SCOUTING,
    TOKENS,
    TREX,
)
from companion.games.jurassic_snack.layout import parse_square_name
from companion.games.jurassic_snack.spec import SPEC
from companion.language.tactile import describe as tactile_words

# The dialogue state in which each effect's choice is heard, and the question asked.
EFFECT_STATES = {BIRTH: "place", SCOUTING: "board", AIR_TRANSPORT: "fly", AIR_STRIKE: "fly", ERUPTION: "pick",
                 LOOK: "pick"}
_EFFECT_QUESTIONS = {"place": "ask_place", "board": "ask_scout", "fly": "ask_fly", "pick": "ask_pick"}
# Refusals of a move that say nothing more to try.
_FINAL_REFUSALS = frozenset({"js_game_over", "js_not_your_turn", "js_reveal_first", "js_effect_first"})


class JurassicSnackTable(SquareWords, Table[Game, Action]):
    """The table's questions: each action of the player whose turn it is, the token a Diplo ate (physical
    tokens), and the choice each effect calls for."""

    SPEC = SPEC
    QUERIES = QUERIES
    END_STATE = "action"

    @classmethod
    def start(cls, session: Session, args: Any) -> dict[str, Any]:
        game, seats = start_game(session, args)
        return {"game": game, "seats": seats}

    def seats_fit(self) -> bool:
        """A solo game is played with hidden tokens (the bot cannot turn real ones)."""
        return not self.seats.solo or self.game.mode == HIDDEN

    def bot_choice(self, seat: int) -> Action:
        from companion.games.jurassic_snack.bots import BOTS, bot_action

        return bot_action(self.game, self.seats.bot(seat, BOTS, SPEC.title))

    # ----- the questions
    def question(self) -> Question | Act[Action]:
        game = self.game
        if self.seats.is_bot(game.player):
            return Act(self.bot_choice(game.player))
        name = game.players[game.player]
        if game.phase == REVEAL:
            return Question(self.key("ask_reveal"), "reveal", {"square": self.square_words(game.eater)}, game.player)
        if game.phase == EFFECT:
            effect = game.pending
            assert effect is not None
            if effect in (ERUPTION, LOOK) and game.grass_left == 1:
                return Question(self.key("ask_pick_one"), "place", {"player": name}, game.player,
                                help=self.key("help.pick_one"))
            state = EFFECT_STATES[effect]
            key = "ask_look_physical" if effect == LOOK and game.mode != HIDDEN else _EFFECT_QUESTIONS[state]
            return Question(self.key(key), state, {"player": name, "other": game.players[1 - game.player],
                                                   **prompt_params(self)}, game.player)
        return Question(self.key("ask_action"), "action",
                        {"player": name, "team": self.text(f"team.{game.color(game.player)}"),
                         "left": game.actions_left}, game.player)

    def interpret(self, question: Question, answer: Answer) -> Outcome[Action]:
        game = self.game
        if game.phase == REVEAL:
            token = answer.slots.get("token")
            if answer.intent == "reveal" and token in TOKENS:
                return Act(Reveal(game.player, str(token)))
            return Expected("expected_reveal", {"tokens": self.token_names()})
        if game.phase == EFFECT:
            if (answer.intent == "place_at" and game.pending in (ERUPTION, LOOK) and game.grass_left > 1
                    and self.square_from(answer.slots)):  # one grass square said where two are chosen
                refusal = game.grass_refusal(self.square_from(answer.slots))
                if refusal is not None:  # no grass there: said now, before the second square is asked for
                    return Refused(refusal, self.effect_action(str(game.pending), answer))
                return Missing(Question(self.key("which_second"), "pick",
                                        {"player": game.players[game.player],
                                         "square": self.square_words(self.square_from(answer.slots))}, game.player),
                               Answer("pick", _square_slots(answer) or {}, answer.heard, answer.doubtful),
                               _second_square)
            action = self.effect_action(str(game.pending), answer)
            if action is None:
                return Expected("expected_effect", {"effect": self.text(f"effects.{game.pending}"),
                                                    **prompt_params(self)})
            return Act(action)
        if answer.intent == "place_at":  # a square alone: half a move, its direction is asked for
            return self.move(question, Answer("move", _square_slots(answer) or {}, answer.heard, answer.doubtful))
        if answer.intent == "move":
            return self.move(question, answer)
        if answer.intent in ("move", "move_to") and answer.slots.get("player") is not None:
            named = self.player_said(answer.slots["player"], None)
            if named is None:
                return Done()
            if named != game.player:
                return Refused(Reason("js_not_your_turn", {"player": game.players[named],
                                                           "current": game.players[game.player]}))
        if answer.intent == "move_to":
            return self.move_to(answer)
        if answer.intent == "pass":
            return Act(Pass(game.player))
        return Expected("expected_action")

    def help_key(self, question: Question) -> str | None:
        """The help of an effect's question says what that effect asks for; at a turn with no move, to pass."""
        game = self.game
        if game.phase == EFFECT and game.pending in (ERUPTION, LOOK):
            return self.key("help.look_physical" if game.pending == LOOK and game.mode != HIDDEN else "help.pick")
        if game.phase == ACTION and question.state == "action" and not _has_move(game):
            return self.key("help.action_pass")
        return None

    def help_params(self, question: Question) -> dict[str, Any]:
        return help_params(self)

    def effect_action(self, effect: str, answer: Answer) -> Action | None:
        """The engine action that answers `effect`, from what was said (None: not an answer to it)."""
        player, slots = self.game.player, answer.slots
        square, target = self.square_from(slots), self.square_from(slots, "target")
        if answer.intent == "place_at" and square:
            single: dict[str, Callable[[], Action]] = {
                BIRTH: lambda: Hatch(player, square), ERUPTION: lambda: Erupt(player, (square,)),
                LOOK: lambda: Look(player, (square,))}
            return single[effect]() if effect in single else None
        if answer.intent == "scout" and effect == SCOUTING and slots.get("board"):
            return Scout(player, str(slots["board"]))
        if answer.intent == "move_to" and effect in (AIR_TRANSPORT, AIR_STRIKE) and square and target:
            return Fly(player, square, target)
        if answer.intent == "pick" and effect in (ERUPTION, LOOK) and square and target:
            return (Erupt if effect == ERUPTION else Look)(player, (square, target))
        if answer.intent == "done" and effect == LOOK:
            return Look(player)
        return None

    # ----- moves
    def move(self, question: Question, answer: Answer) -> Outcome[Action]:
        """"Diplo en B5 vers le nord": the square or the direction left out is asked for."""
        slots, name = answer.slots, self.game.players[self.game.player]
        square = self.square_from(slots)
        if square is None:
            return Missing(Question(self.key("which_square"), "action", {"player": name}, question.player), answer,
                           lambda reply: _square_slots(reply))
        direction = slots.get("direction")
        if direction is None:
            return Missing(Question(self.key("which_direction"), "action",
                                    {"player": name, "square": self.square_words(square)}, question.player), answer,
                           _direction_slots)
        return Act(self.move_from(slots, str(direction)))

    def move_to(self, answer: Answer) -> Outcome[Action]:
        """"B5 to B6": the direction comes from the two squares, and the piece must stop on the second."""
        slots = answer.slots
        square, target = self.square_from(slots), self.square_from(slots, "target")
        if square is None or target is None:
            return Expected("expected_action")
        direction = direction_between(square, target)
        if direction is None:
            return Refused(Reason("js_not_straight", {"square": square, "target": target}))
        action = self.move_from(slots, direction)
        reason = self.game.check(action)
        if reason is None and self.game.slide(square, direction).target != target:
            reason = Reason("js_stops_elsewhere", {"square": square, "direction": direction,
                                                   "stop": self.game.slide(square, direction).target,
                                                   "target": target})
        return Refused(reason, action) if reason is not None else Act(action)

    def move_from(self, slots: dict[str, Any], direction: str) -> Move:
        """The move that was said; the piece is the one on the square when it was not named."""
        square = self.square_from(slots)
        assert square is not None
        player, piece, color = self.game.player, slots.get("piece"), slots.get("color")
        if color in COLORS and piece != TREX:
            player = COLORS.index(str(color))  # the colour said decides whose Diplo it is: a wrong one is refused
        if piece is None:
            found = self.game.content(square) if square in self.game.layout.coords else None
            piece = TREX if found == TREX and color is None else DIPLO
        return Move(player, str(piece), square, direction)

    def allowed(self, action: Action, reason: Reason) -> None:
        """After a refused move: the moves the player does have from that square, or at all; after a refused
        choice of an effect: its choices (the grass squares of an eruption or a look, many, by an example)."""
        if reason.code in _FINAL_REFUSALS:
            return
        if isinstance(action, (Hatch, Fly, Scout)) and self.game.phase == EFFECT:
            self.session.say_text(effect_choices(self))
            return
        if isinstance(action, (Erupt, Look)) and self.game.phase == EFFECT:
            self.say("expected_effect", effect=self.text(f"effects.{self.game.pending}"), **prompt_params(self))
            return
        if not isinstance(action, Move):
            return
        from companion.dialogue.jurassic_snack.queries import say_moves

        own = action.square in self.game.layout.coords and self.game.content(action.square) in (
            TREX, self.game.color(self.game.player))
        say_moves(self, action.square if own else None)

    # ----- after an action
    def narrate(self, action: Action, before: Any, events: Any, redone: bool = False) -> None:
        """What happened, in order; a secret is announced right after the look that made it (before the next
        turn is said); a redone move is not said again ("rétabli" said it)."""
        for event in events or ():
            if event.code in UNSAID_EVENTS or (redone and event.code == "js_moved"):
                continue
            self.session.say_text(self.event_words(event, action.player))
            if event.code in ("js_scouted", "js_looked"):
                self.announce_secret(action.player, event.code)

    def event_words(self, event: Reason, actor: int) -> str:
        """What happened, in words; an effect that cannot apply tells a bot's look in the third person (the
        table's sentence speaks to the player who looks)."""
        if event.code == "js_no_effect" and self.seats.is_bot(actor):
            return self.text("solo_bot_no_effect", **self.param_words({**event.params,
                                                                       "player": self.game.players[actor]}))
        return self.reason_words(event)

    def announce_secret(self, player: int, code: str) -> None:
        """Who has a secret now, and how to hear it; with real tokens, how to learn them without seeing them (the
        question of a look already said so)."""
        names = self.game.players
        if self.seats.is_bot(player):
            self.say("solo_bot_secret", player=names[player])
        elif self.seats.solo:  # nobody else is there to overhear: the player hears it now
            say_notes(self, self.game.notes_for(player)[-1:])
        elif self.game.mode == HIDDEN:
            self.say("secret_ready", player=names[player], other=names[1 - player])
        elif code == "js_scouted":
            self.say("secret_physical", player=names[player], other=names[1 - player])

    def secret(self, actions: list[Action]) -> Secret | None:
        """Taking back a token that was shown, or a look at hidden tokens, cannot make them unseen: the other
        player must agree, and hears what stays known. In solo nobody else has a say (a bot's looks go with the
        actions taken back)."""
        if self.seats.solo:
            return None
        game = self.game.replay(self.game.setup_json(), self.game.actions[:-len(actions)])
        for action in actions:
            events = game.apply(action)
            shown = next((e for e in events if e.code == "js_token"), None)
            if shown is not None:
                return Secret((1 - action.player,), "token_stays_known",
                              {"token": self.text(f"tokens.{shown.params['token']}")})
            if isinstance(action, (Scout, Look)):
                return Secret((1 - action.player,), "look_stays_known", {"player": game.players[action.player]})
        return None

    def describe(self, action: Action) -> str:
        kind = type(action).__name__.lower()
        params = {key: value for key, value in vars(action).items() if key != "player"}
        params["player"] = self.game.players[action.player]
        return self.text(f"action_{kind}", **self.param_words(params))

    def reason_words(self, reason: Reason) -> str:
        return self.session.catalog.say(f"reasons.{reason.code}", **self.param_words(reason.params))

    # ----- the start and the end
    def announce_start(self, resumed: bool) -> None:
        game, say = self.game, self.say
        if resumed:
            say("resumed", turn=game.turn)
            if game.phase == EFFECT:  # the question alone would not say which effect it answers
                say("pending_effect", effect=self.text(f"effects.{game.pending}"))
            return
        say("welcome", blue=game.players[0], yellow=game.players[1])
        if self.seats.solo:
            say("solo_welcome", player=game.players[0], bot=game.players[1],
                level=self.session.text(f"solo.levels.{self.seats.bots[1]}"))
        say("mode", mode=self.text(f"modes.{game.mode}"))
        say("quiet_rule", turns=game.options.quiet_turns)
        QUERIES.handlers["layout"](self, {})

    def announce_final_scores(self) -> None:
        self.say("game_over")
        scores = self.game.score()
        for score in scores:
            self.say("score_final", player=score.name, points=score.points, count=score.count,
                     tokens=self.token_list(score.tokens) or self.text("no_token"),
                     tactile=tactile_words(score.points, self.session.lang))
        outcome = self.game.outcome
        if outcome is not None:
            self.session.say_text(self.reason_words(outcome.reason))
        ranked = sorted(scores, key=lambda score: (score.name not in self.winners(), -score.points))
        if outcome is not None and outcome.reason.code == "js_win_elimination":  # first, whatever the points: why
            winner, loser = ranked
            self.say("ranking_elimination", winner=winner.name, points=winner.points, loser=loser.name,
                     loser_points=loser.points)
            return
        winners = self.winners()  # the winners of a shared victory share the first place
        places = shared_places([None if score.name in winners else index for index, score in enumerate(ranked)])
        self.say("ranking", ranking=[self.text("rank_item", place=place, player=score.name, points=score.points)
                                     for place, score in zip(places, ranked, strict=True)])

    def winners(self) -> list[str]:
        outcome = self.game.outcome
        return [] if outcome is None else [self.game.players[index] for index in outcome.winners]

    def token_names(self) -> str:
        """The tokens that may still be turned over (of the seven kinds, those not all out), as a choice."""
        left = self.game.tokens_unseen()
        return self.session.catalog.join((self.text(f"tokens.{token}") for token in TOKENS if left[token]), "or")

    def token_list(self, tokens: dict[str, int]) -> list[str]:
        return [self.text("unseen_item", count=count, token=self.text(f"tokens.{token}"))
                for token, count in tokens.items()]


def _has_move(game: Game) -> bool:
    return any(isinstance(action, Move) for action in game.legal_actions())


def _square_slots(reply: Answer) -> dict[str, Any] | None:
    """What a reply to "which square?" adds: a square said alone ("en B5"); None for a command of its own."""
    if reply.intent == "place_at":
        return {key: reply.slots[key] for key in ("square", "board", "local") if key in reply.slots}
    return None


def _second_square(reply: Answer) -> dict[str, Any] | None:
    """What a reply to "and the second square?" adds: a square said alone."""
    slots = _square_slots(reply)
    if not slots:
        return None
    return {{"square": "target", "board": "target_board", "local": "target_local"}[key]: value
            for key, value in slots.items()}


def _direction_slots(reply: Answer) -> dict[str, Any] | None:
    """What a reply to "which direction?" adds: a direction said alone ("vers le nord")."""
    if reply.intent == "move" and "direction" in reply.slots and not {"square", "board", "local"} & set(reply.slots):
        return {key: reply.slots[key] for key in ("direction", "piece", "color") if key in reply.slots}
    return None


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
