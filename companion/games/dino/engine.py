"""The Dino rules engine (2 to 6 players, two pawns each): pure and deterministic.

A game is a Setup plus a log of actions; `to_json` stores both, and loading replays the log, so a saved
game can only hold a reachable state.

What the engine knows and checks: whose turn it is; the four points of a turn (one pawn, the rest to the
meteor); the fewest steps between squares across open sides (so a move too short for the distance is
refused); one pawn per square at the end of a move; the eggs of each nest, one per visit; the pawns that
reached a time machine and left; the meteor, the end of the game and the score. What it cannot know
(the spaces inside a square, hence the exact path and the steps a pawn would need at the end) it asks:
`interpret` turns what a player said into a Move or a TableQuestion, and after the fall the game waits for
a Penalty for each pawn still on the board.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.errors import BadInput
from companion.games.common import (
    OVER,
    LoggedGame,
    Reason,
    ReplayRefused,  # noqa: F401 - what a replay raises, caught by callers of this module
)
from companion.games.dino import spec
from companion.games.dino.actions import Action, Meteor, Move, Penalty, action_from_json
from companion.games.dino.board import UNREACHABLE, Board
from companion.games.dino.ids import PAWNS_PER_PLAYER, POINTS_PER_TURN
from companion.games.dino.scoring import ScoreSheet, score_players
from companion.games.dino.starting_position import Setup, check_setup

# The phases: turns are played, then (once the meteor has fallen) the table says what each pawn left on the
# board costs; OVER at the end.
PLAY, PENALTIES = "play", "penalties"
AT_START, ON_BOARD, HOME = "start", "board", "home"


@dataclass(frozen=True)
class TableQuestion:
    """What the board data cannot decide: the players must say it. `code` names `dino.ask.<code>`."""

    code: str
    params: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PawnView:
    """Where one pawn is: `place` is "start" (beside its time machine, not yet in play), "board" or "home"
    (it reached a time machine and left); `square` is its square, or the square of that time machine."""

    player: int
    pawn: int
    colour: str
    place: str
    square: str


@dataclass
class _Pawn:
    place: str
    square: str
    taken: set[str] = field(default_factory=set)  # nests it took an egg from since it came to its square


class Game(LoggedGame):
    """One game in progress. Read its state through the properties; change it only with apply()."""

    SPEC = spec.SPEC
    SAVE_INCONSISTENT = Reason("dino_save_inconsistent")
    action_from_json = staticmethod(action_from_json)

    def __init__(self, setup: Setup):
        """Use Game.new(), which checks the setup."""
        self.setup = setup
        self.board: Board = setup.board
        self.players: tuple[str, ...] = tuple(setup.players)
        self.colours: tuple[str, ...] = tuple(setup.colours)
        self.actions: list[Action] = []  # every applied action, in order (read only)
        self._distances = self.board.distances(setup.barriers)
        self._pawns = [[_Pawn(AT_START, start.square) for start in self.board.starts_of(colour)[:PAWNS_PER_PLAYER]]
                       for colour in self.colours]
        self._nests = {colour: setup.eggs_per_nest for colour in setup.nests}
        self._eggs: list[list[str]] = [[] for _ in self.players]
        self._penalties: dict[tuple[int, int], int] = {}
        self._meteor_left = setup.meteor_total
        self._current = setup.first_player
        self._turn = 1
        self._phase = PLAY

    @classmethod
    def new(cls, setup: Setup) -> Game:
        """A new game; a setup the rules forbid raises RuleViolation with the Reason."""
        if not isinstance(setup, Setup):
            raise BadInput("a Dino game starts from a Setup")
        check_setup(setup)
        return cls(setup)

    # ---- what the dialogue reads ---------------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        """Index of the player whose turn it is (the last one who played, once the meteor has fallen)."""
        return self._current

    @property
    def turn(self) -> int:
        """Turns played so far plus one."""
        return self._turn

    @property
    def meteor_total(self) -> int:
        return self.setup.meteor_total

    @property
    def meteor_left(self) -> int:
        """Stones the meteor still travels before it falls."""
        return self._meteor_left

    @property
    def meteor_travelled(self) -> int:
        return self.meteor_total - self._meteor_left

    def pawn(self, player: int, pawn: int) -> PawnView:
        state = self._pawns[player][pawn]
        return PawnView(player, pawn, self.colours[player], state.place, state.square)

    def pawns(self, player: int | None = None) -> list[PawnView]:
        """Every pawn (of one player if given), player by player."""
        players = range(len(self.players)) if player is None else (player,)
        return [self.pawn(p, k) for p in players for k in range(PAWNS_PER_PLAYER)]

    def occupant(self, square: str) -> PawnView | None:
        """The pawn standing in `square`, if any."""
        return next((view for view in self.pawns() if view.place == ON_BOARD and view.square == square), None)

    def player_of_colour(self, colour: str) -> int | None:
        return self.colours.index(colour) if colour in self.colours else None

    def nests(self) -> dict[str, tuple[str, int]]:
        """Egg colour -> (square of its nest, eggs left)."""
        return {colour: (self.setup.nests[colour], left) for colour, left in self._nests.items()}

    def eggs(self, player: int) -> list[str]:
        """The colours of the eggs a player picked up, in order; the last one is the one on show."""
        return list(self._eggs[player])

    def in_play(self, player: int) -> list[int]:
        """The player's pawns that can still move (beside their time machine or on the board)."""
        return [k for k, state in enumerate(self._pawns[player]) if state.place != HOME]

    def must_feed_meteor(self, player: int) -> bool:
        """No pawn left to move: every turn of this player goes to the meteor."""
        return not self.in_play(player)

    def least_steps(self, player: int, pawn: int, square: str, exit: bool = False) -> int | None:
        """The fewest steps that could take this pawn to `square` (to its time machine when `exit`), as far as
        the board data can tell; None when barriers wall it off. The real path may be longer."""
        state = self._pawns[player][pawn]
        entering = self.board.start_position_steps if state.place == AT_START else 0
        distance = self._distances[state.square][square]
        if distance == UNREACHABLE:
            return None
        least = entering + distance + (self.board.start_position_steps if exit else 0)
        return max(1, least)

    def egg_choices(self, player: int, pawn: int, square: str) -> list[str]:
        """Colours of the nests in `square` this pawn may take an egg from if its move ends there."""
        state = self._pawns[player][pawn]
        staying = state.place == ON_BOARD and state.square == square
        return [colour for colour, (nest_square, left) in self.nests().items()
                if nest_square == square and left > 0 and not (staying and colour in state.taken)]

    def exits_allowed(self, player: int) -> list[str]:
        """The start squares whose time machine this player's pawns may leave by."""
        colour = self.colours[player]
        return [p.square for p in self.board.start_positions if not self.setup.own_colour_exits or p.colour == colour]

    def penalty_least(self, player: int, pawn: int) -> int:
        """The fewest points this pawn could need to reach an allowed time machine (what the data can tell)."""
        found = [self.least_steps(player, pawn, square, exit=True) for square in self.exits_allowed(player)]
        reachable = [least for least in found if least is not None]
        return min(reachable) if reachable else 0

    def penalties_due(self) -> list[PawnView]:
        """Pawns still on the board whose cost the table has not said yet (after the fall)."""
        if self._phase != PENALTIES:
            return []
        return [view for view in self.pawns() if view.place == ON_BOARD
                and (view.player, view.pawn) not in self._penalties]

    def penalties(self) -> dict[tuple[int, int], int]:
        """(player, pawn) -> the points said for that pawn after the fall."""
        return dict(self._penalties)

    # ---- turning words into a move ---------------------------------------------------------------------------

    def interpret(self, player: int, *, pawn: int | None = None, steps: int | None = None,
                  square: str | None = None, exit: bool = False, egg: str | None = None,
                  meteor: int | None = None) -> Move | Meteor | Reason | TableQuestion:
        """What the player said, made into an action; or what is still missing (TableQuestion), or why not."""
        refusal = self._turn_refusal(player)
        if refusal is not None:
            return refusal
        if steps is None and meteor == POINTS_PER_TURN and pawn is None and square is None:
            return Meteor(player)
        if pawn is None:
            in_play = self.in_play(player)
            if not in_play:
                return Reason("dino_no_pawn_left", {"player": self.players[player], "colour": self.colours[player]})
            if len(in_play) > 1:
                first, second = (self._pawns[player][k].square for k in in_play)
                return TableQuestion("which_pawn", {"colour": self.colours[player], "first": first, "second": second})
            pawn = in_play[0]
        if square is None:
            return TableQuestion("where_exit" if exit else "where", {"colour": self.colours[player]})
        if steps is None and meteor is not None:
            steps = POINTS_PER_TURN - meteor
        if steps is None:
            least = self.least_steps(player, pawn, square, exit) if self.board.is_square(square) else None
            return TableQuestion("how_many", {"square": square, "least": least or 1})
        return Move(player, pawn, steps, square, exit, egg, meteor)

    # ---- rules -----------------------------------------------------------------------------------------------

    def refusal(self, action: Action) -> Reason | None:
        """None if `action` is legal now, else the Reason it is refused."""
        match action:
            case Move():
                return self._check_move(action)
            case Meteor():
                return self._turn_refusal(action.player)
            case Penalty():
                return self._check_penalty(action)
        return Reason("dino_unknown_action", {"value": repr(action)})

    def play(self, action: Action) -> None:
        """Play a legal `action`."""
        if isinstance(action, Move):
            self._move(action)
            self._end_turn(POINTS_PER_TURN - action.steps)
        elif isinstance(action, Meteor):
            self._end_turn(POINTS_PER_TURN)
        else:
            assert isinstance(action, Penalty)
            self._penalties[(action.player, action.pawn)] = action.points
            if not self.penalties_due():
                self._phase = OVER
        self.actions.append(action)

    def legal_actions(self) -> list[Action]:
        """Every legal action now, with the smallest penalty for each pawn after the fall (used by simulations)."""
        if self._phase == OVER:
            return []
        if self._phase == PENALTIES:
            return [Penalty(view.player, view.pawn, self.penalty_least(view.player, view.pawn))
                    for view in self.penalties_due()]
        player = self._current
        found: list[Action] = [Meteor(player)]
        for pawn in self.in_play(player):
            found.extend(self._moves_of(player, pawn))
        return found

    def score(self) -> ScoreSheet:
        """The scores as they stand: eggs and colours, minus the penalties said after the fall."""
        penalty = [sum(points for (player, _), points in self._penalties.items() if player == index)
                   for index in range(len(self.players))]
        return score_players(self.players, self.colours, self._eggs, penalty, final=self._phase == OVER)

    # ---- copies and saves ------------------------------------------------------------------------------------

    @classmethod
    def from_setup(cls, setup: Setup | dict[str, Any]) -> Game:
        """A new game from a Setup or its JSON."""
        return cls.new(setup if isinstance(setup, Setup) else Setup.from_json(setup))

    def setup_json(self) -> dict[str, Any]:
        """The setup, board included, as JSON."""
        return self.setup.to_json()

    def _copy_state(self, twin: Game) -> None:
        twin._pawns = [[_Pawn(p.place, p.square, set(p.taken)) for p in pawns] for pawns in self._pawns]
        twin._nests = dict(self._nests)
        twin._eggs = [list(eggs) for eggs in self._eggs]
        twin._penalties = dict(self._penalties)

    def with_eggs(self, eggs: Sequence[Sequence[str]]) -> Game:
        """A copy in which each player holds `eggs` (colours, the one on show last): what a seat sees of the
        others' eggs, or a guess at those kept face down. Not a game to save: its log does not lead to it."""
        twin = self.copy()
        twin._eggs = [list(held) for held in eggs]
        return twin

    def snapshot(self) -> dict[str, Any]:
        """The state as plain data."""
        return {"phase": self._phase, "turn": self._turn, "current_player": self._current,
                "meteor_left": self._meteor_left,
                "pawns": [[{"place": p.place, "square": p.square, "taken": sorted(p.taken)} for p in pawns]
                          for pawns in self._pawns],
                "nests": dict(self._nests), "eggs": [list(e) for e in self._eggs],
                "penalties": [[player, pawn, points] for (player, pawn), points in sorted(self._penalties.items())]}

    # ---- inside ----------------------------------------------------------------------------------------------

    def _turn_refusal(self, player: Any) -> Reason | None:
        if self._phase == OVER:
            return Reason("dino_game_over")
        if self._phase == PENALTIES:
            return Reason("dino_meteor_fell")
        if type(player) is not int or not 0 <= player < len(self.players):
            return Reason("dino_unknown_player", {"value": str(player)})
        if player != self._current:
            return Reason("dino_not_your_turn", {"player": self.players[player],
                                                 "current": self.players[self._current]})
        return None

    def _check_move(self, move: Move) -> Reason | None:
        refusal = self._turn_refusal(move.player) or self._pawn_refusal(move)
        if refusal is not None:
            return refusal
        state = self._pawns[move.player][move.pawn]
        refusal = self._exit_refusal(move, state) if move.exit else self._stop_refusal(move)
        if refusal is not None:
            return refusal
        least = self.least_steps(move.player, move.pawn, move.square, move.exit)
        if least is None:
            return Reason("dino_unreachable", {"square": move.square})
        if move.steps < least:
            return Reason("dino_too_far", {"square": move.square, "least": least, "steps": move.steps})
        return None if move.egg is None else self._egg_refusal(move, state)

    def _pawn_refusal(self, move: Move) -> Reason | None:
        colour = self.colours[move.player]
        if type(move.pawn) is not int or not 0 <= move.pawn < PAWNS_PER_PLAYER:
            return Reason("dino_unknown_pawn", {"value": str(move.pawn)})
        if self._pawns[move.player][move.pawn].place == HOME:
            return Reason("dino_pawn_home", {"colour": colour, "number": move.pawn + 1})
        if type(move.steps) is not int or not 1 <= move.steps <= POINTS_PER_TURN:
            return Reason("dino_steps_range", {"steps": str(move.steps), "most": POINTS_PER_TURN})
        if move.meteor is not None and move.steps + move.meteor != POINTS_PER_TURN:
            return Reason("dino_points_total", {"steps": move.steps, "meteor": move.meteor,
                                                "total": POINTS_PER_TURN})
        if not self.board.is_square(move.square):
            return Reason("dino_unknown_square", {"value": str(move.square)})
        return None

    def _exit_refusal(self, move: Move, state: _Pawn) -> Reason | None:
        if state.place == AT_START:
            return Reason("dino_exit_not_entered", {"colour": self.colours[move.player]})
        start = self.board.start_at(move.square)
        if start is None:
            return Reason("dino_exit_not_start", {"square": move.square})
        if move.square not in self.exits_allowed(move.player):
            return Reason("dino_exit_other_colour", {"square": move.square, "colour": start.colour})
        if move.egg is not None:
            return Reason("dino_egg_with_exit")
        return None

    def _stop_refusal(self, move: Move) -> Reason | None:
        other = self.occupant(move.square)
        if other is not None and (other.player, other.pawn) != (move.player, move.pawn):
            return Reason("dino_square_taken", {"square": move.square, "colour": other.colour,
                                                "player": self.players[other.player]})
        return None

    def _egg_refusal(self, move: Move, state: _Pawn) -> Reason | None:
        colour = move.egg
        if colour not in self._nests:
            return Reason("dino_unknown_egg_colour", {"value": str(colour), "colours": list(self._nests)})
        nest_square = self.setup.nests[colour]
        if nest_square != move.square:
            return Reason("dino_nest_not_here", {"colour": colour, "square": nest_square, "here": move.square})
        if self._nests[colour] == 0:
            return Reason("dino_nest_empty", {"colour": colour})
        if state.place == ON_BOARD and state.square == move.square and colour in state.taken:
            return Reason("dino_egg_same_visit", {"colour": colour, "square": move.square})
        return None

    def _check_penalty(self, penalty: Penalty) -> Reason | None:
        if self._phase != PENALTIES:
            return Reason("dino_game_over") if self._phase == OVER else Reason("dino_meteor_flying")
        if type(penalty.player) is not int or not 0 <= penalty.player < len(self.players):
            return Reason("dino_unknown_player", {"value": str(penalty.player)})
        if type(penalty.pawn) is not int or not 0 <= penalty.pawn < PAWNS_PER_PLAYER:
            return Reason("dino_unknown_pawn", {"value": str(penalty.pawn)})
        view = self.pawn(penalty.player, penalty.pawn)
        if view.place != ON_BOARD or (penalty.player, penalty.pawn) in self._penalties:
            return Reason("dino_no_penalty_due", {"colour": view.colour, "number": penalty.pawn + 1})
        least = self.penalty_least(penalty.player, penalty.pawn)
        if type(penalty.points) is not int or penalty.points < least:
            return Reason("dino_penalty_too_low", {"square": view.square, "least": least,
                                                   "points": str(penalty.points)})
        return None

    def _move(self, move: Move) -> None:
        state = self._pawns[move.player][move.pawn]
        if state.place != ON_BOARD or state.square != move.square:
            state.taken = set()
        state.place = HOME if move.exit else ON_BOARD
        state.square = move.square
        if move.egg is not None:
            self._nests[move.egg] -= 1
            self._eggs[move.player].append(move.egg)
            state.taken.add(move.egg)

    def _end_turn(self, meteor_points: int) -> None:
        self._meteor_left = max(0, self._meteor_left - meteor_points)
        if self._meteor_left == 0:
            on_board = any(view.place == ON_BOARD for view in self.pawns())
            self._phase = PENALTIES if on_board else OVER
            return
        self._current = (self._current + 1) % len(self.players)
        self._turn += 1

    def _moves_of(self, player: int, pawn: int) -> list[Move]:
        found: list[Move] = []
        state = self._pawns[player][pawn]
        taken = {view.square for view in self.pawns() if view.place == ON_BOARD
                 and (view.player, view.pawn) != (player, pawn)}
        for square in self.board.squares:
            if square in taken:
                continue
            least = self.least_steps(player, pawn, square)
            if least is None or least > POINTS_PER_TURN:
                continue
            eggs = [None, *self.egg_choices(player, pawn, square)]
            found.extend(Move(player, pawn, steps, square, egg=egg)
                         for steps in range(least, POINTS_PER_TURN + 1) for egg in eggs)
        if state.place == ON_BOARD:
            for square in self.exits_allowed(player):
                least = self.least_steps(player, pawn, square, exit=True)
                if least is not None and least <= POINTS_PER_TURN:
                    found.extend(Move(player, pawn, steps, square, exit=True)
                                 for steps in range(least, POINTS_PER_TURN + 1))
        return found
