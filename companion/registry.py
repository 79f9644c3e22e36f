"""The games companion plays: one GameSpec each, registered in GAMES and nowhere else.

Everything that depends on the list of games reads it here: the command line (`play`, `resume`, `score`,
`rules`, `parse`), the grammars, the rules books and the save files. A spec names its parts as
"module:attribute" strings, imported only when that game is used, so that starting one game never loads
the others.

Files of a game whose spec has stem S and namespace N:
- companion/games/S/ (the rules engine) and companion/dialogue/S/ (its table: questions, queries, set-up);
- grammars/S.states.yaml (its dialogue states), grammars/<lang>/S.yaml and S.examples.yaml (what is heard);
- voices/<lang>/messages/S.yaml (what is said, keys under "N." and reasons "reasons.N_..."),
  voices/<lang>/rules/S.yaml (its rules, read aloud).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from companion.errors import BadInput
from companion.games.bots import LEVELS


@dataclass(frozen=True)
class Option:
    """One command-line option of `companion play GAME`: argparse's flags and keyword arguments."""

    flags: tuple[str, ...]
    settings: dict[str, Any] = field(default_factory=dict)

    def add_to(self, parser: argparse.ArgumentParser) -> None:
        parser.add_argument(*self.flags, **self.settings)


@dataclass(frozen=True)
class GameSpec:
    """One game: its names, where its parts live, and its own options."""

    id: str  # on the command line and in save files: "jurassic-snack"
    title: str  # as said and printed: "Jurassic Snack"
    stem: str  # in file names: "jurassic_snack"
    namespace: str  # prefix of its message keys ("js.") and of its reason codes ("js_")
    engine: str  # "module:Class" of its rules engine (a LoggedGame)
    table: str  # "module:Class" of its table (a dialogue.turn.Table)
    options: tuple[Option, ...] = ()
    rule_options: str | None = None  # "module:Class" of the rule options its rules texts depend on
    scorer: str | None = None  # "module:function" scoring a file of results, for `companion score`

    def engine_class(self) -> Any:
        return _load(self.engine)

    def table_class(self) -> Any:
        return _load(self.table)

    def rule_options_class(self) -> Any:
        return None if self.rule_options is None else _load(self.rule_options)

    def score_file(self) -> Any:
        return None if self.scorer is None else _load(self.scorer)

    def add_options(self, parser: argparse.ArgumentParser) -> None:
        for option in self.options:
            option.add_to(parser)


def _load(path: str) -> Any:
    module, _, name = path.partition(":")
    return getattr(import_module(module), name)


def _path_option(flag: str, help_text: str, metavar: str = "FILE") -> Option:
    return Option((flag,), {"type": Path, "metavar": metavar, "help": help_text})


def _solo_options(most_bots: int, solo_help: str, default_bots: int = 1) -> tuple[Option, ...]:
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


GAMES: tuple[GameSpec, ...] = (
    GameSpec(
        id="draftosaurus", title="Draftosaurus", stem="draftosaurus", namespace="draft",
        engine="companion.games.draftosaurus.engine:Game", table="companion.dialogue.draftosaurus:DraftosaurusTable",
        rule_options="companion.games.draftosaurus.options:Options",
        scorer="companion.commands.score:score_draftosaurus",
        options=(
            Option(("--die",), {"default": "physical", "choices": ("physical", "virtual"),
                                "help": "roll the real die and say the face (default), or let the program roll"}),
            Option(("--only-mine",), {"metavar": "NAME",
                                      "help": "follow only this player's zoo; the others say how many of the "
                                              "King's species they have at the end"}),
            Option(("--trio-points",), {"type": int, "choices": (6, 7),
                                        "help": "points of a full woody trio (default 7)"}),
            Option(("--river-counts-for-island",), {"action": "store_true",
                                                    "help": "river dinosaurs count for the solitary island"}),
            Option(("--river-counts-for-king",), {"action": "store_true",
                                                  "help": "river dinosaurs count for the king of the jungle"}),
            Option(("--board",), {"metavar": "summer|winter|FILE",
                                  "help": "side of the zoo boards: summer (default) or winter; or a YAML file of the "
                                          "values printed on your winter board (see "
                                          "companion/games/draftosaurus/boards/winter.yaml)"}),
            Option(("--match",), {"choices": ("summer-winter",),
                                  "help": "two games in a row with the same players, summer then winter, the "
                                          "scores added"}),
            *_solo_options(4, "play alone against bots: the program deals, rolls the die and plays the other "
                              "seats", default_bots=3),
        )),
    GameSpec(
        id="jurassic-snack", title="Jurassic Snack", stem="jurassic_snack", namespace="js",
        engine="companion.games.jurassic_snack.engine:Game",
        table="companion.dialogue.jurassic_snack:JurassicSnackTable",
        options=(
            Option(("--tokens",), {"choices": ("physical", "hidden"),
                                   "help": "turn the real tokens and say them, or let the program draw hidden ones"}),
            _path_option("--layout", "JSON file describing how the four boards lie"),
            Option(("--quiet-turns",), {"type": int, "choices": (2, 4),
                                        "help": "turns in a row without eating or chasing that end the game "
                                                "(default 2)"}),
            *_solo_options(1, "play alone against a bot: you play blue and start, the program draws hidden "
                              "tokens and plays yellow"),
        )),
    GameSpec(
        id="dino", title="Dino", stem="dino", namespace="dino",
        engine="companion.games.dino.engine:Game", table="companion.dialogue.dino:DinoTable",
        options=(
            _path_option("--board", "a YAML board description edited to match your board (default: the one shipped)"),
            *_solo_options(5, "play alone against bots: the program draws the nests and barriers and plays the "
                              "other seats", default_bots=2),
        )),
)

_BY_ID = {spec.id: spec for spec in GAMES}


def ids() -> tuple[str, ...]:
    """The games' ids, in the order of GAMES."""
    return tuple(_BY_ID)


def game(name: str) -> GameSpec:
    """The game called `name`: its id ("jurassic-snack"), its stem ("jurassic_snack") or its title, in any
    case and with spaces, hyphens or underscores; BadInput listing the games otherwise."""
    wanted = "-".join(str(name).replace("_", " ").replace("-", " ").casefold().split())
    for spec in GAMES:
        if wanted in (spec.id, spec.stem.replace("_", "-"), "-".join(spec.title.casefold().split())):
            return spec
    raise BadInput(f"unknown game '{name}': choose one of {', '.join(ids())}")
