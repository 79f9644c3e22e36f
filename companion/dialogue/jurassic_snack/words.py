"""How the Jurassic Snack table says squares, pieces, colours, directions and tokens, and reads the squares
and players a sentence names. Shared by its table and its queries."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from companion.games.jurassic_snack.ids import COLORS, DIPLO, DIRECTIONS, TOKENS, TREX

if TYPE_CHECKING:
    from companion.dialogue.session import Session
    from companion.games.jurassic_snack.engine import Game

_SQUARE_PARAMS = ("square", "source", "target", "blocker_square", "stop")
# The slots that name a square: by its name, or by board and square on that board.
_SQUARE_SLOTS = {"square": ("square", "board", "local"), "target": ("target", "target_board", "target_local")}
_EFFECTS = ("birth", "scouting", "air_transport", "air_strike", "eruption", "look")


class SquareWords:
    """Words for what a Jurassic Snack table says; mixed into its Table (which gives game, session, text)."""

    game: Game
    session: Session
    text: Callable[..., str]  # the Table's: a sentence of this game's catalog namespace

    def param_words(self, params: dict[str, Any]) -> dict[str, Any]:
        """Params with the ids said in words: squares, colours, pieces, directions, tokens, effects, contents."""
        text = self.text
        words = dict(params)
        if "piece" in params:
            color = params.get("color")
            words["color_piece"] = text(f"color_piece.{params['piece']}",
                                        color=text(f"colors.{color}") if color in COLORS else "")
            words["piece"] = text(f"pieces.{params['piece']}") if params["piece"] in (DIPLO, TREX) else params["piece"]
        if params.get("color") in COLORS:
            words["team"] = text(f"team.{params['color']}")
        for key in _SQUARE_PARAMS:
            if key in params:
                words[key] = self.square_words(params[key]) if params[key] else ""
        if params.get("direction") in DIRECTIONS:
            words["towards"] = text(f"towards.{params['direction']}")
        if "squares" in params:
            words["squares"] = [self.square_words(square) for square in params["squares"]]
        for key, section, known in (("color", "colors", COLORS), ("direction", "directions", DIRECTIONS),
                                    ("token", "tokens", TOKENS), ("effect", "effects", _EFFECTS),
                                    ("found", "contents", None), ("blocker", "contents", None)):
            value = params.get(key)
            if isinstance(value, str) and (known is None or value in known):
                words[key] = text(f"{section}.{value}")
        return words

    def square_words(self, square: str | None) -> str:
        """"B4" on the default square; "board A square B2" on any other assembly."""
        layout = self.game.layout
        if square is None or layout.is_default or square not in layout.coords:
            return square or ""
        board, local = layout.local_name(square)
        return self.text("square_on_board", board=board, local=local)

    def content_words(self, square: str) -> str:
        return self.text(f"contents.{self.game.content(square)}")

    def square_from(self, slots: dict[str, Any], which: str = "square") -> str | None:
        """The square said ("square" or "target"): by its name ("B4") or by board and local square ("A", "B2")."""
        name, board, local = _SQUARE_SLOTS[which]
        if slots.get(name):
            return str(slots[name])
        if slots.get(board) and slots.get(local):
            return self.game.layout.square_at(str(slots[board]), str(slots[local]))
        return None
