"""Dino as the program knows it: its ids, options and parts (listed in companion/registry.py)."""

from __future__ import annotations

from companion.games.spec import FROM_ONE, GameSpec, path_option, solo_options

SPEC = GameSpec(
    id="dino", title="Dino", stem="dino", namespace="dino",
    engine="companion.games.dino.engine:Game", table="companion.dialogue.dino:DinoTable",
    random_start="companion.games.dino.simulate:random_start",
    ids={"colour": "colours", "egg": "colours"},
    id_lists={"colours": "colours", "free_colours": "colours"},
    slot_words={"pawn": FROM_ONE},  # pawns 0 and 1 inside, first and second when said
    options=(
        path_option("--board", "a YAML board description edited to match your board (default: the one shipped)"),
        *solo_options(5, "play alone against bots: the program draws the nests and barriers and plays the "
                         "other seats", default_bots=2),
    ))
