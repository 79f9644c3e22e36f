"""The Jurassic Snack rules engine (2 players, any legal assembly of the four boards): pure and deterministic.

Two ways to play. With physical tokens the players turn the real token a Diplo ate and say what it shows
(a Reveal action). With hidden tokens the engine shuffles the 28 tokens with the game's seed, knows what lies
under each square and reveals each token itself when it is eaten, so nobody has to read a token.

What only one player may know (Scouting, and the look at two tokens when an effect cannot apply) is kept as
PrivateNote values addressed to that player; the narration decides how it reaches that player alone.

A game is a setup (players, layout, mode, seed, options) plus a log of actions; `to_json` stores both, and
loading a game replays the log, so a saved game can only hold a reachable state.

Decisions where the rules are silent: the game ends as soon as the last grass token leaves the area (its
token still scores, its effect is not played); Surprise puts the T.Rex on the square of the Diplo that just
ate; Volcanic eruption with a single token left removes that one; a player who cannot move at all passes.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from itertools import combinations
from typing import Any

from companion.errors import BadInput
from companion.games.common import (
    OVER,
    LoggedGame,
    Reason,
    ReplayRefused,  # noqa: F401 - what a replay raises, caught by callers of this module
    game_seed,
    refuse,
    same_name,
    setup_arguments,
)
from companion.games.jurassic_snack import spec
from companion.games.jurassic_snack.actions import (
    Action,
    Erupt,
    Fly,
    Hatch,
    Look,
    Move,
    Pass,
    Reveal,
    Scout,
    action_from_json,
    action_to_json,
)
from companion.games.jurassic_snack.ids import (
    AIR_STRIKE,
    AIR_TRANSPORT,
    BIRTH,
    COLORS,
    DIPLO,
    DIPLOS_PER_COLOR,
    DIRECTIONS,
    ERUPTION,
    ERUPTION_COUNT,
    LOOK,
    LOOK_COUNT,
    PIECES,
    SCOUTING,
    STEPS,
    SURPRISE,
    TOKEN_COUNTS,
    TOKEN_POINTS,
    TOKENS,
    TREX,
    TREX_COUNT,
    YUM_YUM,
)
from companion.games.jurassic_snack.layout import BOARDS, Layout
from companion.games.jurassic_snack.scoring import (
    Outcome,
    PlayerScore,
    elimination_outcome,
    player_score,
    points_outcome,
)

PHYSICAL, HIDDEN = "physical", "hidden"
MODES = (PHYSICAL, HIDDEN)
# The phases: a piece is moved (ACTION), the token eaten is said (REVEAL), the effect's target is chosen
# (EFFECT); OVER at the end.
ACTION, REVEAL, EFFECT = "action", "reveal", "effect"
EMPTY, GRASS = "empty", "grass"  # what a square holds besides "blue", "yellow" (a Diplo) and "trex"
EDGE, GAP = "edge", "gap"  # what stops a piece where no square lies: the area's edge, or a hole in it
QUIET_TURNS_CHOICES = (2, 4)
_SETUP_FIELDS = ("players", "layout", "mode", "seed", "options")
# Which action answers each effect.
EFFECT_ACTIONS: dict[str, type[Action]] = {BIRTH: Hatch, SCOUTING: Scout, AIR_TRANSPORT: Fly, AIR_STRIKE: Fly,
                                   ERUPTION: Erupt, LOOK: Look}


@dataclass(frozen=True)
class Options:
    """quiet_turns: how many turns in a row without a token eaten or an opponent's Diplo chased end the game
    (2: one turn of each player, the default reading; 4: two turns of each)."""

    quiet_turns: int = 2

    def __post_init__(self) -> None:
        if type(self.quiet_turns) is not int or self.quiet_turns not in QUIET_TURNS_CHOICES:
            refuse(Reason("js_bad_quiet_turns", {"value": str(self.quiet_turns),
                                                 "known": [str(c) for c in QUIET_TURNS_CHOICES]}))

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: Any) -> Options:
        if data is None:
            return cls()
        known = [item.name for item in fields(cls)]
        if not isinstance(data, dict) or set(data) - set(known):
            refuse(Reason("js_unknown_option", {"value": str(data), "known": known}))
        return cls(**data)


@dataclass(frozen=True)
class Slide:
    """Where a piece would stop: `target` (None: it cannot move), what stopped it and on which square.

    `blocker` is EDGE, GAP, "blue", "yellow", "trex" or GRASS (what the piece did not enter), or, when the
    piece entered it, GRASS for a Diplo that eats and "blue"/"yellow" for a Diplo that a T.Rex chases."""

    target: str | None
    blocker: str
    blocker_square: str | None
    steps: int

    @property
    def enters_blocker(self) -> bool:
        return self.steps > 0 and self.target == self.blocker_square


@dataclass(frozen=True)
class PrivateNote:
    """Something only `player` may know: the tokens on some squares (None where the table holds real tokens
    the engine cannot see). `source` is "scouting" or "look"; `action` numbers the action that made it."""

    player: int
    source: str
    tokens: tuple[tuple[str, str | None], ...]
    action: int


class Game(LoggedGame):
    """One game in progress. Read its state through the properties and methods; change it only with apply()."""

    SPEC = spec.SPEC
    SAVE_INCONSISTENT = Reason("js_save_inconsistent")
    action_from_json = staticmethod(action_from_json)
    action_to_json = staticmethod(action_to_json)

    def __init__(self, players: Sequence[str], layout: Layout, mode: str, seed: int, options: Options):
        """Use Game.new(), which checks its arguments."""
        self.players: tuple[str, ...] = tuple(players)
        self.layout = layout
        self.mode = mode
        self.seed = seed
        self.options = options
        self.actions: list[Action] = []  # every applied action, in order (read only)
        self.events: list[Reason] = []  # what the last applied action did, for the narration
        self.notes: list[PrivateNote] = []  # private information, each for one player
        self._cells: dict[str, str] = {square: GRASS for square in layout.squares}
        for color in COLORS:
            for square in layout.eggs[color]:
                self._cells[square] = color
        self._reserve = [DIPLOS_PER_COLOR - len(layout.eggs[color]) for color in COLORS]
        self._trex_waiting = TREX_COUNT
        self._eaten: list[list[str]] = [[], []]
        self._removed = 0  # tokens put back in the box by eruptions
        self._tokens: dict[str, str] = self._deal() if mode == HIDDEN else {}
        self._box: list[str] = []  # hidden mode: what the eruptions removed, never told
        self._phase = ACTION
        self._player = 0
        self._turn = 1
        self._actions_left = 1  # blue's first turn has a single action
        self._pending: str | None = None
        self._eater: str | None = None  # the square of the Diplo whose token is being resolved
        self._lively = False  # whether this turn ate a token or chased an opponent's Diplo
        self._quiet = 0
        self._end: str | None = None
        self._outcome: Outcome | None = None

    @classmethod
    def new(cls, players: Sequence[str], *, layout: Layout | None = None, mode: str = PHYSICAL,
            seed: int | None = None, options: Options = Options()) -> Game:
        """A new game: players[0] plays blue and starts, players[1] yellow. Without a seed one is drawn (and kept)."""
        names = list(players)
        if len(names) != 2:
            refuse(Reason("js_player_count", {"count": len(names)}))
        for index, name in enumerate(names):
            if not isinstance(name, str) or not name.strip():
                raise BadInput(f"player {index + 1} needs a name")
        if same_name(names[0], names[1]):
            refuse(Reason("js_duplicate_player", {"player": names[0]}))
        if mode not in MODES:
            raise BadInput(f"unknown token mode '{mode}': choose {' or '.join(MODES)}")
        seed = game_seed(seed)
        if not isinstance(options, Options):
            raise BadInput("options must be an Options value")
        return cls(names, layout or Layout.default(), mode, seed, options)

    # ---- what the dialogue reads -------------------------------------------------------------------------

    @property
    def player(self) -> int:
        """Whose turn it is: 0 blue, 1 yellow."""
        return self._player

    @property
    def turn(self) -> int:
        """Turns played so far plus the current one, from 1 (blue's first turn)."""
        return self._turn

    @property
    def actions_left(self) -> int:
        """Actions the current player still has this turn, the one under way included."""
        return self._actions_left

    @property
    def pending(self) -> str | None:
        """The effect the current player must now choose a target for, in phase EFFECT: birth, scouting,
        air_transport, air_strike, eruption, or look (the fallback of an effect that cannot apply)."""
        return self._pending

    @property
    def eater(self) -> str | None:
        """The square of the Diplo whose token is being turned over or resolved."""
        return self._eater

    @property
    def quiet_turns(self) -> int:
        """Turns in a row, up to the last one ended, without a token eaten or an opponent's Diplo chased."""
        return self._quiet

    @property
    def lively(self) -> bool:
        """Whether the turn under way has eaten a token or chased an opponent's Diplo (see quiet_turns)."""
        return self._lively

    @property
    def end(self) -> str | None:
        """Why the game ended: "elimination", "no_grass" or "quiet"; None while it goes on."""
        return self._end

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def color(self, player: int) -> str:
        return COLORS[player]

    def content(self, square: str) -> str:
        """What a square holds: EMPTY, GRASS, "blue", "yellow" or "trex"."""
        return self._cells[square]

    def squares_with(self, content: str) -> list[str]:
        """The squares holding `content`, in reading order (north row first, west to east)."""
        return [square for square in self.layout.squares if self._cells[square] == content]

    def reserve(self, player: int) -> int:
        """Diplos waiting in front of `player`."""
        return self._reserve[player]

    @property
    def trex_waiting(self) -> int:
        """T.Rex still beside the area."""
        return self._trex_waiting

    @property
    def grass_left(self) -> int:
        return sum(1 for content in self._cells.values() if content == GRASS)

    @property
    def removed(self) -> int:
        """Grass tokens put back in the box by eruptions."""
        return self._removed

    def eaten(self, player: int) -> list[str]:
        """The tokens `player`'s Diplos ate, in order (every one was shown to both players)."""
        return list(self._eaten[player])

    def tokens_unseen(self) -> dict[str, int]:
        """Per kind, the tokens not yet eaten (on the area or put back in the box unseen)."""
        eaten = self._eaten[0] + self._eaten[1]
        return {token: TOKEN_COUNTS[token] - eaten.count(token) for token in TOKENS}

    def notes_for(self, player: int) -> list[PrivateNote]:
        """The private notes of one player, oldest first."""
        return [note for note in self.notes if note.player == player]

    def slide(self, square: str, direction: str, piece: str | None = None) -> Slide:
        """Where the piece on `square` would stop if moved towards `direction` (it is not moved); with `piece`,
        where that piece would stop from there (a T-Rex or a Diplo, on a square that may hold none)."""
        if piece is None:
            piece = TREX if self._cells.get(square) == TREX else DIPLO
        return self._slide(square, direction, piece)

    def setup_json(self) -> dict[str, Any]:
        """What Game.new needs to start this game again."""
        return {"players": list(self.players), "layout": self.layout.to_json(), "mode": self.mode,
                "seed": self.seed, "options": self.options.to_json()}

    # ---- rules -------------------------------------------------------------------------------------------

    def refusal(self, action: Action) -> Reason | None:
        """None if `action` is legal now, else the Reason it is refused."""
        checker = _CHECKS.get(type(action))
        if checker is None:
            return Reason("js_unknown_action", {"value": repr(action)})
        return self._turn_refusal(action) or checker(self, action)

    def play(self, action: Action) -> list[Reason]:
        """Play a legal `action` and return what happened (also kept in `events`)."""
        self.events = []
        self.actions.append(action)
        _APPLY[type(action)](self, action)
        return list(self.events)

    def legal_actions(self) -> list[Action]:
        """Every legal action now (only the current player ever acts)."""
        player = self._player
        if self._phase == OVER:
            return []
        if self._phase == REVEAL:
            return [Reveal(player, token) for token, left in self.tokens_unseen().items() if left > 0]
        if self._phase == EFFECT:
            return self._legal_effects(player)
        moves: list[Action] = [Move(player, piece, square, direction)
                               for piece, square in self._movable(player) for direction in DIRECTIONS
                               if self._slide(square, direction, piece).steps > 0]
        return moves or [Pass(player)]

    def score(self) -> list[PlayerScore]:
        """Each player's eaten tokens and points (final once the phase is OVER)."""
        return [player_score(name, index, self._eaten[index]) for index, name in enumerate(self.players)]

    # ---- copies and saves --------------------------------------------------------------------------------

    @classmethod
    def from_setup(cls, setup: Any) -> Game:
        arguments = setup_arguments(setup, _SETUP_FIELDS)
        arguments["layout"] = Layout.from_json(setup.get("layout"))
        arguments["options"] = Options.from_json(setup.get("options"))
        return cls.new(**arguments)

    def _copy_state(self, twin: Game) -> None:
        twin.events = list(self.events)
        twin.notes = list(self.notes)
        twin._cells = dict(self._cells)
        twin._reserve = list(self._reserve)
        twin._eaten = [list(tokens) for tokens in self._eaten]
        twin._tokens = dict(self._tokens)
        twin._box = list(self._box)

    def snapshot(self) -> dict[str, Any]:
        """What the table can see, as plain data."""
        return {"phase": self._phase, "player": self._player, "turn": self._turn,
                "actions_left": self._actions_left, "pending": self._pending, "eater": self._eater,
                "cells": dict(self._cells), "reserve": list(self._reserve), "trex_waiting": self._trex_waiting,
                "eaten": [list(tokens) for tokens in self._eaten], "removed": self._removed,
                "quiet": self._quiet, "end": self._end,
                "outcome": None if self._outcome is None else self._outcome.to_json()}

    # ---- checks ------------------------------------------------------------------------------------------

    def _turn_refusal(self, action: Action) -> Reason | None:
        """Why nobody, or not this player, may act now, or why another kind of action is awaited."""
        if self._phase == OVER:
            return Reason("js_game_over")
        player = action.player
        if type(player) is not int or not 0 <= player < len(self.players):
            return Reason("js_unknown_player", {"value": str(player)})
        if player != self._player:
            return Reason("js_not_your_turn", {"player": self.players[player],
                                               "current": self.players[self._player]})
        expected = {ACTION: (Move, Pass), REVEAL: (Reveal,)}.get(self._phase) or (EFFECT_ACTIONS[self._pending],)  # type: ignore[index]  # set in the EFFECT phase
        if type(action) in expected:
            return None
        if self._phase == REVEAL:
            return Reason("js_reveal_first", {"square": self._eater})
        if self._phase == EFFECT:
            return Reason("js_effect_first", {"effect": self._pending})
        return Reason("js_no_effect_pending")

    def _check_move(self, action: Move) -> Reason | None:
        if action.piece not in PIECES:
            return Reason("js_unknown_piece", {"value": str(action.piece)})
        if action.direction not in DIRECTIONS:
            return Reason("js_unknown_direction", {"value": str(action.direction)})
        refusal = self._square_refusal(action.square)
        if refusal:
            return refusal
        found = self._cells[action.square]
        own = COLORS[action.player]
        if action.piece == DIPLO and found != own:
            if found in COLORS:
                return Reason("js_not_your_diplo", {"square": action.square, "color": found})
            return Reason("js_no_diplo_there", {"square": action.square, "color": own, "found": found})
        if action.piece == TREX and found != TREX:
            return Reason("js_no_trex_there", {"square": action.square, "found": found})
        slide = self._slide(action.square, action.direction, action.piece)
        if slide.steps == 0:
            return Reason("js_blocked", {"piece": action.piece, "square": action.square,
                                         "direction": action.direction, "blocker": slide.blocker,
                                         "blocker_square": slide.blocker_square})
        return None

    def _check_pass(self, action: Pass) -> Reason | None:
        for piece, square in self._movable(action.player):
            for direction in DIRECTIONS:
                if self._slide(square, direction, piece).steps:
                    return Reason("js_can_move", {"piece": piece, "square": square, "direction": direction})
        return None

    def _check_reveal(self, action: Reveal) -> Reason | None:
        if action.token not in TOKENS:
            return Reason("js_unknown_token", {"value": str(action.token)})
        if self.tokens_unseen()[action.token] <= 0:
            return Reason("js_token_exhausted", {"token": action.token, "count": TOKEN_COUNTS[action.token]})
        return None

    def _check_hatch(self, action: Hatch) -> Reason | None:
        return self._square_refusal(action.square) or self._empty_refusal(action.square)

    def _check_scout(self, action: Scout) -> Reason | None:
        if action.board not in BOARDS:
            return Reason("js_unknown_board", {"value": str(action.board), "known": list(BOARDS)})
        if not any(self._cells[s] == GRASS for s in self.layout.board_squares(action.board)):
            return Reason("js_board_no_grass", {"board": action.board})
        return None

    def _check_fly(self, action: Fly) -> Reason | None:
        refusal = self._square_refusal(action.source) or self._square_refusal(action.target)
        if refusal:
            return refusal
        found = self._cells[action.source]
        if self._pending == AIR_TRANSPORT and found not in COLORS:
            return Reason("js_no_diplo_to_fly", {"square": action.source, "found": found})
        if self._pending == AIR_STRIKE and found != TREX:
            return Reason("js_no_trex_there", {"square": action.source, "found": found})
        return self._empty_refusal(action.target)

    def _check_erupt(self, action: Erupt) -> Reason | None:
        return self._grass_choice_refusal(action.squares, min(ERUPTION_COUNT, self.grass_left))

    def _check_look(self, action: Look) -> Reason | None:
        if self.mode == PHYSICAL and not action.squares:
            return None
        return self._grass_choice_refusal(action.squares, min(LOOK_COUNT, self.grass_left))

    def _grass_choice_refusal(self, squares: Sequence[str], count: int) -> Reason | None:
        if not isinstance(squares, tuple) or len(squares) != count or len(set(squares)) != count:
            return Reason("js_choose_grass", {"count": count})
        return next((refusal for refusal in map(self.grass_refusal, squares) if refusal), None)

    def grass_refusal(self, square: Any) -> Reason | None:
        """Why `square` cannot be one of the grass squares an eruption or a look chooses; None when it can."""
        refusal = self._square_refusal(square)
        if refusal:
            return refusal
        if self._cells[square] != GRASS:
            return Reason("js_no_grass_there", {"square": square, "found": self._cells[square]})
        return None

    def _square_refusal(self, square: Any) -> Reason | None:
        if not isinstance(square, str) or square not in self._cells:
            return Reason("js_unknown_square", {"value": str(square)})
        return None

    def _empty_refusal(self, square: str) -> Reason | None:
        found = self._cells[square]
        return None if found == EMPTY else Reason("js_square_not_empty", {"square": square, "found": found})

    # ---- moving ------------------------------------------------------------------------------------------

    def _slide(self, square: str, direction: str, piece: str) -> Slide:
        """Diplos stop before a Diplo, a T.Rex or the edge and stop on grass (eating it); T.Rex stop before a
        T.Rex, grass or the edge and stop on a Diplo (chasing it)."""
        current, steps = square, 0
        while True:
            following = self.layout.neighbour(current, direction)
            if following is None:
                return Slide(current if steps else None, self._outside(current, direction), None, steps)
            found = self._cells[following]
            enters = (piece == DIPLO and found == GRASS) or (piece == TREX and found in COLORS)
            if enters:
                return Slide(following, found, following, steps + 1)
            if found != EMPTY:
                return Slide(current if steps else None, found, following, steps)
            current, steps = following, steps + 1

    def _outside(self, square: str, direction: str) -> str:
        """EDGE past the area's outline, GAP where the area has a hole (no board there)."""
        column, row = self.layout.coords[square]
        dc, dr = STEPS[direction]
        inside = 0 <= column + dc < self.layout.width and 0 <= row + dr < self.layout.height
        return GAP if inside else EDGE

    def _movable(self, player: int) -> list[tuple[str, str]]:
        """(piece, square) of every piece `player` may move: their Diplos and every T.Rex on the area."""
        own = COLORS[player]
        pieces = {own: DIPLO, TREX: TREX}
        return [(pieces[self._cells[square]], square) for square in self.layout.squares
                if self._cells[square] in pieces]

    def _apply_move(self, action: Move) -> None:
        slide = self._slide(action.square, action.direction, action.piece)
        target = slide.target
        assert target is not None
        mover = self._cells[action.square]
        swallowed = self._cells[target]
        self._cells[action.square] = EMPTY
        self._cells[target] = mover
        self.events.append(Reason("js_moved", {"player": self.players[action.player], "piece": action.piece,
                                               "color": mover, "square": action.square, "target": target,
                                               "direction": action.direction, "blocker": slide.blocker,
                                               "blocker_square": slide.blocker_square}))
        if action.piece == TREX and swallowed in COLORS:
            self._chase(action.player, swallowed, target)
        elif action.piece == DIPLO and swallowed == GRASS:
            self._eat(action.player, target)
            return
        self._action_done()

    def _chase(self, player: int, color: str, square: str) -> None:
        owner = COLORS.index(color)
        self._reserve[owner] += 1
        if owner != player:
            self._lively = True
        self.events.append(Reason("js_chased", {"player": self.players[owner], "color": color, "square": square}))
        self._check_elimination()

    def _eat(self, player: int, square: str) -> None:
        self._lively = True
        self._eater = square
        if self.mode == HIDDEN:
            self._resolve(player, self._tokens.pop(square))
        else:
            self._phase = REVEAL
            self.events.append(Reason("js_turn_token", {"player": self.players[player], "square": square}))

    def _apply_reveal(self, action: Reveal) -> None:
        self._resolve(action.player, action.token)

    # ---- tokens and effects ------------------------------------------------------------------------------

    def _resolve(self, player: int, token: str) -> None:
        """The eaten token scores; its effect applies now, or the player looks at two tokens instead."""
        self._eaten[player].append(token)
        self._phase = ACTION
        self.events.append(Reason("js_token", {"player": self.players[player], "token": token,
                                               "points": TOKEN_POINTS[token], "square": self._eater}))
        if self._end_if_no_grass():
            return
        effect = token if self._effect_applies(player, token) else LOOK
        if token == YUM_YUM:
            self._finish_effect()
        elif effect == SURPRISE:
            self._surprise(player)
        else:
            if effect == LOOK:
                self.events.append(Reason("js_no_effect", {"token": token}))
            self._pending = effect
            self._phase = EFFECT
            self.events.append(Reason("js_effect", {"player": self.players[player], "effect": effect,
                                                    "count": min(LOOK_COUNT, self.grass_left)}))

    def _effect_applies(self, player: int, token: str) -> bool:
        has_empty = any(content == EMPTY for content in self._cells.values())
        if token == BIRTH:
            return self._reserve[player] > 0 and has_empty
        if token == AIR_TRANSPORT:
            return has_empty and any(content in COLORS for content in self._cells.values())
        if token == AIR_STRIKE:
            return has_empty and TREX in self._cells.values()
        if token == SURPRISE:
            return self._trex_waiting > 0
        return True  # scouting and eruption need grass, and the game goes on only while some is left

    def _surprise(self, player: int) -> None:
        square = self._eater
        assert square is not None
        self._trex_waiting -= 1
        self._cells[square] = TREX
        self._reserve[player] += 1
        self.events.append(Reason("js_surprise", {"player": self.players[player], "square": square}))
        if not self._check_elimination():
            self._finish_effect()

    def _apply_hatch(self, action: Hatch) -> None:
        self._reserve[action.player] -= 1
        self._cells[action.square] = COLORS[action.player]
        self.events.append(Reason("js_hatched", {"player": self.players[action.player], "square": action.square}))
        self._finish_effect()

    def _apply_scout(self, action: Scout) -> None:
        squares = [s for s in self.layout.board_squares(action.board) if self._cells[s] == GRASS]
        self._note(action.player, SCOUTING, squares)
        self.events.append(Reason("js_scouted", {"player": self.players[action.player], "board": action.board}))
        self._finish_effect()

    def _apply_fly(self, action: Fly) -> None:
        piece = self._cells[action.source]
        self._cells[action.target] = piece
        self._cells[action.source] = EMPTY
        self.events.append(Reason("js_flew", {"player": self.players[action.player],
                                              "piece": TREX if piece == TREX else DIPLO, "color": piece,
                                              "square": action.source, "target": action.target}))
        self._finish_effect()

    def _apply_erupt(self, action: Erupt) -> None:
        for square in action.squares:
            self._cells[square] = EMPTY
            if square in self._tokens:
                self._box.append(self._tokens.pop(square))
        self._removed += len(action.squares)
        self.events.append(Reason("js_erupted", {"player": self.players[action.player],
                                                 "squares": list(action.squares)}))
        if not self._end_if_no_grass():
            self._finish_effect()

    def _apply_look(self, action: Look) -> None:
        self._note(action.player, LOOK, list(action.squares))
        self.events.append(Reason("js_looked", {"player": self.players[action.player],
                                                "squares": list(action.squares)}))
        self._finish_effect()

    def _apply_pass(self, action: Pass) -> None:
        self.events.append(Reason("js_passed", {"player": self.players[action.player]}))
        self._actions_left = 1
        self._action_done()

    def _note(self, player: int, source: str, squares: list[str]) -> None:
        tokens = tuple((square, self._tokens.get(square)) for square in squares)
        self.notes.append(PrivateNote(player, source, tokens, len(self.actions)))

    def _legal_effects(self, player: int) -> list[Action]:
        empty = self.squares_with(EMPTY)
        grass = self.squares_with(GRASS)
        pending = self._pending
        if pending == BIRTH:
            return [Hatch(player, square) for square in empty]
        if pending == SCOUTING:
            return [Scout(player, board) for board in BOARDS
                    if any(self._cells[s] == GRASS for s in self.layout.board_squares(board))]
        if pending in (AIR_TRANSPORT, AIR_STRIKE):
            sources = self.squares_with(TREX) if pending == AIR_STRIKE else [
                s for s in self.layout.squares if self._cells[s] in COLORS]
            return [Fly(player, source, target) for source in sources for target in empty]
        count = min(ERUPTION_COUNT if pending == ERUPTION else LOOK_COUNT, len(grass))
        choices = [tuple(c) for c in combinations(grass, count)]
        if pending == ERUPTION:
            return [Erupt(player, c) for c in choices]
        # real tokens: naming the squares is optional
        unnamed: list[Action] = [Look(player)] if self.mode == PHYSICAL else []
        return unnamed + [Look(player, c) for c in choices]

    # ---- turns and the end -------------------------------------------------------------------------------

    def _finish_effect(self) -> None:
        self._pending = None
        self._phase = ACTION
        self._action_done()

    def _action_done(self) -> None:
        self._eater = None
        if self._phase == OVER:
            return
        self._actions_left -= 1
        if self._actions_left == 0:
            self._end_turn()

    def _end_turn(self) -> None:
        self._quiet = 0 if self._lively else self._quiet + 1
        if self._quiet >= self.options.quiet_turns:
            self.events.append(Reason("js_end_quiet", {"turns": self._quiet}))
            self._finish("quiet", points_outcome(self.score()))
            return
        self._player = 1 - self._player
        self._turn += 1
        self._actions_left = 2
        self._lively = False
        self.events.append(Reason("js_next_turn", {"player": self.players[self._player],
                                                   "color": COLORS[self._player], "turn": self._turn}))

    def _check_elimination(self) -> bool:
        for player, color in enumerate(COLORS):
            if color not in self._cells.values():
                self.events.append(Reason("js_end_elimination", {"player": self.players[player], "color": color}))
                self._finish("elimination", elimination_outcome(self.players, player))
                return True
        return False

    def _end_if_no_grass(self) -> bool:
        if self.grass_left:
            return False
        self.events.append(Reason("js_end_no_grass"))
        self._finish("no_grass", points_outcome(self.score()))
        return True

    def _finish(self, why: str, outcome: Outcome) -> None:
        self._end = why
        self._outcome = outcome
        self._phase = OVER
        self._pending = None
        self._eater = None
        self.events.append(outcome.reason)

    def _deal(self) -> dict[str, str]:
        """Hidden tokens: the 28 tokens shuffled with the seed, laid on the non-egg squares in reading order."""
        bag = [token for token in TOKENS for _ in range(TOKEN_COUNTS[token])]
        random.Random(self.seed).shuffle(bag)
        grass = [square for square in self.layout.squares if self._cells[square] == GRASS]
        return dict(zip(grass, bag, strict=True))


_CHECKS: dict[type[Action], Callable[[Game, Any], Reason | None]] = {
    Move: Game._check_move, Pass: Game._check_pass, Reveal: Game._check_reveal, Hatch: Game._check_hatch,
    Scout: Game._check_scout, Fly: Game._check_fly, Erupt: Game._check_erupt, Look: Game._check_look}
_APPLY: dict[type[Action], Callable[[Game, Any], None]] = {
    Move: Game._apply_move, Pass: Game._apply_pass, Reveal: Game._apply_reveal, Hatch: Game._apply_hatch,
    Scout: Game._apply_scout, Fly: Game._apply_fly, Erupt: Game._apply_erupt, Look: Game._apply_look}

