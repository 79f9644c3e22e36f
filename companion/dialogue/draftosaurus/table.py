"""A game of Draftosaurus at a real table: the program walks round the players and keeps every zoo.

The players hold the board, the figures and the die; the program hears the die face and each placement,
checks it with the rules engine, saves after every accepted move and narrates the rest.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import registry
from companion.dialogue.draftosaurus.queries import QUERIES
from companion.dialogue.draftosaurus.setup import start_game
from companion.dialogue.session import Answer, Session
from companion.dialogue.setup import ask_number
from companion.dialogue.turn import Act, Done, Expected, Missing, Outcome, Question, Refused, Table
from companion.games.common import Reason
from companion.games.draftosaurus.engine import DISCARD, PLACE, ROLL, Discard, Game, Place, Roll
from companion.games.draftosaurus.ids import DIE_FACES
from companion.language.tactile import describe as tactile_words

SPEC = registry.game("draftosaurus")
# Refusals that another pen would not help: the pens are not listed after them.
_NO_OTHER_PEN = ("draft_bag_exhausted", "draft_already_placed", "draft_game_over", "draft_unknown_player")


@dataclass
class TableSettings:
    """How this table plays: saved with the game so that a resumed game goes on the same way."""

    die: str = "physical"
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"die": self.die, "seed": self.seed}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> TableSettings:
        die = data.get("die", "physical")
        if die not in ("physical", "virtual"):
            raise ValueError(f"die {die!r}")
        return cls(die=die, seed=int(data.get("seed", 0)))


@dataclass(frozen=True)
class Moment:
    """Where the game stands, to tell what an action changed."""

    round: int
    turn: int
    phase: str


class DraftosaurusTable(Table[Game]):
    """The table's questions: the die face (unless the program rolls), then each player's placement."""

    SPEC = SPEC
    QUERIES = QUERIES

    def __init__(self, session: Session, game: Game, save_path: Path, settings: TableSettings | None = None,
                 asked: int | None = None):
        self.settings = settings or TableSettings()
        super().__init__(session, game, save_path, asked=asked)

    def rule_options(self) -> dict[str, Any]:
        return self.game.options.to_json()

    @classmethod
    def start(cls, session: Session, args: Any) -> dict[str, Any]:
        game, die, seed = start_game(session, args)
        return {"game": game, "settings": TableSettings(die=die, seed=seed)}

    # ----- persistence
    def save_content(self) -> dict[str, Any]:
        return {"settings": self.settings.to_json(), **super().save_content()}

    @classmethod
    def saved_parts(cls, content: dict[str, Any]) -> dict[str, Any]:
        return {**super().saved_parts(content), "settings": TableSettings.from_json(content.get("settings", {}))}

    # ----- the questions
    def question(self) -> Question | Act:
        game = self.game
        if game.phase == ROLL:
            if self.settings.die == "virtual":
                return Act(Roll(self.virtual_face()))
            return Question(self.key("ask_die"), "die", {"roller": game.players[game.roller]}, game.roller)
        waiting = game.waiting_for()
        if game.phase == DISCARD:  # 2-player variant, table mode: the figures put back are not told to us
            return Act(Discard(waiting[0], None))
        player = self.asked if self.asked in waiting else self.next_round_the_table(waiting)
        return Question(self.key("ask_place"), "turn", {"player": game.players[player]}, player)

    def next_round_the_table(self, waiting: list[int]) -> int:
        """The first of `waiting` going round the table from the player who rolled."""
        count = len(self.game.players)
        return min(waiting, key=lambda player: (player - self.game.roller) % count)

    def virtual_face(self) -> str:
        """The face of the virtual die: drawn from the game seed and the number of rolls so far."""
        rolls = sum(1 for action in self.game.actions if isinstance(action, Roll))
        return random.Random(f"{self.settings.seed}:{rolls}").choice(DIE_FACES)

    def interpret(self, question: Question, answer: Answer) -> Outcome:
        if question.state == "die":
            return self.interpret_die(answer)
        return self.interpret_place(question, answer)

    def interpret_die(self, answer: Answer) -> Outcome:
        if answer.intent == "die" and "face" in answer.slots:
            return Act(Roll(str(answer.slots["face"])))
        if answer.intent == "die_pen":
            return Expected("pen_for_die", {"pen": answer.slots.get("pen"), "faces": self.face_list()})
        return Expected("expected_die", {"faces": self.face_list()})

    def face_list(self) -> str:
        """The six faces, each with its sticker."""
        return self.session.catalog.join(self.text("face_item", face=face,
                                                   sticker=self.session.catalog.name("faces", face, "sticker"))
                                         for face in DIE_FACES)

    def interpret_place(self, question: Question, answer: Answer) -> Outcome:
        if answer.intent == "die":
            return Expected("die_already", {"face": self.face_id()})
        if answer.intent not in ("place", "player"):
            return Expected("expected_place")
        slots = answer.slots
        player = self.player_index(slots.get("player"), default=question.player)
        if player is None:
            return self.unknown_player(slots.get("player"))
        if player not in self.game.tracked:
            return Expected("not_followed", {"player": self.game.players[player],
                                             "followed": [self.game.players[p] for p in self.game.tracked]})
        if answer.intent == "player":  # a name alone: that player speaks now
            if player not in self.game.waiting_for():
                return Refused(Reason("draft_already_placed", {"player": self.game.players[player]}))
            self.asked = player
            return Done()
        name, species, pen = self.game.players[player], slots.get("species"), slots.get("pen")
        if species is None:
            return Missing(Question(self.key("which_species"), "turn", {"player": name, "pen": pen}, player), answer)
        if pen is None:
            return Missing(Question(self.key("which_pen"), "turn",
                                    {"player": name, "species": species, "pens": self.pen_choice(player, str(species))},
                                    player), answer)
        return Act(Place(player, str(species), str(pen)))

    def player_index(self, name: Any, default: int | None) -> int | None:
        """The player named; `default` when none was said."""
        return default if name is None else self.player_named(name)

    def legal(self, player: int, species: str) -> list[str]:
        return self.game.pen_choices(player, species)[0]

    # ----- after an action
    def moment(self) -> Moment:
        return Moment(self.game.round, self.game.turn, self.game.phase)

    def narrate(self, action: Any, before: Moment, events: Any, redone: bool = False) -> None:
        game, say = self.game, self.say
        if isinstance(action, Roll):
            if self.settings.die == "virtual" and not redone:
                say("virtual_roll", roller=game.players[game.roller])
            self.say_face()
        elif isinstance(action, Place):
            if not redone:
                say("accepted", player=game.players[action.player], species=action.species, pen=action.pen)
            if game.phase == DISCARD and before.phase == PLACE:
                say("discard")
        if game.phase == "over":
            say("game_over")
        elif (game.round, game.turn) != (before.round, before.turn):
            if game.round != before.round:
                say("round_end", round=before.round)
                say("round_start", round=game.round, rounds=game.rounds)
            else:
                say("swap_hands" if game.two_player else "pass_hands")
            say("die_goes_to", roller=game.players[game.roller], turn=game.turn)

    def say_face(self) -> None:
        face = self.face_id()
        self.say("face", face=face, sticker=self.session.catalog.name("faces", face, "sticker"),
                 meaning=self.text(f"faces.{face}"), roller=self.game.players[self.game.roller])

    def allowed(self, action: Any, reason: Reason) -> None:
        if isinstance(action, Place) and reason.code not in _NO_OTHER_PEN:
            self.say_legal(action.player, action.species)

    def say_legal(self, player: int, species: str) -> None:
        self.say("legal", player=self.game.players[player], species=species, pens=self.pen_choice(player, species))

    def pen_choice(self, player: int, species: str) -> str:
        """The pens `species` may go to for `player`, as a choice ("a, b or c")."""
        catalog = self.session.catalog
        return catalog.join((catalog.name("pens", pen) for pen in self.legal(player, species)), "or")

    def automatic(self, action: Any) -> bool:
        """Played by the program, not said: the virtual die, and the discards the table does not name."""
        return (isinstance(action, Discard) and action.species is None) or (
            isinstance(action, Roll) and self.settings.die == "virtual")

    def actions_to_undo(self) -> int:
        """The last action said, with the automatic ones after it: they come back together."""
        actions = self.game.actions
        count = 1
        while count < len(actions) and self.automatic(actions[-count]):
            count += 1
        return count

    def describe(self, action: Any) -> str:
        if isinstance(action, Place):
            return self.text("action_place", player=self.game.players[action.player], species=action.species,
                             pen=action.pen)
        if isinstance(action, Roll):
            return self.text("action_roll", face=action.face)
        return self.text("action_discard", player=self.game.players[action.player])

    # ----- the start and the end
    def announce_start(self, resumed: bool) -> None:
        game, say = self.game, self.say
        if resumed:
            say("resumed", round=game.round, rounds=game.rounds, turn=game.turn)
            if game.phase == PLACE:
                self.say_face()
            return
        say("welcome", count=len(game.players), names=list(game.players))
        if game.two_player:
            say("two_player_variant")
        options = game.options
        say("options", trio=options.trio_points, island=self.yes_no(options.river_counts_for_island),
            king=self.yes_no(options.river_counts_for_king))
        if not game.tracks_everyone:
            say("tracking_mine", player=game.players[game.tracked[0]])
        say("round_start", round=game.round, rounds=game.rounds)

    def yes_no(self, value: bool) -> str:
        return self.session.text("words.yes" if value else "words.no")

    def announce_final_scores(self) -> None:
        sheet = self.game.score(self.ask_king_counts())
        for entry in sheet.players:
            self.session.say_text(self.score_line(entry, final=True))
        if self.game.tracks_everyone:
            self.session.say(f"reasons.{sheet.reason.code}", **sheet.reason.params)
            self.say("ranking", ranking=self.ranking(sheet))
        else:
            self.say("compare_totals")

    def ranking(self, sheet: Any) -> list[str]:
        """Every player from first to last ("1. Alice, 34 points"); tied players share a place."""
        ordered = sorted(sheet.players, key=lambda entry: (-entry.total, entry.trex_count))
        places, items = [], []
        for index, entry in enumerate(ordered):
            previous = ordered[index - 1]
            tied = index and (entry.total, entry.trex_count) == (previous.total, previous.trex_count)
            places.append(places[-1] if tied else index + 1)
            items.append(self.text("rank_item", place=places[-1], player=entry.name, total=entry.total))
        return items

    def ask_king_counts(self) -> dict[int, dict[str, int]]:
        """When only some zoos are followed: how many of each tracked King's species the others have."""
        game = self.game
        if game.tracks_everyone:
            return {}
        kings = {game.zoos[p]["king_of_the_jungle"][0] for p in game.tracked if game.zoos[p]["king_of_the_jungle"]}
        key = "ask_king_count_river" if game.options.river_counts_for_king else "ask_king_count"
        reported: dict[int, dict[str, int]] = {}
        for player in range(len(game.players)):
            if player in game.tracked:
                continue
            for species in sorted(kings):
                reported.setdefault(player, {})[species] = ask_number(
                    self.session, self.text(key, player=game.players[player], species=species))
        return reported

    def score_line(self, entry: Any, final: bool) -> str:
        """One player's score: in full (every pen, why, and the tactile code) at the end, else in brief."""
        if final:
            parts = [self.reason_words(reason) for reason in entry.details.values()]
        else:
            parts = [self.text("score_pen", pen=pen, points=points) for pen, points in entry.pens.items() if points]
        if entry.trex_bonus:
            parts.append(self.text("score_trex", points=entry.trex_bonus))
        return self.text("score_final" if final else "score_so_far", player=entry.name, total=entry.total,
                         details=" ".join(parts), tactile=tactile_words(entry.total, self.session.lang))

    # ----- helpers
    def face_id(self) -> str | None:
        face = self.game.face
        return None if face is None else str(getattr(face, "value", face))
