"""Jurassic Snack as the program knows it: its ids, options and parts (listed in companion/registry.py)."""

from __future__ import annotations

from companion.games.spec import GameSpec, Option, path_option, solo_options

SPEC = GameSpec(
    id="jurassic-snack", title="Jurassic Snack", stem="jurassic_snack", namespace="js",
    engine="companion.games.jurassic_snack.engine:Game",
    table="companion.dialogue.jurassic_snack:JurassicSnackTable",
    random_start="companion.games.jurassic_snack.simulate:random_start",
    # Its pieces, colours, directions and tokens are said by its own messages ("js.pieces.diplo").
    slot_words={"piece": "js.pieces", "color": "js.colors", "direction": "js.directions", "token": "js.tokens"},
    options=(
        Option(("--tokens",), {"choices": ("physical", "hidden"),
                               "help": "turn the real tokens and say them, or let the program draw hidden ones"}),
        path_option("--layout", "JSON file describing how the four boards lie"),
        Option(("--quiet-turns",), {"type": int, "choices": (2, 4),
                                    "help": "turns in a row without eating or chasing that end the game "
                                            "(default 2)"}),
        *solo_options(1, "play alone against a bot: you play blue and start, the program draws hidden "
                         "tokens and plays yellow"),
    ))
