"""The Draftosaurus rules engine (summer and winter boards, 2 to 5 players, the 2-player variant): pure and
deterministic.

Two ways to drive it. In table mode the engine does not know the hands: players say what they place, and
the engine checks it against the rules and against what the bag can still hold. In full mode the engine
deals the hands from a bag shuffled with the game's seed (solo play, simulation).

A game is a setup (players, options, mode, seed, first roller, board side) plus a log of actions; `to_json`
stores both, and loading a game replays the log, so a saved game can only hold a reachable state.

On the winter board the setup also holds the board's printed values (a WinterBoard), and the game ends with
the Quarantine phase: each tracked player whose Quarantine holds a dinosaur moves it (QuarantineMove).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from companion.errors import BadInput, RuleViolation
from companion.games.common import (
    OVER,
    LoggedGame,
    Reason,
    ReplayRefused,  # noqa: F401 - what a replay raises, caught by callers of this module
    game_seed,
    same_name,
    setup_arguments,
)
from companion.games.draftosaurus import spec
from companion.games.draftosaurus.actions import Action, Discard, Place, QuarantineMove, Roll, action_from_json
from companion.games.draftosaurus.board import (
    BAG_PER_SPECIES,
    FACE_INDEX,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NO_FACE,
    SPECIES_INDEX,
    SUMMER_RULES,
    SummerRules,
    rounds_and_turns,
    unknown_id,
)
from companion.games.draftosaurus.ids import DIE_FACES, PYRAMID_POSITIONS, SPECIES, DieFace
from companion.games.draftosaurus.options import Options
from companion.games.draftosaurus.scoring import ScoreSheet, score_indexed
from companion.games.draftosaurus.winter import POSITION_INDEX, PYRAMID, WinterRules
from companion.games.draftosaurus.winter_board import WinterBoard
from companion.games.draftosaurus.winter_game import QUARANTINE_MOVES, WinterGame, winter_board_for

MODES = ("table", "full")
# The phases: the die is awaited, then the placements, then (2-player variant) the discards; on the winter
# board the Quarantine moves after the last turn; OVER at the end.
ROLL, PLACE, DISCARD = "roll", "place", "discard"
_ROUND_SEEDS = 16  # a round's random stream is seeded with seed * _ROUND_SEEDS + round
_SETUP_FIELDS = ("players", "options", "mode", "seed", "first_roller", "tracked", "board", "winter_board")


class Game(WinterGame, LoggedGame):
    """One game in progress. Read its state through the properties; change it only with apply()."""

    SPEC = spec.SPEC
    SAVE_INCONSISTENT = Reason("draft_save_inconsistent")
    SAVE_INCONSISTENT_MESSAGE = "the saved state does not match its actions"
    action_from_json = staticmethod(action_from_json)

    def __init__(self, players: Sequence[str], options: Options, mode: str, seed: int, first_roller: int,
                 tracked: Sequence[int] | None = None, winter_board: WinterBoard | None = None):
        """Use Game.new(), which checks its arguments. A winter_board plays the winter side of the boards."""
        self.players: tuple[str, ...] = tuple(players)
        self.winter_board = winter_board
        self._rules: SummerRules | WinterRules = SUMMER_RULES if winter_board is None else WinterRules(winter_board)
        self.board: str = self._rules.kind
        self._pyramid = -1 if winter_board is None else PYRAMID  # the pen whose places are chosen
        # The players whose zoos the game follows; the others play at the table unseen (table mode).
        self.tracked: tuple[int, ...] = tuple(range(len(players))) if tracked is None else tuple(sorted(tracked))
        self.options = options
        self.mode = mode
        self.seed = seed
        self.first_roller = first_roller
        self.actions: list[Action] = []  # every applied action, in order (read only)
        count = len(players)
        self.two_player = count == 2
        self.rounds, self.turns_per_round = rounds_and_turns(count)
        self._bag_size = BAG_PER_SPECIES[count]
        self._round = 0
        self._turn = 0
        self._roller = first_roller
        self._phase = ROLL
        self._face = NO_FACE
        self._zoos = [self._rules.empty_zoo() for _ in players]
        self._done = [False] * count  # who has placed (or discarded) in the current phase
        self._waiting = 0
        self._out = [0] * len(SPECIES)  # placed or discarded (known species), per species
        self._unknown_discards = 0
        self._bag = [self._bag_size] * len(SPECIES) if mode == "full" else None  # not yet dealt
        self._hands: list[list[int]] | None = [[] for _ in players] if mode == "full" else None
        self._dice: list[int] = []
        self._start_round()

    @classmethod
    def new(cls, players: Sequence[str], *, options: Options = Options(), mode: str = "table",
            seed: int | None = None, first_roller: int = 0, tracked: Sequence[int] | None = None,
            board: str = "summer", winter_board: WinterBoard | dict[str, Any] | None = None) -> Game:
        """A new game; 2 players play the 2-player variant. Without a seed one is drawn (and kept).

        `tracked` (table mode) lists the players whose zoos are followed; the others place unseen, and
        only the tracked players are waited for. `board` is the side of the zoo boards, summer or winter;
        on winter, `winter_board` gives the values printed on the board (default: the shipped file, whose
        values are unconfirmed)."""
        names = list(players)
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise RuleViolation(f"Draftosaurus is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(names)}",
                                Reason("draft_player_count", {"count": len(names), "least": MIN_PLAYERS,
                                                        "most": MAX_PLAYERS}))
        for index, name in enumerate(names):
            if not isinstance(name, str) or not name.strip():
                raise BadInput(f"player {index + 1} needs a name")
            if any(same_name(name, other) for other in names[:index]):
                raise RuleViolation(f"two players are called {name}",
                                    Reason("draft_duplicate_player", {"player": name}))
        if mode not in MODES:
            raise BadInput(f"unknown mode '{mode}': choose table or full")
        if type(first_roller) is not int or not 0 <= first_roller < len(names):
            raise BadInput(f"first_roller must be a player index from 0 to {len(names) - 1}")
        seed = game_seed(seed)
        if not isinstance(options, Options):
            raise BadInput("options must be an Options value")
        if tracked is not None:
            tracked = list(tracked)
            if not tracked or any(type(p) is not int or not 0 <= p < len(names) for p in tracked):
                raise BadInput(f"tracked players must be indices from 0 to {len(names) - 1}")
            if mode != "table" and len(set(tracked)) != len(names):
                raise BadInput("only table mode can leave players untracked")
        return cls(names, options, mode, seed, first_roller, tracked, winter_board_for(board, winter_board))

    # ---- what the dialogue reads -------------------------------------------------------------------------

    @property
    def round(self) -> int:
        """The current round, from 1."""
        return self._round + 1

    @property
    def turn(self) -> int:
        """The current turn within the round, from 1."""
        return self._turn + 1

    @property
    def roller(self) -> int:
        """Index of the player who holds (or rolled) the die this turn."""
        return self._roller

    @property
    def face(self) -> DieFace | None:
        """The face rolled this turn, None before the roll."""
        return DieFace(DIE_FACES[self._face]) if self._face >= 0 else None

    @property
    def rules(self) -> SummerRules | WinterRules:
        """The placement rules of this game's board side."""
        return self._rules

    @property
    def pens(self) -> tuple[str, ...]:
        """The pen ids of this game's board side (the river last)."""
        return self._rules.pens

    @property
    def zoos(self) -> list[dict[str, list[str | None]]]:
        """Per player: pen id -> species ids from left to right (every pen, the river included). On the winter
        board the pyramid is listed place by place (bottom row left to right, middle, top), None for an empty
        place, the empty places at the end left out."""
        return [self._rules.zoo_to_ids(zoo) for zoo in self._zoos]

    def unconfirmed_values(self) -> tuple[str, ...]:
        """The winter board's values (winter_board.VALUE_KEYS) that no table has confirmed; () on summer."""
        return () if self.winter_board is None else self.winter_board.unconfirmed()

    @property
    def hands(self) -> list[list[str]] | None:
        """Per player, the species in hand (full mode only; None in table mode)."""
        return None if self._hands is None else [[SPECIES[s] for s in hand] for hand in self._hands]

    def hand(self, player: int) -> list[str]:
        """The species in one player's hand (full mode)."""
        if self._hands is None:
            raise BadInput("the hands are only known in full mode")
        return [SPECIES[s] for s in self._hands[player]]

    def bound_by_die(self, player: int) -> bool:
        """Whether this turn's roll binds `player` (everyone but the roller, once the die is rolled)."""
        return self._face >= 0 and player != self._roller

    def waiting_for(self) -> list[int]:
        """Indices of the players the game waits for: the roller, or those who still place (or discard, or
        move their Quarantine dinosaur)."""
        if self._phase == ROLL:
            return [self._roller]
        if self._phase == OVER:
            return []
        return [player for player, done in enumerate(self._done) if not done]

    def bag_remaining(self) -> dict[str, int]:
        """Per species, how many the bag and the hands can still provide (known discards taken out)."""
        return {SPECIES[s]: self._bag_size - out for s, out in enumerate(self._out)}

    def roll_die(self) -> Roll:
        """This turn's roll from the game's seeded die (for solo play and simulation; the table rolls its own)."""
        return Roll(DIE_FACES[self._dice[self._turn]])

    def save_labels(self) -> dict[str, Any]:
        return {"board": self.board}

    def setup_json(self) -> dict[str, Any]:
        """What Game.new needs to start this game again."""
        setup = {"players": list(self.players), "options": self.options.to_json(), "mode": self.mode,
                 "seed": self.seed, "first_roller": self.first_roller}
        if len(self.tracked) != len(self.players):
            setup["tracked"] = list(self.tracked)
        if self.winter_board is not None:
            setup["board"] = self.board
            setup["winter_board"] = self.winter_board.to_json()
        return setup

    # ---- rules -----------------------------------------------------------------------------------------

    def refusal(self, action: Action) -> Reason | None:
        """None if `action` is legal now, else the Reason it is refused."""
        match action:
            case Place():
                return self._check_place(action)
            case Roll():
                return self._check_roll(action)
            case Discard():
                return self._check_discard(action)
            case QuarantineMove():
                return self._check_quarantine_move(action)
        return Reason("draft_unknown_action", {"value": repr(action)})

    def play(self, action: Action) -> None:
        """Play a legal `action`.

        When the last player of a turn has placed (and discarded), the turn ends by itself: hands and die
        pass to the left, then the next turn, round or the end of the game. A pyramid placement (or
        Quarantine move) that left out the only place it could take is logged with that place.
        """
        if self._pyramid >= 0 and isinstance(action, (Place, QuarantineMove)):
            action = self._with_place(action)
        match action:
            case Place():
                self._place(action.player, SPECIES_INDEX[action.species], self._rules.pen_index[action.pen],
                            None if action.position is None else POSITION_INDEX[action.position])
            case QuarantineMove():
                self._move_out_of_quarantine(action)
            case Roll():
                self._face = FACE_INDEX[action.face]
                self._phase = PLACE
                self._start_phase()
            case Discard():
                self._discard(action.player, None if action.species is None else SPECIES_INDEX[action.species])
        self.actions.append(action)

    def pen_choices(self, player: int, species: str, face: str | None = None) -> tuple[list[str], dict[str, Reason]]:
        """Where `player` may put `species`: the legal pens (the river always) and, for each other pen, why not.

        `face` is the die to obey (default: this turn's roll); the player who rolled obeys no die.
        """
        zoo, species_index, face_index = self._choice_inputs(player, species, face)
        rules = self._rules
        legal: list[str] = []
        excluded: dict[str, Reason] = {}
        for pen, blocker in enumerate(rules.pen_blockers(zoo, species_index, face_index, range(len(rules.pens)))):
            if blocker is None:
                legal.append(rules.pens[pen])
            else:
                excluded[rules.pens[pen]] = rules.placement_reason(blocker, zoo, pen, species_index, face_index)
        return legal, excluded

    def legal_pens(self, player: int, species: str, face: str | None = None) -> list[str]:
        """Only the legal pens of pen_choices (cheaper)."""
        zoo, species_index, face_index = self._choice_inputs(player, species, face)
        pens = self._rules.pens
        return [pens[pen] for pen in self._rules.legal_pens(zoo, species_index, face_index)]

    def legal_actions(self, player: int | None = None) -> list[Action]:
        """Every legal action now (of one player if given). Species come from the hand in full mode,
        from what the bag can still provide in table mode."""
        if self._phase == ROLL:
            return [Roll(face) for face in DIE_FACES]
        players = self.waiting_for() if player is None else [p for p in self.waiting_for() if p == player]
        found: list[Action] = []
        for who in players:
            if self._phase == QUARANTINE_MOVES:
                found.extend(QuarantineMove(who, pen, position) for pen, position in self.quarantine_destinations(who))
                continue
            for species in self._available_species(who):
                if self._phase == PLACE:
                    found.extend(self._placements(who, species))
                else:
                    found.append(Discard(who, species))
        return found

    def _placements(self, player: int, species: str) -> list[Place]:
        """Every legal Place of `species` by `player`, one per pyramid place."""
        found: list[Place] = []
        for pen in self.legal_pens(player, species):
            if self.winter_board is not None and pen == "pyramid":
                found.extend(Place(player, species, pen, position)
                             for position in self.pyramid_positions(player, species))
            else:
                found.append(Place(player, species, pen))
        return found

    @property
    def tracks_everyone(self) -> bool:
        return len(self.tracked) == len(self.players)

    def score(self, reported: dict[int, dict[str, int]] | None = None) -> ScoreSheet:
        """The score of the tracked zoos as they stand (final once the phase is "over").

        When some zoos are not tracked, `reported` gives, per untracked player, the species counts they
        told (what the King of the Jungle is compared with; on the winter board, what the Lookout of the
        player on their left counts: their pens, not their river); the sheet then holds the tracked zoos only."""
        if self.winter_board is not None:
            return self._winter_score(reported)
        if self.tracks_everyone:
            return score_indexed(self._zoos, self.players, self.options)
        reported = reported or {}
        rivals = [(self.players[p], [reported.get(p, {}).get(species, 0) for species in SPECIES])
                  for p in range(len(self.players)) if p not in self.tracked]
        return score_indexed([self._zoos[p] for p in self.tracked], [self.players[p] for p in self.tracked],
                             self.options, rivals)

    # ---- copies and saves --------------------------------------------------------------------------------

    @classmethod
    def from_setup(cls, setup: Any) -> Game:
        arguments = setup_arguments(setup, _SETUP_FIELDS)
        arguments["options"] = Options.from_json(setup.get("options"))
        return cls.new(**arguments)

    def _copy_state(self, twin: Game) -> None:
        twin._zoos = [[list(content) for content in zoo] for zoo in self._zoos]
        twin._done = list(self._done)
        twin._out = list(self._out)
        twin._bag = None if self._bag is None else list(self._bag)
        twin._hands = None if self._hands is None else [list(hand) for hand in self._hands]
        twin._dice = list(self._dice)

    def snapshot(self) -> dict[str, Any]:
        """The state as plain data."""
        return {"round": self.round, "turn": self.turn, "phase": self._phase, "roller": self._roller,
                "face": None if self._face < 0 else DIE_FACES[self._face], "waiting_for": self.waiting_for(),
                "zoos": self.zoos, "hands": self.hands, "bag_remaining": self.bag_remaining(),
                "unknown_discards": self._unknown_discards}

    # ---- inside ------------------------------------------------------------------------------------------

    def _start_round(self) -> None:
        """The round's die rolls are drawn first, then (full mode) each player draws a hand of six."""
        stream = random.Random(self.seed * _ROUND_SEEDS + self._round)
        self._dice = [stream.randrange(len(DIE_FACES)) for _ in range(self.turns_per_round)]
        if self._bag is not None and self._hands is not None:
            bag = [species for species, count in enumerate(self._bag) for _ in range(count)]
            drawn = stream.sample(bag, HAND_SIZE * len(self.players))
            for player in range(len(self.players)):
                hand = drawn[player * HAND_SIZE:(player + 1) * HAND_SIZE]
                self._hands[player] = hand
                for species in hand:
                    self._bag[species] -= 1

    def _start_phase(self) -> None:
        self._done = [player not in self.tracked for player in range(len(self.players))]
        self._waiting = len(self.tracked)

    def _phase_refusal(self, player: Any, expected: str) -> Reason | None:
        """Why `player` cannot act in phase `expected` now (wrong phase, unknown, already done), or None."""
        if self._phase == OVER:
            return Reason("draft_game_over")
        if type(player) is not int or not 0 <= player < len(self.players):
            return Reason("draft_unknown_player", {"value": str(player)})
        if self._phase == QUARANTINE_MOVES:
            return self._quarantine_pending()
        name = self.players[player]
        if self._phase == ROLL:
            return Reason("draft_die_not_rolled", {"player": name})
        if self._phase != expected and expected == DISCARD:
            return Reason("draft_place_first", {"player": name})
        if self._phase != expected or self._done[player]:
            return Reason("draft_already_placed" if expected == PLACE else "draft_already_discarded", {"player": name})
        return None

    def _check_roll(self, action: Roll) -> Reason | None:
        if action.face not in FACE_INDEX:
            return unknown_id("draft_unknown_face", action.face, DIE_FACES)
        if self._phase == OVER:
            return Reason("draft_game_over")
        if self._phase == QUARANTINE_MOVES:
            return self._quarantine_pending()
        if self._phase != ROLL:
            return Reason("draft_die_already_rolled", {"face": DIE_FACES[self._face]})
        return None

    def _quarantine_pending(self) -> Reason:
        return Reason("draft_quarantine_pending", {"players": [self.players[p] for p in self.waiting_for()]})

    def _check_place(self, action: Place) -> Reason | None:
        species = SPECIES_INDEX.get(action.species)
        if species is None:
            return unknown_id("draft_unknown_species", action.species, SPECIES)
        pen = self._rules.pen_index.get(action.pen)
        if pen is None or action.position is not None:
            refusal = self._destination_refusal(action.pen, action.position)
            if refusal:
                return refusal
        refusal = self._phase_refusal(action.player, PLACE) or self._supply_refusal(action.player, species)
        if refusal:
            return refusal
        face = NO_FACE if action.player == self._roller else self._face
        # pen is not None here: _destination_refusal refused an unknown pen
        return self._pen_refusal(self._zoos[action.player], pen, species, face, action.position)  # type: ignore[arg-type]

    def _destination_refusal(self, pen: Any, position: Any) -> Reason | None:
        """Why a pen id (and pyramid place) named in an action is not one of this board, or None."""
        if pen not in self._rules.pen_index:
            return unknown_id("draft_unknown_pen", pen, self._rules.pens)
        if position is not None and (self.winter_board is None or pen != "pyramid"):
            return Reason("draft_position_not_pyramid", {"pen": pen})
        if position is not None and position not in POSITION_INDEX:
            return Reason("draft_unknown_position", {"value": str(position), "positions": list(PYRAMID_POSITIONS)})
        return None

    def _pen_refusal(self, zoo: list[list[int]], pen: int, species: int, face: int, position: str | None
                     ) -> Reason | None:
        """Why `species` may not go into `pen` (at pyramid place `position`) under die `face`, or None."""
        blocker = self._rules.pen_blockers(zoo, species, face, (pen,))[0]
        if blocker is not None:
            return self._rules.placement_reason(blocker, zoo, pen, species, face)
        if pen == self._pyramid:
            return self._winter_rules().position_refusal(zoo, species, None if position is None
                                                         else POSITION_INDEX[position])
        return None

    def _check_discard(self, action: Discard) -> Reason | None:
        if not self.two_player:
            return Reason("draft_no_discard")
        species = None if action.species is None else SPECIES_INDEX.get(action.species)
        if action.species is not None and species is None:
            return unknown_id("draft_unknown_species", action.species, SPECIES)
        refusal = self._phase_refusal(action.player, DISCARD)
        if refusal:
            return refusal
        if species is None:
            if self._hands is not None:
                return Reason("draft_discard_needs_species", {"player": self.players[action.player]})
            return None
        return self._supply_refusal(action.player, species)

    def _supply_refusal(self, player: int, species: int) -> Reason | None:
        """Full mode: the species must be in the player's hand. Table mode: the bag must still hold one."""
        if self._hands is not None:
            if species not in self._hands[player]:
                return Reason("draft_not_in_hand", {"player": self.players[player], "species": SPECIES[species]})
        elif self._out[species] >= self._bag_size:
            return Reason("draft_bag_exhausted", {"species": SPECIES[species], "limit": self._bag_size})
        return None

    def _choice_inputs(self, player: int, species: str, face: str | None) -> tuple[list[list[int]], int, int]:
        if type(player) is not int or not 0 <= player < len(self.players):
            raise RuleViolation(f"no player {player}", Reason("draft_unknown_player", {"value": str(player)}))
        if species not in SPECIES_INDEX:
            raise RuleViolation(f"unknown species {species}", unknown_id("draft_unknown_species", species, SPECIES))
        if face is not None and face not in FACE_INDEX:
            raise RuleViolation(f"unknown die face {face}", unknown_id("draft_unknown_face", face, DIE_FACES))
        face_index = self._face if face is None else FACE_INDEX[face]
        return self._zoos[player], SPECIES_INDEX[species], NO_FACE if player == self._roller else face_index

    def _available_species(self, player: int) -> list[str]:
        if self._hands is not None:
            return [SPECIES[s] for s in sorted(set(self._hands[player]))]
        return [SPECIES[s] for s, out in enumerate(self._out) if out < self._bag_size]

    def _place(self, player: int, species: int, pen: int, position: int | None) -> None:
        self._rules.put(self._zoos[player], pen, species, position)
        self._out[species] += 1
        if self._hands is not None:
            self._hands[player].remove(species)
        self._mark_done(player)

    def _discard(self, player: int, species: int | None) -> None:
        if species is None:
            self._unknown_discards += 1
        else:
            self._out[species] += 1
            if self._hands is not None:
                self._hands[player].remove(species)
        self._mark_done(player)

    def _mark_done(self, player: int) -> None:
        self._done[player] = True
        self._waiting -= 1
        if self._waiting:
            return
        if self._phase == QUARANTINE_MOVES:
            self._phase = OVER
        elif self._phase == PLACE and self.two_player:
            self._phase = DISCARD
            self._start_phase()
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        """Hands and die pass to the left (each player gets the hand of the one before in the list)."""
        if self._hands is not None:
            self._hands = [self._hands[-1], *self._hands[:-1]]
        self._roller = (self._roller + 1) % len(self.players)
        self._face = NO_FACE
        self._turn += 1
        self._phase = ROLL
        if self._turn < self.turns_per_round:
            return
        if self._round + 1 == self.rounds:
            self._turn -= 1
            self._phase = OVER
            self._start_quarantine_moves()
            return
        self._round += 1
        self._turn = 0
        self._start_round()
