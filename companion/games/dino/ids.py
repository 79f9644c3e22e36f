"""Canonical ids of Dino shared by engine, board data, grammars and voices."""

from __future__ import annotations

# Every colour a board file may give to pawns, start positions, eggs and nests (names in voices/*/names/dino.yaml).
COLOURS: tuple[str, ...] = ("red", "orange", "yellow", "green", "blue", "purple", "white", "black")

MIN_PLAYERS, MAX_PLAYERS = 2, 6
PAWNS_PER_PLAYER = 2
POINTS_PER_TURN = 4
EGGS_PER_COLOUR = 6
MIN_BARRIERS, MAX_BARRIERS = 3, 5  # at least three; the box holds five dinosaur figures
EGG_POINTS, COLOUR_POINTS = 1, 5
OWN_EXITS_MAX_PLAYERS = 3  # the own-colour exits variant is for two or three players

# How many eggs each nest holds: the rule (players + 1) and the two harder variants.
EGGS_RULES: dict[str, int] = {"players_plus_one": 1, "players": 0, "players_minus_one": -1}
DEFAULT_EGGS_RULE = "players_plus_one"


def eggs_per_nest(players: int, rule: str) -> int:
    """Eggs stacked on each nest: players + 1 (at most the six of a colour), or a variant."""
    return min(EGGS_PER_COLOUR, players + EGGS_RULES[rule])
