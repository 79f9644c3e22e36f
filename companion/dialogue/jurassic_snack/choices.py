"""What a Jurassic Snack player may answer now, in words: the choices of the effect under way (where a new or
flying piece may land, which boards and grass squares may be chosen) and examples of what to say, each taken
from the legal actions of the game as it stands, so that every example the program offers is accepted.

Shared by the table (its prompts and the help of each question) and its queries ("coups possibles", "cases
vides").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.games.jurassic_snack.actions import Erupt, Fly, Hatch, Look, Move, Scout
from companion.games.jurassic_snack.engine import ACTION, EFFECT, EMPTY, GRASS, REVEAL
from companion.games.jurassic_snack.ids import AIR_STRIKE, AIR_TRANSPORT, BIRTH, SCOUTING

if TYPE_CHECKING:
    from companion.dialogue.jurassic_snack.table import JurassicSnackTable

# Help lists the squares themselves up to this many; beyond, it says how many and the query that lists them.
LISTED_IN_HELP = 6


def empty_squares_words(table: JurassicSnackTable) -> str:
    """The empty squares, or that there is none."""
    squares = table.game.squares_with(EMPTY)
    if not squares:
        return table.text("empty_none")
    return table.text("empty_squares", count=len(squares), squares=[table.square_words(s) for s in squares])


def effect_choices(table: JurassicSnackTable) -> str:
    """Every choice the effect under way allows: the pieces that may fly, where a piece may land, the boards
    or the grass squares that may be chosen."""
    game = table.game
    effect = game.pending
    squares = [table.square_words(s) for s in game.squares_with(EMPTY)]
    if effect == BIRTH:
        return table.text("choices_birth", squares=squares)
    if effect in (AIR_TRANSPORT, AIR_STRIKE):
        return table.text("choices_fly", pieces=flying_pieces(table), squares=squares)
    if effect == SCOUTING:
        return table.text("choices_scouting", boards=_boards(table, "and"))
    grass = game.squares_with(GRASS)
    return table.text("choices_grass", count=len(grass), squares=[table.square_words(s) for s in grass])


def flying_pieces(table: JurassicSnackTable) -> list[str]:
    """The pieces the flight under way may take, each with its square ("un diplo bleu en B5")."""
    sources = dict.fromkeys(action.source for action in table.game.legal_actions() if isinstance(action, Fly))
    return [table.text("piece_at", piece=table.content_words(square), square=table.square_words(square))
            for square in sources]


def _boards(table: JurassicSnackTable, word: str = "or") -> str:
    """The boards that may be looked at, as a choice ("A, B ou D"), or a list (`word` "and")."""
    boards = [action.board for action in table.game.legal_actions() if isinstance(action, Scout)]
    return table.session.catalog.join(boards, word)


def help_params(table: JurassicSnackTable) -> dict[str, Any]:
    """What the help of the open question fills in: an example of each thing it asks for, taken from the legal
    actions, and for an effect that places a piece or picks squares, its choices (listed when short, else how
    to hear them)."""
    game = table.game
    if game.phase == REVEAL:
        return {"tokens": table.token_names()}
    if game.phase == ACTION:
        return _move_examples(table)
    if game.phase != EFFECT:
        return {}
    params = prompt_params(table)
    if game.pending in (BIRTH, AIR_TRANSPORT, AIR_STRIKE):
        count = len(game.squares_with(EMPTY))
        params["choices"] = effect_choices(table) if count <= LISTED_IN_HELP else table.text(
            "choices_ask", count=count)
    return params


def prompt_params(table: JurassicSnackTable) -> dict[str, Any]:
    """The example and the boards the question of the effect under way says."""
    game, say = table.game, table.square_words
    legal = game.legal_actions()
    example = ""
    first = legal[0] if legal else None
    if isinstance(first, Hatch):
        example = say(first.square)
    elif isinstance(first, Fly):
        example = table.text("said.fly", source=say(first.source), target=say(first.target))
    elif isinstance(first, Scout):
        example = table.text("said.board", board=first.board)
    named = [action for action in legal if isinstance(action, (Erupt, Look)) and action.squares]
    if named:
        squares = named[0].squares
        example = say(squares[0]) if len(squares) == 1 else table.text("said.two", first=say(squares[0]),
                                                                       second=say(squares[1]))
    return {"example": example, "boards": _boards(table) if game.pending == SCOUTING else "",
            "board_list": _boards(table, "and") if game.pending == SCOUTING else ""}


def _move_examples(table: JurassicSnackTable) -> dict[str, Any]:
    """A move the player whose turn it is may make, said by its direction and by the square it reaches."""
    game, say = table.game, table.square_words
    move = next((action for action in game.legal_actions() if isinstance(action, Move)), None)
    if move is None:
        return {}
    target = game.slide(move.square, move.direction).target
    return {"move": table.text("said.move", **table.param_words({"piece": move.piece, "square": move.square,
                                                                  "direction": move.direction})),
            "move_to": table.text("said.move_to", square=say(move.square), target=say(target)),
            "square": say(move.square), "towards": table.text(f"towards.{move.direction}")}
