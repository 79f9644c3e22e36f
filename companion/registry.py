"""The games companion plays: each game's package declares its GameSpec (companion/games/<stem>/spec.py), and
GAMES lists them here, by name, and nowhere else.

Everything that depends on the list of games reads it here: the command line (`play`, `resume`, `score`,
`rules`, `parse`), the grammars, the catalogs, the rules books and the save files. `register` adds a game kept
outside the package (the tests' own game, tests/games/), as OpenSpiel's register_game does.
"""

from __future__ import annotations

from companion.errors import BadInput
from companion.games.dino.spec import SPEC as DINO
from companion.games.draftosaurus.spec import SPEC as DRAFTOSAURUS
from companion.games.jurassic_snack.spec import SPEC as JURASSIC_SNACK
from companion.games.spec import GameSpec, Option

__all__ = ["GAMES", "GameSpec", "Option", "game", "ids", "register"]

GAMES: tuple[GameSpec, ...] = (DRAFTOSAURUS, JURASSIC_SNACK, DINO)


def register(spec: GameSpec) -> None:
    """Add a game to GAMES; its id, stem and namespace must be nobody else's (registering it again changes
    nothing)."""
    global GAMES
    if spec in GAMES:
        return
    for other in GAMES:
        for what in ("id", "stem", "namespace"):
            if getattr(other, what) == getattr(spec, what):
                raise ValueError(f"game {spec.id}: its {what} '{getattr(spec, what)}' is already {other.id}'s")
    GAMES = (*GAMES, spec)


def ids() -> tuple[str, ...]:
    """The games' ids, in the order of GAMES."""
    return tuple(spec.id for spec in GAMES)


def game(name: str) -> GameSpec:
    """The game called `name`: its id ("jurassic-snack"), its stem ("jurassic_snack") or its title, in any
    case and with spaces, hyphens or underscores; BadInput listing the games otherwise."""
    wanted = "-".join(str(name).replace("_", " ").replace("-", " ").casefold().split())
    for spec in GAMES:
        if wanted in (spec.id, spec.stem.replace("_", "-"), "-".join(spec.title.casefold().split())):
            return spec
    raise BadInput(f"unknown game '{name}': choose one of {', '.join(ids())}")
