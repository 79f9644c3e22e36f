"""Draftosaurus as the program knows it: its ids, options and parts (listed in companion/registry.py)."""

from __future__ import annotations

from companion.games.spec import GameSpec, Option, solo_options

SPEC = GameSpec(
    id="draftosaurus", title="Draftosaurus", stem="draftosaurus", namespace="draft",
    engine="companion.games.draftosaurus.engine:Game", table="companion.dialogue.draftosaurus:DraftosaurusTable",
    random_start="companion.games.draftosaurus.simulate:random_start",
    rule_options="companion.games.draftosaurus.options:Options",
    scorer="companion.commands.score:score_draftosaurus",
    ids={"species": "species", "pen": "pens", "face": "faces", "position": "positions", "beside": "positions",
         "board_side": "board_sides", "board_value": "board_values",
         **{f"card{number}": "species" for number in range(1, 7)}},  # a hand said card by card
    id_lists={"species_list": "species", "pens": "pens", "faces": "faces", "positions": "positions",
              "board_sides": "board_sides", "board_values": "board_values"},
    topic_names=("pens", "faces"),
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
        *solo_options(4, "play alone against bots: the program deals, rolls the die and plays the other "
                         "seats", default_bots=3),
    ))
