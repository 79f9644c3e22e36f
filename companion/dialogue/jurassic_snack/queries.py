"""What players may ask in the middle of any Jurassic Snack question: squares, rows and columns, where pieces
are, the grass left, the actions left, where a move would stop, the moves there are, reserves, what each ate,
the boards, the scores, where the game stands, one's own secret; advice, and what a player played last."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.dialogue.jurassic_snack import advice
from companion.dialogue.session import Answer
from companion.dialogue.turn import SHARED_QUERIES, Queries
from companion.games.common import Reason
from companion.games.jurassic_snack.actions import Move
from companion.games.jurassic_snack.engine import EFFECT, GRASS, OVER, REVEAL
from companion.games.jurassic_snack.ids import COLORS, TREX
from companion.games.jurassic_snack.layout import COLUMN_LETTERS

if TYPE_CHECKING:
    from companion.dialogue.jurassic_snack.table import JurassicSnackTable

QUERIES = Queries(SHARED_QUERIES)
_NOT_NOW = ("js_not_your_turn", "js_effect_first", "js_reveal_first")  # a move may still be described


def player_from(table: JurassicSnackTable, slots: dict[str, Any]) -> int | None:
    """The player named (or whose colour was said); the player whose turn it is by default."""
    color = slots.get("color")
    return table.player_said(slots.get("player"), COLORS.index(str(color)) if color in COLORS else table.game.player)


@QUERIES.answers("what_square")
def what_square(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    square = table.square_from(slots)
    if square is None or square not in table.game.layout.coords:
        table.refuse(Reason("js_unknown_square", {"value": slots.get("square") or slots.get("local") or ""}))
        return
    table.say("square", square=table.square_words(square), content=table.content_words(square))


@QUERIES.answers("what_row")
def what_row(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    layout = table.game.layout
    if "row" in slots:
        line, index = int(slots["row"]) - 1, 1
    else:
        line, index = COLUMN_LETTERS.index(str(slots["column"])), 0
    squares = [s for s in layout.squares if layout.coords[s][index] == line]
    if index == 0:
        squares.sort(key=lambda s: -layout.coords[s][1])
    occupied = [table.text("row_item", square=table.square_words(s), content=table.content_words(s))
                for s in squares if table.game.content(s) != "empty"]
    content = table.session.catalog.say("list.clauses").join(occupied) if occupied else table.text("row_empty")
    if "row" in slots:
        table.say("row", line=slots["row"], content=content)
    else:
        table.say("column", line=slots["column"], content=content)


@QUERIES.answers("where_pieces")
def where_pieces(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    if slots.get("piece") == TREX:
        _say_squares(table, table.text("where_trex"), table.game.squares_with(TREX))
        table.say("trex_waiting", count=table.game.trex_waiting)
        return
    color = slots.get("color") or table.game.color(table.game.player)
    _say_squares(table, table.text("where_diplos", color=table.text(f"team.{color}")), table.game.squares_with(color))


def _say_squares(table: JurassicSnackTable, what: str, squares: list[str]) -> None:
    if squares:
        table.say("where_pieces", what=what, squares=[table.square_words(s) for s in squares])
    else:
        table.say("where_none", what=what)


@QUERIES.answers("grass_left")
def grass_left(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    game = table.game
    table.say("grass_left", count=game.grass_left, removed=game.removed)
    unseen = [table.text("unseen_item", count=count, token=table.text(f"tokens.{token}"))
              for token, count in game.tokens_unseen().items() if count]
    table.say("unseen", tokens=unseen)


@QUERIES.answers("actions_left")
def actions_left(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    table.say("actions_left", player=table.game.players[table.game.player], left=table.game.actions_left)


@QUERIES.answers("where_stops")
def where_stops(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    square, direction = table.square_from(slots), slots.get("direction")
    if square is None or direction is None:
        table.say("which_square", player=table.game.players[table.game.player])
        return
    action = table.move_from(slots, str(direction))
    game = table.game
    reason = game.check(Move(game.player, action.piece, action.square, action.direction))
    if reason is not None and reason.code not in _NOT_NOW:
        table.refuse(reason)
        return
    slide = game.slide(action.square, action.direction)
    if slide.target is None:
        table.refuse(Reason("js_blocked", {"piece": action.piece, "square": action.square,
                                           "direction": action.direction, "blocker": slide.blocker}))
        return
    if slide.enters_blocker:
        what = table.text("stops_eat" if slide.blocker == GRASS else "stops_chase",
                          color=table.text(f"colors.{slide.blocker}") if slide.blocker in COLORS else "")
    else:
        what = table.text("stops_plain", blocker=table.text(f"contents.{slide.blocker}"))
    table.say("stops", **table.param_words({"piece": action.piece, "color": game.content(action.square),
                                            "square": action.square, "direction": action.direction,
                                            "target": slide.target}), what=what)


@QUERIES.answers("moves")
def moves(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    say_moves(table, table.square_from(slots))


def say_moves(table: JurassicSnackTable, only: str | None) -> None:
    """The moves the player whose turn it is has (from one square, if given)."""
    by_square: dict[str, list[str]] = {}
    for action in table.game.legal_actions():
        if isinstance(action, Move) and only in (None, action.square):
            by_square.setdefault(action.square, []).append(action.direction)
    if table.game.phase == EFFECT:
        table.say("expected_effect", effect=table.text(f"effects.{table.game.pending}"))
        return
    if table.game.phase == REVEAL:
        table.say("expected_reveal", tokens=table.token_names())
        return
    if not by_square:
        table.say("no_moves" if only is None else "no_moves_from", square=table.square_words(only))
        return
    catalog = table.session.catalog
    items = [table.text("move_item", square=table.square_words(square), piece=table.content_words(square),
                        directions=catalog.join((table.text(f"directions.{d}") for d in directions), "or"))
             for square, directions in by_square.items()]
    table.say("moves", moves=table.session.catalog.say("list.clauses").join(items))


@QUERIES.answers("reserve")
def reserve(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    player = player_from(table, slots)
    if player is not None:
        table.say("reserve", player=table.game.players[player], count=table.game.reserve(player))


@QUERIES.answers("eaten")
def eaten(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    player = player_from(table, slots)
    if player is None:
        return
    score = table.game.score()[player]
    if not score.count:
        table.say("eaten_none", player=score.name)
        return
    table.say("eaten", player=score.name, count=score.count, tokens=table.token_list(score.tokens),
              points=score.points)


@QUERIES.answers("layout")
def layout(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    board_layout = table.game.layout
    boards = []
    for placement in sorted(board_layout.placements, key=lambda p: p.board):
        squares = [s for s in board_layout.squares if board_layout.board_of[s] == placement.board]
        corners = sorted(squares, key=lambda s: (board_layout.coords[s][1], board_layout.coords[s][0]))
        boards.append(table.text("board_at", board=placement.board, first=corners[0], last=corners[-1]))
    table.say("layout", boards=boards)
    for color in COLORS:
        table.say("eggs", color=table.text(f"team.{color}"),
                  squares=[table.square_words(s) for s in board_layout.eggs[color]])


@QUERIES.answers("score")
def score(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    for entry in table.game.score():
        table.say("score_line", player=entry.name, team=table.text(f"team.{entry.color}"), points=entry.points,
                  count=entry.count)


@QUERIES.answers("status", "whose_turn")
def status(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    game = table.game
    if game.phase == OVER:
        table.say("status_over")
        return
    table.say("status", turn=game.turn, player=game.players[game.player],
              team=table.text(f"team.{game.color(game.player)}"), left=game.actions_left, grass=game.grass_left,
              blue=len(game.squares_with("blue")), yellow=len(game.squares_with("yellow")),
              trex=len(game.squares_with(TREX)))


@QUERIES.answers("secret")
def secret(table: JurassicSnackTable, slots: dict[str, Any]) -> Answer | None:
    """The secrets of the player who asks: the one named, else the one whose turn it is; never another's
    unasked. The other player is warned first; the secret is never kept for "repeat" or "review"."""
    player = player_from(table, slots)
    if player is None:
        return None
    names = table.game.players
    if table.seats.is_bot(player):
        table.say("solo_bot_secret_kept", player=names[player])
        return None
    notes = [note for note in table.game.notes_for(player) if any(token for _, token in note.tokens)]
    if not notes:
        table.say("secret_none", player=names[player])
        return None
    if not table.seats.solo:  # in solo nobody else is there to overhear
        verdict = table.confirm(table.text("secret_warning", player=names[player], other=names[1 - player]),
                                table.state)
        if verdict is not True:
            table.say("secret_skipped")
            return verdict if isinstance(verdict, Answer) else None
    say_notes(table, notes)
    return None


def say_notes(table: JurassicSnackTable, notes: list[Any]) -> None:
    """What a player saw in secret, never kept for "repeat" or "review"."""
    for note in notes:
        if not any(token for _, token in note.tokens):
            continue
        tokens = [table.text("secret_token", square=table.square_words(square), token=table.text(f"tokens.{token}"))
                  for square, token in note.tokens]
        table.session.say_text(table.text(f"secret_note_{note.source}", tokens=tokens), remember=False)


@QUERIES.answers("advice")
def advice_query(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    """The best action for the player whose turn it is (or the one named, who must be that player)."""
    player = player_from(table, slots)
    if player is not None:
        advice.advise(table, player)


@QUERIES.answers("played")
def played(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    """The last turn of the player named, else of the other player."""
    player = table.player_said(slots.get("player"), 1 - table.game.player)
    if player is not None:
        advice.say_played(table, player)
