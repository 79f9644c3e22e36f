"""What a Draftosaurus game adds on the winter board: the pyramid's places, the Quarantine phase before
scoring, and the Lookout's right-hand neighbours.

WinterGame is a base class of engine.Game and works on the state Game keeps (the zoos, who is done, the
phase); every method here is about the winter board only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.errors import BadInput, RuleViolation
from companion.games.common import OVER, Reason
from companion.games.draftosaurus.actions import Place, QuarantineMove
from companion.games.draftosaurus.board import NO_FACE, SPECIES_INDEX, SummerRules
from companion.games.draftosaurus.ids import BOARDS, PYRAMID_POSITIONS, SPECIES
from companion.games.draftosaurus.scoring import ScoreSheet
from companion.games.draftosaurus.winter import POSITION_INDEX, QUARANTINE, WinterRules
from companion.games.draftosaurus.winter_board import WinterBoard, load_winter_board
from companion.games.draftosaurus.winter_scoring import (
    Neighbour,
    QuarantineChoice,
    best_choice,
    pen_counts,
    quarantine_choices,
    right_neighbours,
    score_winter,
)

QUARANTINE_MOVES = "quarantine"  # the phase after the last turn, while Quarantine dinosaurs move


class WinterGame:
    """The winter board's part of a game: engine.Game holds the state it uses (below) and the checks it
    shares with the summer board (_destination_refusal, _pen_refusal, _choice_inputs, _mark_done)."""

    players: tuple[str, ...]
    tracked: tuple[int, ...]
    board: str
    winter_board: WinterBoard | None
    _rules: SummerRules | WinterRules
    _zoos: list[list[list[int]]]
    _done: list[bool]
    _waiting: int
    _phase: str

    if TYPE_CHECKING:
        def _choice_inputs(self, player: int, species: str, face: str | None) -> tuple[list[list[int]], int, int]: ...
        def _destination_refusal(self, pen: Any, position: Any) -> Reason | None: ...
        def _pen_refusal(self, zoo: list[list[int]], pen: int, species: int, face: int, position: str | None
                         ) -> Reason | None: ...
        def _mark_done(self, player: int) -> None: ...

    def pyramid_choices(self, player: int, species: str) -> tuple[list[str], dict[str, Reason]]:
        """Winter board: the pyramid places `player` may give `species` now (whatever the die, which
        pen_choices checks), and for each other place why not."""
        zoo, species_index, _ = self._choice_inputs(player, species, None)
        rules = self._winter_rules()
        legal = self.pyramid_positions(player, species)
        excluded: dict[str, Reason] = {}
        for place, position in enumerate(PYRAMID_POSITIONS):
            refusal = None if position in legal else rules.position_refusal(zoo, species_index, place)
            if refusal is not None:
                excluded[position] = refusal
        return legal, excluded

    def pyramid_positions(self, player: int, species: str) -> list[str]:
        """Only the legal places of pyramid_choices (cheaper)."""
        zoo, species_index, _ = self._choice_inputs(player, species, None)
        return [PYRAMID_POSITIONS[place] for place in self._winter_rules().legal_positions(zoo, species_index)]

    def quarantine_destinations(self, player: int) -> list[tuple[str, str | None]]:
        """Winter board: where `player`'s Quarantine dinosaur may go, (pen id, pyramid place id or None), in
        board order, the river last; [] when the Quarantine is empty."""
        rules = self._winter_rules()
        self._check_tracked(player)
        return [(rules.pens[pen], None if place is None else PYRAMID_POSITIONS[place])
                for pen, place in rules.destinations(self._zoos[player])]

    def quarantine_choices(self, player: int, reported: dict[int, dict[str, int]] | None = None
                           ) -> list[QuarantineChoice]:
        """Winter board: where `player`'s Quarantine dinosaur may go (board order, the river last), each with
        the player's total after that move, the other zoos as they stand (`reported`: see score)."""
        rules = self._winter_rules()
        self._check_tracked(player)
        neighbour = self._neighbours(reported)[player]
        return quarantine_choices(rules, self._zoos[player], self.players[player], neighbour)

    def best_quarantine(self, player: int, reported: dict[int, dict[str, int]] | None = None
                        ) -> QuarantineChoice | None:
        """The Quarantine move that gives `player` the highest total (the first in board order on a tie)."""
        return best_choice(self.quarantine_choices(player, reported))

    def _check_tracked(self, player: Any) -> None:
        if type(player) is not int or not 0 <= player < len(self.players) or player not in self.tracked:
            raise RuleViolation(f"no tracked player {player}", Reason("draft_unknown_player", {"value": str(player)}))

    def _neighbours(self, reported: dict[int, dict[str, int]] | None) -> list[Neighbour[str] | None]:
        """Winter board: each seat's right-hand neighbour, with the species counts of their pens (as the
        players who are not tracked report them)."""
        reported = reported or {}
        counts = [pen_counts(self._zoos[p]) if p in self.tracked
                  else [reported.get(p, {}).get(species, 0) for species in SPECIES] for p in range(len(self.players))]
        return right_neighbours(self.players, counts)

    def _winter_rules(self) -> WinterRules:
        if not isinstance(self._rules, WinterRules):
            raise RuleViolation("only the winter board has a pyramid and a quarantine",
                                Reason("draft_winter_only", {"board_side": self.board}))
        return self._rules

    def _check_quarantine_move(self, action: QuarantineMove) -> Reason | None:
        if self.winter_board is None:
            return Reason("draft_winter_only", {"board_side": self.board})
        refusal = self._destination_refusal(action.pen, action.position)
        if refusal:
            return refusal
        if self._phase == OVER:
            return Reason("draft_game_over")
        if type(action.player) is not int or not 0 <= action.player < len(self.players):
            return Reason("draft_unknown_player", {"value": str(action.player)})
        name = self.players[action.player]
        if self._phase != QUARANTINE_MOVES:
            return Reason("draft_quarantine_not_yet", {"player": name})
        if self._done[action.player]:
            return Reason("draft_quarantine_nothing", {"player": name})
        pen = self._rules.pen_index[action.pen]
        if pen == QUARANTINE:
            return Reason("draft_quarantine_elsewhere", {"player": name, "pen": action.pen})
        zoo = self._zoos[action.player]
        return self._pen_refusal(zoo, pen, zoo[QUARANTINE][0], NO_FACE, action.position)

    def _with_place(self, action: Place | QuarantineMove) -> Place | QuarantineMove:
        """The action with its pyramid place filled in when it left out the only one it could take."""
        if action.pen != "pyramid" or action.position is not None:
            return action
        zoo = self._zoos[action.player]
        species = SPECIES_INDEX[action.species] if isinstance(action, Place) else zoo[QUARANTINE][0]
        place = self._winter_rules().legal_positions(zoo, species)[0]
        return type(action)(**{**action.__dict__, "position": PYRAMID_POSITIONS[place]})

    def _move_out_of_quarantine(self, action: QuarantineMove) -> None:
        zoo = self._zoos[action.player]
        species = zoo[QUARANTINE].pop()
        self._rules.put(zoo, self._rules.pen_index[action.pen], species,
                        None if action.position is None else POSITION_INDEX[action.position])
        self._mark_done(action.player)

    def _start_quarantine_moves(self) -> None:
        """Winter board: after the last turn, every tracked player whose Quarantine holds a dinosaur moves it."""
        if self.winter_board is None:
            return
        self._done = [player not in self.tracked or not self._zoos[player][QUARANTINE]
                      for player in range(len(self.players))]
        self._waiting = self._done.count(False)
        if self._waiting:
            self._phase = QUARANTINE_MOVES

    def _winter_score(self, reported: dict[int, dict[str, int]] | None) -> ScoreSheet:
        """The sheet of the tracked zoos; each Lookout looks at the right-hand neighbour's pens."""
        neighbours = self._neighbours(reported)
        return score_winter(self._winter_rules(), [self._zoos[p] for p in self.tracked],
                            [self.players[p] for p in self.tracked], [neighbours[p] for p in self.tracked])


def winter_board_for(board: Any, data: WinterBoard | dict[str, Any] | None) -> WinterBoard | None:
    """The WinterBoard a new game plays on (None: summer), from the setup's board side and values (default:
    the shipped file, every value unconfirmed)."""
    if board not in BOARDS:
        raise RuleViolation(f"unknown board {board!r}",
                            Reason("draft_unknown_board", {"value": str(board), "board_sides": list(BOARDS)}))
    if board == "summer":
        if data is not None:
            raise BadInput("winter_board values are only for the winter board")
        return None
    if data is None:
        return load_winter_board()
    return data if isinstance(data, WinterBoard) else WinterBoard.from_json(data)
