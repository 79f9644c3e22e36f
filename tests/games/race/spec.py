"""The race as the program knows it; the tests add it with registry.register(SPEC)."""

from __future__ import annotations

from pathlib import Path

from companion.games.spec import GameSpec, Option

HERE = Path(__file__).resolve().parent

SPEC = GameSpec(
    id="race", title="Race", stem="race", namespace="race",
    engine="tests.games.race.engine:Game", table="tests.games.race.table:RaceTable",
    random_start="tests.games.race.engine:random_start",
    voices=HERE / "voices", grammars=HERE / "grammars",
    options=(Option(("--squares",), {"type": int, "choices": range(4, 21), "metavar": "N",
                                     "help": "how many squares the line has, 4 to 20 (default 8)"}),))
