"""The race at the table: whose turn it is, a move said ("j'avance de deux"), where the pawns stand."""

from __future__ import annotations

from typing import Any

from companion.dialogue.session import Answer, Session
from companion.dialogue.setup_questions import ask_alone, ask_names, listed_names, table_seed
from companion.dialogue.turn import SHARED_QUERIES, Act, Done, Expected, Outcome, Queries, Question, Table
from companion.games.common import Reason
from tests.games.race import spec
from tests.games.race.engine import DEFAULT_SQUARES, Advance, Game

QUERIES = Queries(SHARED_QUERIES)


class RaceTable(Table[Game, Advance]):
    SPEC = spec.SPEC
    QUERIES = QUERIES

    @classmethod
    def start(cls, session: Session, args: Any) -> dict[str, Any]:
        names = listed_names(args.players, session.lang) if args.players else ask_alone(
            session, lambda: ask_names(session, 2))
        squares = args.squares or DEFAULT_SQUARES
        return {"game": Game(names, squares=squares, first=table_seed(args) % 2 if args.players is None else 0)}

    def question(self) -> Question:
        player = self.game.current
        return Question(self.key("ask"), "turn", {"player": self.game.players[player]}, player=player)

    def interpret(self, question: Question, answer: Answer) -> Outcome[Advance]:
        if answer.intent != "advance":
            return Expected("expected_move")
        player = self.player_said(answer.slots.get("player"), self.game.current)
        if player is None:
            return Done()
        return Act(Advance(player, int(answer.slots["distance"])))

    def describe(self, action: Advance) -> str:
        return self.text("action", player=self.game.players[action.player], steps=action.steps)

    def narrate(self, action: Advance, before: Any, events: Any, redone: bool = False) -> None:
        self.say("moved", player=self.game.players[action.player], square=self.game.positions[action.player],
                 left=self.game.left(action.player))

    def allowed(self, action: Advance, reason: Reason) -> None:
        if reason.code in ("race_steps", "race_overshoot"):
            steps = self.game.steps_allowed(self.game.current)
            self.say("allowed", steps=self.session.catalog.join((str(step) for step in steps), "or"))

    def announce_start(self, resumed: bool) -> None:
        self.say("resumed" if resumed else "start", players=list(self.game.players), squares=self.game.squares)

    def announce_final_scores(self) -> None:
        winner = self.game.winner
        assert winner is not None
        self.say("winner", player=self.game.players[winner])
        self.say("ranking", ranking=[self.text("rank_item", place=place, player=self.game.players[player],
                                               square=self.game.positions[player])
                                     for place, player in enumerate((winner, 1 - winner), start=1)])


@QUERIES.answers("status", "whose_turn", "score")
def status(table: RaceTable, slots: dict[str, Any]) -> None:
    """Where each pawn stands, and whose turn it is."""
    game = table.game
    for player, name in enumerate(game.players):
        table.say("where", player=name, square=game.positions[player], left=game.left(player))
    if game.winner is None:
        table.say("whose_turn", player=game.players[game.current])
