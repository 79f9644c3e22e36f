"""What the program needs to know of a game: its GameSpec, declared in the game's own package (`spec.py`) and
listed in companion/registry.py.

A spec names the game's parts as "module:attribute" strings, imported only when that game is used, so that
starting one game never loads the others. It also says which message parameters and heard slots hold the
game's canonical ids (a species, a pen, a colour) and how they are said, so that the catalog, `companion
parse` and the narration need no list of their own. A game whose sentences and rules live in its own folder
(a game kept outside the package, like the test game of tests/games/) gives that folder as `voices` and
`grammars`; the others use the package's voices/ and grammars/.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from companion.games.levels import LEVELS

FROM_ONE = "from_one"  # a slot_words entry: an index said counted from 1 (Dino's pawns 0 and 1: "1", "2")


@dataclass(frozen=True)
class Option:
    """One command-line option of `companion play GAME`: argparse's flags and keyword arguments."""

    flags: tuple[str, ...]
    settings: dict[str, Any] = field(default_factory=dict)

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(*self.flags, **self.settings)


@dataclass(frozen=True, eq=False)
class GameSpec:
    """One game: its names, where its parts live, its own options, and how its ids are said."""

    id: str  # on the command line and in save files: "jurassic-snack"
    title: str  # as said and printed: "Jurassic Snack"
    stem: str  # in file names, and in the engine's saved state: "jurassic_snack"
    namespace: str  # prefix of its message keys ("js.") and of its reason codes ("js_")
    engine: str  # "module:Class" of its rules engine (a LoggedGame)
    table: str  # "module:Class" of its table (a dialogue.turn.Table)
    random_start: str  # "module:function": seed -> a new game, its players and options drawn from the seed
    options: tuple[Option, ...] = ()
    rule_options: str | None = None  # "module:Class" of the rule options its rules texts depend on
    scorer: str | None = None  # "module:function" scoring a file of results, for `companion score`
    # Message parameters and heard slots that hold one canonical id, and the names.yaml section that says it
    # ("pen" -> "pens"); parameters that hold a list of ids ("pens" -> "pens").
    ids: Mapping[str, str] = field(default_factory=dict)
    id_lists: Mapping[str, str] = field(default_factory=dict)
    # How other heard slots are said: the message "<prefix>.<value>" ("piece" -> "js.pieces"), or FROM_ONE.
    slot_words: Mapping[str, str] = field(default_factory=dict)
    # Sections of the names whose ids are also rule topics ("river" is a pen and a topic).
    topic_names: tuple[str, ...] = ()
    # The folders of its sentences (<voices>/<lang>/messages, names, rules) and of what it hears
    # (<grammars>/<stem>.states.yaml, <grammars>/<lang>/<stem>.yaml): None for the package's own.
    voices: Path | None = None
    grammars: Path | None = None

    def voices_folder(self) -> Path:
        """The folder of its sentences, names and rules: <folder>/<lang>/messages/, names/, rules/."""
        from companion.paths import voices_dir

        return self.voices or voices_dir()

    def grammars_folder(self) -> Path:
        """The folder of what it hears: <folder>/<stem>.states.yaml and <folder>/<lang>/<stem>.yaml."""
        from companion.paths import grammars_dir

        return self.grammars or grammars_dir()

    def engine_class(self) -> Any:
        return _load(self.engine)

    def table_class(self) -> Any:
        return _load(self.table)

    def rule_options_class(self) -> Any:
        return None if self.rule_options is None else _load(self.rule_options)

    def score_file(self) -> Any:
        return None if self.scorer is None else _load(self.scorer)

    def new_random(self, seed: int) -> Any:
        """A new game at its start, everything a table would choose drawn from `seed`."""
        return _load(self.random_start)(seed)

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        for option in self.options:
            option.add_to(parser)


def _load(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(import_module(module), name)


def path_option(flag: str, help_text: str, metavar: str = "FILE") -> Option:
    return Option((flag,), {"type": Path, "metavar": metavar, "help": help_text})


def solo_options(most_bots: int, solo_help: str, default_bots: int = 1) -> tuple[Option, ...]:
    """Solo play against bots (up to `most_bots`, `default_bots` without --bots; one bot: no --bots; `solo_help`
    says what the program does then), and advice at a table of people."""
    options = [Option(("--solo",), {"action": "store_true", "help": solo_help})]
    if most_bots > 1:
        options.append(Option(("--bots",), {"type": int, "choices": range(1, most_bots + 1), "metavar": "N",
                                            "help": f"how many bots play in solo, 1 to {most_bots} "
                                                    f"(default {default_bots})"}))
    options += [Option(("--level",), {"choices": LEVELS,
                                      "help": "the bots' level in solo (default strong)"}),
                Option(("--advice",), {"action": "store_true",
                                       "help": "at a table of several people, answer requests for advice "
                                               "(always on in solo)"})]
    return tuple(options)
