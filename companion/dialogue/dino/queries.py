"""What players may ask in the middle of any Dino question: the meteor, the nests, a player's eggs, where the
pawns are, the barriers, how far a pawn may go, the scores, whose turn it is, where the game stands; advice, and
what a player played last. In solo a bot's eggs face down and its score stay unsaid until the end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.dialogue.turn import SHARED_QUERIES, Queries
from companion.games.common import OVER, Reason
from companion.games.dino.engine import PENALTIES, PawnView
from companion.games.dino.ids import POINTS_PER_TURN

if TYPE_CHECKING:
    from companion.dialogue.dino.table import DinoTable

QUERIES = Queries(SHARED_QUERIES)


@QUERIES.answers("meteor_state")
def meteor_state(table: DinoTable, slots: dict[str, Any]) -> None:
    game = table.game
    if game.meteor_left == 0:  # fallen: the pawns left on the board counted, or the game over
        table.say("meteor_state_counting" if game.phase == PENALTIES else "meteor_state_fallen",
                  total=game.meteor_total)
        return
    table.say("meteor_state", left=game.meteor_left, travelled=game.meteor_travelled, total=game.meteor_total)


@QUERIES.answers("nest_state")
def nest_state(table: DinoTable, slots: dict[str, Any]) -> None:
    nests = table.game.nests()
    colours = [slots["colour"]] if slots.get("colour") in nests else list(nests)
    if slots.get("colour") is not None and slots["colour"] not in nests:
        table.refuse(Reason("dino_unknown_egg_colour", {"value": slots["colour"], "colours": list(nests)}))
        return
    parts = [table.text("nest", colour=c, square=nests[c][0], eggs=nests[c][1]) for c in colours]
    table.session.say_text(" ".join(parts))


@QUERIES.answers("egg_state")
def egg_state(table: DinoTable, slots: dict[str, Any]) -> None:
    player = table.player_said(slots.get("player"), table.game.current_player)
    if player is None:
        return
    eggs = table.game.eggs(player)
    name = table.game.players[player]
    if not eggs:
        table.say("no_eggs", player=name)
        return
    if face_down(table, player):  # the rules keep all but the last face down
        table.say("solo_eggs_hidden", player=name, count=len(eggs), colour=eggs[-1])
        return
    counts = [table.text("egg_count", colour=c, count=eggs.count(c))
              for c in sorted(set(eggs), key=eggs.index)]
    table.say("eggs", player=name, count=len(eggs), detail=table.session.catalog.join(counts),
              last=table.session.catalog.name("colours", eggs[-1]))


def face_down(table: DinoTable, player: int) -> bool:
    """Whether a bot of a solo game holds eggs face down that the player may not be told of (before the end)."""
    return table.seats.is_bot(player) and table.game.phase != OVER and len(table.game.eggs(player)) > 1


@QUERIES.answers("pawn_state")
def pawn_state(table: DinoTable, slots: dict[str, Any]) -> None:
    game = table.game
    if slots.get("square") is not None:
        view = game.occupant(slots["square"])
        if view is None:
            table.say("square_empty", square=slots["square"])
        else:
            table.session.say_text(table.pawn_line(view))
        return
    players: Sequence[int | None]
    if slots.get("colour") is not None and game.player_of_colour(slots["colour"]) is not None:
        players = [game.player_of_colour(slots["colour"])]
    else:
        named = table.player_said(slots.get("player"), None)
        if slots.get("player") is not None and named is None:
            return
        players = range(len(game.players)) if named is None else [named]
    table.session.say_text(" ".join(table.pawn_line(view) for p in players for view in game.pawns(p)))


@QUERIES.answers("barrier_state")
def barrier_state(table: DinoTable, slots: dict[str, Any]) -> None:
    borders = [table.text("border", first=a, second=b) for a, b in table.game.setup.barriers]
    table.say("barriers", count=len(borders), borders=table.session.catalog.join(borders))


@QUERIES.answers("reach_query")
def reach_query(table: DinoTable, slots: dict[str, Any]) -> None:
    game = table.game
    player = game.current_player
    pawns = [k for k in game.in_play(player) if slots.get("pawn") in (None, k)]
    if not pawns:
        table.say("no_pawn_left_to_move", player=game.players[player])
        return
    for pawn in pawns:
        view = game.pawn(player, pawn)
        if slots.get("square") is not None:
            least = game.least_steps(player, pawn, slots["square"])
            table.say("reach_blocked" if least is None else "reach", colour=view.colour, from_square=view.square,
                      square=slots["square"], least=least or 0)
        else:
            say_nests_within_reach(table, view)


def say_nests_within_reach(table: DinoTable, view: PawnView) -> None:
    game = table.game
    near = [table.text("reach_nest", colour=colour, square=square, least=least)
            for colour, (square, left) in game.nests().items() if left
            for least in [game.least_steps(view.player, view.pawn, square)]
            if least is not None and least <= POINTS_PER_TURN and game.occupant(square) in (None, view)]
    key = "reach_nests" if near else "reach_no_nest"
    table.say(key, colour=view.colour, square=view.square, nests=table.session.catalog.join(near))


@QUERIES.answers("score")
def score(table: DinoTable, slots: dict[str, Any]) -> None:
    sheet = table.game.score()
    over = table.game.phase == OVER
    hidden = [index for index in range(len(sheet.players)) if face_down(table, index)]
    for index, entry in enumerate(sheet.players):
        if index in hidden:  # its eggs face down would tell
            eggs = table.game.eggs(index)
            table.say("solo_score_hidden", player=entry.name, count=len(eggs), colour=eggs[-1])
        else:
            table.session.say_text(table.score_line(entry, final=over))
    if not hidden:
        table.session.say(f"reasons.{sheet.reason.code}", **sheet.reason.params)


@QUERIES.answers("whose_turn")
def whose_turn(table: DinoTable, slots: dict[str, Any]) -> None:
    game = table.game
    if game.phase == PENALTIES:
        table.say("meteor_fell")
    else:
        table.say("whose_turn", player=game.players[game.current_player],
                  colour=game.colours[game.current_player])


@QUERIES.answers("status")
def status(table: DinoTable, slots: dict[str, Any]) -> None:
    whose_turn(table, slots)
    meteor_state(table, slots)
    score(table, slots)


@QUERIES.answers("advice")
def advice_query(table: DinoTable, slots: dict[str, Any]) -> None:
    """The best turn for the player whose turn it is, with its reason."""
    from companion.dialogue.dino.advice import advise

    advise(table)


@QUERIES.answers("played")
def played(table: DinoTable, slots: dict[str, Any]) -> None:
    """The last turn of the player named; without a name, the bots' (solo) or the other players'."""
    from companion.dialogue.dino.solo import say_played

    if slots.get("player") is not None:
        player = table.player_said(slots["player"], None)
        if player is not None:
            say_played(table, [player])
        return
    asker = table.game.current_player
    others = [seat for seat in range(len(table.game.players)) if seat != asker]
    say_played(table, [seat for seat in others if table.seats.is_bot(seat)] or others)
