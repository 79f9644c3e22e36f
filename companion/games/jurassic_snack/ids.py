"""Canonical ids of Jurassic Snack: colours, pieces, directions and the seven kinds of grass token."""

from __future__ import annotations

from types import MappingProxyType

BLUE, YELLOW = "blue", "yellow"
COLORS: tuple[str, ...] = (BLUE, YELLOW)  # player 0 plays blue and starts, player 1 plays yellow

DIPLO, TREX = "diplo", "trex"
PIECES: tuple[str, ...] = (DIPLO, TREX)
DIPLOS_PER_COLOR = 5
TREX_COUNT = 2

NORTH, EAST, SOUTH, WEST = "north", "east", "south", "west"
DIRECTIONS: tuple[str, ...] = (NORTH, EAST, SOUTH, WEST)
# (columns, rows) one step moves; rows are counted from the south edge, like a chess board.
STEPS = MappingProxyType({NORTH: (0, 1), EAST: (1, 0), SOUTH: (0, -1), WEST: (-1, 0)})

BIRTH, SCOUTING, AIR_TRANSPORT, AIR_STRIKE, ERUPTION, SURPRISE, YUM_YUM = (
    "birth", "scouting", "air_transport", "air_strike", "eruption", "surprise", "yum_yum")
TOKENS: tuple[str, ...] = (BIRTH, SCOUTING, AIR_TRANSPORT, AIR_STRIKE, ERUPTION, SURPRISE, YUM_YUM)
TOKEN_COUNTS = MappingProxyType({BIRTH: 3, SCOUTING: 2, AIR_TRANSPORT: 4, AIR_STRIKE: 3, ERUPTION: 2,
                                 SURPRISE: 2, YUM_YUM: 12})
TOKEN_POINTS = MappingProxyType({BIRTH: 1, SCOUTING: 1, AIR_TRANSPORT: 1, AIR_STRIKE: 1, ERUPTION: 1,
                                 SURPRISE: 3, YUM_YUM: 2})
TOKEN_TOTAL = sum(TOKEN_COUNTS.values())  # 28

# The fallback of an effect that cannot apply: a look at tokens.
LOOK = "look"
LOOK_COUNT = 2
ERUPTION_COUNT = 2
