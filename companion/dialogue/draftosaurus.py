"""A game of Draftosaurus at a real table: the program walks round the players and keeps every zoo.

The players hold the board, the figures and the die; the program hears the die face and each
placement, checks it with the rules engine, saves after every accepted move and narrates the rest.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion.dialogue.session import Answer, Session, StateChanged
from companion.dialogue.setup import (ask_choice, ask_names, ask_number, ask_player, ask_yes,
                                      label_players, listed_names, names_can_be_typed, player_by_name, table_seed)
from companion.dialogue.table import Table
from companion.errors import BadInput
from companion.games.common import Reason
from companion.games.draftosaurus.board import MAX_PLAYERS, MIN_PLAYERS
from companion.games.draftosaurus.engine import Discard, Game, Options, Place, Roll
from companion.games.draftosaurus.ids import DIE_FACES, PENS
from companion.language.rules import RulesBook
from companion.language.tactile import describe as tactile_words

GAME = "draftosaurus"
_NO_OTHER_PEN = ("draft_bag_exhausted", "draft_already_placed", "not_waiting")  # refusals another pen would not help


@dataclass
class TableSettings:
    """How this table plays: saved with the game so that a resumed game goes on the same way."""

    die: str = "physical"
    seed: int = 0

    def to_json(self) -> dict[str, Any]:
        return {"die": self.die, "seed": self.seed}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> "TableSettings":
        return cls(die=data.get("die", "physical"), seed=int(data.get("seed", 0)))


class DraftosaurusTable(Table):
    """The turn loop of one game, from the first roll (or where a save left it) to the final scores."""

    GAME = GAME
    ENGINE = Game
    MESSAGES = "table."

    def __init__(self, session: Session, game: Game, settings: TableSettings, save_path: Path):
        super().__init__(session, game, save_path)
        self.settings = settings
        self.asked: int | None = None
        self.rules = RulesBook.load(GAME, session.lang, options=game.options.to_json())

    # ----- persistence
    def save_content(self) -> dict[str, Any]:
        return {"settings": self.settings.to_json(), **super().save_content()}

    @classmethod
    def saved_parts(cls, content: dict[str, Any]) -> dict[str, Any]:
        return {**super().saved_parts(content), "settings": TableSettings.from_json(content.get("settings", {}))}

    # ----- the loop
    def play_step(self) -> None:
        if self.game.phase == "roll":
            self.roll_die()
        elif self.game.phase == "discard":
            self.put_back_discards()
        else:
            self.ask_next_player()

    def announce_start(self, resumed: bool) -> None:
        say = self.session.say
        game = self.game
        if resumed:
            say("table.resumed", round=game.round, rounds=game.rounds, turn=game.turn)
        else:
            say("table.welcome", count=len(game.players), names=self.session.catalog.join(game.players))
            if len(game.players) == 2:
                say("table.two_player_variant")
            self.say_options()
            if not game.tracks_everyone:
                say("table.tracking_mine", player=game.players[game.tracked[0]])
            say("table.round_start", round=game.round, rounds=game.rounds)
        self.say_where_we_are()

    def say_options(self) -> None:
        options = self.game.options
        self.session.say("table.options", trio=options.trio_points,
                         island=self.yes_no(options.river_counts_for_island),
                         king=self.yes_no(options.river_counts_for_king))

    def yes_no(self, value: bool) -> str:
        return self.session.text("words.yes" if value else "words.no")

    def say_where_we_are(self) -> None:
        game = self.game
        roller = game.players[game.roller]
        if game.phase == "roll":
            self.session.say("table.where_roll", round=game.round, turn=game.turn, roller=roller)
        elif game.phase == "place":
            self.say_face()

    # ----- the die
    def roll_die(self) -> None:
        game = self.game
        roller = game.players[game.roller]
        if self.settings.die == "virtual":
            face = self.virtual_face()
            self.session.say("table.virtual_roll", roller=roller)
        else:
            answer = self.session.ask(self.session.text("table.ask_die", roller=roller), "die", self.handle_query,
                                      speaker=roller)
            if answer.intent != "die" or "face" not in answer.slots:
                self.refuse_unexpected("table.expected_die")
                return
            face = answer.slots["face"]
        reason = self.play(Roll(face))
        if reason is None:
            self.say_face()
        else:
            self.refuse(reason)

    def virtual_face(self) -> str:
        """The face of the virtual die: drawn from the game seed and the number of rolls so far."""
        rolls = sum(1 for action in self.game.actions if isinstance(action, Roll))
        return random.Random(f"{self.settings.seed}:{rolls}").choice(DIE_FACES)

    def say_face(self) -> None:
        game = self.game
        face = game.face.value if hasattr(game.face, "value") else game.face
        roller = game.players[game.roller]
        self.session.say("table.face", face=face, sticker=self.session.catalog.name("faces", face, "sticker"),
                         meaning=self.session.text(f"table.faces.{face}"), roller=roller)
        self.session.say("table.exempt", roller=roller)

    # ----- placements
    def ask_next_player(self) -> None:
        waiting = self.game.waiting_for()
        player = waiting[0] if self.asked not in waiting else self.asked
        self.asked = player
        name = self.game.players[player]
        self.session.earcon("your_turn")
        answer = self.session.ask(self.session.text("table.ask_place", player=name), "turn", self.handle_query,
                                  speaker=name)
        if answer.intent == "die":
            self.session.say("table.die_already", face=self.face_id())
            return
        if answer.intent != "place":
            self.refuse_unexpected("table.expected_place")
            return
        self.place(answer)

    def place(self, answer: Answer) -> None:
        slots = answer.slots
        player = self.player_index(slots.get("player"), default=self.asked)
        if player is None:
            self.session.say("table.unknown_player", name=slots.get("player"))
            return
        species = slots.get("species")
        if species is None:
            self.session.say("table.which_species")
            return
        if slots.get("pen") is None:
            self.say_legal(player, species)
            return
        reason = self.play(Place(player, species, slots["pen"]), "table.accepted",
                           player=self.game.players[player], species=species, pen=slots["pen"])
        if reason is not None:
            self.refuse(reason, player, species)

    def refuse(self, reason: Reason, player: int | None = None, species: str | None = None) -> None:
        """Say why; for a placement, say where the species may go instead."""
        super().refuse(reason)
        if player is not None and species is not None and reason.code not in _NO_OTHER_PEN:
            self.say_legal(player, species)

    def say_legal(self, player: int, species: str) -> None:
        legal, _excluded = self.game.pen_choices(player, species)
        self.session.say("table.legal", player=self.game.players[player], species=species, pens=list(legal))

    def put_back_discards(self) -> None:
        """2-player variant, table mode: the figures put back in the box are not told to the program."""
        self.session.say("table.discard")
        for player in list(self.game.waiting_for()):
            self.play(Discard(player, None))

    # ----- applying actions
    def play(self, action: Any, accepted: str | None = None, **params: Any) -> Reason | None:
        """Apply a legal action and save at once; say `accepted`, then what changed at the table.

        Returns None when done, or the Reason the action is refused (nothing changes then)."""
        reason = self.game.check(action)
        if reason is not None:
            return reason
        before = self.snapshot()
        self.game.apply(action)
        self.redo_stack.clear()
        self.save()
        if accepted is not None:
            self.session.say(accepted, **params)
        self.announce_transition(before)
        return None

    def snapshot(self) -> tuple[int, int, int, str]:
        game = self.game
        return (game.round, game.turn, game.roller, game.phase)

    def announce_transition(self, before: tuple[int, int, int, str]) -> None:
        game = self.game
        round_before, turn_before, _roller, _phase = before
        if (game.round, game.turn) == (round_before, turn_before) and game.phase != "over":
            return
        self.asked = None
        say = self.session.say
        if game.phase == "over":
            say("table.game_over")
            return
        if game.round != round_before:
            say("table.round_end", round=round_before)
            say("table.round_start", round=game.round, rounds=game.rounds)
        else:
            say("table.swap_hands" if game.two_player else "table.pass_hands")
        say("table.die_goes_to", roller=game.players[game.roller])

    def actions_to_undo(self) -> int:
        """The last action, with the discards the table did not name after it: they come back together."""
        actions = self.game.actions
        count = 1
        while count < len(actions) and _unnamed_discard(actions[-count]):
            count += 1
        return count

    def undo(self) -> list[Any]:
        undone = super().undo()
        if undone:
            raise StateChanged()
        return undone

    def redo(self) -> list[Any]:
        before = self.snapshot()
        redone = super().redo()
        if not redone:
            return redone
        self.announce_transition(before)
        if isinstance(redone[0], Roll) and self.game.phase == "place":
            self.say_face()
        raise StateChanged()

    def read_back(self, answer: Answer) -> str | None:
        slots = answer.slots
        if answer.intent == "die" and "face" in slots:
            return self.session.text("table.read_back_die", face=slots["face"])
        if answer.intent == "place" and "species" in slots and "pen" in slots:
            player = self.player_index(slots.get("player"), default=self.asked)
            if player is not None:
                return self.session.text("table.read_back_place", player=self.game.players[player],
                                         species=slots["species"], pen=slots["pen"])
        return None

    def describe_action(self, action: Any) -> str:
        if isinstance(action, Place):
            return self.session.text("table.action_place", player=self.game.players[action.player],
                                     species=_id(action.species), pen=_id(action.pen))
        if isinstance(action, Roll):
            return self.session.text("table.action_roll", face=_id(action.face))
        return self.session.text("table.action_discard", player=self.game.players[action.player])

    # ----- queries, answered whatever the question was
    def query_zoo(self, slots: dict[str, Any]) -> None:
        player = self.player_index(slots.get("player"), default=self.asked)
        if player is None:
            player = self.game.roller
        pen = slots.get("pen")
        zoo = self.game.zoos[player]
        name = self.game.players[player]
        if pen is not None:
            self.session.say_text(self.describe_pen(name, pen, zoo.get(pen, [])))
            return
        parts = [self.describe_pen(name, pen_id, zoo.get(pen_id, [])) for pen_id in PENS if zoo.get(pen_id)]
        empty = [pen_id for pen_id in PENS if not zoo.get(pen_id)]
        if not parts:
            self.session.say("table.zoo_empty", player=name)
            return
        self.session.say("table.zoo", player=name, count=sum(len(v) for v in zoo.values()),
                         content=" ".join(parts), empty=self.session.catalog.join(
                             self.session.catalog.name("pens", p) for p in empty) or "-")

    def describe_pen(self, player: str, pen: str, species: list[str]) -> str:
        if not species:
            return self.session.text("table.pen_empty", player=player, pen=pen)
        names = [self.session.catalog.name("species", _id(s)) for s in species]
        return self.session.text("table.pen_content", pen=pen, count=len(species),
                                 content=self.session.catalog.join(names))

    def query_legal(self, slots: dict[str, Any]) -> None:
        player = self.player_index(slots.get("player"), default=self.asked)
        if player is None:
            player = self.game.waiting_for()[0] if self.game.waiting_for() else self.game.roller
        if slots.get("species") is None:
            self.session.say("table.which_species")
            return
        self.say_legal(player, slots["species"])

    def query_score(self, slots: dict[str, Any]) -> None:
        sheet = self.game.score()
        for entry in sheet.players:
            self.session.say_text(self.score_line(entry, final=False))

    def query_whose_turn(self, slots: dict[str, Any]) -> None:
        if self.game.phase == "roll":
            self.session.say("table.where_roll", round=self.game.round, turn=self.game.turn,
                             roller=self.game.players[self.game.roller])
        else:
            waiting = [self.game.players[i] for i in self.game.waiting_for()]
            self.session.say("table.waiting", names=self.session.catalog.join(waiting), face=self.face_id())

    def query_face_meaning(self, slots: dict[str, Any]) -> None:
        face = slots.get("face") or self.face_id()
        if face is None:
            self.session.say("table.no_face_yet")
            return
        self.session.say("table.face_meaning", face=face,
                         sticker=self.session.catalog.name("faces", face, "sticker"),
                         meaning=self.session.text(f"table.faces.{face}"))

    # ----- the end
    def announce_final_scores(self) -> None:
        sheet = self.game.score(self.ask_king_counts())
        for entry in sheet.players:
            self.session.say_text(self.score_line(entry, final=True))
        if self.game.tracks_everyone:
            self.session.say(f"reasons.{sheet.reason.code}", **sheet.reason.params)
        else:
            self.session.say("table.compare_totals")

    def ask_king_counts(self) -> dict[int, dict[str, int]]:
        """When only some zoos are followed: how many of each tracked King's species the others have."""
        if self.game.tracks_everyone:
            return {}
        kings = {self.game.zoos[p]["king_of_the_jungle"][0] for p in self.game.tracked
                 if self.game.zoos[p]["king_of_the_jungle"]}
        key = "table.ask_king_count_river" if self.game.options.river_counts_for_king else "table.ask_king_count"
        reported: dict[int, dict[str, int]] = {}
        for player in range(len(self.game.players)):
            if player in self.game.tracked:
                continue
            for species in sorted(kings):
                count = ask_number(self.session, self.session.text(key, player=self.game.players[player],
                                                                   species=species))
                reported.setdefault(player, {})[species] = count
        return reported

    def score_line(self, entry: Any, final: bool) -> str:
        """One player's score: in full (every pen, why, and the tactile code) at the end, else in brief."""
        say = self.session.catalog.say
        if final:
            parts = [say(f"reasons.{reason.code}", **reason.params) for reason in entry.details.values()]
        else:
            parts = [self.session.text("table.score_pen", pen=pen, points=points)
                     for pen, points in entry.pens.items() if points]
        if entry.trex_bonus:
            parts.append(self.session.text("table.score_trex", points=entry.trex_bonus))
        key = "table.score_final" if final else "table.score_so_far"
        return self.session.text(key, player=entry.name, total=entry.total, details=" ".join(parts),
                                 tactile=tactile_words(entry.total, self.session.lang))

    # ----- helpers
    def face_id(self) -> str | None:
        face = self.game.face
        return None if face is None else _id(face)

    def player_index(self, name: Any, default: int | None) -> int | None:
        """The player named, or given by index; `default` when none was said."""
        if name is None:
            return default
        if isinstance(name, int):
            return name if 0 <= name < len(self.game.players) else None
        return self.player_named(name)


def _id(value: Any) -> str:
    return value.value if hasattr(value, "value") else value


def _unnamed_discard(action: Any) -> bool:
    return isinstance(action, Discard) and action.species is None


def new_table(session: Session, args: Any, save_path: Path) -> DraftosaurusTable:
    """A new table from the command-line options, or from set-up questions when no players are given."""
    options = Options(trio_points=args.trio_points or Options().trio_points,
                      river_counts_for_island=args.river_counts_for_island,
                      river_counts_for_king=args.river_counts_for_king)
    if args.players:
        players = listed_names(args.players)
        setup = TableSetup(players, 0, options, _only_mine(players, getattr(args, "only_mine", None)))
    else:
        setup = ask_setup(session, free_text_names=names_can_be_typed(session))
    seed = table_seed(args)
    game = Game.new(setup.players, options=setup.options, mode="table", seed=seed,
                    first_roller=setup.first_roller, tracked=setup.tracked)
    table = DraftosaurusTable(session, game, TableSettings(die=args.die, seed=seed), save_path)
    table.save()
    return table


def _only_mine(players: list[str], name: str | None) -> list[int] | None:
    """The tracked list for --only-mine NAME (None: every zoo)."""
    if name is None:
        return None
    found = player_by_name(players, name.strip())
    if found is None:
        raise BadInput(f"--only-mine: '{name}' is not one of the players ({', '.join(players)})")
    return [found]


# ----- setting up a table by voice: players, who holds the die, rule options

@dataclass
class TableSetup:
    players: list[str] = field(default_factory=list)
    first_roller: int = 0
    options: Options = field(default_factory=Options)
    tracked: list[int] | None = None  # None: every zoo


def ask_setup(session: Session, *, free_text_names: bool) -> TableSetup:
    """Ask the questions of a new table. Names are asked only when a typed line can hold any name."""
    count = ask_choice(session, "setup.ask_count",
                       lambda said: isinstance(said, int) and MIN_PLAYERS <= said <= MAX_PLAYERS, "setup.bad_count")
    players = ask_names(session, count) if free_text_names else label_players(session, count)
    session.set_player_names(players)
    first_roller = ask_player(session, players, "setup.ask_roller")
    options = _ask_options(session)
    tracked = None if ask_yes(session, "setup.ask_tracking") else [ask_player(session, players, "setup.ask_me")]
    return TableSetup(players, first_roller, options, tracked)


def _ask_options(session: Session) -> Options:
    defaults = Options()
    if ask_yes(session, "setup.ask_default_rules", trio=defaults.trio_points):
        return defaults
    trio = ask_choice(session, "setup.ask_trio", lambda said: said in (6, 7), "setup.bad_trio")
    return Options(trio_points=trio,
                   river_counts_for_island=ask_yes(session, "setup.ask_river_island"),
                   river_counts_for_king=ask_yes(session, "setup.ask_river_king"))
