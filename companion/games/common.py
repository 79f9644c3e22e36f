"""Pieces every game engine shares: reasons the narration can speak, refusals, and games kept as a log.

A logged game is a setup plus the list of actions applied to it. Saving stores both (with a snapshot of
the state, to catch a tampered save); loading replays the log, so a loaded game can only hold a reachable
state, and an undo is a replay without the last actions.
"""

from __future__ import annotations

import random
import unicodedata
from abc import ABC, abstractmethod
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn, Self, TypeVar

from companion.errors import BadInput, RuleViolation

if TYPE_CHECKING:
    from companion.games.spec import GameSpec

OVER = "over"  # the phase of every game once it has ended
ActionT = TypeVar("ActionT")


@dataclass(frozen=True)
class Reason:
    """Why something is refused (or what happened), as data.

    `code` names a message under `reasons.` in the catalog of voices/<lang>/messages/*.yaml (each game's under
    its own file, e.g. messages/draftosaurus.yaml); `params` fills it.
    Parameters named species, pen, face (or lists species_list, pens, faces) hold canonical ids
    that the narration translates.
    """

    code: str
    params: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "params": dict(self.params)}


def refuse(reason: Reason, message: str | None = None) -> NoReturn:
    """Raise the RuleViolation carrying `reason` (its message: `message`, else the code and params)."""
    raise RuleViolation(message or f"{reason.code} {reason.params}", reason)


class ReplayRefused(RuleViolation):
    """An action of a log (a save, an undo) is illegal where it stands: `number` counts from 1."""

    def __init__(self, number: int, reason: Reason):
        super().__init__(f"action {number} is illegal: {reason.code} {reason.params}", reason)
        self.number = number


# ---- actions as JSON ---------------------------------------------------------------------------------------

def action_type(data: Any, types: Mapping[str, type[ActionT]], what: str) -> type[ActionT]:
    """The action class that the JSON form `data` names by its "type"; BadInput "not <what>: <data>" if none."""
    if not isinstance(data, dict) or data.get("type") not in types:
        raise BadInput(f"not {what}: {data!r}")
    return types[data["type"]]


def json_field(data: dict[str, Any], name: str, kind: type) -> Any:
    """The field `name` of a JSON action, which must be of `kind` (a bool is no number)."""
    value = data.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        raise BadInput(f"a {data.get('type')} action needs '{name}' as {kind.__name__}, not {value!r}")
    return value


# ---- names -------------------------------------------------------------------------------------------------

def same_name(first: str, second: str) -> bool:
    """Whether two players' names would sound and read the same (see name_key)."""
    return name_key(first) == name_key(second)


def name_key(name: str) -> str:
    """A name as it is compared: its compatible form (NFKC), without invisible format characters (zero-width
    space and joiners, soft hyphen, direction marks), in one case, with single spaces."""
    visible = "".join(char for char in unicodedata.normalize("NFKC", name) if unicodedata.category(char) != "Cf")
    return " ".join(visible.casefold().split())


# ---- new games ---------------------------------------------------------------------------------------------

# The largest seed a game takes: its save keeps it, and save files refuse numbers of more than 40 digits.
SEED_DIGITS = 20
MAX_SEED = 10 ** SEED_DIGITS - 1


def shared_places(keys: Sequence[Any]) -> list[int]:
    """The place of each entry of a ranking, given in order by what ranks it (`keys`): entries with equal keys
    share a place, and the next one takes its own rank (1, 1, 3)."""
    places: list[int] = []
    for index, key in enumerate(keys):
        places.append(places[-1] if index and key == keys[index - 1] else index + 1)
    return places


def next_seed(seed: int) -> int:
    """The seed of the game that follows a game of `seed` (a match's next game): one more, and 0 after MAX_SEED
    (a match begun with the largest seed taken must reach its next game)."""
    return 0 if seed >= MAX_SEED else seed + 1


def game_seed(seed: Any) -> int:
    """The seed given to a new game, or one drawn now when none is (the game keeps it)."""
    if seed is None:
        return random.SystemRandom().randrange(2 ** 31)
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise BadInput(f"the seed must be a whole number from 0 to {MAX_SEED}, not {seed!r}")
    return seed


def setup_arguments(setup: Any, known: Collection[str]) -> dict[str, Any]:
    """A copy of a setup mapping (what setup_json gave), its shape checked: a list of players, no unknown field."""
    if not isinstance(setup, dict) or not isinstance(setup.get("players"), list):
        raise BadInput("a game setup needs a list of players")
    unknown = sorted(set(setup) - set(known))
    if unknown:
        raise BadInput(f"unknown setup field '{unknown[0]}'")
    return dict(setup)


# ---- a game kept as a setup and a log ----------------------------------------------------------------------

class LoggedGame(ABC):
    """A game whose state is its setup plus its log of actions: replay, save and load, copy.

    A game names itself in its saves by its spec (the stem, and the title in the messages that refuse a
    document) and says why a save whose snapshot disagrees with its log is refused (SAVE_INCONSISTENT).
    """

    SPEC: ClassVar[GameSpec]
    SAVE_FORMAT: ClassVar[int] = 1
    SAVE_INCONSISTENT: ClassVar[Reason]
    SAVE_INCONSISTENT_MESSAGE: ClassVar[str | None] = None

    players: tuple[str, ...]
    actions: list[Any]  # every applied action, in order (read only)
    _phase: str

    @property
    def phase(self) -> str:
        """Where the game stands, one of its phase constants; OVER once it has ended."""
        return self._phase

    # ---- what each game provides ------------------------------------------------------------------------

    @classmethod
    @abstractmethod
    def from_setup(cls, setup: Any) -> Self:
        """A new game from what setup_json() gave (checked as new() checks its arguments)."""

    @abstractmethod
    def setup_json(self) -> dict[str, Any]:
        """What from_setup needs to start this game again."""

    @abstractmethod
    def snapshot(self) -> dict[str, Any]:
        """The state as plain data."""

    @abstractmethod
    def refusal(self, action: Any) -> Reason | None:
        """None if `action` is legal now, else the Reason it is refused (the rules; `check` is what callers use)."""

    @abstractmethod
    def play(self, action: Any) -> Any:
        """Play a legal `action` (the rules; `apply` is what callers use): what apply returns."""

    # ---- one check per action -----------------------------------------------------------------------------

    _passed: Any = None  # the action check() found legal last, until an action is applied (a copy starts without)

    def check(self, action: Any) -> Reason | None:
        """None if `action` is legal now, else the Reason it is refused. The action found legal (that very
        object: an equal one may hold True for 1) is not checked again when it is applied next."""
        reason = self.refusal(action)
        self._passed = action if reason is None else None
        return reason

    def apply(self, action: Any) -> Any:
        """Play `action`; an illegal one raises RuleViolation carrying the Reason and changes nothing."""
        passed, self._passed = self._passed, None
        if passed is None or passed is not action:  # (None is no action: nothing was found legal)
            reason = self.refusal(action)
            if reason is not None:
                refuse(reason)
        return self.play(action)

    @abstractmethod
    def legal_actions(self) -> Sequence[Any]:
        """Every legal action now (empty once the game is over); each one passes check()."""

    @staticmethod
    @abstractmethod
    def action_from_json(data: Any) -> Any:
        """An action of this game from its JSON form; anything else is BadInput."""

    def save_labels(self) -> dict[str, Any]:
        """Fields a save holds after the game id, to tell what kind of game it is (none by default)."""
        return {}

    @staticmethod
    def action_to_json(action: Any) -> dict[str, Any]:
        """The JSON form of an action of this game."""
        data: dict[str, Any] = action.to_json()
        return data

    @abstractmethod
    def _copy_state(self, twin: Self) -> None:
        """Give `twin` (a shallow copy) its own copies of what apply() changes in place."""

    # ---- copies and saves ---------------------------------------------------------------------------------

    def copy(self) -> Self:
        """An independent game in the same state."""
        twin = object.__new__(type(self))
        twin.__dict__.update(self.__dict__)
        twin._passed = None  # a copy may be changed otherwise than by apply (Dino's eggs shown)
        twin.actions = list(self.actions)
        self._copy_state(twin)
        return twin

    @classmethod
    def replay(cls, setup: Any, actions: Sequence[Any]) -> Self:
        """The game that `setup` (see from_setup) and `actions` (objects or their JSON) lead to.

        An action that is illegal at its place raises ReplayRefused (its number and the Reason)."""
        game = cls.from_setup(setup)
        for number, action in enumerate(actions, start=1):
            if isinstance(action, dict):
                action = cls.action_from_json(action)
            try:
                game.apply(action)  # checks it first: one check per action
            except RuleViolation as refused:
                raise ReplayRefused(number, refused.reason) from None
        return game

    def to_json(self) -> dict[str, Any]:
        """The setup, the action log and a readable snapshot of the state."""
        return {"game": self.SPEC.stem, **self.save_labels(), "format": self.SAVE_FORMAT, "setup": self.setup_json(),
                "actions": [self.action_to_json(action) for action in self.actions], "snapshot": self.snapshot()}

    @classmethod
    def from_json(cls, data: Any) -> Self:
        """The game saved by to_json; a snapshot that disagrees with the replayed log is refused."""
        if not isinstance(data, dict) or data.get("game") != cls.SPEC.stem or "setup" not in data:
            raise BadInput(f"not a saved {cls.SPEC.title} game (expected game, setup and actions)")
        if data.get("format") != cls.SAVE_FORMAT:
            raise BadInput(f"unknown save format {data.get('format')!r}: this version reads format {cls.SAVE_FORMAT}")
        if not isinstance(data.get("actions", []), list):
            raise BadInput("the saved actions must be a list")
        game = cls.replay(data["setup"], data.get("actions", []))
        if "snapshot" in data and data["snapshot"] != game.snapshot():
            refuse(cls.SAVE_INCONSISTENT, cls.SAVE_INCONSISTENT_MESSAGE)
        return game
