"""What players may ask in the middle of any Jurassic Snack question: squares, rows and columns, where pieces
are, the grass left, the actions left, where a move would stop, the moves there are, reserves, what each ate,
the boards, the scores, where the game stands, one's own secret; advice, and what a player played last."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from companion.dialogue.jurassic_snack import advice
from companion.dialogue.jurassic_snack.choices import effect_choices, empty_squares_words
from companion.dialogue.session import Answer
from companion.dialogue.turn import SHARED_QUERIES, Queries
from companion.games.common import OVER, Reason
from companion.games.jurassic_snack.actions import Move
from companion.games.jurassic_snack.engine import EFFECT, EMPTY, GRASS, REVEAL
from companion.games.jurassic_snack.ids import COLORS, DIPLO, TREX
from companion.games.jurassic_snack.layout import COLUMN_LETTERS

if TYPE_CHECKING:
    from companion.dialogue.jurassic_snack.table import JurassicSnackTable

QUERIES = Queries(SHARED_QUERIES)


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
    if "row" in slots:
        table.say("row", line=slots["row"], content=line_words(table, int(slots["row"]) - 1, 1))
    else:
        table.say("column", line=slots["column"],
                  content=line_words(table, COLUMN_LETTERS.index(str(slots["column"])), 0))


def line_words(table: JurassicSnackTable, line: int, index: int) -> str:
    """Every square of a row (`index` 1: west to east) or column (0: north to south) and what it holds; squares
    side by side that are empty, or that hold grass, are said together ("de C1 à E1, vides")."""
    layout, game = table.game.layout, table.game
    squares = [s for s in layout.squares if layout.coords[s][index] == line]
    if index == 0:
        squares.sort(key=lambda s: -layout.coords[s][1])
    items: list[str] = []
    run: list[str] = []
    for square in [*squares, ""]:
        if run and square and game.content(square) == game.content(run[0]) and _side_by_side(table, run[-1], square):
            run.append(square)
            continue
        if run:
            items.append(_run_words(table, run, whole=len(run) == len(squares)))
        run = [square] if square and game.content(square) in _GROUPED else []
        if square and not run:
            items.append(table.text("row_item", square=table.square_words(square), content=table.content_words(square)))
    return table.session.catalog.say("list.clauses").join(items)


_GROUPED = (EMPTY, GRASS)  # what squares side by side are said together for


def _side_by_side(table: JurassicSnackTable, first: str, second: str) -> bool:
    (a, b), (c, d) = table.game.layout.coords[first], table.game.layout.coords[second]
    return abs(a - c) + abs(b - d) == 1


def _run_words(table: JurassicSnackTable, run: list[str], whole: bool) -> str:
    """Squares side by side holding the same thing (empty, or grass): one, two, several, or the whole line."""
    kind = table.game.content(run[0])
    first, last = table.square_words(run[0]), table.square_words(run[-1])
    if whole and len(run) > 1:
        return table.text(f"row_{kind}_all")
    if len(run) == 1:
        return table.text("row_empty_one", square=first) if kind == EMPTY else table.text(
            "row_item", square=first, content=table.content_words(run[0]))
    return table.text(f"row_{kind}_{'two' if len(run) == 2 else 'run'}", first=first, last=last)


@QUERIES.answers("empty_squares")
def empty_squares(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    table.session.say_text(empty_squares_words(table))


@QUERIES.answers("meadow")
def meadow(table: JurassicSnackTable, slots: dict[str, Any]) -> None:
    """The whole area as it is now, row by row from the north."""
    layout = table.game.layout
    rows = sorted({layout.coords[s][1] for s in layout.squares}, reverse=True)
    table.say("meadow", rows=" ".join(table.text("meadow_row", line=row + 1, content=line_words(table, row, 1))
                                      for row in rows))


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
    """Where the piece on a square would stop going one way (whoever's it is, whoever's turn it is); on a square
    with no piece, where a Diplo (or the piece named) leaving from it would stop."""
    square, direction = table.square_from(slots), slots.get("direction")
    game = table.game
    if square is None or direction is None:
        table.say("which_square", player=game.players[game.player])
        return
    if square not in game.layout.coords:
        table.session.say_text(table.reason_words(Reason("js_unknown_square", {"value": square})))
        return
    found = game.content(square)
    on_it = found in (*COLORS, TREX)
    piece = (TREX if found == TREX else DIPLO) if on_it else str(slots.get("piece") or DIPLO)
    slide = game.slide(square, str(direction), piece)
    params = {"piece": piece, "color": found, "square": square, "direction": direction, "found": found,
              "blocker": slide.blocker, "target": slide.target}
    if slide.target is None:
        if on_it:
            table.session.say_text(table.reason_words(Reason("js_blocked", params)))
        else:
            table.say("blocked_from_empty", **table.param_words(params))
        return
    if slide.enters_blocker:
        what = table.text("stops_eat" if slide.blocker == GRASS else "stops_chase",
                          color=table.text(f"colors.{slide.blocker}") if slide.blocker in COLORS else "")
    else:
        what = table.text("stops_plain", blocker=table.text(f"contents.{slide.blocker}"))
    table.say("stops" if on_it else "stops_from_empty", **table.param_words(params), what=what)


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
        table.session.say_text(effect_choices(table))
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
