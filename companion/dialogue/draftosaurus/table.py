"""A game of Draftosaurus at a real table: the program walks round the players and keeps every zoo.

The players hold the board, the figures and the die; the program hears the die face and each placement,
checks it with the rules engine, saves after every accepted move and narrates the rest. On the winter board it
also asks where each Quarantine dinosaur goes before scoring; a summer/winter match plays both games in turn.
In solo play (`--solo`) the program deals and rolls, and bots play the other seats (see solo.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.dialogue.draftosaurus import solo, winter
from companion.dialogue.draftosaurus.match import Match, Played
from companion.dialogue.draftosaurus.new_game import DEFAULT_BOTS, boards, next_game, start_game, start_solo
from companion.dialogue.draftosaurus.queries import QUERIES
from companion.dialogue.draftosaurus.words import options_line
from companion.dialogue.session import Answer, QuitRequested, Session
from companion.dialogue.setup_questions import AGAIN, SETUP_STATE
from companion.dialogue.solo import Seats, solo_request
from companion.dialogue.turn import Act, BackInPlay, Done, Expected, Missing, Outcome, Question, Refused, Table
from companion.games.common import OVER, Reason, shared_places
from companion.games.draftosaurus.actions import Action, Discard, Place, QuarantineMove, Roll
from companion.games.draftosaurus.engine import DISCARD, PLACE, ROLL, Game
from companion.games.draftosaurus.ids import DIE_FACES, SPECIES
from companion.games.draftosaurus.scoring import ScoreSheet
from companion.games.draftosaurus.spec import SPEC
from companion.games.draftosaurus.winter_game import QUARANTINE_MOVES
from companion.games.draftosaurus.winter_scoring import right_neighbours
from companion.language.tactile import describe as tactile_words

# Refusals that another pen would not help: the pens are not listed after them.
_NO_OTHER_PEN = ("draft_bag_exhausted", "draft_already_placed", "draft_game_over", "draft_unknown_player",
                 "draft_quarantine_nothing", "draft_quarantine_pending")
# Refusals that list the pyramid's places: with one place left, said as one ("Seule place possible : …").
_PLACES_LISTED = ("draft_pyramid_which_position", "draft_pyramid_place_taken", "draft_pyramid_row_first",
                  "draft_pyramid_touching")
# The dialogue state of each question on the winter board, whose pens are heard in states of their own.
_WINTER_STATES = {"die": "winter_die", "turn": "winter_turn", "detail": "winter_detail"}


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


class DraftosaurusTable(Table[Game, Action]):
    """The table's questions: the die face (unless the program rolls), then each player's placement."""

    SPEC = SPEC
    QUERIES = QUERIES
    END_STATE = "detail"  # once the game is over, the detail may still be asked: "all", a player's name
    END_HELP = "draft.help.after_end"

    def __init__(self, session: Session, game: Game, save_path: Path, settings: TableSettings | None = None,
                 asked: int | None = None, match: Match | None = None, seats: Seats | None = None,
                 reported: dict[int, dict[str, int]] | None = None):
        self.settings = settings or TableSettings()
        self.match = match
        self.reported = reported  # what the zoos not followed told, once asked (kept in the save)
        super().__init__(session, game, save_path, asked=asked, seats=seats)

    def rule_options(self) -> dict[str, Any]:
        return self.game.options.to_json()

    @property
    def winter(self) -> bool:
        return self.game.winter_board is not None

    @classmethod
    def start(cls, session: Session, args: Any) -> dict[str, Any]:
        request = solo_request(args, session, DEFAULT_BOTS)
        if request is not None:
            game, seed, seats, chosen = start_solo(session, args, request)
            match = None if chosen.match is None else Match(chosen.match, winter_file=chosen.winter_file)
            return {"game": game, "settings": TableSettings(die="virtual", seed=seed), "seats": seats, "match": match}
        chosen = boards(args, session.lang)
        game, die, seed, seats = start_game(session, args, chosen.sides[0], chosen.winter_file)
        match = None if chosen.match is None else Match(chosen.match, winter_file=chosen.winter_file)
        return {"game": game, "settings": TableSettings(die=die, seed=seed), "match": match, "seats": seats}

    def seats_fit(self) -> bool:
        """A solo game is played in full mode."""
        return not self.seats.solo or self.game.mode == "full"

    def help_key(self, question: Question) -> str | None:
        """In solo the help of a placement speaks of the hand, the bots and advice, not of other players; when
        only one zoo is followed (--only-mine), of that zoo alone."""
        if question.state in ("turn", "winter_turn") and self.seats.solo:
            return self.key(f"help.solo_{question.state}")
        if question.state in ("turn", "winter_turn") and len(self.game.tracked) == 1 < len(self.game.players):
            return self.key(f"help.{question.state}_mine")
        return None

    def bot_choice(self, seat: int) -> Action:
        from companion.games.draftosaurus.bots import BOTS, bot_action

        return bot_action(self.game, seat, self.seats.bot(seat, BOTS, SPEC.title))

    # ----- persistence
    def save_content(self) -> dict[str, Any]:
        content = {"settings": self.settings.to_json(), **super().save_content()}
        if self.match is not None:
            content["match"] = self.match.to_json()
            content["finished"] = content["finished"] and self.match.next_side() is None
        if self.reported is not None:
            content["reported"] = {str(player): dict(counts) for player, counts in self.reported.items()}
        return content

    @classmethod
    def saved_parts(cls, content: dict[str, Any]) -> dict[str, Any]:
        parts = {**super().saved_parts(content), "settings": TableSettings.from_json(content.get("settings", {}))}
        if content.get("match") is not None:
            parts["match"] = Match.from_json(content["match"])
            parts["match"].check(parts["game"])
        if content.get("reported") is not None:
            parts["reported"] = reported_from_json(content["reported"], parts["game"])
        return parts

    # ----- the questions
    def state_of(self, state: str) -> str:
        """The dialogue state of a question on this board side."""
        return _WINTER_STATES.get(state, state) if self.winter else state

    def question(self) -> Question | Act[Action]:
        game = self.game
        if game.phase == ROLL:
            if game.mode == "full":  # solo: the game's own seeded die
                return Act(game.roll_die())
            if self.settings.die == "virtual":
                return Act(Roll(self.virtual_face()))
            return Question(self.key("ask_die"), self.state_of("die"), {"roller": game.players[game.roller]},
                            game.roller)
        if game.mode == "full" and (game.phase in (PLACE, DISCARD)
                                    or (self.seats.solo and game.phase == QUARANTINE_MOVES)):
            return solo.question(self)  # the program dealt: it says the hand, and plays the bots
        waiting = game.waiting_for()
        if game.phase == DISCARD:  # 2-player variant, table mode: the figures put back are not told to us
            return Act(Discard(waiting[0], None))
        if game.phase == QUARANTINE_MOVES:  # in seating order from the first player who has one
            return winter.quarantine_question(self, self.asked if self.asked in waiting else waiting[0])
        player = self.asked if self.asked in waiting else self.next_round_the_table(waiting)
        return Question(self.key("ask_place"), self.state_of("turn"), {"player": game.players[player]}, player)

    def next_round_the_table(self, waiting: list[int]) -> int:
        """The first of `waiting` going round the table from the player who rolled."""
        count = len(self.game.players)
        return min(waiting, key=lambda player: (player - self.game.roller) % count)

    def virtual_face(self) -> str:
        """The face of the virtual die: drawn from the game seed and the number of rolls so far."""
        rolls = sum(1 for action in self.game.actions if isinstance(action, Roll))
        return random.Random(f"{self.game.seed}:{rolls}").choice(DIE_FACES)

    def interpret(self, question: Question, answer: Answer) -> Outcome[Action]:
        if question.state in ("die", "winter_die"):
            return self.interpret_die(answer)
        if question.state == winter.QUARANTINE_STATE:
            return winter.interpret_quarantine(self, question, answer)
        if question.state == solo.DISCARD_STATE:
            return solo.interpret_discard(self, question, answer)
        return self.interpret_place(question, answer)

    def interpret_die(self, answer: Answer) -> Outcome[Action]:
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

    def interpret_place(self, question: Question, answer: Answer) -> Outcome[Action]:
        if answer.intent == "die":
            return Expected("die_already", {"face": self.face_id()})
        if answer.intent not in ("place", "winter_place", "player"):
            return Expected("expected_place")
        slots = answer.slots
        player = self.player_index(slots.get("player"), default=question.player)
        if player is None:
            return self.unknown_player(slots.get("player"))
        if self.seats.is_bot(player):
            return Expected("solo_bot_plays", {"player": self.game.players[player]})
        if player not in self.game.tracked:
            return Expected("not_followed", {"player": self.game.players[player],
                                             "followed": [self.game.players[p] for p in self.game.tracked]})
        if answer.intent == "player":  # a name alone: that player speaks now
            if player not in self.game.waiting_for():
                return Refused(Reason("draft_already_placed", {"player": self.game.players[player]}))
            self.asked = player
            return Done()
        name, species = self.game.players[player], slots.get("species")
        pen, position = winter.destination(slots)
        if self.game.mode == "full" and species is not None and species not in self.game.hand(player):
            return Expected("solo_not_in_hand", {"player": name, "species": species,
                                                 "hand": solo.hand_words(self, player)})
        if species is None:
            return Missing(Question(self.key("which_species"), question.state, {"player": name, "pen": pen}, player),
                           answer)
        if pen is None:
            pens = self.legal(player, str(species))
            key, choice = ("which_pen_one", {"pen": pens[0]}) if len(pens) == 1 else (
                "which_pen", {"pens": self.choice("pens", pens)})
            return Missing(Question(self.key(key), question.state, {"player": name, "species": species, **choice},
                                    player), answer)
        action = Place(player, str(species), pen, position)
        if not self.winter:
            return Act(action)
        return winter.complete(self, question, answer, action, self.legal(player, str(species)))

    def player_index(self, name: Any, default: int | None) -> int | None:
        """The player named; `default` when none was said."""
        return default if name is None else self.player_named(name)

    def legal(self, player: int, species: str) -> list[str]:
        return self.game.pen_choices(player, species)[0]

    # ----- after an action
    def moment(self) -> Moment:
        return Moment(self.game.round, self.game.turn, self.game.phase)

    def narrate(self, action: Action, before: Moment, events: Any, redone: bool = False) -> None:
        game, say = self.game, self.say
        logged = game.actions[-1]  # as the game took it: a pyramid place left out is filled in
        passed = (game.round, game.turn) != (before.round, before.turn)
        # 2-player variant: both have placed, so each puts one back in the box (a redo may go past it too)
        discarding = game.two_player and before.phase == PLACE and (game.phase != PLACE or passed)
        if isinstance(action, Roll):
            self.asked = None  # the placements go round the table from the player who rolled, asked first
            if passed:  # a redo that went on to the next turn's roll: the turn's end first
                if discarding:
                    say("discard")
                self.say_turn_passed(before)
            if self.settings.die == "virtual" and not redone:
                say("virtual_roll", roller=game.players[game.roller])
            self.say_face()
            return
        if isinstance(logged, Place):
            params = {"player": game.players[logged.player], "species": logged.species, "pen": logged.pen}
            if redone:
                pass
            elif logged.position is None:
                say(self.whose("accepted", logged.player), **params)
            else:
                say(self.whose("accepted_position", logged.player), **params, position=logged.position)
        elif isinstance(logged, Discard) and logged.species is not None and not redone:
            solo.narrate_discard(self, logged)
        elif isinstance(logged, QuarantineMove):
            say("quarantine_moved", player=game.players[logged.player], species=winter.moved_species(self, logged),
                destination=winter.destination_words(self, logged.pen, logged.position))
        if discarding:
            say("discard")
        if game.phase == OVER:  # with zoos not followed, the others may first be asked how many they hold
            say("game_over" if game.tracks_everyone else "game_over_partly_followed")
        elif game.phase == QUARANTINE_MOVES and before.phase != QUARANTINE_MOVES:
            say("quarantine_start", names=[game.players[player] for player in game.waiting_for()])
            self.asked = game.waiting_for()[0]  # the Quarantine's questions go round in seating order
        elif passed:
            self.say_turn_passed(before)

    def say_turn_passed(self, before: Moment) -> None:
        """The end of a turn: the hands passed (or, after the last turn, the next round dealt), the die's holder."""
        game, say = self.game, self.say
        if game.round != before.round:
            say("round_end", round=before.round)
            say("solo_round_start" if self.seats.solo else "round_start", round=game.round, rounds=game.rounds)
        elif self.seats.solo:
            say("solo_swap_hands" if game.two_player else "solo_pass_hands", giver=solo.giver(self))
        else:
            say("swap_hands" if game.two_player else "pass_hands")
        say("die_goes_to", roller=game.players[game.roller], turn=game.turn)

    def say_face(self) -> None:
        face = self.face_id()
        assert face is not None  # said once the die is rolled
        self.say(self.whose("face", self.game.roller), face=face,
                 sticker=self.session.catalog.name("faces", face, "sticker"), meaning=self.face_meaning(face),
                 roller=self.game.players[self.game.roller])

    def face_meaning(self, face: str) -> str:
        """What a die face allows on this board side."""
        return winter.face_meaning(self, face) if self.winter else self.text(f"faces.{face}")

    def allowed(self, action: Action, reason: Reason) -> None:
        if reason.code == "draft_bag_exhausted":  # the species still to play, and undo for a move misheard
            catalog = self.session.catalog
            left = [species for species, count in self.game.bag_remaining().items() if count > 0]
            self.say("bag_left", species=catalog.join(catalog.name("species", species) for species in left))
            return
        if reason.code in _NO_OTHER_PEN:
            return
        if isinstance(action, Place):  # a refused pyramid place has said the places already
            self.say_legal(action.player, action.species, places="positions" not in reason.params)
        elif isinstance(action, QuarantineMove) and action.player in self.game.waiting_for() and (
                self.session.verbosity != "full"):  # in full, the question asked again lists them
            winter.say_quarantine_choices(self, action.player)

    def reason_words(self, reason: Reason) -> str:
        positions = reason.params.get("positions")
        if reason.code in _PLACES_LISTED and isinstance(positions, list) and len(positions) == 1:
            return self.session.catalog.say(f"reasons.{reason.code}_one", **reason.params)
        return super().reason_words(reason)

    def say_legal(self, player: int, species: str, places: bool = True) -> None:
        """The pens `species` may go into for `player` now ("only the river" when one is left), and (winter) the
        pyramid's places."""
        pens, name = self.legal(player, species), self.game.players[player]
        if len(pens) == 1:
            self.say("legal_one", player=name, species=species, pen=pens[0])
        else:
            self.say("legal", player=name, species=species, pens=self.choice("pens", pens))
        if places and self.winter and "pyramid" in pens:
            positions = self.game.pyramid_positions(player, species)
            self.say("legal_pyramid_one" if len(positions) == 1 else "legal_pyramid", positions=positions)

    def choice(self, section: str, ids: list[str]) -> str:
        """The names of `ids` (pens, pyramid places...) as a choice: "a, b or c"."""
        catalog = self.session.catalog
        return catalog.join((catalog.name(section, item) for item in ids), "or")

    def automatic(self, action: Action) -> bool:
        """Played by the program, not said: the virtual die, the discards the table does not name, the bots'
        actions, the last card of a hand put back in solo."""
        return (isinstance(action, Discard) and action.species is None) or (
            isinstance(action, Roll) and self.settings.die == "virtual") or super().automatic(action) or (
            solo.forced_discard(self, action))

    def undo(self, answer: Answer, state: str) -> None:
        """After an undo, the die in force when it is no longer the die said last: in solo after any placement
        taken back, at a table after one that ended a turn (the die of that turn binds again)."""
        before = self.game
        turn = before.round, before.turn
        super().undo(answer, state)
        if self.game is before:
            return
        if self.seats.solo:
            solo.after_undo(self)
        elif (self.game.round, self.game.turn) != turn and self.game.face is not None and self.game.phase == PLACE:
            self.say_face()  # with the roller's freedom: the player asked next may be bound
            asked = self.question()
            if isinstance(asked, Question) and asked.player not in (None, self.game.roller):
                self.say("die_binds", player=self.game.players[asked.player])

    def prompt_again(self, question: Question, query: Answer) -> str | None:
        return solo.prompt_again(self, question, query)

    def describe(self, action: Action) -> str:
        if isinstance(action, Place):
            params = {"player": self.game.players[action.player], "species": action.species, "pen": action.pen}
            if action.position is None:
                return self.text("action_place", **params)
            return self.text("action_place_position", **params, position=action.position)
        if isinstance(action, Roll):
            return self.text("action_roll", face=action.face)
        if isinstance(action, QuarantineMove):
            return self.text("action_quarantine", player=self.game.players[action.player],
                             destination=winter.destination_words(self, action.pen, action.position))
        return self.text("action_discard", player=self.game.players[action.player])

    # ----- the start and the end
    def announce_start(self, resumed: bool) -> None:
        game, say = self.game, self.say
        if resumed:
            say("resumed", round=game.round, rounds=game.rounds, turn=game.turn)
            if self.match is not None:
                say(f"match_game_{game.board}")
            if game.phase == PLACE:
                self.say_face()
            return
        if self.match is not None and not self.match.played:
            say("match_welcome")
        say("welcome", count=len(game.players), names=list(game.players))
        if self.seats.solo:
            say("solo_welcome", player=game.players[0], bots=list(game.players[1:]),
                level=self.session.text(f"solo.levels.{self.seats.bots[1]}"))
        if game.two_player:
            say("two_player_variant")
        if self.winter:
            say("winter_board")
            if game.unconfirmed_values():
                say("winter_unconfirmed", board_values=list(game.unconfirmed_values()))
        else:
            self.session.say_text(options_line(game.options, self.session.catalog))
        if not game.tracks_everyone:
            say("tracking_mine", player=game.players[game.tracked[0]])
        say("solo_round_start" if self.seats.solo else "round_start", round=game.round, rounds=game.rounds)


    def run(self) -> None:
        """Play until the game is over, then, in a match, each following game."""
        while True:
            super().run()
            if self.match is None or not self.start_next_game():
                break

    def ask_after_the_end(self) -> bool:
        """In a match with a game still to play, a yes starts it; an undo takes back the last move as after any
        game, and a no or quit stops here (the match is saved between its games)."""
        side = None if self.match is None else self.match.next_side()
        if side is None:
            return super().ask_after_the_end()
        while True:
            answer = self.ask(Question(self.key(f"after_game_{side}"), f"confirm:{self.state_of('turn')}",
                                       help=self.key("help.after_game")))
            if answer is None:  # undo or redo: the game may have come back
                if self.game.phase != OVER:
                    return True
                continue
            if answer.intent in ("yes", "next"):
                return False
            if answer.intent in ("no", "stop", "quit"):
                raise QuitRequested()
            self.say("after_game_expected")

    def announce_final_scores(self) -> None:
        """The ranking first, in a few words (at the end of a match, the ranking by sum), and why the winner
        wins; then the question whether to hear the points pen by pen, of everyone or of one player."""
        sheet = self.final_sheet()
        match_over = self.match is not None and self.match.next_side() is None
        if match_over:
            self.announce_match_result()  # the winter game's own result comes with the detail
        elif self.game.tracks_everyone:
            self.say("ranking", ranking=self.ranking([(entry.name, entry.total, entry.trex_count)
                                                      for entry in sheet.players]))
            self.session.say(f"reasons.{sheet.reason.code}", **sheet.reason.params)
        if not self.game.tracks_everyone:
            for entry in sheet.players:
                self.say("final_total", player=entry.name, total=entry.total)
            self.say("compare_totals")
        self.ask_detail(sheet, match_over)

    def ask_detail(self, sheet: ScoreSheet, match_over: bool) -> None:
        """Whether to hear the points pen by pen: of everyone (yes, "all"), of one player (a name), or not; an
        undo said instead takes the game back into play (BackInPlay)."""
        question = Question(self.key("ask_detail"), self.state_of("detail"), help=self.key("help.detail"))
        while True:
            answer = self.ask(question)
            if answer is None:
                if self.game.phase != OVER:
                    raise BackInPlay()
                continue
            if answer.intent in ("no", "stop", "next"):
                return
            entries = sheet.players if answer.intent == "yes" else self.detail_asked(sheet, answer)
            if entries:
                self.say_details(sheet, entries, match_over)
                return
            if entries is None:
                self.session.earcon("not_understood")
                self.say("detail_expected")

    def detail_asked(self, sheet: ScoreSheet, answer: Answer) -> list[Any] | None:
        """The entries whose detail `answer` asks for: everyone's ("all"), one player's (a name); none when a
        zoo not followed is named (that is said), None when it asks for no detail."""
        if answer.intent == "everyone":
            return list(sheet.players)
        if answer.intent != "player":
            return None
        named = self.player_named(answer.slots.get("player"))
        if named is None:
            return None
        entries = [entry for entry in sheet.players if entry.name == self.game.players[named]]
        if not entries:
            self.say("not_followed", player=self.game.players[named],
                     followed=[self.game.players[p] for p in self.game.tracked])
        return entries

    def answer_after_the_end(self, answer: Answer) -> bool:
        """After the end, "all" or a name still gives the points in detail."""
        sheet = self.final_sheet()
        entries = self.detail_asked(sheet, answer)
        if entries:
            self.say_details(sheet, entries, self.match is not None and self.match.next_side() is None)
        return entries is not None

    def say_details(self, sheet: ScoreSheet, entries: list[Any], match_over: bool) -> None:
        """Each entry's points pen by pen, why, and the tactile code; at the end of a match, who won its last
        game and each entry's games."""
        for entry in entries:
            self.session.say_text(self.score_line(entry, final=True))
        if match_over:
            if self.game.tracks_everyone and len(entries) > 1:
                self.session.say(f"reasons.{sheet.reason.code}", **sheet.reason.params)
            self.say_match_totals([entry.name for entry in entries])

    def finished(self) -> bool:
        """Over with no game of the match left to play."""
        return super().finished() and (self.match is None or self.match.next_side() is None)

    def back_in_play(self) -> None:
        if self.reported is not None:
            self.reported = None  # the followed zoos may change before the end comes again
            self.save()

    def final_sheet(self) -> ScoreSheet:
        return self.game.score(self.reported_counts())

    def ranking(self, totals: list[tuple[str, int, int]]) -> str:
        """Every player (name, total, tie-break: fewer T-Rex) from first to last ("1. Alice, 34 points ; 2. …");
        tied players share a place."""
        ordered = sorted(totals, key=lambda entry: (-entry[1], entry[2]))
        places = shared_places([(total, trex) for _, total, trex in ordered])
        return self.session.catalog.say("list.clauses").join(
            self.text("rank_item", place=place, player=name, total=total)
            for place, (name, total, _) in zip(places, ordered, strict=True))

    def reported_counts(self) -> dict[int, dict[str, int]]:
        """When only some zoos are followed: what the others told of their zoos, asked once (summer: how many
        of each followed King's species; winter: how many of each followed Lookout's species)."""
        game = self.game
        if game.tracks_everyone:
            return {}
        if self.reported is None:
            self.reported = self.ask_lookout_counts() if self.winter else self.ask_king_counts()
            self.save()  # a resumed game does not ask them again
        return self.reported

    def ask_king_counts(self) -> dict[int, dict[str, int]]:
        game = self.game
        kings = {str(game.zoos[p]["king_of_the_jungle"][0]) for p in game.tracked
                 if game.zoos[p]["king_of_the_jungle"]}
        key = "ask_king_count_river" if game.options.river_counts_for_king else "ask_king_count"
        return self.ask_counts({player: sorted(kings) for player in range(len(game.players))
                                if player not in game.tracked}, key)

    def ask_lookout_counts(self) -> dict[int, dict[str, int]]:
        """Each followed Lookout (or, while its Quarantine dinosaur may still go there, that species) looks at
        the pens of the player on its owner's right: an unfollowed one says how many they hold."""
        game = self.game
        wanted: dict[int, set[str]] = {}
        seats = list(range(len(game.players)))
        neighbours = right_neighbours(seats, [[]] * len(seats))  # the seats as names: each seat's neighbour
        for player in game.tracked:
            zoo, neighbour = game.zoos[player], neighbours[player]
            species = zoo["lookout"] or (zoo["quarantine"] if game.phase == QUARANTINE_MOVES else [])
            if neighbour is not None and neighbour.name not in game.tracked and species:
                wanted.setdefault(int(neighbour.name), set()).add(str(species[0]))
        return self.ask_counts({player: sorted(kinds) for player, kinds in wanted.items()}, "ask_lookout_count")

    def ask_counts(self, wanted: dict[int, list[str]], key: str) -> dict[int, dict[str, int]]:
        """How many of each species each player of `wanted` holds, asked in turn; an undo said instead takes
        back the last move, and the game goes on (BackInPlay)."""
        reported: dict[int, dict[str, int]] = {}
        for player, kinds in sorted(wanted.items()):
            for species in kinds:
                question = Question(self.key(key), SETUP_STATE, {"player": self.game.players[player],
                                                                 "species": species}, help="help.number")
                why = None
                while True:
                    answer = self.ask(question, why=why)
                    if answer is None and self.game.phase != OVER:
                        raise BackInPlay()
                    if answer is not None and isinstance(answer.slots.get("number"), int):
                        reported.setdefault(player, {})[species] = int(answer.slots["number"])
                        break
                    why = None if answer is None else AGAIN  # said once with the question, not said twice
        return reported

    # ----- a match: the next game, and the sum at the end
    def start_next_game(self) -> bool:
        """After a game of a match, the next one, saved at once and announced; False after the last game."""
        match = self.match
        assert match is not None
        side = match.next_side()
        if side is None:
            return False
        totals = {entry.name: entry.total for entry in self.final_sheet().players}
        self.say(f"match_next_{side}")
        game = next_game(self.session, self.game, side, match.winter_file)
        match.played.append(Played(self.game, totals))
        self.game, self.asked, self.reported = game, None, None
        self.redo_stack.clear()
        self.save()
        self.announce_start(resumed=False)
        return True

    def announce_match_result(self) -> None:
        """The ranking by the sum of each player's totals (equal sums share a place), who wins the match and by
        how much, then the last game's own ranking."""
        sums = self.match_sums()
        if self.game.tracks_everyone:
            self.say("match_ranking", ranking=self.ranking([(name, total, 0) for name, total in sums.items()]))
            ordered = sorted(sums.values(), reverse=True)
            winners = [name for name, total in sums.items() if total == ordered[0]]
            if len(winners) > 1:
                self.say("match_win_shared", winners=winners, points=ordered[0])
            elif len(ordered) > 1:
                self.say("match_win", winners=winners, points=ordered[0], margin=ordered[0] - ordered[1])
            side = self.match.sides[len(self.match.played)] if self.match is not None else self.game.board
            self.say(f"match_game_ranking.{side}", ranking=self.ranking(
                [(entry.name, entry.total, entry.trex_count) for entry in self.final_sheet().players]))

    def match_sums(self) -> dict[str, int]:
        """Each followed player's match total so far: the games played and the current one as it stands."""
        match = self.match
        assert match is not None
        return match.sums(self.current_totals())

    def current_totals(self) -> dict[str, int]:
        """Each followed player's total in the current game: final once it is over, else as it stands."""
        sheet = self.final_sheet() if self.game.phase == OVER else self.game.score()
        return {entry.name: entry.total for entry in sheet.players}

    def say_match_totals(self, names: list[str]) -> None:
        """Each of `names`' totals, game by game (the current one as it stands), and their sum."""
        match = self.match
        assert match is not None
        current, over = self.current_totals(), self.game.phase == OVER
        sums = match.sums(current)
        for name in names:
            games = [self.text(f"match_games.{side}", points=played.totals.get(name, 0))
                     for side, played in zip(match.sides, match.played, strict=False)]
            side = match.sides[len(match.played)]
            games.append(self.text(f"match_games{'' if over else '_so_far'}.{side}", points=current.get(name, 0)))
            if len(games) == 1:
                self.say("match_player_one", player=name, games=games[0])
            else:
                self.say("match_player", player=name, games=self.session.catalog.join(games), sum=sums.get(name, 0))

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


def reported_from_json(data: Any, game: Game) -> dict[int, dict[str, int]]:
    """What the players whose zoos are not followed told, as a save holds it; ValueError when malformed."""
    if not isinstance(data, dict):
        raise ValueError("the counts told are kept by player")  # ValueError: a corrupt save (CORRUPT_SAVE_ERRORS)
    reported: dict[int, dict[str, int]] = {}
    for player, counts in data.items():
        seat = int(player)
        if not 0 <= seat < len(game.players) or seat in game.tracked or not isinstance(counts, dict) or any(
                species not in SPECIES or type(count) is not int or count < 0 for species, count in counts.items()):
            raise ValueError(f"counts told by player {player!r}")
        reported[seat] = dict(counts)
    return reported
