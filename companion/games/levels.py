"""The bots' levels, shared by every game's options (companion/games/spec.py) and its bots (bots.py)."""

from __future__ import annotations

RANDOM, GREEDY, STRONG = "random", "greedy", "strong"
LEVELS: tuple[str, ...] = (RANDOM, GREEDY, STRONG)
